"""A tf.function trace frees intermediates as eager code does (a recording binds each value weakly to its
storage), and a freed storage's address, reused by a later tensor, is never taken for the old value."""
import os
import subprocess
import sys

import numpy as np

import tfcompat as tf
from conftest import REPO


_CHAIN = """
import resource
import tfcompat as tf

@tf.function
def chain(x):
    for _ in range(100):            # 100 intermediates of 4 MB, each dead once the next exists
        x = x * 1.0001
    return tf.reduce_sum(x)

x = tf.ones([1000, 1000])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
total = float(chain(x))
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024, total)
"""


def test_a_trace_does_not_keep_every_intermediate_alive():
    # in a fresh process, so that the peak resident size is the trace's
    out = subprocess.run([sys.executable, "-c", _CHAIN], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": REPO}).stdout.split()
    assert int(out[0]) < 150, out            # about 400 MB more if the trace kept them all
    np.testing.assert_allclose(float(out[1]), 1e6 * 1.0001 ** 100, rtol=1e-4)


def test_reused_addresses_are_new_values():
    @tf.function
    def f(x):
        total = tf.zeros_like(x)
        for i in range(50):
            temp = x * float(i)         # freed at the next iteration: its block is reused by the next temp
            total = total + temp
        return total

    for value in ([1.0, 2.0], [3.0, -1.0], [0.5, 4.0]):
        x = tf.constant(value)
        np.testing.assert_allclose(f(x).numpy(), np.array(value) * sum(range(50)), rtol=1e-6)
    assert f.experimental_get_tracing_count() == 1


def test_gradients_of_freed_forward_values_replay():
    w = tf.Variable([[0.5, -1.0], [2.0, 0.25]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, w))        # relu's output lives on in the tape only
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w)

    for value in ([[1.0, 2.0]], [[-3.0, 0.5]], [[2.0, -1.0]]):
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)) ** 2)
        np.testing.assert_allclose(step(x).numpy(), tape.gradient(loss, w).numpy(), rtol=1e-6)
