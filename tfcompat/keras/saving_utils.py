"""Keras 3's object serialization dicts: `{"module", "class_name", "config", "registered_name"}`."""

# tfcompat module prefix -> the Keras module name Keras 3 writes in configs
_MODULES = [
    ("tfcompat.keras.layers", "keras.layers"),
    ("tfcompat.keras.initializers", "keras.initializers"),
    ("tfcompat.keras.regularizers", "keras.regularizers"),
    ("tfcompat.keras.constraints", "keras.constraints"),
    ("tfcompat.keras.optimizers.schedules", "keras.optimizers.schedules"),
    ("tfcompat.keras.optimizers", "keras.optimizers"),
    ("tfcompat.keras.losses", "keras.losses"),
    ("tfcompat.keras.metrics", "keras.metrics"),
    ("tfcompat.keras.models", "keras.src.models"),
]


def keras_module(cls):
    mod = cls.__module__
    for prefix, name in _MODULES:
        if mod.startswith(prefix):
            return name
    return mod


def serialize_keras_object(obj):
    """The Keras 3 config dict of `obj` (None stays None; plain values pass through)."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(o) for o in obj]
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize object {obj!r} of type {type(obj)}: it has no get_config()")
    out = {"module": keras_module(type(obj)), "class_name": type(obj).__name__, "config": obj.get_config(),
           "registered_name": getattr(type(obj), "_registered_name", None)}
    build_config = getattr(obj, "get_build_config", None)
    if build_config is not None:
        bc = build_config()
        if bc is not None:
            out["build_config"] = bc
    return out
