"""`tf.random.stateless_binomial`: TF's StatelessRandomBinomial op (its CPU kernel's values, `_binomial_kernel`),
with the Python wrapper's conversions (`probs` to float32 by default, `counts` to `probs`' dtype) and the op's
errors. `keras.random.binomial` draws through it."""
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import int_list, wrap
from tfcompat.framework.tensor import storage
from tfcompat.ops import _binomial_kernel

_OP = "StatelessRandomBinomial"
_WRAPPED = "{{function_node __wrapped__StatelessRandomBinomial_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_TF_NAMES = {"float16": "HALF", "float32": "FLOAT", "float64": "DOUBLE", "int32": "INT32", "int64": "INT64"}
_SIGNATURE = (
    "Op<name=StatelessRandomBinomial; signature=shape:S, seed:Tseed, counts:T, probs:T -> output:dtype; "
    "attr=S:type,allowed=[DT_INT32, DT_INT64]; attr=Tseed:type,default=DT_INT64,allowed=[DT_INT32, DT_INT64]; "
    "attr=T:type,default=DT_DOUBLE,allowed=[DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64]; "
    "attr=dtype:type,default=DT_INT64,allowed=[DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64]>")


_C_NAMES = {"float16": "half", "float32": "float", "float64": "double"}     # TF's attr errors name C types


def _attr_error(attr, dtype, allowed):
    kind = _C_NAMES.get(dtype.name, dtype.name)
    return errors.op_error(errors.InvalidArgumentError, f"Value for attr '{attr}' of {kind} is not in the list "
                           f"of allowed values: {allowed}\n\t; NodeDef: {{{{node {_OP}}}}}; {_SIGNATURE}", _OP, None)


@tf_export("random.stateless_binomial")
def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) samples of `shape` (which must end with the parameters' broadcast shape), a
    deterministic function of `seed`: TF's values."""
    out_dtype = dtypes.as_dtype(output_dtype)
    probs = convert_to_tensor(probs, dtype_hint=dtypes.float32)
    counts = convert_to_tensor(counts, dtype_hint=probs.dtype)
    seed = convert_to_tensor(seed)
    if out_dtype not in _TYPES:
        raise _attr_error("dtype", out_dtype, "half, float, double, int32, int64")
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise _attr_error("Tseed", seed.dtype, "int32, int64")
    if counts.dtype.is_integer:         # the op's T comes from `counts`; TF registers no integer kernel
        kernels = "".join(f"  device='CPU'; dtype in [DT_{o}]; T in [DT_{t}]\n" for o in (
            "INT64", "INT32", "DOUBLE", "FLOAT", "HALF") for t in ("DOUBLE", "FLOAT", "HALF"))
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node {_OP}}}}} = {_OP}"
                              f"[S=DT_INT32, T=DT_{_TF_NAMES[counts.dtype.name]}, Tseed=DT_{_TF_NAMES[seed.dtype.name]}"
                              f", dtype=DT_{_TF_NAMES[out_dtype.name]}]\nAll kernels registered for op {_OP}:\n"
                              + kernels, _OP, None)
    pair = storage(seed)
    if tuple(pair.shape) != (2,):
        raise errors.op_error(errors.InvalidArgumentError, _WRAPPED + "seed must have shape [2], not "
                              f"[{','.join(map(str, pair.shape))}]", _OP, None)
    dims = int_list(shape)
    n = storage(counts).cpu().numpy()
    p = storage(probs).cpu().numpy().astype(n.dtype)
    try:
        params = list(torch.broadcast_shapes(tuple(n.shape), tuple(p.shape)))
    except RuntimeError:
        raise errors.op_error(errors.InvalidArgumentError, _WRAPPED + "counts and probs must have compatible batch "
                              f"dimensions: {list(n.shape)} vs. {list(p.shape)}", _OP, None) from None
    if len(params) > len(dims) or params != dims[len(dims) - len(params):]:
        raise errors.op_error(errors.InvalidArgumentError, _WRAPPED + "Shape passed in must end with broadcasted "
                              "shape.", _OP, None)
    draw = _binomial_kernel.sample(dims, [int(v) for v in pair.tolist()], n, p)
    return wrap(torch.from_numpy(draw).to(out_dtype.torch_dtype).to(current_device()))
