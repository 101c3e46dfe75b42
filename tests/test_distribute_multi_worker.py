"""MultiWorkerMirroredStrategy with 2 worker processes on loopback (gloo): a custom loop (`run` + `reduce` in a
tf.function) and `fit` leave identical weights on both workers, equal to one process training on the same global
batches; launches by TF_CONFIG, by the launcher's environment and by `python -m tfcompat run --nproc-per-node`;
a dead worker makes the other raise `UnavailableError` at once."""
import json
import os
import socket
import subprocess
import sys
import textwrap

import numpy as np

from conftest import REPO

WORKER = textwrap.dedent('''
    import os
    import sys
    import numpy as np
    import tfcompat as tf

    def train(out, ckpt_in, ckpt_out):
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        resolver = strategy.cluster_resolver
        rank = resolver.task_id if resolver is not None and resolver.task_id is not None else 0
        rng = np.random.RandomState(0)
        x = rng.randn(64, 5).astype("float32")
        y = (x @ rng.randn(5, 3)).argmax(1)
        with strategy.scope():
            tf.keras.utils.set_random_seed(1 + rank)     # other initial values: the chief's are broadcast
            model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                                         tf.keras.layers.Dense(3)])
            opt = tf.keras.optimizers.SGD(0.1)
            loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
        tf.train.Checkpoint(model=model).read(ckpt_in).assert_consumed()       # written by one process
        restored = [w.numpy() for w in model.weights]

        def step(inputs):
            xb, yb = inputs
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(loss_obj(yb, model(xb, training=True)), global_batch_size=16)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        @tf.function
        def train_step(inputs):
            return strategy.reduce("SUM", strategy.run(step, args=(inputs,)), axis=None)
        dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(16))
        losses = [float(train_step(b)) for _ in range(2) for b in dataset]
        # the chief writes the checkpoint, the other worker a temporary copy it removes (TF's tutorial recipe)
        path = ckpt_out if strategy.extended.should_checkpoint else f"{ckpt_out}_tmp_{rank}"
        tf.train.Checkpoint(model=model, optimizer=opt).write(path)
        if not strategy.extended.should_checkpoint:
            for f in tf.io.gfile.glob(path + "*"):
                os.remove(f)
        with strategy.scope():
            tf.keras.utils.set_random_seed(7 + rank)
            m = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(3)])
            m.compile(tf.keras.optimizers.Adam(0.01),
                      tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
        callbacks = [tf.keras.callbacks.ModelCheckpoint(f"{ckpt_out}_cb/r{rank}.weights.h5", save_weights_only=True),
                     tf.keras.callbacks.BackupAndRestore(f"{ckpt_out}_cb/backup{rank}", delete_checkpoint=False)]
        history = m.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False, callbacks=callbacks).history
        result = dict(losses=np.array(losses), history=np.array(history["loss"] + history["accuracy"]),
                      evaluate=np.array(m.evaluate(x, y, verbose=0)), predict=m.predict(x[:10], verbose=0),
                      train_step_traces=np.array(train_step.experimental_get_tracing_count()),
                      threads=np.array(__import__("torch").get_num_threads()))
        for i, w in enumerate(model.weights + m.weights + restored):
            result[f"w{i}"] = w.numpy() if not isinstance(w, np.ndarray) else w
        if out:
            np.savez(out, **result)
        return result

    if __name__ == "__main__":
        train(*sys.argv[1:])
''')


def _port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE", "TF_CONFIG", "LOCAL_RANK")}
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def _start(commands):
    return [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for cmd, env in commands]


def _finish(procs, timeout=120):
    outs = [p.communicate(timeout=timeout)[0] for p in procs]
    return [p.returncode for p in procs], outs


def _run_all(commands):
    return _finish(_start(commands))


def _dense_model(seed):
    import tfcompat as tf
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                                tf.keras.layers.Dense(3)])


def test_two_workers_by_tf_config_equal_one_process(tmp_path):
    """Also: both workers restore a checkpoint one process wrote, and one process restores the chief's."""
    import tfcompat as tf
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    initial = _dense_model(123)
    ckpt_in = tf.train.Checkpoint(model=initial).write(str(tmp_path / "initial"))
    port = _port()
    cluster = {"worker": [f"127.0.0.1:{port}", f"127.0.0.1:{_port()}"]}
    commands = [([sys.executable, str(script), str(tmp_path / f"w{i}.npz"), ckpt_in, str(tmp_path / "trained")],
                 _env(TF_CONFIG=json.dumps({"cluster": cluster, "task": {"type": "worker", "index": i}})))
                for i in range(2)]
    procs = _start(commands)
    sys.path.insert(0, str(tmp_path))
    try:                                # the single-process run, in this process while the workers train
        import worker
        single = worker.train(None, ckpt_in, str(tmp_path / "single"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("worker", None)
    codes, outs = _finish(procs)
    assert codes == [0, 0], outs
    w0, w1 = (np.load(tmp_path / f"w{i}.npz") for i in range(2))
    assert int(w0["train_step_traces"]) == 1
    if "OMP_NUM_THREADS" not in os.environ:     # two workers on this host: each on its half of the cores
        assert int(w0["threads"]) <= max(1, os.cpu_count() // 2)
    for key in single:
        if key == "threads":
            continue
        np.testing.assert_array_equal(w0[key], w1[key], err_msg=key)          # identical on both workers
        np.testing.assert_allclose(w0[key], single[key], rtol=1e-5, atol=1e-6, err_msg=key)
    for i, w in enumerate(initial.weights):                                   # the restored initial values
        np.testing.assert_array_equal(w0[f"w{8 + i}"], w.numpy())
    assert not [f for f in os.listdir(tmp_path) if "_tmp_" in f]
    assert sorted(os.listdir(tmp_path / "trained_cb")) == ["backup0", "r0.weights.h5"]     # the chief's alone
    model, opt = _dense_model(5), tf.keras.optimizers.SGD(0.1)
    opt.build(model.trainable_variables)
    tf.train.Checkpoint(model=model, optimizer=opt).read(str(tmp_path / "trained")).assert_consumed()
    for i, w in enumerate(model.weights):
        np.testing.assert_array_equal(w.numpy(), w0[f"w{i}"])
    assert int(opt.iterations) == 8


DEAD = textwrap.dedent('''
    import os, sys, time
    import tfcompat as tf
    options = tf.distribute.experimental.CommunicationOptions(timeout_seconds=10)
    s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)
    print("replicas", s.num_replicas_in_sync, float(s.reduce("SUM", s.run(lambda: tf.constant(1.0)), axis=None)))
    print("excepthook kept", sys.excepthook is sys.__excepthook__)     # torch's prefixes "[rank0]: "; TF's does not
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    try:
        s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2).with_options(options))
    except NotImplementedError as e:
        print(e)
    if s.cluster_resolver.task_id == 1:
        os._exit(3)
    start = time.time()
    try:
        s.reduce("SUM", s.run(lambda: tf.constant(1.0)), axis=None)
    except tf.errors.UnavailableError as e:
        print("UnavailableError after", round(time.time() - start), "s:", e)
        sys.exit(7)
''')


def test_a_dead_worker_makes_the_other_raise(tmp_path):
    script = tmp_path / "dead.py"
    script.write_text(DEAD)
    port = str(_port())
    commands = [([sys.executable, str(script)], _env(RANK=str(i), WORLD_SIZE="2", LOCAL_RANK=str(i),
                                                     MASTER_ADDR="127.0.0.1", MASTER_PORT=port)) for i in range(2)]
    codes, outs = _run_all(commands)
    assert codes == [7, 3], outs
    assert "replicas 2 2.0" in outs[0] and "excepthook kept True" in outs[0]
    assert "experimental_distribute_dataset with auto_shard_policy=OFF across workers" in outs[1]
    assert "UnavailableError after 0 s: Collective ops is aborted by: a peer worker died" in outs[0], outs[0]


def test_launcher_starts_n_processes(tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("import sys\nimport tensorflow as tf\ns = tf.distribute.MultiWorkerMirroredStrategy()\n"
                      "r = s.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1, "
                      "tf.float32))\ntotal = float(s.reduce('SUM', r, axis=None))\n"
                      # one write per line: the workers share the launcher's stdout, and print() writes each
                      # argument separately when Python's output is unbuffered
                      "sys.stdout.write(f'worker {s.cluster_resolver.task_id} {s.num_replicas_in_sync} {total} "
                      "{sys.argv[1:]}\\n')\n")
    cmd = [sys.executable, "-m", "tfcompat", "run", "--nproc-per-node", "2", "--master-port", str(_port()),
           str(script), "a", "--b"]
    codes, outs = _run_all([(cmd, _env())])
    assert codes == [0], outs
    assert sorted(line for line in outs[0].splitlines() if line.startswith("worker")) == [
        "worker 0 2 3.0 ['a', '--b']", "worker 1 2 3.0 ['a', '--b']"]
