"""TF1 graph mode: default node names of operators and common ops, constants as graph nodes, and
tf.compat.v1.train.get_global_step (golden text from TF 2.21)."""
import tfcompat as tf

v1 = tf.compat.v1


def test_default_node_names():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 2])
        c = tf.constant(3.0)
        got = [str(t) for t in (c, x * 2, x + 1, x - 1, x / 2, -x, x ** 2, x @ tf.ones([2, 1]), x[0], abs(x))]
        assert got == [
            'Tensor("Const:0", shape=(), dtype=float32)', 'Tensor("mul:0", shape=(None, 2), dtype=float32)',
            'Tensor("add:0", shape=(None, 2), dtype=float32)', 'Tensor("sub:0", shape=(None, 2), dtype=float32)',
            'Tensor("truediv:0", shape=(None, 2), dtype=float32)', 'Tensor("Neg:0", shape=(None, 2), dtype=float32)',
            'Tensor("pow:0", shape=(None, 2), dtype=float32)', 'Tensor("matmul:0", shape=(None, 1), dtype=float32)',
            'Tensor("strided_slice:0", shape=(2,), dtype=float32)', 'Tensor("Abs:0", shape=(None, 2), dtype=float32)']
        names = [t.name for t in (tf.add(x, 1), tf.multiply(x, 2), tf.matmul(x, tf.ones([2, 1])), tf.reduce_mean(x),
                                  tf.reduce_sum(x, 1), tf.nn.relu(x), tf.sigmoid(x), tf.reshape(x, [-1]),
                                  tf.cast(x, tf.int32), tf.nn.softmax(x), tf.argmax(x, 1), tf.transpose(x),
                                  tf.concat([x, x], 0), tf.reduce_max(x),
                                  tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=x),
                                  tf.where(x > 0, x, x), tf.greater(x, 0.0), tf.constant(1.0))]
        assert names == ["Add_1:0", "Mul_1:0", "MatMul_1:0", "Mean:0", "Sum:0", "Relu:0", "Sigmoid:0", "Reshape:0",
                         "Cast:0", "Softmax:0", "ArgMax:0", "transpose:0", "concat:0", "Max:0", "logistic_loss:0",
                         "SelectV2:0", "Greater_1:0", "Const_3:0"]
        with tf.name_scope("scope"):
            assert (x * 3).name == "scope/mul:0" and tf.constant(1).name == "scope/Const:0"


def test_constants_are_graph_nodes():
    with tf.Graph().as_default():
        assert str(tf.zeros([2])) == 'Tensor("zeros:0", shape=(2,), dtype=float32)'
        assert str(tf.ones([2, 2]) * 2) == 'Tensor("mul:0", shape=(2, 2), dtype=float32)'
    with tf.Graph().as_default():
        a, b = tf.constant(3.0), tf.constant(4.0)
        c = a * b
        assert str(c) == 'Tensor("mul:0", shape=(), dtype=float32)'
        w = v1.get_variable("w", initializer=tf.constant([[1.0]]))
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            assert s.run(c) == 12.0 and s.run([a, b]) == [3.0, 4.0] and s.run({"sum": a + b}) == {"sum": 7.0}
            assert s.run(w).tolist() == [[1.0]]


def test_get_global_step():
    step = v1.train.get_or_create_global_step()
    assert v1.train.get_global_step() is step and step.name == "global_step:0" and step.dtype == tf.int64
