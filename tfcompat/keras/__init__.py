"""`tf.keras` (Keras 3 API) on tfcompat's runtime. Submodules load on first use."""
import importlib as _importlib

_SUBMODULES = ("layers", "models", "optimizers", "losses", "metrics", "activations", "initializers",
               "regularizers", "constraints", "callbacks", "datasets", "ops", "random", "utils", "backend",
               "mixed_precision", "saving", "preprocessing", "applications")


def __getattr__(attr):
    if attr in _SUBMODULES:
        module = _importlib.import_module(f"{__name__}.{attr}")
        globals()[attr] = module
        return module
    from tfcompat._api import missing
    raise missing("keras", attr)
