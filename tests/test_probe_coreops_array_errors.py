"""Shape-op errors of typical mistakes, with the text TF 2.21's eager kernels raise (recorded from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf

_DEV = "/job:localhost/replica:0/task:0/device:CPU:0"
X = tf.reshape(tf.range(12), [3, 4])


def _k(wrapped, message, op=None, name=None):
    op = op or wrapped
    tail = f"[Op:{op}]" if name is None else f"[Op:{op}] name: {name}"
    return f"{{{{function_node __wrapped__{wrapped}_device_{_DEV}}}}} {message} {tail}"


CASES = [
    (lambda: tf.reshape(X, [-2, 6]), _k("Reshape", "Size 0 must be non-negative, not -2")),
    (lambda: tf.reshape(X, [-1, -1]), _k("Reshape", "Only one input size may be -1, not both 0 and 1")),
    (lambda: tf.reshape(X, [5, -1]), _k("Reshape", "Input to reshape is a tensor with 12 values, but the requested "
                                                   "shape requires a multiple of 5")),
    (lambda: tf.reshape(X, [5]), _k("Reshape", "Input to reshape is a tensor with 12 values, but the requested shape "
                                               "has 5")),
    (lambda: tf.transpose(X, [0, 2]), _k("Transpose", "2 is out of range [0 .. 2)")),
    (lambda: tf.transpose(X, [0, -3]), _k("Transpose", "-1 is out of range [0 .. 2)")),
    (lambda: tf.transpose(X, [0, 0]), _k("Transpose", "1 is missing from {0,0}.")),
    (lambda: tf.transpose(X, [1]), _k("Transpose", "transpose expects a vector of size 2. But input(1) is a vector of "
                                                   "size 1")),
    (lambda: tf.squeeze(X, 3), _k("Squeeze", "Tried to squeeze dim index 3 for tensor with 2 dimensions.", name="")),
    (lambda: tf.squeeze(X, 1), _k("Squeeze", "Can not squeeze dim[1], expected a dimension of 1, got 4", name="")),
    (lambda: tf.expand_dims(X, 4), _k("ExpandDims", "Tried to expand dim index 4 for tensor with 2 dimensions.",
                                      name="")),
    (lambda: tf.broadcast_to([1, 2, 3], [3, 2]), _k("BroadcastTo", "Incompatible shapes: [3] vs. [3,2]")),
    # a list input runs TF's fallback path, which reports no name; tensors take the fast path, which does
    (lambda: tf.broadcast_dynamic_shape([2, 3], [4, 3]), _k("BroadcastArgs", "Incompatible shapes: [2,3] vs. [4,3]")),
    (lambda: tf.broadcast_dynamic_shape(tf.constant([2, 3]), tf.constant([4, 3])),
     _k("BroadcastArgs", "Incompatible shapes: [2,3] vs. [4,3]", name="")),
    (lambda: tf.concat([1, 2], 0), _k("ConcatV2_N_2", "ConcatOp : Can't concatenate scalars (use tf.stack instead)",
                                      "ConcatV2", "concat")),
    (lambda: tf.concat([X, X], 3), _k("ConcatV2_N_2", "ConcatOp : Expected concatenating dimensions in the range "
                                                      "[-2, 2), but got 3", "ConcatV2", "concat")),
    (lambda: tf.concat([X, X, tf.zeros([3], tf.int32)], 0),
     _k("ConcatV2_N_3", "ConcatOp : Ranks of all input tensors should match: shape[0] = [3,4] vs. shape[2] = [3]",
        "ConcatV2", "concat")),
    (lambda: tf.concat([X, tf.zeros([2, 3], tf.int32)], 0),
     _k("ConcatV2_N_2", "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [3,4] vs. shape[1] = [2,3]",
        "ConcatV2", "concat")),
    (lambda: tf.stack([X, X, tf.zeros([2], tf.int32)]),
     _k("Pack_N_3", "Shapes of all inputs must match: values[0].shape = [3,4] != values[2].shape = [2]", "Pack",
        "stack")),
    (lambda: tf.split(X, 2, axis=3), _k("Split_num_split_2", "-input rank(-2) <= split_dim < input rank (2), but got 3",
                                        "Split", "split")),
    (lambda: tf.split(X, [1, 3], axis=3), _k("SplitV_num_split_2", "-input rank(-2) <= split_dim < input rank (2), "
                                                                   "but got 3", "SplitV", "split")),
    (lambda: tf.split(X, 3, axis=1), _k("Split_num_split_3", "Number of ways to split should evenly divide the split "
                                                             "dimension, but got split_dim 1 (size = 4) and num_split 3",
                                        "Split", "split")),
    (lambda: tf.split(X, [1, -1, -1], axis=1), _k("SplitV_num_split_3", "There can only be one -1 in the input.",
                                                  "SplitV", "split")),
    (lambda: tf.split(X, [1, 2], axis=1),
     _k("SplitV_num_split_2", "Determined shape must either match input shape along split_dim exactly if fully "
                              "specified, or be less than the size of the input along split_dim if not fully "
                              "specified.  Got: 3", "SplitV", "split")),
    (lambda: tf.tile(X, [2]), _k("Tile", "Expected multiples argument to be a vector of length 2 but got length 1")),
    (lambda: tf.pad(X, [[1, 1]]), _k("Pad", "The first dimension of paddings must be the rank of inputs[1,2] [3,4]")),
    (lambda: tf.pad(X, [[-1, 1], [0, 0]]), _k("Pad", "Paddings must be non-negative: -1 1")),
    (lambda: tf.pad(X, [[3, 0], [0, 0]], mode="REFLECT"),
     _k("MirrorPad", "paddings must be less than the dimension size: 3, 0 not less than 3")),
    (lambda: tf.pad(X, [[4, 0], [0, 0]], mode="SYMMETRIC"),
     _k("MirrorPad", "paddings must be no greater than the dimension size: 4, 0 greater than 3")),
    (lambda: tf.slice(X, [0, 0], [5, 1]), _k("Slice", "Expected size[0] in [0, 3], but got 5")),
    (lambda: tf.slice(X, [4, 0], [1, 1]), _k("Slice", "Expected begin[0] in [0, 3], but got 4")),
    (lambda: tf.reverse(X, [2]), _k("ReverseV2", "'axis'[0] = 2 is out of valid range [0, 1")),
    (lambda: tf.roll(X, [1, 2], [0]), _k("Roll", "shift and axis must have the same size")),
    (lambda: tf.roll(X, 1, 3), _k("Roll", "axis 3 is out of range", name="")),
    (lambda: tf.roll([1, 2, 3], 1, 1), _k("Roll", "axis 1 is out of range")),
    (lambda: tf.ensure_shape(X, [2, 4]), _k("EnsureShape", "Shape of tensor input [3,4] is not compatible with "
                                                           "expected shape [2,4].", name="")),
    (lambda: tf.range(0, 10, 0), _k("Range", "Requires delta != 0: 0", name="")),
    (lambda: tf.range(10, 0, 1), _k("Range", "Requires start <= limit when delta > 0: 10/0", name="")),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_kernel_errors(case):
    call, message = CASES[case]
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == message  # TF 2.21


def test_split_zero_ways():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.split(X, 0, 1)
    assert str(e.value) == (  # TF 2.21: the attr check, without the kernel prefix
        "Value for attr 'num_split' of 0 must be at least minimum 1\n\t; NodeDef: {{node Split}}; Op<name=Split; "
        "signature=split_dim:int32, value:T -> output:num_split*T; attr=num_split:int,min=1; attr=T:type> "
        "[Op:Split] name: split")


def test_transpose_negative_perm():
    # TF 2.21 adds the rank to a negative entry once
    assert tf.transpose(X, [-1, 0]).shape == (4, 3)
    assert tf.transpose(X, [0, -1]).numpy().tolist() == X.numpy().tolist()


_SLICE = "{{function_node __wrapped__StridedSlice_device_" + _DEV + "}} "
X3 = tf.reshape(tf.range(24), [2, 3, 4])


@pytest.mark.parametrize("call, message", [
    (lambda: X3[..., ...], "Multiple ellipses in slice spec not allowed [Op:StridedSlice] name: strided_slice/"),
    (lambda: tf.constant(1)[0], "Attempting to slice scalar input. [Op:StridedSlice] name: strided_slice/"),
    (lambda: X3[::0], "strides[0] must be non-zero [Op:StridedSlice] name: strided_slice/"),
    (lambda: X3[5], "slice index 5 of dimension 0 out of bounds. [Op:StridedSlice] name: strided_slice/"),
    (lambda: X3[0, 0, 0, 0], "Index out of range using input dim 3; input has only 3 dims [Op:StridedSlice] name: "
                             "strided_slice/"),
    (lambda: X3[:, 7], "slice index 7 of dimension 1 out of bounds. [Op:StridedSlice] name: strided_slice/"),
    (lambda: tf.Variable(X3)[5], "slice index 5 of dimension 0 out of bounds. [Op:StridedSlice] name: strided_slice/"),
    # called directly: lists run TF's fallback path (no name), tensors its fast path
    (lambda: tf.strided_slice(X3, [0], [1], [0]), "strides[0] must be non-zero [Op:StridedSlice]"),
    (lambda: tf.strided_slice(X3, tf.constant([0]), tf.constant([1]), tf.constant([0])),
     "strides[0] must be non-zero [Op:StridedSlice] name: "),
])
def test_indexing_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == _SLICE + message  # TF 2.21


def _op(op, message, name=""):
    tail = f" [Op:{op}]" if name is None else f" [Op:{op}] name: {name}"
    return f"{{{{function_node __wrapped__{op}_device_{_DEV}}}}} {message}{tail}"


K = tf.constant([[3, 1, 2], [6, 5, 4]])


@pytest.mark.parametrize("call, message", [
    (lambda: tf.reduce_sum(tf.zeros([2, 3]), axis=[0, 0]),
     _op("Sum", "Invalid reduction arguments: Axes contains duplicate dimension: 0", None)),
    (lambda: tf.reduce_mean(tf.zeros([2, 3]), axis=[1, -1]),
     _op("Mean", "Invalid reduction arguments: Axes contains duplicate dimension: 1", None)),
    (lambda: tf.reduce_any(tf.zeros([2, 3]) > 0, axis=[0, 0]),
     _op("Any", "Invalid reduction arguments: Axes contains duplicate dimension: 0", None)),
    (lambda: tf.reduce_sum(tf.zeros([2, 3]), axis=tf.constant([1, 1])),
     _op("Sum", "Invalid reduction arguments: Axes contains duplicate dimension: 1")),
    # the name part follows TF's fast path: tensors, NumPy arrays and scalars yes, Python lists no
    (lambda: tf.reduce_sum(tf.zeros([2, 3]), axis=tf.constant([5])),
     _op("Sum", "Invalid reduction dimension (5 for input with 2 dimension(s)")),
    (lambda: tf.reduce_sum(tf.zeros([2, 3]), axis=np.array([5])),
     _op("Sum", "Invalid reduction dimension (5 for input with 2 dimension(s)")),
    (lambda: tf.reduce_sum([[1.]], axis=5), _op("Sum", "Invalid reduction dimension (5 for input with 2 dimension(s)",
                                                None)),
    (lambda: tf.tile(tf.constant([1, 2]), 2), _op("Tile", "Expected multiples to be 1-D, but got shape []")),
    (lambda: tf.tile(tf.constant([1, 2]), [[2]]), _op("Tile", "Expected multiples to be 1-D, but got shape [1,1]",
                                                      None)),
    (lambda: tf.expand_dims(K, axis=[0, 1]), _op("ExpandDims", "'dim' must be a tensor with a single value", None)),
    (lambda: tf.math.top_k(K, k=-1), _op("TopKV2", "Need k >= 0, got -1")),
    (lambda: tf.math.top_k(tf.constant(1), k=1), _op("TopKV2", "input must be >= 1-D, got shape []")),
    (lambda: tf.math.top_k(K, k=4), _op("TopKV2", "input must have at least k columns. Had 3, needed 4")),
    (lambda: tf.math.top_k([1, 2], k=3), _op("TopKV2", "input must have at least k columns. Had 2, needed 3", None)),
    (lambda: tf.unique(K), _op("Unique", "unique expects a 1D vector.")),
    (lambda: tf.unique([[1]]), _op("Unique", "unique expects a 1D vector.", None)),
])
def test_more_kernel_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == message  # TF 2.21


def test_python_side_errors():
    # TF 2.21
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\) with an unsupported type"):
        tf.expand_dims(K, axis=None)
    with pytest.raises(TypeError, match=r"^Cannot convert 2.0 to EagerTensor of dtype int32$"):
        tf.math.top_k(K, k=2.0)
    assert tf.expand_dims(K, axis=[0]).shape == (1, 2, 3)
    assert tf.expand_dims(K, axis=tf.constant([-1])).shape == (2, 3, 1)


def test_where_condition_dtype():
    msg = ("cannot compute SelectV2 as input #0(zero-based) was expected to be a bool tensor but is a int32 tensor "
           "[Op:SelectV2] name: ")
    # TF 2.21: tensors and Python scalars run the kernel, which checks the condition's dtype
    for x, y in [(1, 2), (tf.constant(1), tf.constant(2))]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.where(tf.constant([1, 0]), x, y)
        assert str(e.value) == msg
    # a list or array operand: TF converts the condition to bool first
    with pytest.raises(TypeError, match=r"^Cannot convert \[1, 0\] to EagerTensor of dtype bool$"):
        tf.where([1, 0], [1, 2], [3, 4])
    assert tf.where(np.array([1, 0]), 1, 2).numpy().tolist() == [1, 2]
    assert tf.where([True, False], 1, 2).numpy().tolist() == [1, 2]


@pytest.mark.parametrize("call, message", [
    (lambda: tf.one_hot([1], -2), _op("OneHot", "depth must be non-negative, got: -2", None)),
    (lambda: tf.one_hot(tf.constant([1]), -2), _op("OneHot", "depth must be non-negative, got: -2")),
    (lambda: tf.one_hot(tf.constant([1]), 3, axis=5),
     _op("OneHot", "Expected axis to be -1 or between [0, 2).  But received: 5")),
    (lambda: tf.gather([1, 2], [5]), _op("GatherV2", "indices[0] = 5 is not in [0, 2)", None)),
    (lambda: tf.gather(tf.constant([1, 2]), tf.constant([5])), _op("GatherV2", "indices[0] = 5 is not in [0, 2)")),
    (lambda: tf.gather(tf.constant([1, 2]), [5]), _op("GatherV2", "indices[0] = 5 is not in [0, 2)", None)),
    (lambda: tf.gather(tf.constant([1, 2]), 5), _op("GatherV2", "indices = 5 is not in [0, 2)")),
    (lambda: tf.gather_nd(tf.constant([1, 2]), [[5]]),
     _op("GatherNd", "indices[0] = [5] does not index into param shape [2], node name: GatherNd", None)),
    (lambda: tf.gather_nd(tf.constant([1, 2]), tf.constant([[5]])),
     _op("GatherNd", "indices[0] = [5] does not index into param shape [2], node name: GatherNd")),
    (lambda: tf.scatter_nd([[5]], [1], [2]), _op("ScatterNd", "indices[0] = [5] does not index into shape [2]", None)),
])
def test_gather_scatter_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == message  # TF 2.21
