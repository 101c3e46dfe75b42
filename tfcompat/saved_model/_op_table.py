"""The fixed table of aten ops a tfcompat SavedModel may replay: what `tf.function` records for tensor math.

Derived from the ops the project's tf.function tests, conformance notebooks and the op sweep of
`tests/test_saved_model_security.py` record (that test fails when the saver emits an op missing here). Every op is
pure tensor math on the tensors it is given: none reads or writes files, prints, starts processes or touches process
state beyond the global random generator that random ops draw from. Ops are looked up by exact name in a dict built
from this table, never by attribute access with names read from a file. `empty_like` replays as `zeros_like` (same
schema), so a program cannot return uninitialised memory of the process.
"""
import torch

_NAMES = """
    _foreach_abs _foreach_add.List _foreach_add.Scalar _foreach_add_.List _foreach_add_.Scalar _foreach_div.List
    _foreach_div.Scalar _foreach_div_.List _foreach_maximum_.List _foreach_mul.List _foreach_mul.Scalar
    _foreach_mul.Tensor _foreach_mul_.Scalar _foreach_neg_ _foreach_sub.List _foreach_sub_.List _linalg_det
    _linalg_eigh _linalg_slogdet _linalg_solve_ex _linalg_svd _local_scalar_dense _log_softmax
    _log_softmax_backward_data _softmax _softmax_backward_data _to_copy _unique2 _unsafe_view abs acos add.Tensor
    add_.Tensor addmm alias all all.dim all.dims amax amin aminmax any any.dim any.dims arange arange.start
    arange.start_step argmax argmin asin asinh atan atan2 avg_pool2d avg_pool2d_backward avg_pool3d
    bitwise_and.Tensor bitwise_and_.Tensor bitwise_left_shift.Tensor bitwise_not bitwise_or.Tensor
    bitwise_right_shift.Tensor bitwise_xor.Tensor bmm cat ceil cholesky_solve clamp clone constant_pad_nd
    convolution convolution_backward copy_ cos cosh cumprod cumsum detach diagonal digamma div.Scalar div.Tensor
    elu elu_backward embedding embedding_dense_backward empty_like eq.Scalar eq.Tensor erf erfc erfinv exp expand
    expm1 eye.m flip floor floor_divide full full_like gather ge.Scalar ge.Tensor gelu gelu_backward gt.Scalar
    gt.Tensor hardtanh hardtanh_backward igamma im2col index.Tensor index_add index_copy index_put_ index_select
    isinf isnan le.Scalar le.Tensor leaky_relu leaky_relu_backward lgamma lift_fresh linalg_cholesky_ex
    linalg_cross linalg_inv_ex linalg_lstsq linalg_matrix_exp linalg_pinv.atol_rtol_tensor linalg_qr
    linalg_solve_triangular linalg_vector_norm log log1p log_sigmoid_backward log_sigmoid_forward logcumsumexp
    logical_and logical_not logical_or logical_xor lt.Scalar lt.Tensor max max_pool2d_with_indices
    max_pool2d_with_indices_backward max_pool3d_with_indices maximum mean.dim minimum mm mul.Scalar mul.Tensor
    multinomial nan_to_num ne.Scalar ne.Tensor neg nll_loss_backward nll_loss_forward nonzero ones ones_like permute poisson
    pow.Tensor_Scalar pow.Tensor_Tensor prod.dim_int rand.generator randint.low_generator randn.generator
    randperm.generator reciprocal relu remainder.Scalar remainder.Tensor repeat repeat_interleave.Tensor roll rot90
    round rsqrt rsub.Scalar scalar_tensor scatter_add scatter_reduce.two searchsorted.Tensor select.int
    select_backward sigmoid sigmoid_backward sign silu silu_backward sin sinh slice.Tensor softplus
    softplus_backward sort sort.stable special_i0e special_i1e special_ndtri split.Tensor split_with_sizes sqrt
    squeeze.dim squeeze.dims stack sub.Scalar sub.Tensor sum sum.dim_IntList t tan tanh tanh_backward
    threshold_backward transpose.int trunc unbind.int unsqueeze upsample_bilinear2d view where.self xlogy.Tensor
    zeros zeros_like
"""

NAMES = frozenset("aten::" + n for n in _NAMES.split())

# string arguments: the fixed values each may take ((op, argument) -> allowed set; None stays allowed where optional)
STRINGS = {
    ("aten::_linalg_eigh", "UPLO"): {"L", "U"},
    ("aten::_linalg_svd", "driver"): set(),
    ("aten::gelu", "approximate"): {"none", "tanh"},
    ("aten::gelu_backward", "approximate"): {"none", "tanh"},
    ("aten::linalg_lstsq", "driver"): {"gels", "gelsy", "gelsd", "gelss"},
    ("aten::linalg_qr", "mode"): {"reduced", "complete", "r"},
    ("aten::scatter_reduce.two", "reduce"): {"sum", "prod", "mean", "amax", "amin"},
    ("aten::searchsorted.Tensor", "side"): {"left", "right"},
}

_REPLACED = {"aten::empty_like": "aten::zeros_like"}
_ops = None


def ops():
    """{name: OpOverload} for the table (resolved once, from the constant names above)."""
    global _ops
    if _ops is None:
        table = {}
        for name in NAMES:
            packet, _, overload = _REPLACED.get(name, name)[len("aten::"):].partition(".")
            table[name] = getattr(getattr(torch.ops.aten, packet), overload or "default")
        _ops = table
    return _ops


def _nonzero_bound(x):
    return torch.empty((x.numel(), x.dim()), dtype=torch.int64, device="meta")


def _unique2_bound(x, sorted=True, return_inverse=False, return_counts=False):  # noqa: A002 - aten's names
    n = x.numel()
    return (torch.empty((n,), dtype=x.dtype, device="meta"),
            torch.empty(x.shape if return_inverse else (0,), dtype=torch.int64, device="meta"),
            torch.empty((n,) if return_counts else (0,), dtype=torch.int64, device="meta"))


def _lstsq_shapes(a, b, rcond=None, driver=None):
    return (torch.empty(a.shape[:-2] + (a.shape[-1], b.shape[-1]), dtype=a.dtype, device="meta"),
            *(torch.empty((0,), dtype=t, device="meta") for t in (a.dtype, torch.int64, a.dtype)))


def _index_bound(x, indices):
    """aten::index.Tensor with each boolean mask taken as selecting all its elements."""
    longs = []
    for i in indices:
        if i is not None and i.dtype in (torch.bool, torch.uint8):
            longs += [torch.empty((i.numel(),), dtype=torch.int64, device="meta")] * i.dim()
        else:
            longs.append(i)
    return torch.ops.aten.index.Tensor(x, longs)


# ops whose output size depends on values (the shape check at load uses these upper bounds instead), or that have no
# meta kernel (their output shapes)
DATA_DEPENDENT = {"aten::nonzero": _nonzero_bound, "aten::_unique2": _unique2_bound,
                  "aten::linalg_lstsq": _lstsq_shapes, "aten::index.Tensor": _index_bound}

_MAX_REPEAT_BYTES = 1 << 31


def _checked_repeat_interleave(repeats, output_size=None):
    """aten::repeat_interleave.Tensor, refusing outputs over 2 GiB (its size depends on `repeats`' values)."""
    from tfcompat.framework import errors
    if output_size is None:
        output_size = int(repeats.sum())
    if output_size * 8 > _MAX_REPEAT_BYTES:
        raise errors.InvalidArgumentError(None, None, f"a loaded SavedModel's repeat_interleave would allocate "
                                                      f"{output_size * 8} bytes")
    return torch.ops.aten.repeat_interleave.Tensor(repeats, output_size=output_size)


# the one op name that is not aten's: a `custom` step (a `tf.custom_gradient` call recorded with its gradient program,
# see `tfcompat.eager.function`), which attaches the recorded gradient to values the program computed
CUSTOM_GRADIENT = "tfcompat::custom_gradient"

# what replays in place of an op (same arguments)
RUNTIME = {"aten::repeat_interleave.Tensor": _checked_repeat_interleave}
