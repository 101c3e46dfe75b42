"""Model configs in Keras 3's format: Sequential/Functional `get_config`/`from_config`, build and compile configs."""
import warnings

from tfcompat.keras.engine.functional import infer_output_shape
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.engine import naming
from tfcompat.keras.saving_utils import deserialize_keras_object, serialize_keras_object
from tfcompat.util import nest


def _shape_list(shape):
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape):
        return list(shape)
    return [_shape_list(s) for s in shape]


def _as_shape(shape):
    """JSON lists -> tuples (a list of shapes stays a list of tuples)."""
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape):
        return tuple(shape)
    return [_as_shape(s) for s in shape]


# -- serialization ------------------------------------------------------------------------------------------
def serialize_model(model):
    """`serialize_keras_object(model)` with Keras 3's `build_config`/`compile_config` entries."""
    from tfcompat.keras.models import Functional, Sequential
    if isinstance(model, Functional) and type(model).get_config is _model_get_config():
        config = functional_get_config(model)
        out = {"module": "keras.src.models.functional", "class_name": "Functional", "config": config,
               "registered_name": "Functional"}
        if type(model) is not Functional:
            out = serialize_keras_object(model)
            out["config"] = config
    else:
        out = serialize_keras_object(model)
    if isinstance(model, Sequential):
        _add_sequential_build_configs(model, out["config"])
        out["build_config"] = {"input_shape": out["config"].get("build_input_shape")}
    elif isinstance(model, Functional):
        out["build_config"] = {"input_shape": None}
    elif "build_config" not in out:
        shape = getattr(model, "_build_input_shape", None)
        if shape is not None:
            out["build_config"] = {"input_shape": _shape_list(shape)}
    out["compile_config"] = serialize_keras_object(model.get_compile_config() or {})    # last, as Keras writes it
    return out


def compile_config(model):
    """Keras's `get_compile_config()`: the recorded `compile()` arguments, serialized (the optimizer as the
    model's optimizer object); {} for a model never compiled."""
    config = getattr(model, "_compile_config", None) if getattr(model, "compiled", False) else None
    if not isinstance(config, dict):
        return {}
    config = dict(config)
    if getattr(model, "optimizer", None) is not None:
        config["optimizer"] = model.optimizer
    return serialize_keras_object(config)


def _model_get_config():
    from tfcompat.keras.models import Model
    return Model.get_config


def _add_sequential_build_configs(model, config):
    if model._input_layer is None:
        return
    shape = tuple(model._input_layer.batch_shape)
    config.setdefault("build_input_shape", list(shape))
    layer_configs = config["layers"][1:]
    for layer, lc in zip(model._stack, layer_configs):
        if layer.get_build_config() is not None:     # (a layer built at construction has none, as in Keras)
            lc.setdefault("build_config", {"input_shape": list(shape)})
        try:
            shape = tuple(layer.compute_output_shape(shape))
        except NotImplementedError:     # a custom layer need not implement it: its call gives the shape
            shape = tuple(infer_output_shape(layer, shape))


def _implicit_call_kwargs(node):
    """The arguments Keras 3's `Layer.__call__` adds to a call on KerasTensors, which its node records: `training`
    at a non-None default of `call`'s signature, and, for one tensor argument and a `call` taking `mask`, that
    argument's mask (None when it has none; a mask KerasTensor is left out: tfcompat's masks have no node)."""
    import inspect
    layer = node.layer
    if not node.args or not isinstance(node.args[0], KerasTensor):
        return {}       # (TF 2.21 records neither for a layer called on a list, such as Attention)
    try:
        params = inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return {}
    extra = {}
    if "training" in params and "training" not in node.kwargs:
        default = params["training"].default
        if default is not inspect.Parameter.empty and default is not None:
            extra["training"] = default
    tensor_args = [a for a in (*node.args, *node.kwargs.values())
                   if any(isinstance(t, KerasTensor) for t in nest.flatten(a))]
    # (TF 2.21 records no mask for a call given keyword arguments, such as training=True)
    if len(tensor_args) == 1 and "mask" in params and not node.kwargs:
        masks = nest.map_structure(lambda t: getattr(t, "_keras_mask", None) if isinstance(t, KerasTensor) else None,
                                   tensor_args[0])
        if all(m is None for m in nest.flatten(masks)):
            extra["mask"] = masks
    return extra


def functional_get_config(model):
    """Keras 3's functional config: layers with their `inbound_nodes`, `input_layers`, `output_layers`."""
    from tfcompat.keras.engine.ops_layer import is_operation
    model_nodes = {id(n) for n in model._nodes}
    node_index = {}
    operations = model.operations          # layers and the Keras ops Python operators recorded, in Keras's order
    for layer in operations:
        own = [n for n in layer.__dict__.get("_inbound_nodes", []) if id(n) in model_nodes or _is_input(layer)]
        for i, n in enumerate(own):
            node_index[id(n)] = i

    def history(kt):
        node, i = kt._history
        return [node.layer.name, node_index.get(id(node), 0), i]

    def ser(x):
        if isinstance(x, KerasTensor):
            return {"class_name": "__keras_tensor__",
                    "config": {"shape": tuple(x._shape), "dtype": x.dtype, "keras_history": history(x)}}
        if isinstance(x, (list, tuple)):        # as Keras's config: a call's args a tuple, a list argument a list
            return type(x)(ser(v) for v in x) if type(x) in (list, tuple) else [ser(v) for v in x]
        if isinstance(x, dict):
            return {k: ser(v) for k, v in x.items()}
        return serialize_keras_object(x)

    layers = []
    for layer in operations:
        own = [n for n in layer._inbound_nodes if id(n) in model_nodes]
        lc = layer.keras_config(own) if is_operation(layer) else serialize_keras_object(layer)
        # (a layer built at construction, as Keras's layers without state, has no build config)
        lc["name"] = layer.name
        lc["inbound_nodes"] = [] if _is_input(layer) else [
            {"args": ser(tuple(n.args)), "kwargs": ser({**n.kwargs, **_implicit_call_kwargs(n)})}
            for n in layer._inbound_nodes if id(n) in model_nodes]
        layers.append(lc)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": nest.map_structure(history, model._inputs_struct),
            "output_layers": nest.map_structure(history, model._outputs_struct)}


def ser_shape(x):
    if isinstance(x, KerasTensor):
        return list(x._shape)
    return [ser_shape(v) for v in x]


def _is_input(layer):
    from tfcompat.keras.layers import InputLayer
    return isinstance(layer, InputLayer)


# -- deserialization ----------------------------------------------------------------------------------------
def sequential_from_config(cls, config, custom_objects=None):
    """A Sequential model from Keras 3 (or Keras 2) config."""
    layers = [deserialize_keras_object(lc, custom_objects) for lc in config.get("layers", [])]
    model = cls(name=config.get("name"), trainable=config.get("trainable", True))
    for layer in layers:
        model.add(layer, rebuild=False)
    shape = config.get("build_input_shape")
    if model._input_layer is not None and model._stack:
        model.build(model._input_layer.batch_shape)
    elif shape is not None and model._stack:
        model.build(_as_shape(shape))
    return model


def functional_from_config(cls, config, custom_objects=None):
    """A Functional model from Keras 3's (or Keras 2's) functional config: recreate layers, replay nodes."""
    created, pending = {}, []
    tensors = {}
    for lc in config["layers"]:
        name = lc.get("name") or lc["config"]["name"]
        nodes = lc.get("inbound_nodes", [])
        # the whole entry, as Keras passes it (errors quote it); built from its build_config before its calls
        layer = deserialize_keras_object(lc, custom_objects)
        created[name] = layer
        if _is_input(layer):
            tensors[(name, 0, 0)] = layer.output
        for node in nodes:
            pending.append((name, layer, node))
    counts = {}     # the config's layer name -> nodes replayed (histories name the layers as the config does,
    while pending:  # whatever name a layer whose get_config omits `name` gets when recreated)
        remaining = []
        for name, layer, node in pending:
            call = _node_call(node, tensors)
            if call is None:
                remaining.append((name, layer, node))
                continue
            args, kwargs = call
            out = layer(*args, **kwargs)
            idx = counts.get(name, 0)
            counts[name] = idx + 1
            for j, t in enumerate(nest.flatten(out)):
                tensors[(name, idx, j)] = t
        if len(remaining) == len(pending):
            raise ValueError(f"Cannot deserialize functional model: unresolvable nodes for layers "
                             f"{[name for name, _, _ in remaining]}")
        pending = remaining

    def get(h):
        return tensors[(h[0], h[1], h[2])]

    inputs = _map_history(config["input_layers"], get)
    outputs = _map_history(config["output_layers"], get)
    from tfcompat.keras.models import Functional
    target = cls if cls is not None and issubclass(cls, Functional) else Functional
    return target(inputs, outputs, name=config.get("name"), trainable=config.get("trainable", True))


def _is_history(x):
    return isinstance(x, (list, tuple)) and len(x) == 3 and isinstance(x[0], str) and isinstance(x[1], int)


def _map_history(struct, fn):
    if _is_history(struct):
        return fn(struct)
    if isinstance(struct, dict):
        return {k: _map_history(v, fn) for k, v in struct.items()}
    return [_map_history(s, fn) for s in struct]


def _node_call(node, tensors):
    """(args, kwargs) of a serialized node with tensors resolved, or None while an input is missing."""
    missing = []

    def res(x):
        if isinstance(x, dict) and x.get("class_name") == "__keras_tensor__":
            naming.unique_name("keras_tensor")      # Keras revives each as a KerasTensor of its own first
            key = tuple(x["config"]["keras_history"])
            if key not in tensors:
                missing.append(key)
                return None
            return tensors[key]
        if isinstance(x, (list, tuple)):        # JSON gives lists; get_config's own dicts keep Keras's tuples
            return type(x)(res(v) for v in x) if type(x) in (list, tuple) else [res(v) for v in x]
        if isinstance(x, dict):
            return {k: res(v) for k, v in x.items()}
        return x

    if isinstance(node, dict):                       # Keras 3: {"args": [...], "kwargs": {...}}
        args, kwargs = res(node.get("args", [])), res(node.get("kwargs", {}))
    else:                                            # Keras 2: [[layer, node, tensor, kwargs], ...]
        inputs = []
        kwargs = {}
        for entry in node:
            key = (entry[0], entry[1], entry[2])
            if key not in tensors:
                missing.append(key)
                continue
            inputs.append(tensors[key])
            if len(entry) > 3 and entry[3]:
                kwargs.update(entry[3])
        args = [inputs[0] if len(inputs) == 1 else inputs]
    if missing:
        return None
    return tuple(args), dict(kwargs)


def model_from_config(cls, config, custom_objects=None):
    """`Model.from_config`: functional configs rebuild the graph; Sequential its stack; others `cls(**config)`."""
    from tfcompat.keras.models import Sequential
    if issubclass(cls, Sequential):
        return sequential_from_config(cls, config, custom_objects)
    if "layers" in config and "input_layers" in config and "output_layers" in config:
        return functional_from_config(cls, config, custom_objects)
    try:
        return cls(**config)
    except TypeError as e:
        raise TypeError(f"Unable to revive model from config. When overriding the `get_config()` method, make "
                        f"sure that the returned config contains all items used as arguments in the  constructor "
                        f"to {cls}, which is the default behavior. You can override this default behavior by "
                        f"defining a `from_config(cls, config)` class method to specify how to create an instance "
                        f"of {cls.__name__} from its config.\n\nReceived config={config}\n\nError encountered "
                        f"during deserialization: {e}") from e


def build_from_config(model, build_config):
    """`Model.build_from_config`: a Sequential builds its stack; a subclassed model is called on zeros of the
    saved input shape (Keras 3); a functional model is built already."""
    shape = build_config.get("input_shape") if build_config else None
    if shape is None:
        return
    shape = _as_shape(shape)
    from tfcompat.keras.models import Functional, Sequential
    if isinstance(model, Sequential):
        model.build(shape)
    elif not isinstance(model, Functional):
        import numpy as np

        def zeros(s):
            return np.zeros([1 if d is None else d for d in s], dtype=model.compute_dtype)
        model(zeros(shape) if isinstance(shape, tuple) else [zeros(s) for s in shape])


def compile_from_config(model, config):
    """Keras's `compile_from_config`: re-compiles a loaded model with its saved compile config (a custom
    `compile()` is not called: Keras warns instead), then builds the optimizer."""
    from tfcompat.keras.models import Model
    if type(model).compile is not Model.compile:
        warnings.warn("`compile()` was not called as part of model loading because the model's `compile()` method "
                      "is custom. All subclassed Models that have `compile()` overridden should also override "
                      "`get_compile_config()` and `compile_from_config(config)`. Alternatively, you can call "
                      "`compile()` manually after loading.", stacklevel=3)
        return
    model.compile(**deserialize_keras_object(config))
    opt = getattr(model, "optimizer", None)
    if opt is not None and model.built and not getattr(opt, "built", True):
        opt.build(model.trainable_variables)
