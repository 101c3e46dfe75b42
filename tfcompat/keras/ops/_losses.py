"""`keras.ops` cross-entropies (`binary_crossentropy`, `categorical_crossentropy`, `sparse_categorical_crossentropy`):
elementwise / per-sample values as Keras's TF backend computes them (from logits through TF's softmax-xent kernel)."""
import torch
import torch.nn.functional as F

from tfcompat.framework.tensor import _wrap
from tfcompat.keras.ops._common import _floating, _pair, _st
from tfcompat.ops.nn_loss_ops import softmax_xent
from tfcompat.ops.gather_ops import one_hot_rows

_EPS = 1e-7


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy (probabilities clipped to `[eps, 1 - eps]`)."""
    t, o = _pair(target, output)
    if from_logits:
        return _wrap(F.binary_cross_entropy_with_logits(o, t, reduction="none"))
    o = torch.clamp(o, _EPS, 1.0 - _EPS)
    return _wrap(-(t * torch.log(o) + (1.0 - t) * torch.log(1.0 - o)))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    t, o = _pair(target, output)
    if from_logits:
        return _wrap(softmax_xent(t, o, axis))
    o = o / torch.sum(o, dim=axis, keepdim=True)
    o = torch.clamp(o, _EPS, 1.0 - _EPS)
    return _wrap(-torch.sum(t * torch.log(o), dim=axis))


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    o = _floating(_st(output))
    t = _st(target).long()
    if t.ndim == o.ndim and t.shape[-1] == 1:
        t = t.squeeze(-1)
    return categorical_crossentropy(_wrap(one_hot_rows(t, o.shape[axis]).to(o.dtype)), _wrap(o), from_logits, axis)
