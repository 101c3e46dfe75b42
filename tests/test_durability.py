"""Durability of saves and restores (issue 14): atomic saves under `kill -9`, all-or-nothing restores,
one CheckpointManager writer per directory, file modes.

The kill tests fork a child that saves in a loop and kill it at a random moment; the file at the final
name must then load with the values of one complete save. `TFCOMPAT_KILL_TESTS=20` runs 20 kills per save
path (the suite runs 3).
"""
import gc
import os
import random
import shutil
import signal
import time
import warnings

import numpy as np
import pytest

import tfcompat as tf
from tfcompat.train._bundle import BundleReader, data_path, previous_data_path
from tfcompat.util import atomic_file

KILLS = int(os.environ.get("TFCOMPAT_KILL_TESTS", "3"))
DATA = ".data-00000-of-00001"


def leftovers(directory):
    """This project's temporaries and kept-aside files in `directory`."""
    return sorted(f for f in os.listdir(directory) if atomic_file.TAG in f or f.endswith(".tfcompat-prev"))


def kill_during_saves(save, check, cleanup_save, directory, seed):
    """Forks children that call `save(n)` for n = 1, 2, ... and kills each at a random moment; after each kill
    `check()` must load a complete save, and `cleanup_save()` must leave no temporaries behind.
    Returns how many kills left temporaries (before the cleanup save)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    save(0)
    window = 3 * (time.perf_counter() - start) + 0.01
    check()
    left = 0
    for round_ in range(KILLS):
        pid = os.fork()
        if pid == 0:                      # pragma: no cover - child
            try:
                n = 1000 * (round_ + 1)
                while True:
                    n += 1
                    save(n)
            finally:
                os._exit(1)
        time.sleep(rng.uniform(0, window))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        check()
        left += bool(leftovers(directory))
        cleanup_save()
        assert leftovers(directory) == []
        check()
    print(f"{KILLS} kills, {left} left temporaries (all removed by the next save), save took {window / 3:.3f} s")
    return left


def constant_of(arrays):
    """The single value every element of `arrays` holds (the save number)."""
    values = {float(v) for a in arrays for v in np.unique(np.asarray(a))}
    assert len(values) == 1, values
    return values.pop()


# -- kill -9 during saves -----------------------------------------------------------------------------------------
def test_kill_during_checkpoint_overwrite(tmp_path):
    """`Checkpoint.write` to the same prefix: data and index are renamed separately; the old data stays
    linked aside until the new index lands, so the old index always finds its data."""
    prefix = str(tmp_path / "ck")
    v, w = tf.Variable(np.zeros(200_000, "float32")), tf.Variable(np.zeros(1000, "float64"))
    ckpt = tf.train.Checkpoint(v=v, w=w)

    def save(n):
        v.assign(np.full(200_000, n, "float32"))
        w.assign(np.full(1000, n, "float64"))
        ckpt.write(prefix)

    def check():
        live = tf.train.Checkpoint(v=tf.Variable(np.zeros(200_000, "float32")), w=tf.Variable(np.zeros(1000)))
        live.read(prefix).assert_consumed()
        constant_of([live.v.numpy(), live.w.numpy()])

    kill_during_saves(save, check, lambda: save(-1), str(tmp_path), 1)


def test_kill_during_manager_saves(tmp_path):
    d = str(tmp_path / "ckpts")
    holder = {}

    def save(n):
        if "mgr" not in holder:
            ckpt = tf.train.Checkpoint(v=tf.Variable(np.zeros(100_000, "float32")))
            holder["mgr"] = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
        holder["mgr"]._checkpoint.v.assign(np.full(100_000, n, "float32"))
        holder["mgr"].save()

    def check():
        holder.clear()                    # the parent's manager must not hold the directory for the next child
        gc.collect()
        state = tf.train.get_checkpoint_state(d)
        for path in state.all_model_checkpoint_paths:
            live = tf.train.Checkpoint(v=tf.Variable(np.zeros(100_000, "float32")))
            live.restore(path).assert_existing_objects_matched()
            constant_of([live.v.numpy()])
        assert state.model_checkpoint_path == state.all_model_checkpoint_paths[-1]

    kill_during_saves(save, check, lambda: save(-1), d, 2)


def _dense_model(seed=0):
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([tf.keras.Input((256,)), tf.keras.layers.Dense(256), tf.keras.layers.Dense(8)])
    return model


def _fill(model, n):
    for var in model.weights:
        var.assign(np.full(var.shape, n, "float32"))


@pytest.mark.parametrize("name", ["m.weights.h5", "m.keras"])
def test_kill_during_keras_saves(tmp_path, name):
    path = str(tmp_path / name)
    model = _dense_model()

    def save(n):
        _fill(model, n)
        if name.endswith(".keras"):
            model.save(path)
        else:
            model.save_weights(path)

    def check():
        if name.endswith(".keras"):
            loaded = tf.keras.models.load_model(path)
        else:
            loaded = _dense_model()
            loaded.load_weights(path)
        constant_of([w.numpy() for w in loaded.weights])

    kill_during_saves(save, check, lambda: save(-1), str(tmp_path), 3)


def test_kill_during_tfrecord_writes(tmp_path):
    path = str(tmp_path / "r.tfrecord")

    def save(n):
        with tf.io.TFRecordWriter(path, "GZIP") as writer:
            for _ in range(2000):
                writer.write(str(n).encode() * 50)

    def check():
        records = [r.numpy() for r in tf.data.TFRecordDataset(path, "GZIP")]
        assert len(records) == 2000 and len(set(records)) == 1

    kill_during_saves(save, check, lambda: save(-1), str(tmp_path), 4)


def test_interrupted_overwrite_is_resolved(tmp_path):
    """The two states a kill between the renames can leave: the reader and the next write cope with both."""
    prefix, other = str(tmp_path / "ck"), str(tmp_path / "other")
    v = tf.Variable([1.0, 2.0, 3.0])
    ckpt = tf.train.Checkpoint(v=v)
    ckpt.write(prefix)
    v.assign([7.0, 8.0, 9.0])
    ckpt.write(other)
    kept = previous_data_path(data_path(prefix))
    os.link(data_path(prefix), kept)                  # killed after the new data landed, before the new index
    os.replace(data_path(other), data_path(prefix))
    live = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0, 0.0]))
    live.read(prefix).assert_consumed()
    assert live.v.numpy().tolist() == [1.0, 2.0, 3.0]
    v.assign([4.0, 5.0, 6.0])
    ckpt.write(prefix)
    assert leftovers(str(tmp_path)) == []
    live.read(prefix)
    assert live.v.numpy().tolist() == [4.0, 5.0, 6.0]
    os.link(data_path(prefix), kept)                  # killed after the new index landed: the kept file is stale
    ckpt.write(prefix)
    assert leftovers(str(tmp_path)) == []
    assert BundleReader(prefix).read("v/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [4.0, 5.0, 6.0]


def test_stale_temporaries_of_dead_writers_are_removed(tmp_path):
    pid = os.fork()
    if pid == 0:                          # pragma: no cover - child
        os._exit(0)
    os.waitpid(pid, 0)
    target = str(tmp_path / "f.bin")
    dead = str(tmp_path / f".f.bin{atomic_file.TAG}{pid}-00000000")
    live = str(tmp_path / f".f.bin{atomic_file.TAG}{os.getppid()}-00000000")
    mine = str(tmp_path / f".f.bin{atomic_file.TAG}{os.getpid()}-00000000")
    other_target = str(tmp_path / f".g.bin{atomic_file.TAG}{pid}-00000000")
    for p in (dead, live, mine, other_target):
        open(p, "wb").close()
    atomic_file.write_bytes(target, [b"ok"])
    assert sorted(os.listdir(tmp_path)) == sorted(["f.bin", os.path.basename(live), os.path.basename(other_target)])


def test_save_through_a_symlink_rewrites_its_target(tmp_path):
    """As Keras's in-place writes: the link stays, the file it points to gets the new content."""
    model = _dense_model()
    model.save(str(tmp_path / "run1.keras"))
    os.symlink("run1.keras", str(tmp_path / "latest.keras"))
    _fill(model, 3.0)
    model.save(str(tmp_path / "latest.keras"))
    assert os.path.islink(tmp_path / "latest.keras") and sorted(os.listdir(tmp_path)) == ["latest.keras", "run1.keras"]
    loaded = tf.keras.models.load_model(str(tmp_path / "run1.keras"))
    assert constant_of([w.numpy() for w in loaded.weights]) == 3.0


def test_failed_write_leaves_nothing(tmp_path):
    target = str(tmp_path / "f.bin")
    atomic_file.write_bytes(target, [b"old"])

    def chunks():
        yield b"new"
        raise OSError("No space left on device")
    with pytest.raises(OSError, match="No space left"):
        atomic_file.write_bytes(target, chunks())
    assert os.listdir(tmp_path) == ["f.bin"] and (tmp_path / "f.bin").read_bytes() == b"old"


# -- restores are all or nothing ----------------------------------------------------------------------------------
def _three():
    return tf.train.Checkpoint(a=tf.Variable(np.arange(1000, dtype="float32")),
                               b=tf.Variable(np.arange(10, dtype="int64")), c=tf.Variable([b"x", b"yz"]))


def _sentinels():
    return tf.train.Checkpoint(a=tf.Variable(np.full(1000, -1, "float32")), b=tf.Variable(np.full(10, -1, "int64")),
                               c=tf.Variable([b"-", b"-"]))


def _unchanged(ckpt):
    return (ckpt.a.numpy() == -1).all() and (ckpt.b.numpy() == -1).all() and ckpt.c.numpy().tolist() == [b"-", b"-"]


@pytest.mark.parametrize("key", ["a", "b", "c"])
def test_bit_flip_in_any_tensor_changes_no_variable(tmp_path, key):
    prefix = _three().write(str(tmp_path / "ck"))
    entry = BundleReader(prefix).entries[key + "/.ATTRIBUTES/VARIABLE_VALUE"]
    with open(prefix + DATA, "r+b") as f:
        f.seek(entry["offset"] + entry["size"] - 1)
        byte = f.read(1)[0]
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte ^ 0x10]))
    live = _sentinels()
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch"):
        live.restore(prefix)
    assert _unchanged(live)


def test_truncated_files_change_no_variable(tmp_path):
    prefix = _three().write(str(tmp_path / "ck"))
    for suffix, size in [(DATA, 2000), (".index", 40)]:
        shutil.copyfile(prefix + suffix, prefix + suffix + ".good")
        with open(prefix + suffix, "r+b") as f:
            f.truncate(size)
        live = _sentinels()
        with pytest.raises(tf.errors.DataLossError):
            live.restore(prefix)
        assert _unchanged(live)
        os.replace(prefix + suffix + ".good", prefix + suffix)


def test_wrong_shape_or_dtype_changes_no_variable(tmp_path):
    prefix = _three().write(str(tmp_path / "ck"))
    live = _sentinels()
    live.c = tf.Variable([b"-", b"-", b"-"])
    with pytest.raises(ValueError, match="Received incompatible tensor with shape"):
        live.restore(prefix)
    assert (live.a.numpy() == -1).all() and (live.b.numpy() == -1).all()
    live = _sentinels()
    live.c = tf.Variable([-1.0, -1.0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="expected dtype float does not equal original dtype string"):
        live.restore(prefix)
    assert (live.a.numpy() == -1).all() and (live.b.numpy() == -1).all()


def test_deferred_restore_of_a_corrupt_value_leaves_its_variable(tmp_path):
    """Deferred values are restored per variable as it is created (TF 2.21 + Keras 3: the kernel gets its
    value, the corrupt bias raises DataLossError at creation and keeps its initial value)."""
    layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones")
    layer.build((None, 2))
    layer.kernel.assign(np.full((2, 3), 5.0, "float32"))
    layer.bias.assign(np.full(3, 5.0, "float32"))
    prefix = tf.train.Checkpoint(layer=layer).write(str(tmp_path / "ck"))
    entry = BundleReader(prefix).entries["layer/bias/.ATTRIBUTES/VARIABLE_VALUE"]
    with open(prefix + DATA, "r+b") as f:
        f.seek(entry["offset"])
        f.write(b"\xff\xff\xff\xff")
    fresh = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones")
    tf.train.Checkpoint(layer=fresh).restore(prefix)           # nothing to assign yet: the values wait
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch"):
        fresh.build((None, 2))
    assert [w.numpy().tolist() for w in fresh.weights] == [[[5.0] * 3] * 2, [1.0] * 3]


def test_failed_restore_changes_nothing_but_its_deferred_values_still_apply(tmp_path):
    """TF 2.21: the pass raises with no variable changed; the layer built later still gets its (good) values."""
    layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones")
    layer.build((None, 2))
    layer.kernel.assign(np.full((2, 3), 5.0, "float32"))
    layer.bias.assign(np.full(3, 5.0, "float32"))
    prefix = tf.train.Checkpoint(layer=layer, v=tf.Variable(np.arange(100.0)), w=tf.Variable(2.0)).write(
        str(tmp_path / "ck"))
    entry = BundleReader(prefix).entries["w/.ATTRIBUTES/VARIABLE_VALUE"]      # read after v
    with open(prefix + DATA, "r+b") as f:
        f.seek(entry["offset"] + 3)
        f.write(b"\xff")
    fresh, v, w = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones"), \
        tf.Variable(np.zeros(100)), tf.Variable(-1.0)
    with pytest.raises(tf.errors.DataLossError, match="checksum mismatch"):
        tf.train.Checkpoint(layer=fresh, v=v, w=w).restore(prefix)
    assert (v.numpy() == 0).all() and w.numpy() == -1.0
    fresh.build((None, 2))
    assert [x.numpy().tolist() for x in fresh.weights] == [[[5.0] * 3] * 2, [5.0] * 3]


def test_keras_load_weights_is_all_or_nothing(tmp_path):
    """Keras 3 assigns the layers before a mismatching one; tfcompat checks every value first."""
    tf.keras.backend.clear_session()
    saved = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="a"),
                                 tf.keras.layers.Dense(2, name="b")])
    _fill(saved, 5.0)
    saved.save_weights(str(tmp_path / "m.weights.h5"))
    other = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="a"),
                                 tf.keras.layers.Dense(5, name="b")])
    _fill(other, -1.0)
    with pytest.raises(ValueError, match="A total of 1 objects could not be loaded"):
        other.load_weights(str(tmp_path / "m.weights.h5"))
    assert constant_of([w.numpy() for w in other.weights]) == -1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        other.load_weights(str(tmp_path / "m.weights.h5"), skip_mismatch=True)
    assert "A total of 1 objects could not be loaded" in str(caught[-1].message)
    assert constant_of([w.numpy() for w in other.layers[0].weights]) == 5.0
    assert constant_of([w.numpy() for w in other.layers[1].weights]) == -1.0


# -- one writer per checkpoint directory --------------------------------------------------------------------------
def test_second_manager_in_the_process_is_refused(tmp_path):
    d = str(tmp_path)
    first = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), d, max_to_keep=2)
    first.save()
    second = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(2.0)), d, max_to_keep=2)
    assert second.restore_or_initialize() == os.path.join(d, "ckpt-1")      # readers take no lock
    with pytest.raises(tf.errors.FailedPreconditionError, match="Another CheckpointManager .* is saving to"):
        second.save()
    assert sorted(os.listdir(d)) == ["checkpoint", "ckpt-1" + DATA, "ckpt-1.index"]
    first.save()
    del first
    gc.collect()
    assert second.save() == os.path.join(d, "ckpt-2")       # its own counter: restored 1, now the only writer


def test_forked_child_does_not_inherit_the_lock(tmp_path):
    d = str(tmp_path)
    mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), d, max_to_keep=2)
    mgr.save()
    pid = os.fork()
    if pid == 0:                          # pragma: no cover - child
        code = 3
        try:
            mgr.save()
        except tf.errors.FailedPreconditionError:
            code = 0                      # the parent still writes the directory
        finally:
            os._exit(code)
    assert os.waitpid(pid, 0)[1] == 0
    assert mgr.save() == os.path.join(d, "ckpt-2")


def test_manager_in_another_process_is_refused(tmp_path):
    d = str(tmp_path)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                          # pragma: no cover - child
        try:
            os.close(read_end)
            mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), d, max_to_keep=2)
            mgr.save()
            os.write(write_end, b"saved")
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        assert os.read(read_end, 5) == b"saved"
        mine = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(2.0)), d, max_to_keep=2)
        with pytest.raises(tf.errors.FailedPreconditionError, match="Another CheckpointManager"):
            mine.save()
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read_end)
    assert mine.save() == os.path.join(d, "ckpt-1")      # the lock died with the other writer


# -- file modes ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600)])
def test_saved_files_get_the_umask_mode(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        d = str(tmp_path / "ckpts")
        mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), d, max_to_keep=2)
        mgr.save()
        model = _dense_model()
        model.save(str(tmp_path / "m.keras"))
        model.save_weights(str(tmp_path / "m.weights.h5"))
        with tf.io.TFRecordWriter(str(tmp_path / "r.tfrecord")) as writer:
            writer.write(b"x")
        tf.train.checkpoint_to_safetensors(mgr.latest_checkpoint, str(tmp_path / "c.safetensors"))
    finally:
        os.umask(old)
    files = [os.path.join(d, f) for f in os.listdir(d)] + [str(tmp_path / f) for f in
                                                            ("m.keras", "m.weights.h5", "r.tfrecord", "c.safetensors")]
    assert {os.path.basename(f): oct(os.stat(f).st_mode & 0o777) for f in files} == \
        {os.path.basename(f): oct(mode) for f in files}


def test_keras_overwrite_keeps_the_file_mode(tmp_path):
    """Keras rewrites `.keras` / `.weights.h5` in place, so a file's mode survives a re-save (checked in Keras)."""
    model = _dense_model()
    for name in ("m.keras", "m.weights.h5"):
        path = str(tmp_path / name)
        model.save(path) if name.endswith(".keras") else model.save_weights(path)
        os.chmod(path, 0o600)
        model.save(path) if name.endswith(".keras") else model.save_weights(path)
        assert os.stat(path).st_mode & 0o777 == 0o600
