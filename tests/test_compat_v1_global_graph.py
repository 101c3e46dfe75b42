"""tf.compat.v1.disable_eager_execution: TF1's global graph for the rest of the program (a TF1 script run as under
TF 2.21), reset_default_graph. Runs in a subprocess: the global graph lasts for the process."""
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import tfcompat as tf
    tf.compat.v1.disable_eager_execution()
    print(tf.executing_eagerly())
    x = tf.compat.v1.placeholder(tf.float32, [None, 1], name="x")
    W = tf.Variable(tf.zeros([1, 1]), name="W")
    b = tf.Variable(0.0)
    y = tf.matmul(x, W) + b
    loss = tf.reduce_mean(tf.square(y - 1.0))
    train = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
    print(x, y, loss, W)
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        for i in range(10):
            _, l = sess.run([train, loss], {x: [[1.0], [2.0]]})
        print(round(float(l), 4), round(float(sess.run(W)[0, 0]), 4), round(float(sess.run(b)), 4))
    c = tf.constant(2.0) * 3
    print(c)
    with tf.compat.v1.Session() as sess:
        print(sess.run(c))
    print(tf.compat.v1.get_default_graph() is c.graph)
    tf.compat.v1.reset_default_graph()
    print(tf.compat.v1.get_default_graph() is c.graph, len(tf.compat.v1.get_default_graph().get_operations()))
    with tf.Graph().as_default():
        try:
            tf.compat.v1.reset_default_graph()
        except AssertionError as e:
            print("AssertionError", e)
''')

EXPECTED = """False
Tensor("x:0", shape=(None, 1), dtype=float32) Tensor("add:0", shape=(None, 1), dtype=float32) \
Tensor("Mean:0", shape=(), dtype=float32) <tf.Variable 'W:0' shape=(1, 1) dtype=float32>
0.0405 0.3861 0.3753
Tensor("mul:0", shape=(), dtype=float32)
6.0
True
False 0
AssertionError Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared graph, exit the \
nesting and create a new graph.
"""


def test_tf1_script_on_the_global_graph():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout == EXPECTED
