"""`tf.extract_volume_patches`: TF's ExtractVolumePatches, the 3-D `extract_patches` (no rates).

Input `[batch, planes, rows, cols, depth]`; each output position holds its `kp x kr x kc` patch flattened in
(plane, row, column, depth) order; SAME pads zeros (the smaller half before), VALID drops partial patches. An unfold
of the padded input, so tapes differentiate it (a scatter-add back to the input) and traces record it.
"""
import torch
import torch.nn.functional as F

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor import device_name

_OP = "ExtractVolumePatches"
_TYPES = (torch.float32, torch.float64, torch.int32, torch.uint8, torch.int16, torch.int8, torch.int64,
          torch.bfloat16, torch.uint16, torch.float16, torch.uint32, torch.uint64)
_SIG = ("Op<name=ExtractVolumePatches; signature=input:T -> patches:T; attr=ksizes:list(int),min=5; "
        "attr=strides:list(int),min=5; attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, "
        "DT_INT64, DT_BFLOAT16, DT_UINT16, DT_HALF, DT_UINT32, DT_UINT64]; "
        "attr=padding:string,allowed=[\"SAME\", \"VALID\"]>")
_ALLOWED = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"


def _attr_fail(msg):
    return errors.op_error(errors.InvalidArgumentError, f"{msg}\n\t; NodeDef: {{{{node {_OP}}}}}; {_SIG}", _OP)


def _kernel_fail(cls, msg, t):
    return errors.kernel_error(cls, msg, _OP, device_name(t.device))


@tf_export("extract_volume_patches")
def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """Patches of a 5-D input: `[batch, out_planes, out_rows, out_cols, kp * kr * kc * depth]`."""
    ks, st = [int(k) for k in ksizes], [int(s) for s in strides]
    for attr, v in (("ksizes", ks), ("strides", st)):
        if len(v) < 5:
            raise _attr_fail(f"Length for attr '{attr}' of {len(v)} must be at least minimum 5")
    if padding not in ("SAME", "VALID"):
        raise _attr_fail(f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: \"SAME\", "
                         "\"VALID\"")
    t = input_storage(input)
    if type(t) is not torch.Tensor or t.dtype not in _TYPES:
        got = type_name(t.dtype) if type(t) is torch.Tensor else "string"
        raise _attr_fail(f"Value for attr 'T' of {got} is not in the list of allowed values: {_ALLOWED}")
    if ks[0] != 1 or ks[4] != 1:
        raise _kernel_fail(errors.UnimplementedError, "Only support ksizes across space.", t)
    if st[0] != 1 or st[4] != 1:
        raise _kernel_fail(errors.UnimplementedError, "Only support strides across space.", t)
    if t.dim() != 5:
        raise _kernel_fail(errors.InvalidArgumentError,
                           "input must be 5-dimensional[" + ",".join(str(d) for d in t.shape) + "]", t)
    outs, pads = [], []
    for size, k, s in zip(t.shape[1:4], ks[1:4], st[1:4]):
        if padding == "VALID":
            out = (size - k + s) // s
            if out < 0:
                raise _kernel_fail(errors.InvalidArgumentError,
                                   f"Computed output size would be negative: {out} [input_size: {size}, "
                                   f"effective_filter_size: {k}, stride: {s}]", t)
            pads.append((0, 0))
        else:
            out = -(-size // s)
            total = max((out - 1) * s + k - size, 0)
            pads.append((total // 2, total - total // 2))
        outs.append(out)
    n, depth = t.shape[0], t.shape[4]
    if 0 in outs or n == 0:
        return wrap(torch.zeros((n, *outs, ks[1] * ks[2] * ks[3] * depth), dtype=t.dtype, device=t.device))
    x = t
    if any(p != (0, 0) for p in pads):
        flat = [0, 0] + [v for p in reversed(pads) for v in p]
        x = F.pad(t.to(torch.float64) if t.dtype in (torch.uint16, torch.uint32, torch.uint64) else t, flat)
        x = x.to(t.dtype)
    for axis, (k, s) in enumerate(zip(ks[1:4], st[1:4]), start=1):
        x = x.unfold(axis, k, s)                       # -> [n, op, or, oc, depth, kp, kr, kc]
    x = x[:, :outs[0], :outs[1], :outs[2]]
    return wrap(x.permute(0, 1, 2, 3, 5, 6, 7, 4).reshape(n, *outs, -1))
