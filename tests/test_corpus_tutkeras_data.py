"""tf.data orders from the TF tutorials corpus (keras/text_classification, customization/basics): TF's seeded
`Dataset.shuffle` order and Keras's `text_dataset_from_directory` split and shuffle.

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import os

import tfcompat as tf

D = tf.data.Dataset


def values(ds):
    return [int(x) for x in ds.as_numpy_iterator()]


def test_seeded_shuffle_is_tfs_order():
    # TF 2.21
    assert values(D.range(20).shuffle(8, seed=42)) == [1, 8, 6, 3, 5, 9, 2, 4, 0, 12, 10, 17, 13, 15, 19, 18, 14,
                                                       16, 11, 7]
    assert values(D.range(20).shuffle(256, seed=42)) == [5, 16, 1, 17, 0, 14, 10, 2, 12, 19, 7, 9, 13, 15, 11, 18, 4,
                                                         6, 3, 8]
    assert values(D.from_tensor_slices(list(range(12))).shuffle(5, seed=11)) == [1, 3, 2, 0, 4, 9, 8, 7, 11, 10, 5, 6]
    zipped = D.zip((D.range(5), D.range(5))).shuffle(2, seed=4)
    assert [tuple(int(v) for v in e) for e in zipped.as_numpy_iterator()] == [(1, 1), (2, 2), (0, 0), (3, 3), (4, 4)]


def test_each_iterator_reshuffles_from_the_seed_generator():
    ds = D.range(10).shuffle(4, seed=7)
    assert values(ds) == [0, 4, 2, 3, 5, 6, 1, 8, 7, 9]     # TF 2.21
    assert values(ds) == [1, 3, 0, 4, 6, 5, 7, 8, 9, 2]
    assert values(ds.take(3)) == [3, 2, 4]
    assert values(ds) == [0, 3, 1, 6, 5, 4, 9, 8, 7, 2]
    fixed = D.range(10).shuffle(4, seed=7, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed) == [3, 4, 0, 5, 1, 8, 2, 7, 6, 9]


def test_shuffle_in_pipelines():
    # TF 2.21
    assert values(D.range(6).shuffle(100, seed=3).repeat(3)) == [0, 1, 2, 3, 4, 5, 0, 4, 1, 5, 3, 2, 2, 4, 5, 3, 0, 1]
    assert values(D.range(6).repeat(3).shuffle(5, seed=3)) == [4, 1, 0, 2, 1, 2, 4, 0, 3, 0, 5, 3, 3, 1, 5, 4, 5, 2]
    batches = D.range(10).map(lambda x: x * 2).shuffle(3, seed=1).batch(4)
    assert [b.tolist() for b in batches.as_numpy_iterator()] == [[2, 6, 0, 10], [4, 12, 14, 16], [18, 8]]
    assert values(D.range(10).shuffle(10, seed=5).shuffle(3, seed=9)) == [3, 0, 5, 2, 7, 4, 1, 8, 9, 6]


def test_a_map_after_shuffle_does_not_start_a_pass():
    # the map's output spec comes from a peek at the input: the first iteration is still TF's first order
    ds = D.range(161).shuffle(256, seed=42).map(lambda x: x + 0).batch(32)
    assert next(iter(ds)).numpy()[:10].tolist() == [40, 112, 4, 133, 136, 149, 32, 3, 108, 12]  # TF 2.21


def test_global_seed_gives_op_seeds_in_order():
    tf.random.set_seed(123)
    a, b = D.range(10).shuffle(10), D.range(10).shuffle(10)
    c = D.range(10).shuffle(10, seed=1)
    # TF 2.21
    assert values(a) == [3, 6, 4, 0, 1, 5, 7, 8, 2, 9]
    assert values(b) == [1, 4, 9, 6, 7, 8, 0, 3, 2, 5]
    assert values(c) == [7, 9, 8, 3, 2, 5, 1, 4, 0, 6]
    tf.random.set_seed(1)
    assert values(D.range(20).shuffle(8)) == [6, 2, 0, 10, 3, 5, 9, 1, 12, 16, 17, 8, 7, 4, 15, 19, 11, 18, 13, 14]


def _texts(ds):
    return [[x.decode() for x in t.numpy().tolist()] for t, _ in ds]


def test_text_dataset_from_directory_orders(tmp_path):
    for label in ("neg", "pos"):
        os.makedirs(tmp_path / label)
        for i in range(10):
            (tmp_path / label / f"{i}.txt").write_text(f"{label}{i}")
    load = tf.keras.utils.text_dataset_from_directory
    d = str(tmp_path)
    # TF 2.21
    assert _texts(load(d, batch_size=4, seed=42, verbose=False)) == [
        ["neg5", "neg7", "pos7", "pos0"], ["neg0", "neg4", "pos3", "pos5"], ["neg9", "neg6", "neg3", "pos6"],
        ["pos9", "pos2", "neg2", "pos4"], ["neg8", "pos1", "neg1", "pos8"]]
    assert _texts(load(d, batch_size=4, seed=42, verbose=False, validation_split=0.25, subset="training")) == [
        ["neg0", "neg8", "neg9", "neg3"], ["neg2", "pos6", "neg4", "neg5"], ["pos7", "pos5", "pos8", "pos9"],
        ["pos3", "pos1", "neg1"]]
    # a validation subset alone is shuffled; the validation half of subset="both" is not
    assert _texts(load(d, batch_size=4, seed=42, verbose=False, validation_split=0.25, subset="validation")) == [
        ["pos2", "neg6", "neg7", "pos4"], ["pos0"]]
    _, val = load(d, batch_size=4, seed=42, verbose=False, validation_split=0.25, subset="both")
    assert _texts(val) == [["pos2", "neg7", "pos0", "pos4"], ["neg6"]]


def test_a_script_leaving_a_prefetch_iterator_exits_cleanly():
    # the tutorials' `for x in ds.take(1)` over a prefetched pipeline: the producer thread was still in a torch
    # kernel at interpreter exit and the process aborted (rc 134, "terminate called without an active exception")
    import subprocess
    import sys
    code = ("import tfcompat as tf\n"
            "ds = tf.data.Dataset.range(10).map(lambda x: x * 1).batch(2).prefetch(-1)\n"
            "for x in ds.take(1):\n"
            "    pass\n")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-500:]
        assert "terminate called" not in done.stderr
