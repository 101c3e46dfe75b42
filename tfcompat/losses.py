"""`tf.losses`: in TF 2 an alias of `tf.keras.losses`; also TF 1.x's loss functions that run eagerly.

TF 1.x code such as `tf.losses.sparse_softmax_cross_entropy(labels, logits)`
(the seed blog) keeps working: those functions have TF 1's signatures and its
default reduction, SUM_BY_NONZERO_WEIGHTS (the weighted sum divided by the
number of non-zero weights).
"""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage


class Reduction:
    """TF 1.x `tf.losses.Reduction` names."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS


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


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=None,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """TF 1.x: squared error of `predictions` against `labels`."""
    p = input_storage(predictions)
    y = input_storage(labels).to(p.dtype)
    return _wrap(_reduce(torch.square(p - y), weights, reduction))


def __getattr__(attr):
    from tfcompat.keras import losses
    try:
        return getattr(losses, attr)
    except AttributeError:
        from tfcompat._api import missing
        raise missing("losses", attr) from None
