"""`tf.compat.v1.metrics`: TF1's streaming metrics, built in a TF1 graph (`with tf.Graph().as_default():`).

Each metric makes local variables (collections `local_variables` and `metric_variables`, not trainable, zero once
`local_variables_initializer()` has run) under a unique scope named after it (`accuracy/total:0`,
`accuracy_1/count:0`, ...) and returns `(value, update_op)`: running `update_op` adds a batch to the variables and
gives the updated value; `value` reads the current one. As in TF, they raise RuntimeError while executing eagerly
(TF 2's metrics are `tf.keras.metrics`).
"""
import contextlib

from tfcompat.compat.v1 import session as _session
from tfcompat.framework import dtypes, errors, graph_state
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.graph_variable import GraphVariable


def _eager_check(name, message=None):
    if graph_state.default_graph() is None:
        raise RuntimeError(message or f"tf.metrics.{name} is not supported when eager execution is enabled.")


def _op(name):
    return EXPORTS[name]        # the public op (TF1 graph mode's wrapper of it once a graph exists)


@contextlib.contextmanager
def _scope(name, default):
    """TF's `variable_scope(name, default)` as the metrics use it: a name scope unique in the graph."""
    with _op("name_scope")(name or default) as scope:
        yield scope[:-1]


def _metric_variable(scope, name, dtype=dtypes.float32):
    """A scalar zero-initialised local metric variable `<scope>/<name>`."""
    graph = graph_state.default_graph()
    var = GraphVariable.make(graph, f"{scope}/{name}", lambda: _op("zeros")([], dtype), dtype, [], trainable=False)
    _session.get_collection_ref("variables").remove(var)
    _session.add_to_collections(["local_variables", "metric_variables"], var)
    return var


def _add(collections, value):
    if collections:
        _session.add_to_collections(collections, value)


def _squeeze_last(x):
    return _op("squeeze")(x, [-1])


def _remove_squeezable_dimensions(predictions, labels, weights):
    """TF's static rule: a last dimension of size 1 is squeezed from labels or predictions when their ranks differ
    by one; weights are squeezed or expanded to the predictions' rank (a scalar stays a scalar)."""
    predictions = _op("convert_to_tensor")(predictions)
    if labels is not None:
        labels = _op("convert_to_tensor")(labels)
        p_rank, l_rank = predictions.shape.rank, labels.shape.rank
        if p_rank is not None and l_rank is not None:
            if p_rank - l_rank == 1 and predictions.shape[-1] in (1, None):
                predictions = _squeeze_last(predictions)
            elif l_rank - p_rank == 1 and labels.shape[-1] in (1, None):
                labels = _squeeze_last(labels)
        predictions.shape.assert_is_compatible_with(labels.shape)
    if weights is None:
        return predictions, labels, None
    weights = _op("convert_to_tensor")(weights)
    w_rank, p_rank = weights.shape.rank, predictions.shape.rank
    if w_rank == 0 or w_rank is None or p_rank is None:
        return predictions, labels, weights
    if w_rank - p_rank == 1:
        weights = _squeeze_last(weights)
    elif p_rank - w_rank == 1:
        weights = _op("expand_dims")(weights, -1)
    return predictions, labels, weights


def _broadcast_weights(weights, values):
    """`weights` broadcast to the shape of `values` (TF's `broadcast_weights`)."""
    w_shape, v_shape = weights.shape, values.shape
    if w_shape.rank is not None and v_shape.rank is not None and w_shape.rank != 0:
        ok = w_shape.rank == v_shape.rank and all(
            w is None or v is None or w == v or w == 1 for w, v in zip(w_shape.as_list(), v_shape.as_list()))
        if not ok:
            raise ValueError(f"weights can not be broadcast to values. values.rank={v_shape.rank}. "
                             f"weights.rank={w_shape.rank}. values.shape={v_shape}. weights.shape={w_shape}.")
    return weights * _op("ones_like")(values)


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of all `values` seen: local variables `total` and `count`."""
    _eager_check("mean")
    with _scope(name, "mean") as scope:
        values = _op("cast")(values, dtypes.float32)
        total = _metric_variable(scope, "total")
        count = _metric_variable(scope, "count")
        if weights is None:
            num_values = _op("cast")(_op("size")(values), dtypes.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(_op("cast")(weights, dtypes.float32), values)
            values = values * weights
            num_values = _op("reduce_sum")(weights)
        update_total = total.assign_add(_op("reduce_sum")(values))
        update_count = count.assign_add(num_values)
        value = _op("math.divide_no_nan")(total, _op("maximum")(count, 0.), name="value")
        update_op = _op("math.divide_no_nan")(update_total, _op("maximum")(update_count, 0.), name="update_op")
    _add(metrics_collections, value)
    _add(updates_collections, update_op)
    return value, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) frequency with which `predictions` equal `labels` (predictions cast to the labels' dtype)."""
    _eager_check("accuracy")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    if labels.dtype != predictions.dtype:
        predictions = _op("cast")(predictions, labels.dtype)
    is_correct = _op("cast")(_op("equal")(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                        name=None):
    _eager_check("mean_absolute_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    return mean(_op("abs")(predictions - labels), weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                       name=None):
    _eager_check("mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    return mean(_op("math.squared_difference")(labels, predictions), weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                            name=None):
    _eager_check("root_mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None, name or "root_mean_squared_error")
    rmse, update_rmse = _op("sqrt")(mse), _op("sqrt")(update_mse)
    _add(metrics_collections, rmse)
    _add(updates_collections, update_rmse)
    return rmse, update_rmse


def _count(kind, labels, predictions, weights, metrics_collections, updates_collections, name, message=None):
    """The (weighted) count of one confusion-matrix cell over boolean labels and predictions: variable `count`."""
    _eager_check(kind, message)
    with _scope(name, kind) as scope:
        predictions, labels, weights = _remove_squeezable_dimensions(
            _op("cast")(predictions, dtypes.bool), _op("cast")(labels, dtypes.bool), weights)
        want_label, want_prediction = {"true_positives": (True, True), "false_positives": (False, True),
                                       "true_negatives": (False, False), "false_negatives": (True, False)}[kind]
        is_kind = _op("logical_and")(_op("equal")(labels, want_label), _op("equal")(predictions, want_prediction))
        count = _metric_variable(scope, "count")
        values = _op("cast")(is_kind, dtypes.float32)
        if weights is not None:
            w_rank, v_rank = weights.shape.rank, values.shape.rank
            if w_rank is not None and v_rank is not None and w_rank not in (0, v_rank):
                raise ValueError(f"weights must have rank in (0, {v_rank}), got rank {w_rank}")
            values = values * _op("cast")(weights, dtypes.float32)
        value = _op("identity")(count)
        update_op = count.assign_add(_op("reduce_sum")(values))
    _add(metrics_collections, value)
    _add(updates_collections, update_op)
    return value, update_op


def true_positives(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                   name=None):
    return _count("true_positives", labels, predictions, weights, metrics_collections, updates_collections, name)


def false_positives(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                    name=None):
    return _count("false_positives", labels, predictions, weights, metrics_collections, updates_collections, name)


def true_negatives(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                   name=None):
    return _count("true_negatives", labels, predictions, weights, metrics_collections, updates_collections, name)


def false_negatives(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                    name=None):
    return _count("false_negatives", labels, predictions, weights, metrics_collections, updates_collections, name)


def _ratio(kind, other, labels, predictions, weights, metrics_collections, updates_collections, name, message=None):
    """precision (tp / (tp + fp)) or recall (tp / (tp + fn)), 0 while the denominator is 0."""
    _eager_check(kind, message)
    with _scope(name, kind):
        predictions, labels, weights = _remove_squeezable_dimensions(
            _op("cast")(predictions, dtypes.bool), _op("cast")(labels, dtypes.bool), weights)
        tp, tp_update = true_positives(labels, predictions, weights)
        miss, miss_update = _count(other, labels, predictions, weights, None, None, None)

        def compute(t, m, op_name):
            return _op("where")(_op("greater")(t + m, 0.), _op("math.divide")(t, t + m), 0., name=op_name)
        value = compute(tp, miss, "value")
        update_op = compute(tp_update, miss_update, "update_op")
    _add(metrics_collections, value)
    _add(updates_collections, update_op)
    return value, update_op


def precision(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """true_positives / (true_positives + false_positives) over boolean-cast labels and predictions."""
    return _ratio("precision", "false_positives", labels, predictions, weights, metrics_collections,
                  updates_collections, name)


def recall(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """true_positives / (true_positives + false_negatives) over boolean-cast labels and predictions."""
    # TF 2.21's message repeats "is not supported"
    return _ratio("recall", "false_negatives", labels, predictions, weights, metrics_collections,
                  updates_collections, name,
                  "tf.metrics.recall is not supported is not supported when eager execution is enabled.")


def _confusion_counts(labels, predictions, weights, thresholds):
    """[tp, fn, tn, fp] per threshold (4, T) of one batch: a prediction is positive above a threshold; TF's
    InvalidArgumentError for predictions outside [0, 1]."""
    import torch

    from tfcompat.framework.tensor import storage, wrap
    p = storage(_op("cast")(predictions, dtypes.float32)).reshape(1, -1)
    if bool(((p < 0) | (p > 1)).any()):
        raise errors.InvalidArgumentError(None, None, "predictions must be in [0, 1]")
    y = storage(_op("cast")(labels, dtypes.bool)).reshape(1, -1)
    if y.shape[1] != p.shape[1]:
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: [{len(thresholds)},{y.shape[1]}] vs. "
                                                      f"[{len(thresholds)},{p.shape[1]}]")
    w = torch.ones_like(p) if weights is None else torch.broadcast_to(
        storage(_op("cast")(weights, dtypes.float32)).reshape(1, -1), p.shape)
    t = torch.tensor(thresholds, dtype=torch.float32).reshape(-1, 1)
    pos, label = p > t, y.expand(len(thresholds), -1)
    cells = [label & pos, label & ~pos, ~label & ~pos, ~label & pos]
    return wrap(torch.stack([(c.to(torch.float32) * w).sum(1) for c in cells]))


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None, updates_collections=None,
        curve="ROC", name=None, summation_method="trapezoidal", thresholds=None):
    """The area under the ROC or PR curve from counts at `num_thresholds` thresholds (local variables
    `true_positives`, `false_negatives`, `true_negatives`, `false_positives`), summed by `summation_method`."""
    _eager_check("auc")
    with _scope(name, "auc") as scope:
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        thresholds = [0.0 - 1e-7] + thresholds + [1.0 + 1e-7]
        predictions, labels, weights = _remove_squeezable_dimensions(
            _op("cast")(predictions, dtypes.float32), _op("cast")(labels, dtypes.bool), weights)
        from tfcompat.framework.graph import deferred_call
        counts = deferred_call(lambda lab, pred, w: _confusion_counts(lab, pred, w, thresholds),
                               (labels, predictions, weights), {}, "ConfusionMatrixAtThresholds")
        values, updates = [], []
        for i, kind in enumerate(("true_positives", "false_negatives", "true_negatives", "false_positives")):
            var = GraphVariable.make(graph_state.default_graph(), f"{scope}/{kind}",
                                     lambda: _op("zeros")([num_thresholds], dtypes.float32), dtypes.float32,
                                     [num_thresholds], trainable=False)
            _session.get_collection_ref("variables").remove(var)
            _session.add_to_collections(["local_variables", "metric_variables"], var)
            values.append(_op("identity")(var))
            updates.append(var.assign_add(counts[i]))

        def compute_auc(tp, fn, tn, fp, op_name):
            n, eps = num_thresholds, 1.0e-6
            if curve == "PR" and summation_method == "careful_interpolation":
                dtp = tp[:n - 1] - tp[1:]
                p = tp + fp
                slope = _op("math.divide_no_nan")(dtp, _op("maximum")(p[:n - 1] - p[1:], 0.))
                intercept = tp[1:] - slope * p[1:]
                ratio = _op("where")(_op("logical_and")(p[:n - 1] > 0., p[1:] > 0.),
                                     _op("math.divide_no_nan")(p[:n - 1], _op("maximum")(p[1:], 0.)),
                                     _op("ones_like")(p[1:]))
                return _op("reduce_sum")(_op("math.divide_no_nan")(
                    slope * (dtp + intercept * _op("math.log")(ratio)), _op("maximum")(tp[1:] + fn[1:], 0.)),
                    name=op_name)
            rec = _op("math.divide")(tp + eps, tp + fn + eps)
            if curve == "ROC":
                x, y = _op("math.divide")(fp, fp + tn + eps), rec
            else:
                x, y = rec, _op("math.divide")(tp + eps, tp + fp + eps)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                heights = (y[:n - 1] + y[1:]) / 2.
            elif summation_method == "minoring":
                heights = _op("minimum")(y[:n - 1], y[1:])
            elif summation_method == "majoring":
                heights = _op("maximum")(y[:n - 1], y[1:])
            else:
                raise ValueError(f"Invalid summation_method: {summation_method} summation_method should be "
                                 "'trapezoidal', 'careful_interpolation', 'minoring', or 'majoring'.")
            return _op("reduce_sum")((x[:n - 1] - x[1:]) * heights, name=op_name)

        value = compute_auc(*values, "value")
        update_op = compute_auc(*updates, "update_op")
    _add(metrics_collections, value)
    _add(updates_collections, update_op)
    return value, update_op


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    raise AttributeError(f"module 'tensorflow.compat.v1.metrics' has no attribute '{attr}'")
