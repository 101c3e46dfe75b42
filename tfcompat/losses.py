"""`tf.losses`: in TF 2 an alias of `tf.keras.losses`; also TF 1.x's loss functions that run eagerly.

TF 1.x code such as `tf.losses.sparse_softmax_cross_entropy(labels, logits)`
(the seed blog) keeps working: those functions have TF 1's signatures and its
default reduction, SUM_BY_NONZERO_WEIGHTS (the weighted sum divided by the
number of non-zero weights).
"""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.framework.tensor_shape import TensorShape


class Reduction:
    """TF 1.x `tf.losses.Reduction` names."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)


def _reduce(losses, weights, reduction):
    w = input_storage(weights).to(losses.dtype) if not isinstance(weights, (int, float)) else \
        torch.tensor(float(weights), dtype=losses.dtype, device=losses.device)
    weighted = losses * w
    if reduction == Reduction.NONE:
        return weighted
    total = torch.sum(weighted)
    if reduction == Reduction.SUM:
        return total
    if reduction == Reduction.MEAN:
        return total / torch.sum(torch.broadcast_to(w, losses.shape))
    if reduction == Reduction.SUM_OVER_BATCH_SIZE:
        return total / losses.numel()
    if reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
        nonzero = torch.count_nonzero(torch.broadcast_to(w, losses.shape)).to(losses.dtype)
        return torch.where(nonzero > 0, total / torch.clamp(nonzero, min=1), torch.zeros_like(total))
    raise ValueError(f"Invalid Reduction Key {reduction}.")


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=None,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: cross-entropy of integer `labels` against `logits`, reduced as `reduction` says."""
    from tfcompat.ops.nn_loss_ops import sparse_softmax_cross_entropy_with_logits
    losses = storage(sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    return _wrap(_reduce(losses, weights, reduction))


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None, loss_collection=None,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: cross-entropy of one-hot `onehot_labels` against `logits`."""
    from tfcompat.ops.nn_loss_ops import softmax_cross_entropy_with_logits
    labels = input_storage(onehot_labels).to(input_storage(logits).dtype)
    if label_smoothing:
        n = labels.shape[-1]
        labels = labels * (1 - label_smoothing) + label_smoothing / n
    losses = storage(softmax_cross_entropy_with_logits(labels=_wrap(labels), logits=logits))
    return _wrap(_reduce(losses, weights, reduction))


def _pair(labels, predictions, dtype=torch.float32):
    """TF 1.x losses' inputs: `predictions` cast (to float32 where TF casts), `labels` to its dtype, shapes checked
    compatible as TF's `assert_is_compatible_with` does."""
    p = input_storage(predictions)
    p = p if dtype is None else p.to(dtype)
    y = input_storage(labels).to(p.dtype)
    TensorShape(tuple(p.shape)).assert_is_compatible_with(TensorShape(tuple(y.shape)))
    return y, p


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=None,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: `losses` times `weights`, reduced as `reduction` says."""
    return _wrap(_reduce(input_storage(losses), weights, reduction))


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: squared error of `predictions` against `labels`."""
    y, p = _pair(labels, predictions)
    return _wrap(_reduce(torch.square(p - y), weights, reduction))


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: |predictions - labels|."""
    y, p = _pair(labels, predictions)
    return _wrap(_reduce(torch.abs(p - y), weights, reduction))


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=None,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: -labels * log(predictions + epsilon) - (1 - labels) * log(1 - predictions + epsilon)."""
    y, p = _pair(labels, predictions)
    losses = -y * torch.log(p + epsilon) - (1 - y) * torch.log(1 - p + epsilon)
    return _wrap(_reduce(losses, weights, reduction))


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=None,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: 0.5 * e**2 where |e| <= delta, delta * (|e| - 0.5 * delta) beyond (e = predictions - labels)."""
    y, p = _pair(labels, predictions)
    error = torch.abs(p - y)
    quadratic = torch.clamp(error, max=delta)
    return _wrap(_reduce(0.5 * quadratic * quadratic + delta * (error - quadratic), weights, reduction))


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=None,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: relu(1 - (2 * labels - 1) * logits), `labels` in {0, 1}."""
    y, x = _pair(labels, logits, dtype=None)
    return _wrap(_reduce(torch.relu(1 - (2 * y - 1) * x), weights, reduction))


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=None, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: sigmoid cross-entropy of `logits`, labels smoothed toward 1/2 by `label_smoothing`."""
    from tfcompat.ops.nn_loss_ops import sigmoid_cross_entropy_with_logits
    y, x = _pair(multi_class_labels, logits, dtype=None)
    if label_smoothing:
        y = y * (1 - label_smoothing) + 0.5 * label_smoothing
    losses = storage(sigmoid_cross_entropy_with_logits(labels=_wrap(y), logits=_wrap(x)))
    return _wrap(_reduce(losses, weights, reduction))


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=None,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """TF 1.x: 1 - sum(labels * predictions) along `axis` (inputs expected unit-normalized)."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'.")
        axis = dim
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    y, p = _pair(labels, predictions)
    losses = 1 - torch.sum(y * p, dim=int(axis), keepdim=True)
    return _wrap(_reduce(losses, weights, reduction))


def __getattr__(attr):
    from tfcompat.keras import losses
    try:
        return getattr(losses, attr)
    except AttributeError:
        from tfcompat._api import missing
        raise missing("losses", attr) from None
