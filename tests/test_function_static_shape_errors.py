"""A static shape error inside a tf.function traced on known shapes is TF's graph-build ValueError (its shape
functions run while the graph is built), with TF 2.21's text (recorded from TF, less autograph's "in user code"
frame lines); eagerly, or where a spec leaves the dimension unknown, it stays the kernel's InvalidArgumentError."""
import re

import pytest

import tfcompat as tf

S = tf.TensorSpec
CASES = [
    (lambda a, b: a + b, [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node add}} = AddV2[T=DT_FLOAT](a, b)' with input shapes: [3], "
     "[4]."),
    (lambda a, b: tf.add(a, b), [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node Add}} = AddV2[T=DT_FLOAT](a, b)' with input shapes: [3], "
     "[4]."),
    (lambda a, b: (a - a) - b, [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node sub_1}} = Sub[T=DT_FLOAT](sub, b)' with input shapes: "
     "[3], [4]."),
    (lambda a, b: tf.multiply(a, b), [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node Mul}} = Mul[T=DT_FLOAT](a, b)' with input shapes: [3], "
     "[4]."),
    (lambda a, b: a / b, [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node truediv}} = RealDiv[T=DT_FLOAT](a, b)' with input shapes: "
     "[3], [4]."),
    (lambda a, b: a % b, [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node mod}} = FloorMod[T=DT_FLOAT](a, b)' with input shapes: "
     "[3], [4]."),
    (lambda a, b: a < b, [S([3]), S([4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node Less}} = Less[T=DT_FLOAT](a, b)' with input shapes: "
     "[3], [4]."),
    (lambda a, b: a + b, [S([3], tf.int32), S([4], tf.int32)],
     "Dimensions must be equal, but are 3 and 4 for '{{node add}} = AddV2[T=DT_INT32](a, b)' with input shapes: [3], "
     "[4]."),
    (lambda a, b: a + b, [S([2, 1, 3]), S([5, 4])],
     "Dimensions must be equal, but are 3 and 4 for '{{node add}} = AddV2[T=DT_FLOAT](a, b)' with input shapes: "
     "[2,1,3], [5,4]."),
    (lambda a: a + tf.constant([1., 2.]), [S([3])],
     "Dimensions must be equal, but are 3 and 2 for '{{node add}} = AddV2[T=DT_FLOAT](a, Const)' with input shapes: "
     "[3], [2]."),
    (lambda a, b: tf.matmul(a, b), [S([2, 3]), S([4, 5])],
     "Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, "
     "transpose_a=false, transpose_b=false](a, b)' with input shapes: [2,3], [4,5]."),
    (lambda a, b: tf.matmul(a, b, transpose_b=True), [S([2, 3]), S([4, 5])],
     "Dimensions must be equal, but are 3 and 5 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, "
     "transpose_a=false, transpose_b=true](a, b)' with input shapes: [2,3], [4,5]."),
    (lambda a, b: tf.matmul(a * 2.0, b), [S([2, 3]), S([4, 5])],
     "Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, "
     "transpose_a=false, transpose_b=false](mul, b)' with input shapes: [2,3], [4,5]."),
    (lambda a: tf.reshape(a, [5, 2]), [S([3, 3])],
     "Cannot reshape a tensor with 9 elements to shape [5,2] (10 elements) for '{{node Reshape}} = Reshape[T=DT_FLOAT, "
     "Tshape=DT_INT32](a, Reshape/shape)' with input shapes: [3,3], [2] and with input tensors computed as partial "
     "shapes: input[1] = [5,2]."),
    (lambda a: tf.reshape(a, [-1, 4]), [S([3, 3])],
     "Dimension size must be evenly divisible by 4 but is 9 for '{{node Reshape}} = Reshape[T=DT_FLOAT, "
     "Tshape=DT_INT32](a, Reshape/shape)' with input shapes: [3,3], [2] and with input tensors computed as partial "
     "shapes: input[1] = [?,4]."),
    (lambda a, b: tf.concat([a, b], 0), [S([2, 3]), S([2, 4])],
     "Dimension 0 in both shapes must be equal, but are 3 and 4. Shapes are [3] and [4]. for '{{node concat}} = "
     "ConcatV2[N=2, T=DT_FLOAT, Tidx=DT_INT32](a, b, concat/axis)' with input shapes: [2,3], [2,4], [] and with "
     "computed input tensors: input[2] = <0>."),
    (lambda a, b: tf.concat([a, b], 1), [S([2, 3]), S([3, 4])],
     "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for '{{node concat}} = "
     "ConcatV2[N=2, T=DT_FLOAT, Tidx=DT_INT32](a, b, concat/axis)' with input shapes: [2,3], [3,4], [] and with "
     "computed input tensors: input[2] = <1>."),
    (lambda a, b: tf.concat([a, b], 0), [S([2, 3]), S([3])],
     "Shape must be rank 2 but is rank 1 for '{{node concat}} = ConcatV2[N=2, T=DT_FLOAT, Tidx=DT_INT32](a, b, "
     "concat/axis)' with input shapes: [2,3], [3], []."),
]


@pytest.mark.parametrize("body, specs, message", CASES)
def test_trace_raises_tf_graph_value_error(body, specs, message):
    f = tf.function(body, input_signature=specs)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        f(*[tf.ones(s.shape, s.dtype) for s in specs])


def test_trace_without_signature_and_the_eager_and_generalized_cases():
    @tf.function
    def sub(a, b):
        return a - b
    with pytest.raises(ValueError, match=re.escape("{{node sub}} = Sub[T=DT_FLOAT](a, b)' with input shapes: [3], "
                                                   "[4].")):
        sub(tf.ones([3]), tf.ones([4]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[4\] \[Op:Sub\]"):
        tf.ones([3]) - tf.ones([4])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible"):
        tf.matmul(tf.ones([2, 3]), tf.ones([4, 5]))

    @tf.function(reduce_retracing=True)
    def general(a, b):      # after two shapes, the trace's spec is (None,): TF checks at run time
        return a - b
    general(tf.ones([2]), tf.ones([2]))
    general(tf.ones([3]), tf.ones([3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[5\] vs. \[4\]"):
        general(tf.ones([5]), tf.ones([4]))
