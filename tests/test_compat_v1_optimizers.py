"""TF1's Adam, Momentum, Adagrad and RMSProp optimizers in a TF1 graph (Session) and eagerly: values and slot names
from TF 2.21 (5 steps on the same least-squares problem)."""
import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1

# name -> (optimizer, loss after the 5th step's update inputs, weights, global variable names in the graph)
CASES = {
    "adam": (lambda: v1.train.AdamOptimizer(0.1), 0.47114, [1.42192, -0.04334],
             ["Variable/Adam:0", "Variable/Adam_1:0", "Variable:0", "beta1_power:0", "beta2_power:0",
              "global_step:0"], ["m", "v"]),
    "momentum": (lambda: v1.train.MomentumOptimizer(0.1, 0.9), 0.69274, [1.11977, 0.15163],
                 ["Variable/Momentum:0", "Variable:0", "global_step:0"], ["momentum"]),
    "nesterov": (lambda: v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True), 0.35376, [1.04653, 0.24999],
                 ["Variable/Momentum:0", "Variable:0", "global_step:0"], ["momentum"]),
    "adagrad": (lambda: v1.train.AdagradOptimizer(0.1), 0.56019, [1.24018, -0.23608],
                ["Variable/Adagrad:0", "Variable:0", "global_step:0"], ["accumulator"]),
    "rmsprop": (lambda: v1.train.RMSPropOptimizer(0.1), 0.45719, [1.29388, -0.09923],
                ["Variable/RMSProp:0", "Variable/RMSProp_1:0", "Variable:0", "global_step:0"], ["momentum", "rms"]),
    "rmsprop_centered": (lambda: v1.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True), 0.46671,
                         [1.2582, -0.00338], ["Variable/RMSProp:0", "Variable/RMSProp_1:0", "Variable/RMSProp_2:0",
                                              "Variable:0", "global_step:0"], ["mg", "momentum", "rms"]),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_tf1_optimizer_in_a_graph(key):
    make, want_loss, want_w, names, _ = CASES[key]
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None])
        w = tf.Variable([1.0, -0.5])
        loss = tf.reduce_mean((x * w[0] + w[1] - 2.0) ** 2)
        step = v1.train.get_or_create_global_step()
        train = make().minimize(loss, global_step=step)
        with v1.Session() as s:
            s.run(v1.global_variables_initializer())
            for _ in range(5):
                _, value = s.run([train, loss], feed_dict={x: [1.0, 2.0]})
            np.testing.assert_allclose(value, want_loss, atol=1e-5)
            np.testing.assert_allclose(s.run(w), want_w, atol=2e-5)
            assert s.run(step) == 5
            assert sorted(v.name for v in v1.global_variables()) == names


@pytest.mark.parametrize("key", sorted(CASES))
def test_tf1_optimizer_eagerly(key):
    make, _, want_w, _, slot_names = CASES[key]
    w = tf.Variable([1.0, -0.5])
    opt = make()
    for _ in range(5):
        opt.minimize(lambda: tf.reduce_mean((tf.constant([1.0, 2.0]) * w[0] + w[1] - 2.0) ** 2), var_list=[w])
    np.testing.assert_allclose(w.numpy(), want_w, atol=2e-5)
    assert opt.get_slot_names() == slot_names
