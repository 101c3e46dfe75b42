"""`keras.losses`' CTC, Dice, Tversky, Circle and CategoricalGeneralizedCrossEntropy (Keras 3), as Keras computes them.

Each is a function over storages returning (per-sample values, Keras mask or None), registered with
`losses._function` like the other Keras losses; `keras.losses` imports the public names from here.
"""
import torch
import torch.nn.functional as F

from tfcompat.framework.op_def import wrap
from tfcompat.keras.losses import _IMPL, EPSILON, Loss, LossFunctionWrapper, _function
from tfcompat.ops.gather_ops import one_hot_rows


def _ctc(t, p):
    if t.ndim != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` in integer "
                         f"format. Received: y_true.shape={tuple(t.shape)}")
    if p.ndim != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={tuple(p.shape)}")
    from tfcompat.keras.ops._ctc import ctc_loss
    from tfcompat.framework.tensor import storage
    batch, frames = p.shape[0], p.shape[1]
    label_length = (t != 0).sum(-1).to(torch.int32)
    logit_length = torch.full((batch,), frames, dtype=torch.int32)
    return storage(ctc_loss(wrap(t), wrap(p), wrap(label_length), wrap(logit_length), mask_index=0)), None


def _dice(t, p, axis=None):
    t = t.to(p.dtype)
    dims = _dims(axis)
    intersection = _sum(t * p, dims)
    return 1 - (2.0 * intersection) / (_sum(t, dims) + _sum(p, dims) + EPSILON), None


def _tversky(t, p, alpha=0.5, beta=0.5, axis=None):
    t = t.to(p.dtype)
    dims = _dims(axis)
    intersection = _sum(t * p, dims)
    fp = _sum((1 - p) * t, dims)
    fn = _sum(p * (1 - t), dims)
    return 1 - intersection / (intersection + fp * alpha + fn * beta + EPSILON), None


def _dims(axis):
    if axis is None:
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else (int(axis),)


def _sum(x, dims):
    return x.sum() if dims is None else x.sum(dims)


def _circle(t, p, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    from tfcompat.framework.op_def import input_storage
    labels = t.to(torch.int32)
    ref_e = p if ref_embeddings is None else input_storage(ref_embeddings).to(p.dtype)
    ref_l = labels if ref_labels is None else input_storage(ref_labels).to(torch.int32)
    dist = torch.clamp_min(1 - p @ ref_e.T, 0.0)
    q = labels.reshape(-1, 1) if labels.ndim == 1 else labels
    k = ref_l.reshape(-1, 1) if ref_l.ndim == 1 else ref_l
    positive = q == k.T
    negative = ~positive
    if remove_diagonal:
        positive = positive & ~torch.eye(q.numel(), k.numel(), dtype=torch.bool, device=positive.device)
    pos_w = torch.clamp_min((margin + dist) * positive.to(dist.dtype), 0.0)
    neg_w = torch.clamp_min((1 + margin - dist) * negative.to(dist.dtype), 0.0)
    pos = -1 * gamma * pos_w * (margin - dist)
    neg = gamma * neg_w * ((1 - margin) - dist)
    p_loss = torch.logsumexp(torch.where(positive, pos, float("-inf")), 1)
    n_loss = torch.logsumexp(torch.where(negative, neg, float("-inf")), 1)
    loss = F.softplus(p_loss + n_loss)
    return loss, loss > 0


def _generalized_ce(t, p, q):
    one_hot = one_hot_rows(t.to(torch.int64), p.shape[-1]).to(p.dtype)
    prob = (p * one_hot).sum(-1)
    return (1 - torch.pow(prob, q)) / q, None


ctc = _function(_ctc, "ctc", False, "CTC loss of int labels `y_true` (0 pads and is the blank) for logits `y_pred`.")
dice = _function(_dice, "dice", False, "`1 - 2 sum(y_true y_pred) / (sum(y_true) + sum(y_pred) + eps)`.")
tversky = _function(_tversky, "tversky", False, "`1 - TP / (TP + alpha FP + beta FN + eps)`.")
_circle_values = _function(_circle, "circle", False, "")


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    """Circle loss of L2-normalised embeddings `y_pred` with labels `y_true`; as Keras, the result's `_keras_mask`
    marks the non-zero losses."""
    from tfcompat.keras.layers import base      # noqa: F401  (defines Tensor._keras_mask)
    from tfcompat.framework.op_def import input_storage
    out = _circle_values(y_true, y_pred, ref_labels=ref_labels, ref_embeddings=ref_embeddings,
                         remove_diagonal=remove_diagonal, gamma=gamma, margin=margin)
    out._keras_mask = wrap(input_storage(out) > 0)
    return out


_IMPL[circle] = _IMPL.pop(_circle_values)
categorical_generalized_cross_entropy = _function(
    _generalized_ce, "categorical_generalized_cross_entropy", False,
    "`(1 - p_true ** q) / q` of probabilities `y_pred` for integer labels `y_true`.")


class CTC(LossFunctionWrapper):
    """Keras 3's CTC loss (`keras.losses.ctc`)."""

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)


class Dice(LossFunctionWrapper):
    """Keras 3's Dice loss."""

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"axis": self.axis})
        return config


class Tversky(LossFunctionWrapper):
    """Keras 3's Tversky loss."""

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky", axis=None, dtype=None):
        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha, beta=beta, axis=axis)
        self.alpha, self.beta, self.axis = alpha, beta, axis

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"alpha": self.alpha, "beta": self.beta, "axis": self.axis})
        return config


class Circle(LossFunctionWrapper):
    """Keras 3's Circle loss (pairs of the batch; losses of 0 are masked out of the mean)."""

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True, reduction="sum_over_batch_size", name="circle",
                 dtype=None):
        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma, margin=margin,
                         remove_diagonal=remove_diagonal)
        self.gamma, self.margin, self.remove_diagonal = gamma, margin, remove_diagonal

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"gamma": self.gamma, "margin": self.margin, "remove_diagonal": self.remove_diagonal})
        return config


class CategoricalGeneralizedCrossEntropy(LossFunctionWrapper):
    """Keras 3's generalized cross-entropy (noise-robust; q -> 0 is cross-entropy, q = 1 is MAE)."""

    def __init__(self, q=0.5, reduction="sum_over_batch_size", name="categorical_generalized_cross_entropy",
                 dtype=None):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction, dtype=dtype, q=q)
        self.q = q

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"q": self.q})
        return config


CLASSES = (CTC, Dice, Tversky, Circle, CategoricalGeneralizedCrossEntropy)
FUNCTIONS = (ctc, dice, tversky, circle, categorical_generalized_cross_entropy)
