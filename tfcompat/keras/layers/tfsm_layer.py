"""`keras.layers.TFSMLayer`: Keras 3's inference layer over a SavedModel endpoint, on tfcompat's SavedModel loader."""
from tfcompat.framework.export import partial_api
from tfcompat.keras.engine import call_context
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.variables import Variable
from tfcompat.ops.creation_ops import zeros
from tfcompat.util import nest

_UNSAFE = ("Requested the deserialization of a `TFSMLayer`, which loads an external SavedModel. This carries a "
           "potential risk of arbitrary code execution and thus it is disallowed by default. If you trust the source "
           "of the artifact, you can override this error by passing `safe_mode=False` to the loading function, or "
           "calling `keras.config.enable_unsafe_deserialization().")


def _endpoint(loaded, name, hint):
    """The endpoint `name` of a loaded SavedModel: an attribute, else a signature (Keras's order)."""
    if hasattr(loaded, name):
        return getattr(loaded, name)
    if name in loaded.signatures:
        return loaded.signatures[name]
    raise ValueError(f"The endpoint '{name}' is neither an attribute of the reloaded SavedModel, nor an entry in the "
                     f"`signatures` field of the reloaded SavedModel. {hint}Available endpoints for this SavedModel: "
                     f"{list(loaded.signatures.keys())}")


def _concretes(fn):
    """The restored concrete functions an endpoint calls (a signature calls one)."""
    found = getattr(fn, "concrete_functions", None)
    return list(found) if found is not None else fn._concrete_functions


def _variables_of(fns):
    """Keras's split of the variables the endpoints read: trainable ones, then the others, each once."""
    trainable, other, seen = [], [], set()
    concretes = [cf for fn in fns for cf in _concretes(fn)]
    for cf in concretes:
        for v in cf.trainable_variables:
            if id(v) not in seen:
                seen.add(id(v))
                trainable.append(v)
    for cf in concretes:
        for v in cf.variables:
            if id(v) not in seen:
                seen.add(id(v))
                other.append(v)
    return trainable, other


def _signature_of(loaded, fn):
    """The signature saved for function endpoint `fn`: the one of its name (`model.export` writes one per endpoint),
    else the only one calling a function of its traced function's name."""
    sig = loaded.signatures.get(fn.__name__)
    if sig is not None:
        return sig
    names = {cf.name for cf in fn.concrete_functions}
    found = [s for s in loaded.signatures.values() if s._concrete_functions[0].name in names]
    return found[0] if len(found) == 1 else None


def _output_specs(loaded, fn):
    """The TensorSpecs of an endpoint's outputs in their structure (a signature's, or a function's packed from its
    signature's); None when the SavedModel does not say."""
    sig = fn if hasattr(fn, "structured_outputs") else _signature_of(loaded, fn)
    if sig is None or any(s is None for s in sig.structured_outputs.values()):
        return None
    if sig is fn:
        return dict(sig.structured_outputs)
    return _concretes(fn)[0].pack_outputs(list(sig.structured_outputs.values()))


@partial_api("a SavedModel written by TensorFlow does not load, and eager calls replay only the input shapes traced "
             "before saving (tf.saved_model.load's limits); a symbolic call takes the output specs of the endpoint's "
             "signature (NotImplementedError for a function endpoint that no signature calls)")
class TFSMLayer(Layer):
    """A SavedModel endpoint (`call_endpoint`, an attribute or a signature) as a layer; `call_training_endpoint` is
    called when `training=True`; the endpoints' variables are its weights (trainable as saved, unless
    `trainable=False`)."""

    def __init__(self, filepath, call_endpoint="serve", call_training_endpoint=None, trainable=True, name=None,
                 dtype=None):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        import tfcompat
        self._reloaded_obj = tfcompat.saved_model.load(filepath)
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self.call_endpoint_fn = _endpoint(self._reloaded_obj, call_endpoint,
                                          "Select another endpoint via the `call_endpoint` argument. ")
        fns = [self.call_endpoint_fn]
        if call_training_endpoint:
            self.call_training_endpoint_fn = _endpoint(self._reloaded_obj, call_training_endpoint, "")
            fns.append(self.call_training_endpoint_fn)
        trainable_vars, other_vars = _variables_of(fns)
        replaced = {}
        for v in trainable_vars + other_vars:
            if isinstance(v, Variable):     # a Keras model's variable (TF's name: its path): Keras's is the same one
                v._keras_name = v._path = f"{v.path}:0".replace("/", "_")
            else:                           # Keras's variable of each tf.Variable; the endpoints then read it
                v = replaced[id(v)] = Variable(v.read_value(), trainable=v.trainable, dtype=v.dtype, shape=v.shape,
                                               name=v.name.replace("/", "_"))
            self._track_variable(v)
        for fn in fns:
            for cf in _concretes(fn):
                cf._replace_variables(replaced)
        self.built = True

    def call(self, inputs, training=False, **kwargs):
        fn = self.call_training_endpoint_fn if training and self.call_training_endpoint else self.call_endpoint_fn
        if call_context.in_symbolic():      # TF traces the endpoint: its outputs take the saved output specs
            specs = _output_specs(self._reloaded_obj, fn)
            if specs is None:
                raise NotImplementedError(
                    f"TFSMLayer: a symbolic call of endpoint '{getattr(fn, '__name__', '')}' needs its output specs, "
                    "which a tfcompat SavedModel gives only through a signature of that function; call the layer on "
                    "tensors")
            size = nest.flatten(inputs)[0].shape[0]
            return nest.map_structure(lambda s: zeros([size if d is None else d for d in s.shape], s.dtype), specs)
        return fn(inputs, **kwargs)

    def get_config(self):
        return {**super().get_config(), "filepath": self.filepath, "call_endpoint": self.call_endpoint,
                "call_training_endpoint": self.call_training_endpoint}

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        """Refused unless the load is explicitly unsafe: the SavedModel is an external artifact (as Keras 3)."""
        from tfcompat.keras.saving_utils import in_safe_mode
        if (safe_mode if safe_mode is not None else in_safe_mode()) is not False:
            raise ValueError(_UNSAFE)
        return cls(**config)
