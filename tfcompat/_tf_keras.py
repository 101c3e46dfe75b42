"""`tf.keras`: tfcompat's Keras as TF 2.21 exposes it (Keras 3's `keras._tf_keras.keras`).

`import keras` gives the whole Keras 3 API (`tfcompat.keras`); `tf.keras` shows
only the names TF 2.21's `tf.keras` has (from the bundled API list), so e.g.
`tf.keras.losses.mean_squared_error` is an AttributeError as in TF while
`keras.losses.mean_squared_error` works. The objects are the same either way.
"""
import importlib
import sys
import types

from tfcompat._api import missing, tf_api_names


class KerasView(types.ModuleType):
    """A read-only view of a tfcompat.keras module restricted to TF's `tf.keras` names."""

    def __init__(self, path, target):
        super().__init__(VIEW_ROOT + path[len("keras"):], f"TF's `tf.{path}` namespace.")
        self._tf_path = path
        self._target = target
        self.__path__ = []        # a package, so `import tensorflow.keras.layers` works through the alias hook
        if path == "keras":
            self.__version__ = target.__version__

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        full = f"{self._tf_path}.{attr}"
        if full not in tf_api_names():
            raise AttributeError(f"module 'keras._tf_keras.{self._tf_path}' has no attribute '{attr}'")
        try:
            value = getattr(self._target, attr)
        except AttributeError:
            if full not in TF_ONLY_NAMES:
                raise missing(self._tf_path, attr) from None
            value = getattr(importlib.import_module(TF_ONLY_NAMES[full]), attr)
        if isinstance(value, types.ModuleType):
            value = view(full, importlib.import_module(TF_ONLY[full]) if full in TF_ONLY else value)
        self.__dict__[attr] = value
        return value

    def __dir__(self):
        prefix = self._tf_path + "."
        return sorted(n[len(prefix):] for n in tf_api_names() if n.startswith(prefix) and "." not in n[len(prefix):])


# tf.keras modules that hold more than Keras 3's module of the same name (TF keeps Keras's legacy functions there)
TF_ONLY = {"keras.backend": "tfcompat.keras.legacy_backend"}
# names only tf.keras has (Keras 3's legacy layers, absent from `keras.layers`), and the module defining each
TF_ONLY_NAMES = {"keras.layers.RandomHeight": "tfcompat.keras.layers.preprocessing.augmentation_geometry",
                 "keras.layers.RandomWidth": "tfcompat.keras.layers.preprocessing.augmentation_geometry"}
VIEW_ROOT = "tfcompat._keras_view"     # sys.modules name of the `tf.keras` view (and its submodules)


def view(path, target):
    name = VIEW_ROOT + path[len("keras"):]
    mod = sys.modules.get(name)
    if mod is None:
        mod = sys.modules[name] = KerasView(path, target)
    return mod


def tf_keras():
    return view("keras", importlib.import_module("tfcompat.keras"))


def resolve(dotted):
    """The view for `keras.<a>.<b>` (as `tensorflow.keras.a.b` imports it)."""
    module = tf_keras()
    for part in dotted.split(".")[1:]:
        module = getattr(module, part)
    return module
