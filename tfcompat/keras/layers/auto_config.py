"""Keras 3's automatic config: a layer class without its own `get_config` is saved with its constructor's arguments."""
import inspect

from tfcompat.util import nest

_PLAIN = (str, int, float, bool, type(None))
_EXAMPLE = """

class CustomLayer(keras.layers.Layer):
    def __init__(self, arg1, arg2, **kwargs):
        super().__init__(**kwargs)
        self.arg1 = arg1
        self.arg2 = arg2

    def get_config(self):
        config = super().get_config()
        config.update({
            "arg1": self.arg1,
            "arg2": self.arg2,
        })
        return config
"""
_ERRORS = {
    "values": ("\nObject {} was created by passing\nnon-serializable argument values in `__init__()`,\nand therefore the "
               "object must override `get_config()` in\norder to be serializable. Please implement `get_config()`."
               "\n\nExample:\n"),
    "variadic": ("\nObject {} was created by passing\npositional only or variadic positional arguments (e.g.,\n`*args`) "
                 "to `__init__()`, which is not supported by the\nautomatic config generation. Please remove all "
                 "positional\nonly and variadic arguments from `__init__()`\nor override `get_config()` and "
                 "`from_config()` to make\nthe object serializatble.\n\nExample:\n"),
}


def record(cls, args, kwargs):
    """The constructor arguments of `cls(*args, **kwargs)` (defaults included, `name` left out) when all are
    plain values, else why not: "variadic" or "values" (Keras's two errors)."""
    signature = inspect.signature(cls.__init__)
    params = list(signature.parameters.values())
    try:
        bound = signature.bind(None, *args, **kwargs)
    except TypeError:
        return "values"
    if any(p.kind is inspect.Parameter.POSITIONAL_ONLY for p in params[1:]):
        return "variadic"
    bound.apply_defaults()
    config = dict(bound.arguments)
    for p in params:
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            config.update(config.pop(p.name, {}))
    config.pop(params[0].name)
    config.pop("name", None)
    for p in params:
        if p.kind is inspect.Parameter.VAR_POSITIONAL and config.pop(p.name, ()):
            return "variadic"
    try:
        if not all(isinstance(v, _PLAIN) for v in nest.flatten(config)):
            return "values"
    except TypeError:
        return "values"
    return config


def base_config(layer):
    """`{"name", **recorded arguments}`, Keras's `Operation.get_config()` for a class without `get_config`
    (no `name` when `__init__` takes neither `name` nor `**kwargs`)."""
    auto = layer.__dict__.get("_auto_config")
    config = {"name": layer.name}
    if auto is None:
        return config
    if isinstance(auto, str):
        raise NotImplementedError(_ERRORS[auto].format(type(layer).__name__) + _EXAMPLE)
    config.update(auto)
    params = inspect.signature(type(layer).__init__).parameters
    if "name" not in params and not ("kwargs" in params and params["kwargs"].kind is inspect.Parameter.VAR_KEYWORD):
        config.pop("name", None)
    return config


def uses_auto_config(cls):
    """Whether `cls` keeps Keras's default `get_config` (so its instances record their arguments)."""
    return getattr(cls.get_config, "_keras_auto_config", False)
