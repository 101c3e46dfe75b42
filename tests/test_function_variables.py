"""tf.function and variable state: restores and assignments before, during and after a trace (values from TF 2.21)."""
import numpy as np

import tfcompat as tf

_X = [[1.0, 2.0], [3.0, -1.0]]
_Y = [[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]


def _dense(input_shape=True):
    layers = [tf.keras.Input((2,))] if input_shape else []
    return tf.keras.Sequential(layers + [tf.keras.layers.Dense(3, kernel_initializer="ones")])


def _train(model, opt, steps=2):
    @tf.function
    def step(x, y):
        with tf.GradientTape() as t:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = t.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return [float(step(tf.constant(_X), tf.constant(_Y))) for _ in range(steps)]


def test_restore_into_a_model_built_in_the_first_trace(tmp_path):
    m = _dense(input_shape=False)
    m(tf.ones((1, 2)))
    m.layers[0].kernel.assign(np.arange(6, dtype="float32").reshape(2, 3))
    path = tf.train.Checkpoint(model=m).save(str(tmp_path / "c"))
    m2 = _dense(input_shape=False)
    tf.train.Checkpoint(model=m2).restore(path)        # deferred: m2 has no variables yet

    @tf.function
    def step(x):
        return m2(x)
    for _ in range(2):      # TF 2.21: the restored kernel, not the initializer's ones ([[2. 2. 2.]])
        assert step(tf.ones((1, 2))).numpy().tolist() == [[3.0, 5.0, 7.0]]
    assert m2.layers[0].kernel.numpy().tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_optimizer_slots_created_in_a_trace_get_their_restored_values(tmp_path):
    m, opt = _dense(), tf.keras.optimizers.Adam(0.1)
    np.testing.assert_allclose(_train(m, opt), [2.8333332538604736, 1.858341097831726], rtol=1e-6)
    path = tf.train.Checkpoint(model=m, optimizer=opt).save(str(tmp_path / "c"))
    for _ in range(2):
        m2, opt2 = _dense(), tf.keras.optimizers.Adam(0.1)
        tf.train.Checkpoint(model=m2, optimizer=opt2).restore(path)
        # TF 2.21 (without the restored Adam moments the second loss is 0.8055)
        np.testing.assert_allclose(_train(m2, opt2), [1.1412235498428345, 0.6694731712341309], rtol=1e-6)
        assert int(opt2.iterations) == 4


def test_changes_after_a_trace_reach_the_replay(tmp_path):
    m = _dense()
    m.layers[0].kernel.assign(np.arange(6, dtype="float32").reshape(2, 3))
    path = tf.train.Checkpoint(model=m).save(str(tmp_path / "c"))
    m.save_weights(str(tmp_path / "w.weights.h5"))
    m4 = _dense()

    @tf.function
    def fwd(x):
        return m4(x)
    x = tf.ones((1, 2))
    assert fwd(x).numpy().tolist() == [[2.0, 2.0, 2.0]]
    tf.train.Checkpoint(model=m4).restore(path)
    assert fwd(x).numpy().tolist() == [[3.0, 5.0, 7.0]]
    m4.set_weights([np.full((2, 3), 2.0, "float32"), np.zeros(3, "float32")])
    assert fwd(x).numpy().tolist() == [[4.0, 4.0, 4.0]]
    m4.layers[0].kernel.assign(np.full((2, 3), 3.0, "float32"))
    assert fwd(x).numpy().tolist() == [[6.0, 6.0, 6.0]]
    m4.load_weights(str(tmp_path / "w.weights.h5"))
    assert fwd(x).numpy().tolist() == [[3.0, 5.0, 7.0]]


def test_init_scope_assignment_of_a_variable_created_in_the_trace():
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(1.0))
            with tf.init_scope():
                holder[0].assign(10.0)     # runs once, lifted out of the function
        holder[0].assign_add(x)
        return holder[0].read_value()
    assert [f(tf.constant(1.0)).numpy() for _ in range(3)] == [11.0, 12.0, 13.0]
