"""`tf.keras` (Keras 3 API) on tfcompat's runtime. Submodules load on first use."""
import importlib as _importlib

_SUBMODULES = ("layers", "models", "optimizers", "losses", "metrics", "activations", "initializers",
               "regularizers", "constraints", "callbacks", "datasets", "ops", "random", "utils", "backend",
               "mixed_precision", "saving", "preprocessing", "applications")


# top-level names of `keras` -> the submodule that defines them
_NAMES = {"Sequential": "models", "Model": "models", "Input": "layers", "Layer": "layers",
          "Variable": "variables", "KerasTensor": "engine.keras_tensor", "Optimizer": "optimizers",
          "Loss": "losses", "Metric": "metrics", "InputSpec": "layers", "DTypePolicy": "layers.base"}


def __getattr__(attr):
    owner = _NAMES.get(attr)
    if owner is not None:
        value = getattr(_importlib.import_module(f"{__name__}.{owner}"), attr)
        globals()[attr] = value
        return value
    if attr in _SUBMODULES:
        module = _importlib.import_module(f"{__name__}.{attr}")
        globals()[attr] = module
        return module
    from tfcompat._api import missing
    raise missing("keras", attr)
