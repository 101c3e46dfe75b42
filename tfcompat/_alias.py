"""Module aliases: `import tensorflow` (and `keras`, `tf_keras`) resolve to tfcompat.

The alias names are bound to the *same* module objects as their targets, so
`from tensorflow.keras import layers` and `tf.keras.layers` are one module.
"""
import importlib
import importlib.abc
import importlib.util
import sys

# `tensorflow.keras` is TF's view of Keras (only tf.keras's names); `keras` is the whole Keras 3 API
ALIASES = {"tensorflow.keras": "keras", "tensorflow": "tfcompat", "keras": "tfcompat.keras",
           "tf_keras": "tfcompat.keras"}


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, aliases):
        self.aliases = aliases
        self._real_spec = {}

    def _target(self, fullname):
        for alias, target in self.aliases.items():
            if fullname == alias or fullname.startswith(alias + "."):
                return target + fullname[len(alias):]
        return None

    def find_spec(self, fullname, path=None, target=None):
        if self._target(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        target = self._target(spec.name)
        if spec.name == "tensorflow.keras" or spec.name.startswith("tensorflow.keras."):
            from tfcompat._tf_keras import resolve
            module = resolve(target)
            self._real_spec[spec.name] = None
            return module
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as e:
            parent, _, attr = target.rpartition(".")
            if e.name != target or not parent:
                raise
            try:
                module = getattr(importlib.import_module(parent), attr)
            except AttributeError:
                raise ModuleNotFoundError(
                    f"No module named '{spec.name}': tfcompat does not provide {target} "
                    f"(see compat_matrix.md for what is supported)", name=spec.name) from None
        self._real_spec[spec.name] = getattr(module, "__spec__", None)
        return module

    def exec_module(self, module):
        spec = self._real_spec.pop(module.__name__, None) if hasattr(module, "__name__") else None
        try:
            module.__spec__ = spec
        except AttributeError:
            pass


_installed = []


def install(aliases=None):
    """Makes the alias imports resolve to tfcompat in this process (idempotent)."""
    if _installed:
        return
    aliases = dict(aliases or ALIASES)
    tfcompat = importlib.import_module("tfcompat")
    for alias, target in aliases.items():
        if alias in sys.modules and getattr(sys.modules[alias], "__name__", "") != target:
            raise RuntimeError(f"'{alias}' was imported before tfcompat's aliases were installed")
    sys.modules["tensorflow"] = tfcompat
    finder = _AliasFinder(aliases)
    sys.meta_path.insert(0, finder)
    _installed.append(finder)
