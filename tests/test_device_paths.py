"""The device-dependent paths, on the CPU and (where torch has CUDA) on the GPU: placement, channels_last
convolutions, the optimizers' `_foreach` updates, tf.data, `fit`, checkpoints of device variables, tf.function replay.

Golden values recorded from TF 2.21 + Keras 3.15 on the CPU; on CUDA the same values within float32 tolerance.
`bench/gpu_check.sh` runs the CUDA cases (`pytest -m cuda`)."""
import numpy as np
import pytest

import tfcompat as tf
from tfcompat.framework.tensor import storage


def _on(x, device):
    """Whether a tensor or variable lives on `device` (TF's device string and the storage's torch device)."""
    return x.device == device.full and storage(x).device.type == device.kind


def test_device_scope_places_constants_variables_and_op_results(device):
    with tf.device(device.tf):
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        v = tf.Variable(tf.ones([2, 2]))
        y = tf.matmul(x, v) + 1.0
    assert _on(x, device) and _on(v, device) and _on(y, device)
    assert _on(x * 2.0, device)           # ops on device inputs run there, outside the scope too
    np.testing.assert_allclose(y.numpy(), [[4.0, 4.0], [8.0, 8.0]])


def test_default_placement_is_the_gpu_when_there_is_one(device):
    if device.kind == "cpu":
        import torch
        if torch.cuda.is_available():
            pytest.skip("default placement is the GPU on this machine")
    assert _on(tf.constant(np.ones(3, "float32")), device)
    assert _on(tf.Variable(1.0), device)


CONV_TF = [[[[4.6666669845581055, 5.291666507720947], [4.566666603088379, 5.2916669845581055],
             [4.4666666984558105, 5.291666507720947]],
            [[4.166666507720947, 5.2916669845581055], [4.066666603088379, 5.291666507720947],
             [3.9666666984558105, 5.2916669845581055]],
            [[3.6666667461395264, 5.2916669845581055], [3.566666841506958, 5.291666507720947],
             [3.4666666984558105, 5.291666507720947]]]]


def test_conv2d_runs_channels_last_on_the_device(device):
    x = np.arange(50, dtype="float32").reshape(1, 5, 5, 2) / 10
    k = np.arange(36, dtype="float32").reshape(3, 3, 2, 2) / 36 - 0.5
    with tf.device(device.tf):
        conv = tf.keras.layers.Conv2D(2, 3, bias_initializer="ones")
        conv.build((1, 5, 5, 2))
        conv.kernel.assign(k)
        out = conv(tf.constant(x))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(conv(tf.constant(x)))
        grads = tape.gradient(loss, conv.trainable_variables)
    assert _on(out, device) and _on(conv.kernel, device) and all(_on(g, device) for g in grads)
    assert out.shape == (1, 3, 3, 2)
    np.testing.assert_allclose(out.numpy(), CONV_TF, rtol=1e-5)


def test_adam_foreach_update_on_device_variables(device):
    with tf.device(device.tf):
        v = tf.Variable([1.0, -2.0, 3.0])
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(2):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(v * v)
        opt.apply_gradients([(t.gradient(loss, v), v)])
    slots = [s for s in opt.variables if tuple(s.shape) == (3,)]
    assert len(slots) == 2 and _on(v, device) and all(_on(s, device) for s in slots)
    np.testing.assert_allclose(v.numpy(), [0.8004141449928284, -1.8001683950424194, 2.8001046180725098], rtol=1e-6)


def test_dataset_batches_come_on_the_device_through_prefetch(device):
    x = np.arange(20, dtype="float32").reshape(10, 2)
    with tf.device(device.tf):
        ds = tf.data.Dataset.from_tensor_slices((x, np.arange(10))).shuffle(10, seed=1).batch(4).prefetch(2)
        mapped = tf.data.Dataset.from_tensor_slices(x).map(lambda r: r * 2.0).batch(5).prefetch(1)
    batches = list(ds)
    assert [int(b[0].shape[0]) for b in batches] == [4, 4, 2]
    assert all(_on(b[0], device) and _on(b[1], device) for b in batches)
    got = np.concatenate([b[0].numpy() for b in batches])
    np.testing.assert_array_equal(got, x[np.concatenate([b[1].numpy() for b in batches])])
    out = list(mapped)
    assert all(_on(b, device) for b in out)
    np.testing.assert_array_equal(np.concatenate([b.numpy() for b in out]), x * 2)


def test_fit_on_the_device(device):
    xs = np.arange(8, dtype="float32").reshape(8, 1) / 8
    ys = 2 * xs + 1
    with tf.device(device.tf):
        model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(tf.keras.optimizers.SGD(0.1), "mse")
        history = model.fit(xs, ys, batch_size=4, epochs=3, shuffle=False, verbose=0)
    assert all(_on(w, device) for w in model.weights)
    np.testing.assert_allclose(history.history["loss"], [1.72720468044281, 0.5684551000595093, 0.19300022721290588],
                               rtol=1e-5)
    np.testing.assert_allclose(model.layers[0].kernel.numpy(), [[1.4825612306594849]], rtol=1e-5)
    np.testing.assert_allclose(model.layers[0].bias.numpy(), [0.9818792939186096], rtol=1e-5)
    assert _on(model(xs[:2]), device)


def test_checkpoint_of_device_variables_restores_values_and_placement(device, tmp_path):
    with tf.device(device.tf):
        v = tf.Variable([[1.5, -2.0], [3.0, 4.25]])
        step = tf.Variable(7, dtype=tf.int64)
    path = tf.train.Checkpoint(v=v, step=step).save(str(tmp_path / "ckpt"))
    with tf.device(device.tf):
        w = tf.Variable(tf.zeros([2, 2]))
        s = tf.Variable(0, dtype=tf.int64)
    tf.train.Checkpoint(v=w, step=s).restore(path).assert_consumed()
    assert _on(w, device)
    np.testing.assert_array_equal(w.numpy(), [[1.5, -2.0], [3.0, 4.25]])
    assert int(s.numpy()) == 7


def test_tf_function_replays_on_the_device(device):
    with tf.device(device.tf):
        w = tf.Variable([[0.5], [-1.0]])
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
        w.assign_sub(0.01 * tape.gradient(loss, w))
        return loss

    losses = [step(x) for _ in range(3)]
    assert step.experimental_get_tracing_count() == 1
    assert all(_on(loss, device) for loss in losses) and _on(w, device)
    # eager reference of the same three steps
    wn = np.array([[0.5], [-1.0]], "float32")
    xn = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
    expected = []
    for _ in range(3):
        r = xn @ wn
        expected.append(float((r ** 2).sum()))
        wn = wn - 0.01 * (xn.T @ (2 * r))
    np.testing.assert_allclose([float(loss) for loss in losses], expected, rtol=1e-5)
    np.testing.assert_allclose(w.numpy(), wn, rtol=1e-5)


def test_prefetch_to_device_copies_each_batch_there(device):
    with tf.device("/CPU:0"):
        ds = tf.data.Dataset.range(5).batch(2)
    out = ds.apply(tf.data.experimental.prefetch_to_device(device.tf))
    assert repr(out.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"   # TF 2.21's
    assert int(out.cardinality()) == -2           # unknown after copy_to_device, as in TF
    got = list(out)
    assert all(_on(t, device) for t in got)
    assert [t.numpy().tolist() for t in got] == [[0, 1], [2, 3], [4]]
    words = list(tf.data.Dataset.from_tensor_slices(["a", "b"]).apply(tf.data.experimental.copy_to_device(device.tf)))
    assert [w.numpy() for w in words] == [b"a", b"b"]      # strings stay in host memory
