"""`keras.datasets`: Keras's small datasets, cached under `$KERAS_HOME/datasets` (default ~/.keras/datasets)."""
import importlib as _importlib

_NAMES = ("mnist", "fashion_mnist", "cifar10", "cifar100", "imdb", "boston_housing", "california_housing", "reuters")


def __getattr__(attr):
    if attr in _NAMES:
        module = _importlib.import_module(f"{__name__}.{attr}")
        globals()[attr] = module
        return module
    raise AttributeError(f"module 'keras.datasets' has no attribute '{attr}'")
