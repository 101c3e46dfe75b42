"""`tf.nn`'s losses: softmax/sigmoid cross entropies, l2 and Poisson losses, distributed loss scaling."""
import math

import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    check_dtype, input_storage, int_value, kernel_error, same_dtype_inputs, type_name, wrap)
from tfcompat.ops._nn_common import _dims, _float_input, _op_error


@tf_export("nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits, axis), axis); gradients flow to labels too (TF2)."""
    lg = _float_input(logits, "SoftmaxCrossEntropyWithLogits")
    lb = _like_input(labels, lg, "SoftmaxCrossEntropyWithLogits")
    if lb.shape != lg.shape:
        try:
            torch.broadcast_shapes(lb.shape, lg.shape)
        except RuntimeError:
            raise _op_error(f"logits and labels must be broadcastable: logits_size={_dims(lg)} "
                            f"labels_size={_dims(lb)}", "SoftmaxCrossEntropyWithLogits") from None
        full = torch.broadcast_shapes(lb.shape, lg.shape)
        if full != lg.shape and lg.ndim:    # TF reshapes the broadcast loss to the logits' outer shape, and fails
            raise kernel_error(errors.InvalidArgumentError, f"Input to reshape is a tensor with "
                               f"{_outer(full, int(axis))} values, but the requested shape has "
                               f"{_outer(lg.shape, int(axis))}", "Reshape", lg)
        lb = lb.expand(lg.shape)
    return wrap(softmax_xent(lb, lg, int(axis)))


def softmax_xent(labels, logits, axis):
    """Storage-level TF softmax cross entropy (labels, logits same shape): its gradient is TF's softmax - labels, which
    differs from the exact one when the labels do not sum to 1 (Keras's categorical losses from logits use it too)."""
    return _SoftmaxXent.apply(labels, logits, axis)


def _outer(shape, axis):
    """The number of elements of `shape` without its `axis` dimension."""
    axis %= len(shape)
    return math.prod(d for i, d in enumerate(shape) if i != axis)


class _SoftmaxXent(torch.autograd.Function):
    """TF's kernel: loss sum(labels * (logsumexp(shifted) - shifted)), shifted = logits - max; d/dlogits = softmax - labels (TF assumes the
    labels sum to 1), d/dlabels = -log_softmax."""

    @staticmethod
    def forward(ctx, labels, logits, axis):
        shifted = logits - logits.amax(axis, keepdim=True) if logits.numel() else logits
        neg_logp = torch.log(torch.exp(shifted).sum(axis, keepdim=True)) - shifted    # as TF's kernel: +0 for a
        ctx.save_for_backward(labels, -neg_logp)                                       # certain class, never -0
        ctx.axis = axis
        return (labels * neg_logp).sum(axis)

    @staticmethod
    def backward(ctx, grad):
        labels, logp = ctx.saved_tensors
        g = grad.unsqueeze(ctx.axis)
        d_labels = -g * logp if ctx.needs_input_grad[0] else None
        d_logits = g * (torch.exp(logp) - labels) if ctx.needs_input_grad[1] else None
        return d_labels, d_logits, None


@tf_export("nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[labels] over the last axis; labels out of [0, classes) raise on CPU, give NaN elsewhere."""
    op = "SparseSoftmaxCrossEntropyWithLogits"
    lg = _float_input(logits, op)
    lb = input_storage(labels)
    check_dtype(lb, op, frozenset([torch.int32, torch.int64]))
    if lg.ndim == 0 or tuple(lb.shape) != tuple(lg.shape[:-1]):
        raise ValueError("`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                         f"labels.shape={tuple(lb.shape)} and logits.shape={tuple(lg.shape)}")
    rows = sparse_xent_rows(lg, lb.reshape(-1).long(), lb.dtype is torch.int64, lambda msg: _op_error(msg, op))
    return wrap(rows.reshape(lb.shape))


_NO_LABEL = -2 ** 63        # cross_entropy's ignore_index: a label value that only int64 (or cast) labels can take


def sparse_xent_rows(logits, labels, may_hold_int64_min, error):
    """TF's SparseSoftmaxCrossEntropyWithLogits kernel on `logits` (classes last) and 1-D int64 `labels` (one per
    row of logits): each row's -log_softmax(logits)[label]; a label outside [0, classes) raises `error(TF's
    message)` on the CPU and gives NaN elsewhere. On the CPU, cross_entropy's own bounds check finds a bad label (no
    extra pass over the labels): its ignore_index is int64's minimum, looked for first where the labels can hold it
    (`may_hold_int64_min`)."""
    classes = logits.shape[-1]
    if classes == 0:                        # TF's kernel sees the logits as [rows, classes]
        raise error(f"Must have at least one class, but got logits shape [{labels.numel()},0]")
    logits = logits.reshape(-1, classes)
    if not labels.numel():
        return F.cross_entropy(logits, labels, reduction="none")
    if labels.device.type != "cpu":         # a CUDA kernel's bounds check is a device assert: NaN, as TF's GPU kernel
        bad = (labels < 0) | (labels >= classes)
        loss = F.cross_entropy(logits, labels.clamp(0, classes - 1), reduction="none")
        return torch.where(bad, float("nan"), loss)
    if may_hold_int64_min and bool((labels == _NO_LABEL).any()):   # a bool: a traced step's guard holds
        raise error(_label_message(labels, classes))
    try:
        return F.cross_entropy(logits, labels, reduction="none", ignore_index=_NO_LABEL)
    except IndexError:
        raise error(_label_message(labels, classes)) from None


def _label_message(labels, classes):
    first = int(labels[(labels < 0) | (labels >= classes)][0])
    values = " ".join(str(v) for v in labels.tolist())
    return (f"Received a label value of {first} which is outside the valid range of [0, {classes}).  "
            f"Label values: {values}")


def _like_input(value, t, op):
    """An input that must have the dtype of `t` (Python values convert to it; tensors must match)."""
    v = input_storage(value, dtypes.FROM_STORAGE[t.dtype])
    if v.dtype is not t.dtype:
        raise _op_error(f"cannot compute {op} as input #1(zero-based) was expected to be a {type_name(t.dtype)} "
                        f"tensor but is a {type_name(v.dtype)} tensor", op)
    return v


def _same_shape_pair(labels, logits, names=("logits", "labels")):
    lg = _float_input(logits, "Mul")
    lb = _like_input(labels, lg, "Mul")
    if lb.shape != lg.shape:
        raise ValueError(f"`{names[0]}` and `{names[1]}` must have the same shape, received ({_shape_str(lg)} vs "
                         f"{_shape_str(lb)}).")
    return lb, lg


def _shape_str(t):
    return str(tuple(t.shape))


@tf_export("nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z (both pieces picked by `x >= 0`, as TF
    does: the gradient at x = 0 is sigmoid(0) - z, not the subgradient -z)."""
    z, x = _same_shape_pair(labels, logits)
    nonneg = x >= 0
    return wrap(torch.where(nonneg, x, 0.0) - x * z + torch.log1p(torch.exp(torch.where(nonneg, -x, x))))


@tf_export("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """(1 - z) x + (1 + (q - 1) z) (log(1 + exp(-|x|)) + max(-x, 0)) for logits x, labels z, pos_weight q."""
    z, x = _same_shape_pair(labels, logits)
    q = input_storage(pos_weight, dtypes.FROM_STORAGE[x.dtype])
    log_weight = 1 + (q - 1) * z
    return wrap((1 - z) * x + log_weight * (torch.log1p(torch.exp(-torch.abs(x))) + torch.relu(-x)))


@tf_export("nn.l2_loss")
def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    s = _float_input(t, "L2Loss")
    return wrap(torch.sum(s * s) / 2)


@tf_export("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets, plus Stirling's term for targets > 1 if `compute_full_loss`."""
    c, lg = _same_shape_pair(targets, log_input, ("log_input", "targets"))
    loss = torch.exp(lg) - lg * c
    if compute_full_loss:
        stirling = c * torch.log(c) - c + 0.5 * torch.log(2 * math.pi * c)
        loss = loss + torch.where((c >= 0) & (c <= 1), torch.zeros_like(c), stirling)
    return wrap(loss)


_replicas_for_loss = []    # registered by tfcompat.distribute: (api name) -> replicas in sync of the strategy


def _num_replicas(api):
    """Replicas in sync (1 outside tf.distribute); TF's RuntimeError in a strategy's cross-replica context."""
    return _replicas_for_loss[0](api) if _replicas_for_loss else 1


@tf_export("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (default: batch size x replicas in sync)."""
    # TF asks the strategy (and refuses a cross-replica context) only for the default global batch size
    replicas = _num_replicas("compute_average_loss") if global_batch_size is None else 1
    t = input_storage(per_example_loss)
    if t.ndim == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={wrap(t).numpy()} with rank 0")
    if not (t.is_floating_point() or t.is_complex()):
        t = t.to(torch.float64)
    if sample_weight is not None:
        w = input_storage(sample_weight, dtypes.FROM_STORAGE[t.dtype])
        t = t * w.to(t.dtype)
    n = t.shape[0] * replicas if global_batch_size is None else int_value(global_batch_size)
    total = torch.sum(t)
    return wrap(total / n if n else torch.zeros_like(total))      # TF's div_no_nan


@tf_export("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
    """The sum of the regularization losses divided by the number of replicas (1 outside a strategy)."""
    replicas = _num_replicas("scale_regularization_loss")
    if isinstance(regularization_loss, (list, tuple)):
        ts = same_dtype_inputs(regularization_loss, "AddN")
        total = torch.sum(ts[0] if len(ts) == 1 else torch.stack([t.reshape(()) for t in ts]).sum())
    else:
        total = torch.sum(input_storage(regularization_loss))
    return wrap(total / replicas if replicas > 1 else total)
