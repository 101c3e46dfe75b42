"""`tf.compat.v1.losses`: TF1's loss functions, eagerly and in a TF1 graph, and the loss collections.

Eagerly they are `tfcompat.losses`'s TF1 functions. Inside `tf.Graph().as_default()` a loss is one node computing
that function on its inputs' values, in a name scope unique in the graph (`scope`, else TF's default:
`mean_squared_error`, `softmax_cross_entropy_loss`...) and named as TF names the loss's last op
(`mean_squared_error/value:0`); it joins `loss_collection` (`GraphKeys.LOSSES` by default), which `get_losses` and
`get_total_loss` read. As in TF, nothing is collected while executing eagerly.
"""
import functools
import inspect

from tfcompat import losses as _losses
from tfcompat.compat.v1 import session as _session
from tfcompat.framework import dtypes, graph_state
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.graph import Operation, has_graph_value, scoped
from tfcompat.losses import Reduction  # noqa: F401

# loss -> TF's default scope name
_SCOPES = {"absolute_difference": "absolute_difference", "compute_weighted_loss": "weighted_loss",
           "cosine_distance": "cosine_distance_loss", "hinge_loss": "hinge_loss", "huber_loss": "huber_loss",
           "log_loss": "log_loss", "mean_pairwise_squared_error": "mean_pairwise_squared_error",
           "mean_squared_error": "mean_squared_error", "sigmoid_cross_entropy": "sigmoid_cross_entropy_loss",
           "softmax_cross_entropy": "softmax_cross_entropy_loss",
           "sparse_softmax_cross_entropy": "sparse_softmax_cross_entropy_loss"}
# the name of the last op TF's reduction makes (the loss tensor's name inside its scope)
_LAST_OP = {Reduction.NONE: "Mul", Reduction.SUM: "Sum"}


def _op(name):
    return EXPORTS[name]        # the public op (TF1 graph mode's wrapper of it once a graph exists)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection="losses"):
    """TF1's pairwise-differences squared error: per batch item, the mean over pairs (i, j) of
    ((p_i - p_j) - (l_i - l_j))^2, weighted per item and summed over the batch. As in TF, eagerly a nonzero scalar
    weight counts every element of the batch as present (not those of each item)."""
    return _mean_pairwise(labels, predictions, weights, eagerly=True)


def _mean_pairwise(labels, predictions, weights=1.0, scope=None, loss_collection="losses", eagerly=False):
    cast, reduce_sum, square, div = _op("cast"), _op("reduce_sum"), _op("square"), _op("math.divide_no_nan")
    predictions, labels = cast(predictions, dtypes.float32), cast(labels, dtypes.float32)
    predictions.shape.assert_is_compatible_with(labels.shape)
    diffs = predictions - labels
    axes = list(range(1, diffs.shape.rank))
    weights = cast(weights, dtypes.float32)
    if eagerly and weights.shape.rank == 0 and float(weights) != 0.0:
        num_present = cast(_op("size")(diffs), dtypes.float32)
    else:
        present = _op("ones_like")(diffs) * cast(_op("not_equal")(weights, 0.), dtypes.float32)
        num_present = reduce_sum(present, axes, keepdims=True)
    term1 = 2.0 * div(reduce_sum(square(diffs), axes, keepdims=True), _op("maximum")(num_present - 1., 0.))
    term2 = 2.0 * div(square(reduce_sum(diffs, axes, keepdims=True)),
                      _op("maximum")(num_present * (num_present - 1.), 0.))
    loss = reduce_sum((term1 - term2) * weights)
    return _op("where")(reduce_sum(num_present) > 0., loss, _op("zeros_like")(loss))


def _graph_loss(name, fn):
    """`fn` (a TF1 loss), which in a TF1 graph becomes a node named as TF names the loss and joins its collection."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def loss(*args, **kwargs):
        given = signature.bind(*args, **kwargs).arguments
        graph = graph_state.default_graph()
        if graph is None or not has_graph_value(args, kwargs):
            value = fn(*args, **kwargs)
            if graph is not None:
                add_loss(value, given.get("loss_collection", "losses"))
            return value
        last = "value_2" if name == "mean_pairwise_squared_error" else _LAST_OP.get(given.get("reduction"), "value")
        with _op("name_scope")(given.get("scope") or _SCOPES[name]):
            run = _run(_mean_pairwise if name == "mean_pairwise_squared_error" else fn, args, kwargs)
            node = Operation(graph, scoped(last), name, run, _inputs(args, kwargs), output_spec=()).output
        add_loss(node, given.get("loss_collection", "losses"))
        return node
    loss.__signature__ = signature.replace(parameters=[
        p.replace(default="losses") if p.name == "loss_collection" else p for p in signature.parameters.values()])
    return loss


def _inputs(args, kwargs):
    from tfcompat.framework.graph import _leaves, is_graph_value
    return [x for x in _leaves((args, kwargs)) if is_graph_value(x)]


def _run(fn, args, kwargs):
    from tfcompat.framework.graph import _substitute

    def run(session, *values):
        a, k = _substitute((args, kwargs), iter(values))
        return fn(*a, **k)
    return run


for _name in _SCOPES:
    globals()[_name] = _graph_loss(_name, globals()[_name] if _name == "mean_pairwise_squared_error"
                                   else getattr(_losses, _name))


def add_loss(loss, loss_collection="losses"):
    """Adds `loss` to `loss_collection` of the default graph (nothing while executing eagerly, as in TF)."""
    if loss_collection and graph_state.default_graph() is not None:
        _session.add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection="losses"):
    """The collection's losses (eagerly TF's global collections: no losses, but regularization losses)."""
    return _session.get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    return get_losses(scope, "regularization_losses")


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses, or a constant 0.0 when there are none."""
    losses = get_regularization_losses(scope)
    return _op("add_n")(losses, name=name) if losses else _op("constant")(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the collected losses (and regularization losses): TF's ValueError when there are none."""
    losses = get_losses(scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope)
    return _op("add_n")(losses, name=name)


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    raise AttributeError(f"module 'tensorflow.compat.v1.losses' has no attribute '{attr}'")
