"""Seeded random datasets give TF's values: `Dataset.random` (PhiloxRandom words) and `sample_from_datasets`
(stateless multinomial over `random().batch(2)` seeds, a directed interleave). Golden values from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

D = tf.data.Dataset


def lst(ds):
    return [v.tolist() if hasattr(v, "tolist") else v for v in ds.as_numpy_iterator()]


def test_random_values_fixed_and_rerandomized():
    r = D.random(seed=4).take(5)
    # TF 2.21
    assert lst(r) == lst(r) == [3128586565, 2023892699, 452966358, 4293674553, 1485036815]
    r = D.random(seed=4, rerandomize_each_iteration=True).take(3)
    assert lst(r) == [1905554911, 4215726141, 1283758208]
    assert lst(r) == [1683472663, 2279948892, 2709632186]
    assert lst(r) == [3140632116, 4291497019, 3066576932]
    assert r.element_spec == tf.TensorSpec((), tf.int64)


def test_random_global_seed():
    tf.random.set_seed(11)
    try:
        r = D.random().take(3)
        assert lst(r) == lst(r) == [1528828984, 4150816806, 2913301615]     # TF 2.21
    finally:
        tf.random.set_seed(None)


def test_sample_from_datasets_values():
    a = D.from_tensors(1).repeat(8)
    b = D.from_tensors(2).repeat(8)
    # TF 2.21, after tf.random.set_seed(11)
    tf.random.set_seed(11)
    try:
        assert lst(D.sample_from_datasets([a, b], weights=[0.5, 0.5], seed=1)) == \
            [1, 2, 2, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1, 2]
        assert lst(D.sample_from_datasets([a, b], weights=[0.2, 0.8], seed=7)) == \
            [2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1]
        assert lst(D.sample_from_datasets([a, b], seed=3)) == [1, 2, 2, 2, 2, 1, 2, 2, 1, 2, 2, 1, 1, 1, 1, 1]
        s = D.sample_from_datasets([a, b], seed=3, stop_on_empty_dataset=True)
        assert lst(s) == lst(s) == [1, 2, 2, 2, 2, 1, 2, 2, 1, 2, 2, 1]
    finally:
        tf.random.set_seed(None)


def test_sample_from_datasets_exhausted_inputs_and_weights():
    a, b = D.range(3), D.range(10, 20)
    assert lst(D.sample_from_datasets([a, b], weights=[0.0, 1.0], seed=2)) == list(range(10, 20))
    assert lst(D.sample_from_datasets([a, b], weights=np.array([0.25, 0.75]), seed=5)) == \
        [0, 1, 2] + list(range(10, 20))
    assert lst(D.sample_from_datasets([a, b], seed=5, stop_on_empty_dataset=True)) == [0, 1, 2, 10, 11]
    s = D.sample_from_datasets([a, b], seed=5, rerandomize_each_iteration=True)
    assert lst(s) == [0, 10, 11, 1, 2, 12, 13, 14, 15, 16, 17, 18, 19]
    assert lst(s) == [10, 11, 0, 1, 12, 13, 14, 2, 15, 16, 17, 18, 19]
    assert repr(s) == "<_DirectedInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert lst(D.sample_from_datasets([a, b, D.range(100, 103)], seed=9)) == \
        [0, 100, 10, 101, 102, 11, 1, 2, 12, 13, 14, 15, 16, 17, 18, 19]
    assert D.sample_from_datasets([a], seed=2) is a
    assert [int(D.sample_from_datasets(ds, seed=2).cardinality()) for ds in
            ([a, b], [a.repeat(), b.repeat()], [a.repeat(), b])] == [-2, -1, -1]


def test_sample_from_datasets_bad_weights():
    a, b = D.range(3), D.range(10, 20)
    with pytest.raises(TypeError, match=r"^Invalid `weights`. `weights` type must be either `tf.float32` or "
                                        r"`tf.float64` but is <dtype: 'int32'>.$"):
        D.sample_from_datasets([a, b], weights=[1, 3])
    with pytest.raises(ValueError, match=r"`len\(weights\)=1` vs. `len\(datasets\)=2`"):
        D.sample_from_datasets([a, b], weights=[0.5])
    with pytest.raises(ValueError, match=r"compatible with `\[len\(datasets\)\]` but is \(3,\)"):
        D.sample_from_datasets([a, b], weights=tf.constant([0.5, 0.2, 0.3]))
    with pytest.raises(ValueError, match="`datasets` should not be empty"):
        D.sample_from_datasets([])
