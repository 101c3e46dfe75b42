"""`tf.compat.v1.metrics`: TF1's streaming metrics, built in a TF1 graph (`with tf.Graph().as_default():`).

Each metric makes local variables (collections `local_variables` and `metric_variables`, not trainable, zero once
`local_variables_initializer()` has run) under a unique scope named after it (`accuracy/total:0`,
`accuracy_1/count:0`, ...) and returns `(value, update_op)`: running `update_op` adds a batch to the variables and
gives the updated value; `value` reads the current one. As in TF, they raise RuntimeError while executing eagerly
(TF 2's metrics are `tf.keras.metrics`).
"""
import contextlib

import tfcompat as tf
from tfcompat.compat.v1 import session as _session
from tfcompat.framework import dtypes, graph_state
from tfcompat.framework.graph_variable import GraphVariable


def _eager_check(name, message=None):
    if graph_state.default_graph() is None:
        raise RuntimeError(message or f"tf.metrics.{name} is not supported when eager execution is enabled.")


@contextlib.contextmanager
def _scope(name, default):
    """TF's `variable_scope(name, default)` as the metrics use it: a name scope unique in the graph."""
    graph = graph_state.default_graph()
    prefix = "/".join(s for s in _name_scopes() if s)
    full = graph.unique_name(f"{prefix}/{name or default}" if prefix else (name or default))
    with tf.name_scope(full.rsplit("/", 1)[-1]):
        yield full


def _name_scopes():
    from tfcompat.framework.context import state
    return state.name_scope


def _metric_variable(scope, name, dtype=dtypes.float32):
    """A scalar zero-initialised local metric variable `<scope>/<name>`."""
    graph = graph_state.default_graph()
    var = GraphVariable.make(graph, f"{scope}/{name}", lambda: tf.zeros([], dtype), dtype, [], trainable=False)
    _session.get_collection_ref("variables").remove(var)
    _session.add_to_collections(["local_variables", "metric_variables"], var)
    return var


def _add(collections, value):
    if collections:
        _session.add_to_collections(collections, value)


def _squeeze_last(x):
    return tf.squeeze(x, [-1])


def _remove_squeezable_dimensions(predictions, labels, weights):
    """TF's static rule: a last dimension of size 1 is squeezed from labels or predictions when their ranks differ
    by one; weights are squeezed or expanded to the predictions' rank (a scalar stays a scalar)."""
    predictions = tf.convert_to_tensor(predictions)
    if labels is not None:
        labels = tf.convert_to_tensor(labels)
        p_rank, l_rank = predictions.shape.rank, labels.shape.rank
        if p_rank is not None and l_rank is not None:
            if p_rank - l_rank == 1 and predictions.shape[-1] in (1, None):
                predictions = _squeeze_last(predictions)
            elif l_rank - p_rank == 1 and labels.shape[-1] in (1, None):
                labels = _squeeze_last(labels)
        predictions.shape.assert_is_compatible_with(labels.shape)
    if weights is None:
        return predictions, labels, None
    weights = tf.convert_to_tensor(weights)
    w_rank, p_rank = weights.shape.rank, predictions.shape.rank
    if w_rank == 0 or w_rank is None or p_rank is None:
        return predictions, labels, weights
    if w_rank - p_rank == 1:
        weights = _squeeze_last(weights)
    elif p_rank - w_rank == 1:
        weights = tf.expand_dims(weights, -1)
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
    return weights * tf.ones_like(values)


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of all `values` seen: local variables `total` and `count`."""
    _eager_check("mean")
    with _scope(name, "mean") as scope:
        values = tf.cast(values, tf.float32)
        total = _metric_variable(scope, "total")
        count = _metric_variable(scope, "count")
        if weights is None:
            num_values = tf.cast(tf.size(values), tf.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(tf.cast(weights, tf.float32), values)
            values = values * weights
            num_values = tf.reduce_sum(weights)
        update_total = total.assign_add(tf.reduce_sum(values))
        update_count = count.assign_add(num_values)
        value = tf.math.divide_no_nan(total, tf.maximum(count, 0.), name="value")
        update_op = tf.math.divide_no_nan(update_total, tf.maximum(update_count, 0.), name="update_op")
    _add(metrics_collections, value)
    _add(updates_collections, update_op)
    return value, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) frequency with which `predictions` equal `labels` (predictions cast to the labels' dtype)."""
    _eager_check("accuracy")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    if labels.dtype != predictions.dtype:
        predictions = tf.cast(predictions, labels.dtype)
    is_correct = tf.cast(tf.equal(predictions, labels), tf.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                        name=None):
    _eager_check("mean_absolute_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    return mean(tf.abs(predictions - labels), weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                       name=None):
    _eager_check("mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    return mean(tf.math.squared_difference(labels, predictions), weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                            name=None):
    _eager_check("root_mean_squared_error")
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None, name or "root_mean_squared_error")
    rmse, update_rmse = tf.sqrt(mse), tf.sqrt(update_mse)
    _add(metrics_collections, rmse)
    _add(updates_collections, update_rmse)
    return rmse, update_rmse


def _count(kind, labels, predictions, weights, metrics_collections, updates_collections, name, message=None):
    """The (weighted) count of one confusion-matrix cell over boolean labels and predictions: variable `count`."""
    _eager_check(kind, message)
    with _scope(name, kind) as scope:
        predictions, labels, weights = _remove_squeezable_dimensions(
            tf.cast(predictions, tf.bool), tf.cast(labels, tf.bool), weights)
        want_label, want_prediction = {"true_positives": (True, True), "false_positives": (False, True),
                                       "true_negatives": (False, False), "false_negatives": (True, False)}[kind]
        is_kind = tf.logical_and(tf.equal(labels, want_label), tf.equal(predictions, want_prediction))
        count = _metric_variable(scope, "count")
        values = tf.cast(is_kind, tf.float32)
        if weights is not None:
            w_rank, v_rank = weights.shape.rank, values.shape.rank
            if w_rank is not None and v_rank is not None and w_rank not in (0, v_rank):
                raise ValueError(f"weights must have rank in (0, {v_rank}), got rank {w_rank}")
            values = values * tf.cast(weights, tf.float32)
        value = tf.identity(count)
        update_op = count.assign_add(tf.reduce_sum(values))
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
            tf.cast(predictions, tf.bool), tf.cast(labels, tf.bool), weights)
        tp, tp_update = true_positives(labels, predictions, weights)
        miss, miss_update = _count(other, labels, predictions, weights, None, None, None)

        def compute(t, m, op_name):
            return tf.where(tf.greater(t + m, 0.), tf.math.divide(t, t + m), 0., name=op_name)
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


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    from tfcompat._api import missing
    raise missing("compat.v1.metrics", attr)
