"""`loaded.signatures`: TF's `_SignatureMap`, a read-only mapping of signature name -> concrete function."""
from collections.abc import Mapping


class _SignatureMap(Mapping):
    """The signatures of a loaded SavedModel; printed as TF prints it, `_SignatureMap({...})`."""

    def __init__(self, signatures):
        self._signatures = dict(signatures)

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self):
        return len(self._signatures)

    def __repr__(self):
        return f"_SignatureMap({self._signatures})"
