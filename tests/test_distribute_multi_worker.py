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
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.HINT
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
    assert "experimental_distribute_dataset with auto_shard_policy=HINT across workers" in outs[1]
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


SHARDS = textwrap.dedent('''
    import os, sys
    import tfcompat as tf
    os.chdir(sys.argv[1])
    s = tf.distribute.MultiWorkerMirroredStrategy()
    P = tf.data.experimental.AutoShardPolicy
    files = [f"f{i}.tfrecord" for i in range(3)]

    def policy(ds, p):
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = p
        return ds.with_options(options)

    def show(name, ds):
        try:
            steps = [[x.decode() if isinstance(x, bytes) else int(x) for x in e.numpy()]
                     for e in s.experimental_distribute_dataset(ds)]
            line = f"{name}: {steps}"
        except (tf.errors.NotFoundError, tf.errors.InvalidArgumentError) as e:
            line = f"{name}: {type(e).__name__} {e.message[:60]}"
        sys.stdout.write(f"rank {s.cluster_resolver.task_id} {line}\\n")
    show("tfrecord AUTO", tf.data.TFRecordDataset(files).batch(4))
    show("tfrecord FILE", policy(tf.data.TFRecordDataset(files), P.FILE).batch(4))
    show("one file FILE", policy(tf.data.TFRecordDataset(files[:1]), P.FILE).batch(4))
    show("one file AUTO", tf.data.TFRecordDataset(files[:1]).batch(4))
    show("text AUTO map", tf.data.TextLineDataset(["t0.txt", "t1.txt"]).map(tf.strings.upper).batch(2))
    show("list_files interleave", tf.data.Dataset.list_files("t*.txt", shuffle=False)
         .interleave(tf.data.TextLineDataset, cycle_length=1).batch(4))
    show("names flat_map", tf.data.Dataset.from_tensor_slices(files).flat_map(tf.data.TFRecordDataset).batch(4))
    show("range AUTO", tf.data.Dataset.range(8).batch(4))
    show("range OFF", policy(tf.data.Dataset.range(8), P.OFF).batch(4))
    show("range FILE", policy(tf.data.Dataset.range(8), P.FILE).batch(4))
    with s.scope():     # Keras 3 runs fit's progress bar and callbacks on every worker (no chief test in Keras)
        tf.keras.utils.set_random_seed(3)
        m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        m.compile("sgd", "mse")
    seen = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: sys.stdout.write(
        f"rank {s.cluster_resolver.task_id} callback epoch {epoch} loss {logs['loss']:.6f}\\n"))
    m.fit(tf.reshape(tf.range(16, dtype=tf.float32), (8, 2)), tf.ones((8, 1)), batch_size=4, epochs=1, verbose=2,
          callbacks=[seen])
''')


def test_auto_shard_by_file_across_workers(tmp_path):
    """TF's AutoShardPolicy across 2 workers (as TF 2.21's 2 TF_CONFIG workers read them): FILE, and AUTO on a
    pipeline that reads files, give each worker the files rank::2, batches of its own files cut in per-replica
    halves taken in turn (a short batch makes no empty half), a worker whose files ended getting empty batches
    while the other has some; FILE over
    fewer files than workers raises InvalidArgumentError (AUTO too); DATA (AUTO elsewhere) gives each
    worker its half of every global batch; OFF the whole pipeline to each; FILE on other data NotFoundError.
    Also: fit's progress bar and callbacks run on every worker with the global loss, as Keras 3."""
    import tfcompat as tf
    for i in range(3):
        with tf.io.TFRecordWriter(str(tmp_path / f"f{i}.tfrecord")) as w:
            for j in range(4):
                w.write(f"file{i}-rec{j}".encode())
    for i in range(2):
        (tmp_path / f"t{i}.txt").write_text("".join(f"t{i}-line{j}\n" for j in range(3)))
    script = tmp_path / "shards.py"
    script.write_text(SHARDS)
    port = str(_port())
    commands = [([sys.executable, str(script), str(tmp_path)],
                 _env(RANK=str(i), WORLD_SIZE="2", LOCAL_RANK=str(i), MASTER_ADDR="127.0.0.1", MASTER_PORT=port))
                for i in range(2)]
    codes, outs = _run_all(commands)
    assert codes == [0, 0], outs
    bars = [[line.rpartition(" - loss: ")[2] for line in out.splitlines() if line.startswith("2/2 - ")]
            for out in outs]
    assert len(bars[0]) == 1 and bars[0] == bars[1], outs          # each worker's bar, the global loss
    fit = [line.partition(" loss ")[2] for out in outs for line in out.splitlines() if "callback epoch 0" in line]
    assert len(fit) == 2 and fit[0] == fit[1] and fit[0][:6] == bars[0][0][:6], outs
    lines = sorted(line for out in outs for line in out.splitlines() if line.startswith("rank ") and "callback" not in line)
    f0 = [[f"file0-rec{j}" for j in (0, 1)], [f"file0-rec{j}" for j in (2, 3)]]
    f2 = [[f"file2-rec{j}" for j in (0, 1)], [f"file2-rec{j}" for j in (2, 3)]]
    f1 = [[f"file1-rec{j}" for j in (0, 1)], [f"file1-rec{j}" for j in (2, 3)]]
    assert lines == sorted([
        f"rank 0 tfrecord AUTO: {f0 + f2}", f"rank 1 tfrecord AUTO: {f1 + [[], []]}",
        f"rank 0 tfrecord FILE: {f0 + f2}", f"rank 1 tfrecord FILE: {f1 + [[], []]}",
        "rank 0 one file FILE: InvalidArgumentError Could not apply FILE based sharding: the dataset only has 1 ",
        "rank 1 one file FILE: InvalidArgumentError Could not apply FILE based sharding: the dataset only has 1 ",
        "rank 0 one file AUTO: InvalidArgumentError Could not apply FILE based sharding: the dataset only has 1 ",
        "rank 1 one file AUTO: InvalidArgumentError Could not apply FILE based sharding: the dataset only has 1 ",
        "rank 0 text AUTO map: [['T0-LINE0'], ['T0-LINE1'], ['T0-LINE2']]",
        "rank 1 text AUTO map: [['T1-LINE0'], ['T1-LINE1'], ['T1-LINE2']]",
        "rank 0 list_files interleave: [['t0-line0', 't0-line1'], ['t0-line2']]",
        "rank 1 list_files interleave: [['t1-line0', 't1-line1'], ['t1-line2']]",
        f"rank 0 names flat_map: {f0 + f2}", f"rank 1 names flat_map: {f1 + [[], []]}",
        "rank 0 range AUTO: [[0, 1], [4, 5]]", "rank 1 range AUTO: [[2, 3], [6, 7]]",
        "rank 0 range OFF: [[0, 1], [2, 3], [4, 5], [6, 7]]", "rank 1 range OFF: [[0, 1], [2, 3], [4, 5], [6, 7]]",
        'rank 0 range FILE: NotFoundError Found an unshardable source dataset: op: "RangeDataset" (Aut',
        'rank 1 range FILE: NotFoundError Found an unshardable source dataset: op: "RangeDataset" (Aut'])


FIT_SHARDS = textwrap.dedent('''
    import sys
    import numpy as np
    import tfcompat as tf

    def model():
        tf.keras.utils.set_random_seed(4)
        m = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(1)])
        m.compile(tf.keras.optimizers.SGD(0.05), "mse")
        return m

    def records(files):
        ds = tf.data.FixedLengthRecordDataset(files, 24).map(lambda r: tf.io.decode_raw(r, tf.float32))
        return ds.map(lambda v: (v[:5], v[5:]))

    if __name__ == "__main__":
        folder, out = sys.argv[1:]
        s = tf.distribute.MultiWorkerMirroredStrategy()
        files = [f"{folder}/f0.bin", f"{folder}/f1.bin"]
        with s.scope():
            by_file = model()
        # AUTO on a pipeline reading files: FILE sharding (each worker its own file), as TF distributes fit's data
        history = by_file.fit(records(files).batch(8), epochs=2, verbose=0,
                              validation_data=records(files).batch(8)).history
        evaluated = by_file.evaluate(records(files).batch(8), verbose=0)
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
        x, y = np.load(f"{folder}/xy.npy")[:, :5], np.load(f"{folder}/xy.npy")[:, 5:]
        with s.scope():
            off = model()
        off.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(8).with_options(options), epochs=1, verbose=0)
        np.savez(out, loss=np.array(history["loss"]), val_loss=np.array(history["val_loss"]),
                 evaluate=np.array(evaluated), w=by_file.weights[0].numpy(), b=by_file.weights[1].numpy(),
                 off_w=off.weights[0].numpy(), off_b=off.weights[1].numpy())
''')


def test_fit_and_evaluate_shard_a_dataset_by_its_auto_shard_policy(tmp_path):
    """Keras `fit`/`evaluate` distribute a `tf.data.Dataset` as `experimental_distribute_dataset` does (Keras 3 on TF):
    AUTO on a pipeline reading files shards by file (worker i reads file i; its batches of 8 become two steps of
    4 rows), so each step's global batch is 4 rows of each file, and the weights equal one process's on those global
    batches; evaluate and validation see every row once. OFF gives each worker the whole pipeline cut in per-replica
    chunks, at most the dataset's cardinality of steps per epoch (Keras's `num_batches`): both workers step on the
    same 4 rows, as one process on batches of 4 of the first half."""
    rng = np.random.RandomState(2)
    xy = rng.randn(32, 6).astype("float32")
    for i in range(2):
        (tmp_path / f"f{i}.bin").write_bytes(xy[16 * i:16 * i + 16].tobytes())
    np.save(tmp_path / "xy.npy", xy)
    script = tmp_path / "fit_shards.py"
    script.write_text(FIT_SHARDS)
    port = str(_port())
    commands = [([sys.executable, str(script), str(tmp_path), str(tmp_path / f"r{i}.npz")],
                 _env(RANK=str(i), WORLD_SIZE="2", LOCAL_RANK=str(i), MASTER_ADDR="127.0.0.1", MASTER_PORT=port))
                for i in range(2)]
    procs = _start(commands)
    sys.path.insert(0, str(tmp_path))
    try:
        import fit_shards
        order = np.concatenate([np.concatenate([xy[4 * k:4 * k + 4], xy[16 + 4 * k:20 + 4 * k]]) for k in range(4)])
        single = fit_shards.model()
        history = single.fit(order[:, :5], order[:, 5:], batch_size=8, epochs=2, verbose=0, shuffle=False,
                             validation_data=(xy[:, :5], xy[:, 5:]), validation_batch_size=32).history
        evaluated = single.evaluate(xy[:, :5], xy[:, 5:], batch_size=32, verbose=0)
        off = fit_shards.model()
        off.fit(xy[:16, :5], xy[:16, 5:], batch_size=4, epochs=1, verbose=0, shuffle=False)
        off_weights = [w.numpy() for w in off.weights]
        weights = [w.numpy() for w in single.weights]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("fit_shards", None)
    codes, outs = _finish(procs)
    assert codes == [0, 0], outs
    r0, r1 = (np.load(tmp_path / f"r{i}.npz") for i in range(2))
    for key in r0:
        np.testing.assert_array_equal(r0[key], r1[key], err_msg=key)
    np.testing.assert_allclose(r0["loss"], history["loss"], rtol=1e-5)
    np.testing.assert_allclose(r0["val_loss"], history["val_loss"], rtol=1e-5)
    np.testing.assert_allclose(r0["evaluate"], evaluated, rtol=1e-5)
    np.testing.assert_allclose(r0["w"], weights[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r0["b"], weights[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r0["off_w"], off_weights[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r0["off_b"], off_weights[1], rtol=1e-5, atol=1e-6)
