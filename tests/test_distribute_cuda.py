"""tf.distribute on CUDA (marked `cuda`, skipped without CUDA; `bench/gpu_check.sh` runs them): MirroredStrategy on
the default GPU equals the CPU run, variables live on the GPU; with two GPUs, MirroredStrategy over both in one
process (each replica on its own GPU) equals one GPU, and two processes on two GPUs all-reduce with NCCL.
Initial weights are set from NumPy: a seeded initializer draws other values on the GPU than on the CPU."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

import tfcompat as tf
from tfcompat.framework.tensor import storage

pytestmark = pytest.mark.cuda
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA is not available")
needs_two = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs 2 CUDA devices")


def _set_weights(model):
    init = np.random.RandomState(1)
    for w in model.weights:
        w.assign(init.randn(*w.shape).astype("float32") * 0.5)


def _custom_loop(strategy):
    rng = np.random.RandomState(0)
    x = rng.randn(64, 5).astype("float32")
    y = (x @ rng.randn(5, 3)).argmax(1)
    with strategy.scope():
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(3)])
        opt = tf.keras.optimizers.SGD(0.1)
        loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    _set_weights(model)

    @tf.function
    def train(inputs):
        def step(batch):
            xb, yb = batch
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(loss_obj(yb, model(xb, training=True)), global_batch_size=16)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        return strategy.reduce("SUM", strategy.run(step, args=(inputs,)), axis=None)
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(16))
    losses = [float(train(b)) for _ in range(2) for b in dataset]
    return losses, model


@needs_cuda
def test_mirrored_on_the_gpu_equals_the_cpu_run():
    gpu = tf.distribute.MirroredStrategy()          # TF's default: every GPU (here the first, alone)
    if torch.cuda.device_count() > 1:
        gpu = tf.distribute.MirroredStrategy(["GPU:0"])
    assert gpu.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",)
    losses, model = _custom_loop(gpu)
    assert all(storage(w).is_cuda for w in model.weights)
    with tf.device("/CPU:0"):
        cpu_losses, cpu_model = _custom_loop(tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"]))
    assert not any(storage(w).is_cuda for w in cpu_model.weights)
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-4)
    for a, b in zip(model.weights, cpu_model.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-5)


def _fit(strategy):
    rng = np.random.RandomState(3)
    x = rng.randn(64, 5).astype("float32")
    y = (x @ rng.randn(5, 3)).argmax(1)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(3)])
        model.compile(tf.keras.optimizers.Adam(0.01), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    _set_weights(model)
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False).history
    return history, model, model.evaluate(x, y, verbose=0)


@needs_two
def test_mirrored_over_two_gpus_in_one_process_equals_one_gpu():
    """Each replica computes on its own GPU (its inputs and variable reads there), the primary copies stay on the
    first GPU; a custom loop in a tf.function and Keras fit/evaluate equal the one-GPU run."""
    two = tf.distribute.MirroredStrategy(["GPU:0", "GPU:1"])
    assert two.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",
                                           "/job:localhost/replica:0/task:0/device:GPU:1")
    with two.scope():
        v = tf.Variable([1.0, 2.0])
    out = two.run(lambda: tf.identity(v) * 2.0)
    assert [t.device for t in two.experimental_local_results(out)] == list(two.extended.worker_devices)
    np.testing.assert_array_equal(two.reduce("SUM", out, axis=None).numpy(), [4.0, 8.0])
    assert storage(v).device == torch.device("cuda", 0)
    one = tf.distribute.MirroredStrategy(["GPU:0"])
    (losses2, model2), (losses1, model1) = _custom_loop(two), _custom_loop(one)
    np.testing.assert_allclose(losses2, losses1, rtol=1e-5)
    for a, b in zip(model2.weights, model1.weights):
        assert storage(a).device == torch.device("cuda", 0)
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-5)
    (h2, fit2, ev2), (h1, fit1, ev1) = _fit(tf.distribute.MirroredStrategy(["GPU:0", "GPU:1"])), \
        _fit(tf.distribute.MirroredStrategy(["GPU:0"]))
    np.testing.assert_allclose(h2["loss"], h1["loss"], rtol=1e-5)
    np.testing.assert_allclose(ev2, ev1, rtol=1e-5)
    for a, b in zip(fit2.weights, fit1.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-5)


NCCL = textwrap.dedent('''
    import sys
    import torch
    import tfcompat as tf
    s = tf.distribute.MultiWorkerMirroredStrategy()
    import torch.distributed as dist
    r = s.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32) *
              tf.ones([3]))
    total = s.reduce("SUM", r, axis=None)
    sys.stdout.write(f"worker {s.cluster_resolver.task_id} {dist.get_backend()} {s.extended.worker_devices[0]} "
                     f"{total.numpy().tolist()} {torch.cuda.current_device()}\\n")
''')


@needs_two
def test_two_processes_on_two_gpus_all_reduce_with_nccl(tmp_path):
    script = tmp_path / "nccl.py"
    script.write_text(NCCL)
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE", "TF_CONFIG", "LOCAL_RANK")}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.pathsep + \
        env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-m", "tfcompat", "run", "--nproc-per-node", "2", str(script)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert out.returncode == 0, out.stdout
    lines = sorted(line for line in out.stdout.splitlines() if line.startswith("worker"))
    assert lines == ["worker 0 nccl /job:worker/replica:0/task:0/device:GPU:0 [3.0, 3.0, 3.0] 0",
                     "worker 1 nccl /job:worker/replica:0/task:1/device:GPU:0 [3.0, 3.0, 3.0] 1"], out.stdout
