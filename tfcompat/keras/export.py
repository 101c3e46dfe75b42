"""`keras.export`: `ExportArchive`, Keras 3's SavedModel artifact for inference (endpoints and variables), and the
writer of `Model.export(format="tf_saved_model")`."""
from tfcompat.eager.function import Function
from tfcompat.framework import dtypes
from tfcompat.framework.variables import Variable
from tfcompat.ops.misc_ops import TensorSpec
from tfcompat.util import nest

DEFAULT_ENDPOINT_NAME = "serve"


def _tensor_spec(x):
    """A TensorSpec from a TensorSpec, `keras.InputSpec`, KerasTensor or tensor (batch dimension None but for specs)."""
    from tfcompat.keras.engine.keras_tensor import KerasTensor
    from tfcompat.keras.layers.input_spec import InputSpec
    if isinstance(x, TensorSpec):
        return x
    if isinstance(x, InputSpec):
        if x.shape is None or x.dtype is None:
            raise ValueError(f"The `shape` and `dtype` must be provided. Received: x={x}")
        return TensorSpec(tuple(x.shape), dtypes.as_dtype(x.dtype), getattr(x, "name", None))
    if isinstance(x, KerasTensor) or hasattr(x, "shape") and hasattr(x, "dtype"):
        shape = tuple(x.shape)
        return TensorSpec((None,) + shape[1:], dtypes.as_dtype(x.dtype), x.name if isinstance(x, KerasTensor)
                          else None)
    raise TypeError(f"Unsupported x={x} of the type ({type(x)}). Supported types are: `keras.InputSpec`, "
                    "`keras.KerasTensor` and backend tensor.")


def get_input_signature(model):
    """Keras 3's export input signature of a built model (`get_input_signature`)."""
    from tfcompat.keras.models.functional import Functional
    from tfcompat.keras.models.model import Model
    from tfcompat.keras.models.sequential import Sequential
    if not isinstance(model, Model):
        raise TypeError(f"The model must be a `keras.Model`. Received: model={model} of the type {type(model)}")
    if not model.built:
        raise ValueError("The model provided has not yet been built. It must be built before export.")
    if isinstance(model, Functional):
        return [nest.map_structure(_tensor_spec, model.input)]
    if isinstance(model, Sequential):
        return [_tensor_spec(model.inputs[0])]
    config = model.get_build_config() or {}
    shapes = list(config["shapes_dict"].values()) if "shapes_dict" in config else [config.get("input_shape")]
    if not shapes or shapes[0] is None:
        raise ValueError("The model provided has never called. It must be called at least once before export.")
    dtype = dtypes.as_dtype(model.input_dtype)
    return [TensorSpec((None,) + tuple(s)[1:], dtype) for s in shapes]


class ExportArchive:
    """Writes a SavedModel for inference: `track()` layers, `add_endpoint()` functions, then `write_out()`; the
    artifact loads with `tf.saved_model.load`, each endpoint a method (Keras 3's `keras.export.ExportArchive`)."""

    def __init__(self):
        self._endpoint_names = []
        self._endpoint_signatures = {}
        self._tracked = []
        self._variables = {}             # variable collections added with add_variable_collection

    @property
    def variables(self):
        return self._all()

    @property
    def trainable_variables(self):
        return [v for v in self._all() if v.trainable]

    @property
    def non_trainable_variables(self):
        return [v for v in self._all() if not v.trainable]

    def _all(self):
        seen, out = set(), []
        for layer in self._tracked:
            for v in layer.variables:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    def track(self, resource):
        """Tracks a built Keras layer or model: its variables are saved with the artifact."""
        from tfcompat.keras.layers.base import Layer
        if not isinstance(resource, Layer):
            raise ValueError("Invalid resource type. Expected a Keras `Layer` or `Model` or a TensorFlow `Trackable` "
                             f"object. Received object {resource} of type '{type(resource)}'. ")
        if not resource.built:
            raise ValueError("The layer provided has not yet been built. It must be built before export.")
        if resource not in self._tracked:
            self._tracked.append(resource)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Registers `fn` as endpoint `name` (a method of the reloaded artifact) for `input_signature`."""
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if kwargs:
            raise ValueError("'jax2tf_kwargs' and 'is_static' are only supported with the jax backend. Current "
                             "backend: tensorflow")
        if input_signature is None:
            if not isinstance(fn, Function):
                raise ValueError(
                    "If the `fn` argument provided is not a `tf.function`, you must provide an `input_signature` "
                    "argument to specify the shape and dtype of the function arguments. Example:\n\n"
                    "export_archive.add_endpoint(\n    name='call',\n    fn=model.call,\n    input_signature=[\n"
                    "        keras.InputSpec(\n            shape=(None, 224, 224, 3),\n"
                    "            dtype='float32',\n        )\n    ],\n)")
            if not fn._concrete:
                raise ValueError(f"The provided tf.function '{fn}' has never been called. To specify the expected "
                                 "shape and dtype of the function's arguments, you must either provide a function "
                                 "that has been called at least once, or alternatively pass an `input_signature` "
                                 "argument in `add_endpoint()`.")
            decorated = fn
        else:
            signature = [nest.map_structure(_tensor_spec, s) for s in input_signature]
            python_fn = fn.python_function if isinstance(fn, Function) else fn
            decorated = Function(python_fn, getattr(python_fn, "__name__", name), input_signature=signature)
        self.__dict__[name] = decorated
        self._endpoint_names.append(name)
        self._endpoint_signatures[name] = input_signature
        return decorated

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        """`track(resource)` and an endpoint `name` calling it (training off)."""
        self.track(resource)
        return self.add_endpoint(name, _Call(resource), input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        """Saves `variables` (a list, tuple or set of variables) as attribute `name` of the reloaded artifact."""
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError(f"Expected `variables` to be a list/tuple/set. Received instead object of type "
                             f"'{type(variables)}'.")
        if not all(isinstance(v, Variable) for v in variables):
            raise ValueError("Expected all elements in `variables` to be `tf.Variable` instances. Found instead the "
                             f"following types: {list(set(type(v) for v in variables))}")
        self._variables[name] = list(variables)

    def _checkpoint_children(self):
        """What the artifact saves: endpoints' variables as TF's lists, variable collections, the endpoints."""
        out = [("variables", self.variables), ("trainable_variables", self.trainable_variables),
               ("non_trainable_variables", self.non_trainable_variables)]
        return out + sorted(self._variables.items())

    def _concrete(self, name):
        """The endpoint's concrete function; a tracked model's call gets the model's output specs (`None` batch)."""
        fn = self.__dict__[name]
        cf = fn.get_concrete_function() if fn.input_signature is not None else fn._concrete[0]   # its first trace
        layer = getattr(fn.python_function, "_layer", None)
        outputs = getattr(layer, "outputs", None) if isinstance(fn.python_function, _Call) else None
        if outputs:
            structure = layer.output if len(outputs) != 1 else outputs[0]
            cf._output_specs = nest.map_structure(lambda t: TensorSpec(tuple(t.shape), dtypes.as_dtype(t.dtype)),
                                                  structure)
        return cf

    def write_out(self, filepath, options=None, verbose=True):
        """Writes the SavedModel to `filepath`: the endpoints, each also a signature, and `serving_default` (the
        first endpoint's, unless an endpoint has that name)."""
        import tfcompat
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        signatures = {name: self._concrete(name) for name in self._endpoint_names}
        if "serving_default" not in self._endpoint_names:
            signatures["serving_default"] = self._concrete(self._endpoint_names[0])
        tfcompat.saved_model.save(self, filepath, signatures=signatures, options=options)
        if verbose:
            endpoints = "\n\n".join(_endpoint_text(name, self.__dict__[name], self._concrete(name))
                                    for name in self._endpoint_names)
            print(f"Saved artifact at '{filepath}'. The following endpoints are available:\n\n{endpoints}")


class _Call:
    """An endpoint calling a layer or model in inference mode (Keras's `track_and_add_endpoint`)."""

    def __init__(self, layer):
        self.__name__ = "__call__"
        self._layer = layer

    def __call__(self, *args):
        return self._layer(*args, training=False)


def _endpoint_text(name, fn, cf):
    """Keras's text of an endpoint: its parameters (the input signature's specs), output type and captures."""
    from tfcompat.eager.function._signatures import type_text
    specs = iter(nest.flatten(fn.input_signature if fn.input_signature is not None else
                              cf.structured_input_signature[0]))
    lines = [f"* Endpoint '{name}'"]
    for param, kind, spec in cf.function_type.parameters():
        given = nest.map_structure(lambda _: next(specs), spec)
        named = fn.input_signature is not None and isinstance(given, TensorSpec)     # a traced call's spec: no name
        lines.append(f"  {param} ({kind}): {repr(given) if named else type_text(given)}")
    outputs = getattr(cf, "_output_specs", None)
    lines += ["Output Type:", f"  {type_text(outputs if outputs is not None else cf.structured_outputs)}", "Captures:"]
    lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)" for v in cf.captured_variables] or \
        ["  None"]
    return "\n".join(lines)


def export_saved_model(model, filepath, verbose=None, input_signature=None, **kwargs):
    """`Model.export(format="tf_saved_model")`: an ExportArchive with one `serve` endpoint calling the model."""
    archive = ExportArchive()
    if input_signature is None:
        input_signature = get_input_signature(model)
    archive.track_and_add_endpoint(DEFAULT_ENDPOINT_NAME, model, input_signature, **kwargs)
    archive.write_out(filepath, verbose=True if verbose is None else verbose)
