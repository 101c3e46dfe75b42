"""`tf.keras` (Keras 3 API) on tfcompat's runtime. Submodules load on first use."""
import importlib as _importlib

__version__ = "3.15.1"          # the Keras API version tfcompat follows (TF 2.21 ships Keras 3.15)


def version():
    """`keras.version()`: the Keras version string."""
    return __version__


_SUBMODULES = ("layers", "models", "optimizers", "losses", "metrics", "activations", "initializers",
               "regularizers", "constraints", "callbacks", "datasets", "ops", "random", "utils", "backend",
               "mixed_precision", "saving", "preprocessing", "export", "config", "applications", "tree")


# top-level names of `keras` -> the submodule that defines them
_NAMES = {"Sequential": "models", "Model": "models", "Input": "layers", "Layer": "layers",
          "Variable": "variables", "KerasTensor": "engine.keras_tensor", "Optimizer": "optimizers",
          "Loss": "losses", "Metric": "metrics", "InputSpec": "layers", "DTypePolicy": "dtype_policy",
          "FloatDTypePolicy": "dtype_policy",
          "Initializer": "initializers", "Regularizer": "regularizers"}


def device(device_name):
    """`keras.device`: a context manager placing the ops and tensors made inside on `device_name` (on Keras's TF
    backend, `tf.device`)."""
    from tfcompat.framework.device import device as _device
    return _device(device_name)


def __getattr__(attr):
    owner = _NAMES.get(attr)
    if owner is not None:
        value = getattr(_importlib.import_module(f"{__name__}.{owner}"), attr)
        globals()[attr] = value
        return value
    from tfcompat._api import import_or_missing, missing
    if attr in _SUBMODULES:
        module = import_or_missing(f"{__name__}.{attr}", "keras", attr)
        globals()[attr] = module
        return module
    raise missing("keras", attr)
