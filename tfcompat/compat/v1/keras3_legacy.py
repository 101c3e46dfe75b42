"""`tf.compat.v1.layers` and `tf.compat.v1.nn.rnn_cell` as TF 2.21 has them with Keras 3.

TF routes both to Keras's `__internal__.legacy` packages through a `KerasLazyLoader`; Keras 3 has no TF1 layers,
so the loader exists but every attribute read raises `AttributeError("`<name>` is not available with Keras 3.")`
(`hasattr` is False). Its repr is `<KerasLazyLoader>` until the first attribute read initialises it.
"""
import types

_KERAS_MODULE = "keras._tf_keras.keras.__internal__.legacy."


class KerasLazyLoader(types.ModuleType):
    """The Keras-3 `KerasLazyLoader` of a TF1 legacy Keras submodule (`layers`, `rnn_cell`)."""

    def __init__(self, local_name):
        super().__init__(_KERAS_MODULE + local_name)
        object.__setattr__(self, "_tfll_local_name", local_name)
        object.__setattr__(self, "_tfll_initialized", False)

    def __getattr__(self, item):
        object.__setattr__(self, "_tfll_initialized", True)
        raise AttributeError(f"`{item}` is not available with Keras 3.")

    def __getattribute__(self, item):
        if item in ("__class__", "__dict__", "__getattr__", "_tfll_local_name", "_tfll_initialized", "__repr__",
                    "__dir__", "__reduce__", "__reduce_ex__"):
            return object.__getattribute__(self, item)
        # TF's loader resolves every other name (even `__name__`, `__doc__`) through the missing Keras 3 module
        return type(self).__getattr__(self, item)

    def __repr__(self):
        if object.__getattribute__(self, "_tfll_initialized"):
            name = object.__getattribute__(self, "_tfll_local_name")
            return f"<KerasLazyLoader (keras_3) {_KERAS_MODULE}{name} as {name} mode=v1>"
        return "<KerasLazyLoader>"

    def __dir__(self):
        object.__setattr__(self, "_tfll_initialized", True)
        raise ModuleNotFoundError("No module named 'keras._tf_keras.keras.__internal__'")


layers = KerasLazyLoader("layers")
rnn_cell = KerasLazyLoader("rnn_cell")
