"""TF1 signatures of the reductions and `argmax`/`argmin`: `keep_dims`, `reduction_indices` and `dimension` as
deprecated spellings of `keepdims` and `axis` (TF's `deprecated_argument_lookup`), over the TF2 ops (looked up in
`EXPORTS` at each call, so that TF1 graph mode's wrappers of them apply)."""
from tfcompat.framework import dtypes
from tfcompat.framework.export import EXPORTS


def deprecated_argument_lookup(new_name, new_value, old_name, old_value):
    """TF's `deprecated_argument_lookup`: the one of the two spellings given, ValueError if both are."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old_value
    return new_value


def _reduction(op_name):
    def reduction(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        axis = deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
        keepdims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
        return EXPORTS[op_name](input_tensor, axis=axis, keepdims=bool(keepdims), name=name)
    reduction.__name__ = reduction.__qualname__ = op_name
    reduction.__doc__ = f"`tf.compat.v1.{op_name}`: `tf.{op_name}` taking TF1's `keep_dims`/`reduction_indices`."
    return reduction


reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, reduce_any, reduce_all, reduce_logsumexp = (
    _reduction(n) for n in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
                            "reduce_all", "reduce_logsumexp"))


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002  (TF's argument name)
    """`tf.compat.v1.count_nonzero`: TF1's spellings `keep_dims`, `reduction_indices` and `input`."""
    axis = deprecated_argument_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    input_tensor = deprecated_argument_lookup("input_tensor", input_tensor, "input", input)
    return EXPORTS["math.count_nonzero"](input_tensor, axis=axis, keepdims=bool(keepdims), dtype=dtype, name=name)


def _arg_reduction(op_name):
    def arg_reduction(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
        axis = deprecated_argument_lookup("axis", axis, "dimension", dimension)
        return EXPORTS[op_name](input, axis=0 if axis is None else axis, output_type=output_type,
                                          name=name)
    arg_reduction.__name__ = arg_reduction.__qualname__ = op_name
    arg_reduction.__doc__ = f"`tf.compat.v1.{op_name}`: `tf.{op_name}` taking TF1's `dimension`."
    return arg_reduction


argmax, argmin = _arg_reduction("argmax"), _arg_reduction("argmin")
