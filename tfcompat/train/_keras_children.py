"""The checkpoint children of Keras objects, named as TF 2.21 + Keras 3 name them.

Rules (observed from real TF 2.21 / Keras 3.15 checkpoints):
- Layer (and subclassed Model): its attributes in assignment order (`vars(obj)`) whose value is a variable,
  a Layer or an optimizer; lists, dicts and other values are not children (Keras 3 keeps its own list
  wrappers, which TF does not track). Keras stores Dense/EinsumDense/Conv kernels as `_kernel` and
  Embedding tables as `_embeddings`; an attribute named `kernel`/`embeddings` on those layers is
  named with the underscore.
- Compiled Model: after its attributes come `optimizer` (if not already one) and `_compiled_trainable_state`
  (an empty dict node).
- Functional Model: `_tracked`, `_inbound_nodes`, `_outbound_nodes`, `_losses`, `_losses_override`,
  `call_signature_parameters`, `_call_has_context_arg` (empty nodes), then `_operations` = `model.layers`
  (InputLayers included), then its other children as a Layer.
- Sequential: one child `_functional` (when built): a Functional whose `_operations` is an InputLayer
  node followed by `model.layers`.
- Optimizer: `_variables` (= `optimizer.variables`: iterations, learning rate, then the slots),
  `_trainable_variables` (the variables it was built for), `_trainable_variables_indices` (empty),
  `_iterations`, `_learning_rate` (when a variable), then its other list attributes holding only
  variables (the slot lists, e.g. `_momentums`, `_velocities`, `momentums`), in assignment order.
- Metrics are not trackable (Keras 3 metrics are not TF Trackables).

Attributes relied on: `optimizer.variables`, `optimizer.iterations`, `optimizer.learning_rate` (or
`_learning_rate`), `optimizer._trainable_variables` (list, optional), `model.layers`, `model.built`,
`model.optimizer` (when compiled), `vars(obj)`, and class names in the MRO (`Layer`, `Model`,
`Sequential`, `Functional`, `Optimizer`, `Metric`, `Dense`, `EinsumDense`, `BaseConv`, `Embedding`)
of classes defined in `tfcompat.keras`.
"""
from tfcompat.framework.variables import Variable

_KERNEL = {"kernel": "_kernel", "_bias": "bias"}
_PLAIN = {"_kernel": "kernel", "_bias": "bias"}
_RENAMES = {"Dense": _KERNEL, "EinsumDense": _KERNEL, "Conv1D": _KERNEL, "Conv2D": _KERNEL, "Conv3D": _KERNEL,
            "Conv1DTranspose": _PLAIN, "Conv2DTranspose": _PLAIN, "Conv3DTranspose": _PLAIN,
            "DepthwiseConv1D": _PLAIN, "DepthwiseConv2D": _PLAIN, "SeparableConv1D": _PLAIN,
            "SeparableConv2D": _PLAIN, "Embedding": {"embeddings": "_embeddings"}}
_DEFAULT_RENAMES = {"_bias": "bias"}
_FUNCTIONAL_EMPTY = ("_tracked", "_inbound_nodes", "_outbound_nodes", "_losses", "_losses_override",
                     "call_signature_parameters", "_call_has_context_arg")


class Empty:
    """A childless node standing for a Keras-internal container or InputLayer."""

    __slots__ = ()


def _names(obj):
    return {c.__name__ for c in type(obj).__mro__ if c.__module__.startswith("tfcompat.keras")}


def kind(obj):
    """'optimizer', 'sequential', 'functional', 'layer', 'metric' or None for non-Keras objects."""
    names = _names(obj)
    if not names:
        return None
    if "Metric" in names:
        return "metric"
    if "Optimizer" in names:
        return "optimizer"
    if "Sequential" in names:
        return "sequential"
    if "Functional" in names or ("Model" in names and _safe(obj, "inputs") is not None
                                 and _safe(obj, "outputs") is not None):
        return "functional"
    if "Layer" in names:
        return "layer"
    return None


def _safe(obj, attr):
    try:
        return getattr(obj, attr, None)
    except Exception:  # noqa: BLE001 - Keras properties may raise before the model is built
        return None


def children(obj, k):
    """[(name, child)] of Keras object `obj` of kind `k`."""
    if k == "optimizer":
        return _optimizer(obj)
    if k == "sequential":
        return [("_functional", _SequentialFunctional(obj))] if _safe(obj, "built") else []
    if k == "functional":
        return _functional(obj, list(_safe(obj, "layers") or [])) + _layer(obj)
    return _layer(obj)


def _is_child(value):
    return isinstance(value, Variable) or kind(value) in ("optimizer", "sequential", "functional", "layer")


def _renames(obj):
    for cls in type(obj).__mro__:
        if cls.__module__.startswith("tfcompat.keras") and cls.__name__ in _RENAMES:
            return _RENAMES[cls.__name__]
    return _DEFAULT_RENAMES


def _layer(obj):
    names = _names(obj)
    renames = _renames(obj)
    out = [(renames.get(name, name), value) for name, value in vars(obj).items() if _is_child(value)]
    if "Model" in names:
        optimizer = _safe(obj, "optimizer")
        if optimizer is not None and kind(optimizer) == "optimizer":
            if not any(v is optimizer for _, v in out):
                out.append(("optimizer", optimizer))
            out.append(("_compiled_trainable_state", Empty()))
    return out


def _functional(obj, operations):
    return [(name, Empty()) for name in _FUNCTIONAL_EMPTY] + [("_operations", operations)]


class _SequentialFunctional:
    """The Functional model Keras 3 builds inside a Sequential (`_functional`)."""

    def __init__(self, model):
        self.model = model

    def _checkpoint_children(self):
        return _functional(self.model, [Empty()] + list(self.model.layers))


def _optimizer(obj):
    variables = list(obj.variables)
    trainable = list(getattr(obj, "_trainable_variables", None) or [])
    out = [("_variables", variables), ("_trainable_variables", trainable),
           ("_trainable_variables_indices", Empty()), ("_iterations", obj.iterations)]
    lr = _safe(obj, "learning_rate")
    if not isinstance(lr, Variable):
        lr = getattr(obj, "_learning_rate", None)
    if isinstance(lr, Variable):
        out.append(("_learning_rate", lr))
    skip = {"_variables", "_trainable_variables"}
    for name, value in vars(obj).items():
        if (name not in skip and isinstance(value, list) and value
                and all(isinstance(v, Variable) for v in value)):
            out.append((name, list(value)))
    return out
