"""Keras 3's object serialization dicts: `{"module", "class_name", "config", "registered_name"}`.

`deserialize_keras_object` only resolves names to tfcompat's own Keras classes/functions, registered
objects and `custom_objects`: it never imports a module named in a config, and Python lambdas stored in a
config are refused unless `safe_mode=False` (Keras's rule).
"""
import threading
import types

# tfcompat module prefix -> the Keras module name Keras 3 writes in configs
_MODULES = [
    ("tfcompat.keras.layers.legacy_layers", "keras._legacy.layers"),
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
# Keras classes exported under another name than their own (the config's class_name is the exported one; weight
# paths and auto names use the class's own)
_EXPORT_NAMES = {"GroupedQueryAttention": "GroupQueryAttention"}
# TF (not Keras) classes a Keras config may hold: TF's module names for them (`tf.random_normal_initializer`...)
_TF_MODULES = {"tfcompat.ops.init_ops": "tensorflow.python.ops.init_ops_v2"}
# classes Keras writes with a module/registered name of their own
_SPECIAL = {"Sequential": ("keras", None), "Functional": ("keras.src.models.functional", "Functional"),
            "Model": ("keras", None)}

LAMBDA_ERROR = ("Requested the deserialization of a Python lambda. This carries a potential risk of arbitrary "
                "code execution and thus it is disallowed by default. If you trust the source of the artifact, "
                "you can override this error by passing `safe_mode=False` to the loading function, or calling "
                "`keras.config.enable_unsafe_deserialization().")
LAMBDA_LAYER_ERROR = ("Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. "
                      "This carries a potential risk of arbitrary code execution and thus it is disallowed by "
                      "default. If you trust the source of the artifact, you can override this error by passing "
                      "`safe_mode=False` to the loading function, or calling "
                      "`keras.config.enable_unsafe_deserialization().")

_state = threading.local()


def keras_module(cls):
    mod = cls.__module__
    for prefix, name in _MODULES:
        if mod.startswith(prefix):
            return name
    return mod


def _is_tfcompat_keras(cls):
    return cls.__module__.startswith("tfcompat.keras.")


def _module_and_registered_name(cls):
    from tfcompat.keras.saving.object_registration import GLOBAL_CUSTOM_NAMES
    if _is_tfcompat_keras(cls):
        if cls.__name__ in _SPECIAL and cls.__module__.startswith("tfcompat.keras.models"):
            return _SPECIAL[cls.__name__]
        return keras_module(cls), None
    # Keras writes None for `__main__`
    module = None if cls.__module__ == "__main__" else _TF_MODULES.get(cls.__module__, cls.__module__)
    return module, GLOBAL_CUSTOM_NAMES.get(id(cls), cls.__name__)


def serialize_keras_object(obj):
    """The Keras 3 config dict of `obj` (None stays None; plain values pass through)."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, tuple):
        return tuple(serialize_keras_object(o) for o in obj)
    if isinstance(obj, list):
        return [serialize_keras_object(o) for o in obj]
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    special = _serialize_special(obj)
    if special is not None:
        return special
    if not hasattr(obj, "get_config"):
        if isinstance(obj, types.FunctionType) or (callable(obj) and hasattr(obj, "__name__")):
            return _serialize_function(obj)
        raise TypeError(f"Cannot serialize object {obj} of type {type(obj)}. To be serializable, a class must "
                        "implement the `get_config()` method.")
    module, registered_name = _module_and_registered_name(type(obj))
    config = obj.get_config()
    if not isinstance(config, dict):
        raise TypeError(f"The `get_config()` method of {obj} should return a dict. It returned: {config}")
    class_name = type(obj).__name__
    if registered_name is None:
        class_name = _EXPORT_NAMES.get(class_name, class_name)
    out = {"module": module, "class_name": class_name, "config": serialize_keras_object(config),
           "registered_name": registered_name}
    build_config = getattr(obj, "get_build_config", None)
    if build_config is not None:
        bc = build_config()
        if bc is not None:
            out["build_config"] = bc
    compile_config = getattr(obj, "get_compile_config", None)
    if compile_config is not None:
        cc = compile_config()
        if cc is not None:
            out["compile_config"] = serialize_keras_object(cc)
    return out


def _serialize_special(obj):
    """Keras's tagged forms of bytes, slices, Ellipsis, tensors, NumPy values and dtypes (None otherwise)."""
    import numpy as np
    from tfcompat.framework.dtypes import DType
    from tfcompat.framework.tensor import Tensor
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, slice):
        return {"class_name": "__slice__", "config": {k: serialize_keras_object(getattr(obj, k))
                                                      for k in ("start", "stop", "step")}}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, DType):
        return obj.name
    if isinstance(obj, Tensor):
        return {"class_name": "__tensor__", "config": {"value": obj.numpy().tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, np.ndarray) and obj.ndim > 0:
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, (np.ndarray, np.generic)):
        return obj.item()
    return None


def _serialize_function(fn):
    """Keras 3 writes every function as a `builtins.function` named by its registered name (a lambda as
    its marshalled bytecode, with Keras's warning)."""
    from tfcompat.keras.saving.object_registration import get_registered_name
    if fn.__name__ == "<lambda>":
        import warnings
        warnings.warn("The object being serialized includes a `lambda`. This is unsafe. In order to reload the "
                      "object, you will have to pass `safe_mode=False` to the loading function. Please avoid using "
                      "`lambda` in the future, and use named Python functions instead. This is the `lambda` being "
                      f"serialized: {_source(fn)}", stacklevel=3)
        return {"class_name": "__lambda__", "config": {"value": dump_function(fn)}}
    return {"module": "builtins", "class_name": "function", "config": get_registered_name(fn),
            "registered_name": "function"}


def _source(fn):
    import inspect
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return repr(fn)


def dump_function(fn):
    """Keras's `func_dump`: (base64 of the marshalled code, defaults, closure cell values)."""
    import codecs
    import marshal
    code = codecs.encode(marshal.dumps(fn.__code__), "base64").decode("ascii")
    closure = tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None
    return code, fn.__defaults__, closure


# -- deserialization ------------------------------------------------------------------------------------
def in_safe_mode():
    """The safe mode of the enclosing deserialization (None outside any)."""
    return getattr(_state, "safe_mode", None)


def set_global_safe_mode(safe_mode):
    """The safe mode every deserialization in this thread uses outside a `SafeModeScope`, whatever its
    `safe_mode` argument (`keras.config.enable_unsafe_deserialization` sets False)."""
    _state.safe_mode = safe_mode


class SafeModeScope:
    """Sets the safe mode seen by nested `from_config` calls."""

    def __init__(self, safe_mode=True):
        self.safe_mode = safe_mode

    def __enter__(self):
        self._prev = getattr(_state, "safe_mode", None)
        _state.safe_mode = self.safe_mode
        return self

    def __exit__(self, *exc):
        _state.safe_mode = self._prev
        return False


def _namespaces(module):
    """The tfcompat namespaces where a class written with Keras module `module` may live."""
    import importlib
    names = {"keras.layers": ["layers"], "keras.initializers": ["initializers"],
             "keras.regularizers": ["regularizers"], "keras.constraints": ["constraints"],
             "keras.optimizers": ["optimizers"], "keras.optimizers.schedules": ["optimizers.schedules"],
             "keras.losses": ["losses"], "keras.metrics": ["metrics"], "keras.activations": ["activations"],
             "keras": ["models", "layers"], "keras.models": ["models"]}.get(module)
    if names is None:
        names = ["layers", "models", "initializers", "regularizers", "constraints", "optimizers",
                 "optimizers.schedules", "losses", "metrics", "activations"]
    out = []
    for n in names:
        try:
            out.append(importlib.import_module(f"tfcompat.keras.{n}"))
        except ImportError:
            continue
    return out


def _lookup_builtin(name, module, obj_type):
    if obj_type == "class" and name in ("DTypePolicy", "FloatDTypePolicy"):
        from tfcompat.keras import dtype_policy
        return getattr(dtype_policy, name)
    if obj_type == "class" and name == "Functional":
        from tfcompat.keras.models import Functional
        return Functional
    if obj_type == "class" and module is not None and module.startswith("keras.src.ops."):
        from tfcompat.keras.engine.ops_layer import saved_operation
        return saved_operation(module, name)        # a Keras op of a functional model's graph
    for ns in _namespaces(module):
        try:
            obj = getattr(ns, name)
        except (AttributeError, NotImplementedError):
            continue
        if obj_type == "class" and isinstance(obj, type):
            return obj
        if obj_type == "function" and callable(obj) and not isinstance(obj, type):
            return obj
    return None


def retrieve_class_or_fn(name, registered_name, module, obj_type, full_config, custom_objects=None):
    """The class/function a config names: custom objects and registrations first, then tfcompat's Keras."""
    from tfcompat.keras.saving import object_registration as reg
    custom_objects = custom_objects or {}
    for key in (registered_name, name):
        if key is None:
            continue
        obj = reg.get_registered_object(key, custom_objects)
        if obj is not None:
            return obj
    if module is None or module == "keras" or module.startswith("keras.") or module.startswith("tfcompat."):
        obj = _lookup_builtin(name, module, obj_type)
        if obj is not None:
            return obj
    if module == "builtins" and obj_type == "function":
        obj = _lookup_builtin(name, None, "function")
        if obj is not None:
            return obj
        if ">" not in name:         # Keras <= 3.6 wrote a registered function by its bare name
            for key, obj in custom_objects.items():
                if key.endswith(">" + name):
                    return obj
    raise TypeError(f"Could not locate {obj_type} '{name}'. Make sure custom classes and functions are decorated "
                    "with `@keras.saving.register_keras_serializable()`. If they are already decorated, make sure "
                    "they are all imported so that the decorator is run before trying to load them. Full object "
                    f"config: {full_config}")


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, module_objects=None, **kwargs):
    """The object a Keras 3 config dict describes (Keras's `deserialize_keras_object`); `module_objects`
    (a namespace's name -> object table) also resolves bare names, as `activations.deserialize` does."""
    from tfcompat.keras.saving import object_registration as reg
    scoped = in_safe_mode()
    safe_mode = scoped if scoped is not None else safe_mode
    custom_objects = {**(custom_objects or {}), **reg.scope_objects(), **reg.GLOBAL_CUSTOM_OBJECTS}
    if config is None:
        return None
    if isinstance(config, str) and custom_objects.get(config) is not None:
        return custom_objects[config]
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(c, custom_objects, safe_mode) for c in config]
    if module_objects is not None:
        resolved = _from_module_objects(config, custom_objects, module_objects)
        if resolved is not _NONE:
            return resolved
    if isinstance(config, (str, int, float, bool)):
        return config
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {k: deserialize_keras_object(v, custom_objects, safe_mode) for k, v in config.items()}
    class_name = config["class_name"]
    inner = config["config"] if config["config"] is not None else {}
    special = _deserialize_special(class_name, inner, custom_objects, safe_mode)
    if special is not _NONE:
        return special
    module = config.get("module")
    registered_name = config.get("registered_name", class_name)
    if class_name == "function":
        if not isinstance(inner, str):
            raise TypeError(f"Expected 'config' to be a non-null str fora function classname,\n"
                            f"instead got {type(inner)}\nFull config: {config}")
        return retrieve_class_or_fn(inner, registered_name, module, "function", config, custom_objects)
    if not isinstance(inner, dict):
        raise TypeError(f"Expected 'config' to be a dict for {class_name},\ninstead got {type(inner)}\n"
                        f"Full config: {config}")
    cls = retrieve_class_or_fn(class_name, registered_name, module, "class", config, custom_objects)
    if not isinstance(cls, type):
        return cls
    if not hasattr(cls, "from_config"):
        raise TypeError(f"Unable to reconstruct an instance of '{class_name}' because the class is missing a "
                        f"`from_config()` method. Full object config: {config}")
    from tfcompat.keras.saving.object_registration import CustomObjectScope
    with CustomObjectScope(custom_objects), SafeModeScope(safe_mode):
        instance = _from_config(cls, inner, custom_objects, safe_mode, config)
        build_config = config.get("build_config")
        if build_config and not getattr(instance, "built", True):
            instance.build_from_config(build_config)
            instance.built = True
        compile_config = config.get("compile_config")
        if compile_config:
            instance.compile_from_config(compile_config)
            instance.compiled = True
    return instance


_NONE = object()


def _from_module_objects(config, custom_objects, module_objects):
    """Keras's `module_objects` lookup: a name (or a function/class config) in the namespace's table; a name
    it lacks comes back unchanged (_NONE: go on with the general rules)."""
    inner = None
    if isinstance(config, dict):
        if "class_name" not in config:
            raise ValueError(f"Unknown `config` as a `dict`, config={config}")
        inner = config.get("config")
        if config["class_name"] in custom_objects or config.get("registered_name") in custom_objects or \
                (isinstance(inner, str) and inner in custom_objects):
            return _NONE
        if config["class_name"] == "function":
            config = inner if config.get("module") == "builtins" else config.get("registered_name")
        else:
            if config.get("module", "_") is None:
                raise TypeError(f"Cannot deserialize object of type `{config['class_name']}`. If "
                                f"`{config['class_name']}` is a custom class, please register it using the "
                                "`@keras.saving.register_keras_serializable()` decorator.")
            config = config["class_name"]
    if not isinstance(config, str) or config not in module_objects:
        return config
    obj = module_objects[config]
    if isinstance(obj, type):
        return obj.from_config(inner or {})
    return obj


def _deserialize_special(class_name, inner, custom_objects, safe_mode):
    if class_name == "__lambda__":
        if safe_mode:
            raise ValueError(LAMBDA_ERROR)
        return load_function(inner["value"])
    if class_name == "__numpy__":
        import numpy as np
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__tensor__":
        from tfcompat.framework.convert import convert_to_tensor
        return convert_to_tensor(inner["value"], dtype=inner["dtype"])
    if class_name == "__bytes__":
        return inner["value"].encode("utf-8")
    if class_name == "__ellipsis__":
        return Ellipsis
    if class_name == "__slice__":
        return slice(*(deserialize_keras_object(inner[k], custom_objects, safe_mode)
                       for k in ("start", "stop", "step")))
    if class_name == "__keras_tensor__":
        from tfcompat.keras.engine.keras_tensor import KerasTensor
        kt = KerasTensor(inner["shape"], dtype=inner["dtype"])
        kt._pre_serialization_keras_history = inner["keras_history"]
        return kt
    return _NONE


def _from_config(cls, inner, custom_objects, safe_mode, full_config):
    try:
        return cls.from_config(drop_unsupported_defaults(cls, inner))
    except TypeError as e:
        raise TypeError(f"{cls} could not be deserialized properly. Please ensure that components that are Python "
                        "object instances (layers, models, etc.) returned by `get_config()` are explicitly "
                        f"deserialized in the model's `from_config()` method.\n\nconfig={full_config}.\n\n"
                        f"Exception encountered: {e}") from e


# keys Keras 3 writes that tfcompat layers may not take, with Keras's default (the value that changes nothing)
_DEFAULTS = {"quantization_config": None, "renorm_clipping": None, "renorm_momentum": 0.99, "lora_rank": None,
             "lora_alpha": None, "renorm": False, "oov_method": "floormod", "salt": None,
             "gptq_unpacked_column_size": None}


def drop_unsupported_defaults(cls, config):
    """`config` less the Keras keys `cls` does not take that hold Keras's default; any other value of such a
    key would change what the layer computes, so it is refused by name."""
    import inspect
    if not any(k in config for k in _DEFAULTS) or \
            not any(k.__module__.startswith("tfcompat.keras.layers") for k in cls.__mro__):
        return config
    accepted = set()
    for klass in cls.__mro__:
        if "__init__" in vars(klass):
            accepted.update(inspect.signature(klass.__init__).parameters)
    unsupported = [k for k, v in config.items() if k in _DEFAULTS and k not in accepted and v != _DEFAULTS[k]]
    if unsupported:
        raise NotImplementedError(f"tfcompat: {cls.__name__} does not support "
                                  + ", ".join(f"{k}={config[k]!r}" for k in unsupported))
    return {k: v for k, v in config.items() if k in accepted or k not in _DEFAULTS}


def layer_from_config(cls, config):
    """`Layer.from_config`: `cls(**config)` as Keras 3 does it (a plain DTypePolicy given by its name, Keras-only keys
    at their defaults dropped); what the constructor raises becomes Keras's deserialization TypeError
    (tfcompat's NotImplementedError for an unsupported argument passes through)."""
    config = dict(config)
    if "batch_input_shape" in config:
        config["batch_input_shape"] = tuple(config["batch_input_shape"])
    dtype = config.get("dtype")
    if isinstance(dtype, dict) and dtype.get("class_name") == "DTypePolicy":
        config["dtype"] = dtype.get("config", {}).get("name", dtype)
    try:
        return cls(**drop_unsupported_defaults(cls, config))
    except NotImplementedError:
        raise
    except Exception as e:
        raise TypeError(f"Error when deserializing class '{cls.__name__}' using config={config}.\n\n"
                        f"Exception encountered: {e}") from e


def lambda_from_config(config, custom_objects=None, safe_mode=None):
    """A `Lambda` layer's constructor arguments from its Keras 3 config: stored lambdas are rebuilt only when
    `safe_mode` (else the enclosing load's) is False; outside any load, safe (Keras fails closed)."""
    safe = (safe_mode if safe_mode is not None else in_safe_mode()) is not False
    for key in ("function", "output_shape", "mask"):
        fn = config.get(key)
        if isinstance(fn, dict) and fn.get("class_name") == "__lambda__":
            if safe:
                raise ValueError(LAMBDA_LAYER_ERROR)
            c = fn["config"]
            config[key] = load_function(c["code"], c.get("defaults"), c.get("closure"))
        elif key == "function" or isinstance(fn, dict):
            config[key] = deserialize_keras_object(fn, custom_objects)
    if isinstance(config.get("output_shape"), list) and \
            all(d is None or isinstance(d, int) for d in config["output_shape"]):
        config["output_shape"] = tuple(config["output_shape"])
    if "arguments" in config:
        config["arguments"] = deserialize_keras_object(config["arguments"], custom_objects)
    return config


def load_function(code, defaults=None, closure=None):
    """A Python function from Keras's `func_dump` (base64 marshal of its code); only with `safe_mode=False`."""
    import codecs
    import marshal
    import types
    if isinstance(code, (tuple, list)):
        code, defaults, closure = code
    raw = codecs.decode(code.encode("ascii"), "base64")
    code_obj = marshal.loads(raw)
    cells = tuple(types.CellType(v) for v in closure) if closure else None
    return types.FunctionType(code_obj, globals(), name=code_obj.co_name,
                              argdefs=tuple(defaults) if defaults else None, closure=cells)


def lookup_functions(kind, objects, names=None):
    """Keras's `serialize`, `deserialize` and `get` for a namespace of named objects (losses, metrics).

    `kind` names the objects in Keras's errors ("Could not interpret loss identifier: ..."),
    `objects` maps names to the namespace's classes/functions; `names` (default `objects`) is the table
    `deserialize` resolves bare names with, where Keras's differs (metrics: snake-case names give classes).
    """
    import inspect
    names = objects if names is None else names

    def serialize(obj):
        """Keras's serialized form (`serialize_keras_object`)."""
        return serialize_keras_object(obj)

    def deserialize(config, custom_objects=None):
        """The object a name or `serialize` dict describes."""
        if isinstance(config, str):
            _check_function_alias(config, names, custom_objects)
        return deserialize_keras_object(config, custom_objects=custom_objects, module_objects=names)

    def get(identifier):
        """The object for a name, a config dict or a callable (classes are instantiated)."""
        if identifier is None:
            return None
        if isinstance(identifier, dict):
            obj = deserialize(identifier)
        elif isinstance(identifier, str):
            obj = objects.get(identifier, None)
        else:
            obj = identifier
        if callable(obj):
            return obj() if inspect.isclass(obj) else obj
        raise ValueError(f"Could not interpret {kind} identifier: {identifier}")

    return serialize, deserialize, get


def _check_function_alias(name, module_objects, custom_objects):
    """Keras resolves a function found by name again under its public module (`keras.metrics` for the loss
    functions), by that name: an alias such as "mse" or "bce", which no module exports, raises Keras's error."""
    from tfcompat.keras.saving import object_registration as reg
    obj = module_objects.get(name)
    if obj is None or isinstance(obj, type) or getattr(obj, "__name__", name) == name:
        return
    if name in (custom_objects or {}) or name in reg.scope_objects() or name in reg.GLOBAL_CUSTOM_OBJECTS:
        return
    raise ValueError(f"Could not deserialize 'keras.metrics.{name}' because it is not a KerasSaveable subclass")
