"""tf.data: outputs, element_spec, cardinality and errors, golden values from TF 2.21."""
import collections
import os
import re
import threading
import time

import numpy as np
import pytest

import tfcompat as tf

D = tf.data.Dataset


def lst(ds):
    return list(ds.as_numpy_iterator())


S = D.from_tensor_slices([1, 2, 3])
REPRS = {   # name: (dataset, repr, cardinality) from TF 2.21
    "slices": (lambda: S, "<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "tensors": (lambda: D.from_tensors([1, 2]),
                "<_TensorDataset element_spec=TensorSpec(shape=(2,), dtype=tf.int32, name=None)>", 1),
    "range": (lambda: D.range(2, 10, 3), "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", 3),
    "map": (lambda: S.map(lambda x: x * 2), "<_MapDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "pmap": (lambda: S.map(lambda x: x, num_parallel_calls=tf.data.AUTOTUNE),
             "<_ParallelMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "filter": (lambda: S.filter(lambda x: x > 1),
               "<_FilterDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "flat_map": (lambda: S.flat_map(lambda x: D.from_tensors(x)),
                 "<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "interleave": (lambda: S.interleave(lambda x: D.from_tensors(x), cycle_length=2),
                   "<_InterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "shuffle": (lambda: S.shuffle(10), "<_ShuffleDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "batch": (lambda: S.batch(2), "<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>", 2),
    "batchd": (lambda: S.batch(2, drop_remainder=True),
               "<_BatchDataset element_spec=TensorSpec(shape=(2,), dtype=tf.int32, name=None)>", 1),
    "padded": (lambda: S.padded_batch(2),
               "<_PaddedBatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>", 2),
    "unbatch": (lambda: S.batch(2).unbatch(),
                "<_UnbatchDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "rebatch": (lambda: S.batch(2).rebatch(1),
                "<_RebatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>", -2),
    "repeat": (lambda: S.repeat(), "<_RepeatDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -1),
    "repeat2": (lambda: S.repeat(2), "<_RepeatDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 6),
    "take": (lambda: S.take(2), "<_TakeDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 2),
    "skip": (lambda: S.skip(1), "<_SkipDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 2),
    "take_while": (lambda: S.take_while(lambda x: x < 3),
                   "<_TakeWhileDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "cache": (lambda: S.cache(), "<CacheDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "prefetch": (lambda: S.prefetch(1), "<_PrefetchDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "enumerate": (lambda: S.enumerate(), "<_ZipDataset element_spec=(TensorSpec(shape=(), dtype=tf.int64, name=None), "
                  "TensorSpec(shape=(), dtype=tf.int32, name=None))>", 3),
    "window": (lambda: S.window(2), "<_WindowDataset element_spec=DatasetSpec(TensorSpec(shape=(), dtype=tf.int32, "
               "name=None), TensorShape([]))>", 2),
    "scan": (lambda: S.scan(0, lambda s, x: (s + x, x)),
             "<_ScanDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "shard": (lambda: S.shard(2, 0), "<_ShardDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 2),
    "ignore_errors": (lambda: S.ignore_errors(),
                      "<_IgnoreErrorsDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "zip": (lambda: D.zip(S, S), "<_ZipDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
            "TensorSpec(shape=(), dtype=tf.int32, name=None))>", 3),
    "concat": (lambda: S.concatenate(S),
               "<_ConcatenateDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 6),
    "sample": (lambda: D.sample_from_datasets([S, S]),
               "<_DirectedInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "choose": (lambda: D.choose_from_datasets([S, S], D.range(2)),
               "<_DirectedInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "gbw": (lambda: S.group_by_window(lambda x: np.int64(int(x) % 2), lambda k, d: d.batch(2), window_size=2),
            "<_GroupByWindowDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int32, name=None)>", -2),
    "bucket": (lambda: D.from_tensor_slices([[1, 2], [3, 4]]).bucket_by_sequence_length(
        lambda x: x.shape[0], [2], [1, 1]),
        "<_GroupByWindowDataset element_spec=TensorSpec(shape=(None, 2), dtype=tf.int32, name=None)>", -2),
    "opts": (lambda: S.with_options(tf.data.Options()),
             "<_OptionsDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 3),
    "apply": (lambda: S.apply(lambda d: d.take(1)),
              "<_TakeDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", 1),
    "gen_legacy": (lambda: D.from_generator(lambda: iter([1]), output_types=tf.int32),
                   "<_FlatMapDataset element_spec=TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)>", -2),
    "gen_legacy2": (lambda: D.from_generator(lambda: iter([1]), output_types=tf.int32, output_shapes=()),
                    "<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "unique": (lambda: S.unique(), "<_UniqueDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>", -2),
    "dict": (lambda: D.from_tensor_slices({"a": [1, 2], "b": [1., 2.]}),
             "<_TensorSliceDataset element_spec={'a': TensorSpec(shape=(), dtype=tf.int32, name=None), "
             "'b': TensorSpec(shape=(), dtype=tf.float32, name=None)}>", 2),
    "tup": (lambda: D.from_tensor_slices(([1, 2], np.array([[1., 2], [3, 4]]))),
            "<_TensorSliceDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
            "TensorSpec(shape=(2,), dtype=tf.float64, name=None))>", 2),
    "strs": (lambda: D.from_tensor_slices(["a", "b"]),
             "<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>", 2),
    "random": (lambda: D.random(seed=1), "<_RandomDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", -1),
    "counter": (lambda: D.counter(), "<_ScanDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>", -1),
}


@pytest.mark.parametrize("name", sorted(REPRS))
def test_repr_and_cardinality(name):
    make, text, card = REPRS[name]
    ds = make()
    assert repr(ds) == text
    c = ds.cardinality()
    assert c.dtype == tf.int64 and int(c) == card


INF, UNK, ZERO = (lambda: D.range(3).repeat()), (lambda: D.range(3).filter(lambda x: True)), (lambda: D.range(0))
CARD_RULES = {  # transformation: (on infinite, on unknown, on empty) from TF 2.21
    "filter": (lambda d: d.filter(lambda x: True), -2, -2, -2),
    "unbatch": (lambda d: d.batch(2).unbatch(), -1, -2, -2),
    "sample": (lambda d: D.sample_from_datasets([d, d]), -1, -2, -2),
    "shuffle": (lambda d: d.shuffle(2), -1, -2, 0),
    "batch": (lambda d: d.batch(2), -1, -2, 0),
    "repeat": (lambda d: d.repeat(2), -1, -2, 0),
    "repeatinf": (lambda d: d.repeat(), -1, -1, 0),
    "concat": (lambda d: d.concatenate(D.range(2)), -1, -2, 2),
    "zip": (lambda d: D.zip(d, D.range(2)), 2, -2, 0),
    "take": (lambda d: d.take(2), 2, -2, 0),
    "skip": (lambda d: d.skip(2), -1, -2, 0),
    "shard": (lambda d: d.shard(2, 0), -1, -2, 0),
    "window": (lambda d: d.window(2), -1, -2, 0),
    "cache": (lambda d: d.cache(), -1, -2, 0),
    "padded": (lambda d: d.padded_batch(2), -1, -2, 0),
    "gbw": (lambda d: d.group_by_window(lambda x: x, lambda k, w: w, window_size=2), -1, -2, -2),
}


@pytest.mark.parametrize("name", sorted(CARD_RULES))
def test_cardinality_rules(name):
    f, inf, unk, zero = CARD_RULES[name]
    assert [int(f(d()).cardinality()) for d in (INF, UNK, ZERO)] == [inf, unk, zero]


def test_cardinality_misc():
    r = D.range(10)
    assert int(r.repeat(0).cardinality()) == 0
    assert int(r.take(-1).cardinality()) == 10
    assert int(r.skip(20).cardinality()) == 0
    assert int(r.skip(-1).cardinality()) == 0
    assert int(r.shard(3, 1).cardinality()) == 3
    assert int(D.range(7).window(3, shift=2, drop_remainder=True).cardinality()) == 3
    assert int(D.range(5).window(2).cardinality()) == 3
    assert int(D.zip(INF(), INF()).cardinality()) == -1
    assert int(D.zip(UNK(), INF()).cardinality()) == -2
    assert int(tf.data.experimental.cardinality(D.range(3))) == 3
    assert (tf.data.AUTOTUNE, tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY,
            tf.data.experimental.AUTOTUNE) == (-1, -1, -2, -1)


def test_len():
    assert len(D.range(4)) == 4
    with pytest.raises(TypeError, match="^The dataset is infinite.$"):
        len(D.range(1).repeat())
    with pytest.raises(TypeError, match="^The dataset length is unknown.$"):
        len(D.range(1).filter(lambda x: True))
    assert bool(D.range(1).repeat())


def test_sources_values_and_dtypes():
    els = list(D.from_tensor_slices(([1, 2], np.array([[1., 2], [3, 4]]))))
    assert isinstance(els[0], tuple) and all(isinstance(t, tf.Tensor) for t in els[0])
    assert els[0][0].dtype == tf.int32 and els[0][1].dtype == tf.float64
    np.testing.assert_array_equal(els[1][1].numpy(), [3., 4.])
    d = list(D.from_tensor_slices({"a": [1, 2], "b": [1., 2.]}))
    assert list(d[1]) == ["a", "b"] and d[1]["b"].dtype == tf.float32 and float(d[1]["b"]) == 2.0
    assert [int(x) for x in D.range(2, 10, 3)] == [2, 5, 8]
    assert D.range(3, output_type=tf.int32).element_spec.dtype == tf.int32
    assert lst(D.from_tensor_slices([[1, 2], [3, 4]]))[1].tolist() == [3, 4]
    assert repr(D.from_tensor_slices([(1, 2), (3, 4)]).element_spec) == \
        "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"
    assert repr(D.from_tensor_slices([tf.constant([1, 2]), tf.constant([3, 4])]).element_spec) == \
        "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"
    assert lst(D.from_tensor_slices((["a", "b"], [1., 2.]))) == [(b"a", np.float32(1.0)), (b"b", np.float32(2.0))]
    assert repr(D.from_tensors(([1, 2], {"a": "x"})).element_spec) == (
        "(TensorSpec(shape=(2,), dtype=tf.int32, name=None), {'a': TensorSpec(shape=(), dtype=tf.string, name=None)})")
    assert str(D.from_tensors(1)) == "<_TensorDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>"


def test_source_errors():
    with pytest.raises(ValueError, match="^Dimensions 2 and 3 are not compatible$"):
        D.from_tensor_slices(([1, 2], [1, 2, 3]))
    with pytest.raises(ValueError, match="^Unbatching a tensor is only supported for rank >= 1$"):
        D.from_tensor_slices(1)
    with pytest.raises(TypeError, match="^Cannot convert 0.0 to EagerTensor of dtype int64$"):
        D.range(0., 1., 0.5)


def test_iterator_protocol():
    it = iter(D.range(1))
    assert int(next(it)) == 0
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"^{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/replica:0/task:0/device:CPU:0}} End of sequence \[Op:IteratorGetNext\] name: $"):
        it.get_next()
    assert not bool(it.get_next_as_optional().has_value())
    it = iter(D.range(5, 7))
    assert int(it.get_next()) == 5 and int(it.get_next_as_optional().get_value()) == 6
    assert it.element_spec == D.range(1).element_spec


def test_from_generator():
    ds = D.from_generator(lambda: iter([(1, [1, 2]), (2, [3])]), output_types=(tf.int32, tf.int64),
                          output_shapes=((), (None,)))
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "TensorSpec(shape=(None,), dtype=tf.int64, name=None))")
    out = lst(ds)
    assert out[1][0] == 2 and out[1][1].dtype == np.int64 and out[1][1].tolist() == [3]
    # values are converted to the signature's dtype as TF does (np.asarray with the dtype)
    assert lst(D.from_generator(lambda: iter([1.5]), output_types=tf.int32, output_shapes=())) == [1]
    assert lst(D.from_generator(lambda: iter([1]), output_types=tf.float32))[0].dtype == np.float32
    args_ds = D.from_generator(lambda n: iter(range(n)), output_types=tf.int64, args=(3,))
    assert lst(args_ds) == [0, 1, 2] and lst(args_ds) == [0, 1, 2]    # re-iterable: calls the generator again


def test_from_generator_output_signature():
    spec = tf.TensorSpec
    sig = (spec([None], tf.float32), {"k": spec((), tf.string)})
    ds = D.from_generator(lambda: iter([([1, 2], {"k": "a"}), ([3.5], {"k": b"b"})]), output_signature=sig)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
                                     "{'k': TensorSpec(shape=(), dtype=tf.string, name=None)})")
    assert [(v.tolist(), d) for v, d in lst(ds)] == [([1.0, 2.0], {"k": b"a"}), ([3.5], {"k": b"b"})]
    assert int(ds.cardinality()) == -2


def test_from_generator_errors():
    bad_shape = D.from_generator(lambda: iter([[1, 2], [1, 2, 3]]), output_types=tf.int32, output_shapes=[2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__[^}]*\}\} TypeError: `generator` yielded an element of shape \(3,\) where an element of shape "
                             r"\(2,\) was expected\."):
        lst(bad_shape)
    bad_struct = D.from_generator(lambda: iter([1]), output_types=(tf.int32, tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__[^}]*\}\} TypeError: `generator` yielded an element that did not match the expected structure. "
                             r"The expected structure was \(tf.int32, tf.int32\), but the yielded element was 1\."):
        lst(bad_struct)

    def raising():
        yield 1
        raise ValueError("boom")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^\{\{function_node __wrapped__[^}]*\}\} ValueError: boom"):
        lst(D.from_generator(raising, output_types=tf.int32))


def test_batch():
    assert [b.tolist() for b in lst(D.range(7).batch(3))] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in lst(D.range(7).batch(3, drop_remainder=True))] == [[0, 1, 2], [3, 4, 5]]
    assert int(D.range(10).batch(3).cardinality()) == 4
    x, y = next(iter(D.from_tensor_slices((np.arange(12.).reshape(6, 2), [1, 2, 3, 4, 5, 6])).batch(4)))
    assert x.shape == (4, 2) and x.dtype == tf.float64 and y.numpy().tolist() == [1, 2, 3, 4]
    strs = lst(D.from_tensor_slices(["a", "b", "c"]).map(lambda s: s).batch(2))
    assert strs[0].tolist() == [b"a", b"b"] and strs[1].tolist() == [b"c"]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__[^}]*\}\} Batch size must be greater than zero. \[Op:BatchDatasetV2\] name: $"):
        D.range(3).batch(0)


def test_batch_shape_mismatch():
    ds = D.from_generator(lambda: iter([(1, [1, 2]), (1, [1, 2, 3])]), output_types=(tf.int32, tf.int32),
                          output_shapes=((), (None,)))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__[^}]*\}\} Cannot batch tensors with different shapes in component 1. First element had shape "
                             r"\[2\] and element 1 had shape \[3\]. \[Op:IteratorGetNext\] name: $"):
        lst(ds.batch(2))


VAR = [[1], [1, 2, 3], [4, 5]]


def var_ds(values=VAR):
    return D.from_generator(lambda: iter(values), output_types=tf.int32, output_shapes=[None])


def test_padded_batch():
    out = lst(var_ds().padded_batch(2))
    assert [o.tolist() for o in out] == [[[1, 0, 0], [1, 2, 3]], [[4, 5]]]
    ds = var_ds().padded_batch(2, padded_shapes=[4], padding_values=-1)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, 4), dtype=tf.int32, name=None)"
    assert [o.tolist() for o in lst(ds)] == [[[1, -1, -1, -1], [1, 2, 3, -1]], [[4, 5, -1, -1]]]
    with pytest.raises(tf.errors.DataLossError, match=r"^\{\{function_node __wrapped__[^}]*\}\} Attempted to pad to a smaller size than the input element."):
        lst(var_ds().padded_batch(2, padded_shapes=[2]))


def test_unbatch_rebatch():
    assert [x.tolist() for x in lst(D.from_tensors([[1, 2], [3, 4]]).unbatch())] == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match="^Cannot unbatch an input with scalar components.$"):
        D.range(3).unbatch()
    assert [x.tolist() for x in lst(D.range(10).batch(4).rebatch(3))] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert [x.tolist() for x in lst(D.range(10).batch(4).rebatch([1, 2]))] == [
        [0], [1, 2], [3], [4, 5], [6], [7, 8], [9]]
    assert repr(D.range(10).batch(4, drop_remainder=True).rebatch(2).element_spec) == \
        "TensorSpec(shape=(2,), dtype=tf.int64, name=None)"


def test_map_filter_flat_map():
    assert lst(D.from_tensor_slices({"a": [1, 2]}).map(lambda d: d["a"] + 1)) == [2, 3]
    assert lst(D.from_tensor_slices(([1, 2], [3, 4])).map(lambda a, b: a + b)) == [4, 6]
    assert repr(D.range(3).map(lambda x: [x, x]).element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorSpec(shape=(), dtype=tf.int64, name=None))")
    assert repr(D.range(3).map(lambda x: 1.5).element_spec) == "TensorSpec(shape=(), dtype=tf.float32, name=None)"
    assert repr(D.range(10).batch(3).map(lambda x: x * 2).element_spec) == \
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"
    par = D.range(50).map(lambda x: x * 2, num_parallel_calls=4, deterministic=False)
    assert lst(par) == list(range(0, 100, 2))
    assert lst(D.range(10).filter(lambda x: x % 3 == 0)) == [0, 3, 6, 9]
    with pytest.raises(ValueError, match=r"^Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, "
                                         r"but its return type is TensorSpec\(shape=\(\), dtype=tf.int64, name=None\).$"):
        lst(D.range(3).filter(lambda x: x))
    assert lst(D.range(1, 4).flat_map(lambda x: D.from_tensors(x).repeat(x))) == [1, 2, 2, 3, 3, 3]
    assert lst(D.range(10).take_while(lambda x: x < 4)) == [0, 1, 2, 3]


def test_map_errors_propagate():
    def bad(x):
        raise ValueError("boom")
    with pytest.raises(ValueError, match="^boom$"):
        lst(D.range(3).map(bad))
    with pytest.raises(ValueError, match="^boom$"):
        lst(D.range(3).map(bad, num_parallel_calls=2))


def test_interleave():
    f = lambda x: D.from_tensors(x).repeat(x)  # noqa: E731
    assert lst(D.range(1, 4).interleave(f, cycle_length=3)) == [1, 2, 3, 2, 3, 3]
    assert lst(D.range(1, 4).interleave(f, cycle_length=2, block_length=2)) == [1, 2, 2, 3, 3, 3]
    assert repr(D.range(1, 4).interleave(f, cycle_length=3, num_parallel_calls=2)) == \
        "<_ParallelInterleaveDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"


def test_parallel_interleave_cycle_length_as_tf(monkeypatch):
    from tfcompat.data import _combining, _common
    f = lambda x: D.range(3).map(lambda y: x * 10 + y)  # noqa: E731
    monkeypatch.setattr(_common, "cpu_count", lambda: 2)         # TF 2.21 on a 2-CPU machine:
    monkeypatch.setattr(_combining, "cpu_count", lambda: 2)
    sequential = [0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32]
    pairs = [0, 10, 1, 11, 2, 12, 20, 30, 21, 31, 22, 32]
    assert lst(D.range(4).interleave(f, num_parallel_calls=tf.data.AUTOTUNE)) == sequential   # ceil(2 / 3) = 1
    assert lst(D.range(4).interleave(f, num_parallel_calls=1)) == sequential
    assert lst(D.range(4).interleave(f, num_parallel_calls=2)) == pairs
    assert lst(D.range(4).interleave(f)) == pairs
    assert lst(D.range(4).interleave(f, cycle_length=3, num_parallel_calls=tf.data.AUTOTUNE)) == \
        [0, 10, 20, 1, 11, 21, 2, 12, 22, 30, 31, 32]
    with pytest.raises(tf.errors.InvalidArgumentError, match="`num_parallel_calls` is 3 and `cycle_length` is 2"):
        iter(D.range(4).interleave(f, num_parallel_calls=3))
    monkeypatch.setattr(_common, "cpu_count", lambda: 7)         # AUTOTUNE parallelism: a cycle of ceil(7 / 3)
    assert lst(D.range(4).interleave(f, num_parallel_calls=tf.data.AUTOTUNE)) == \
        lst(D.range(4).interleave(f, cycle_length=3))


def test_reader_num_parallel_reads_interleaves_files_as_tf(tmp_path, monkeypatch):
    from tfcompat.data import _common
    monkeypatch.setattr(_common, "cpu_count", lambda: 2)
    records, lines = [], []
    for i, n in enumerate([3, 1, 4]):
        records.append(str(tmp_path / f"f{i}.tfrecord"))
        lines.append(str(tmp_path / f"f{i}.txt"))
        with tf.io.TFRecordWriter(records[-1]) as w:
            for j in range(n):
                w.write(f"{i}-{j}".encode())
        with open(lines[-1], "w") as f:
            f.write("".join(f"{i}-{j}\n" for j in range(n)))
    in_order = ["0-0", "0-1", "0-2", "1-0", "2-0", "2-1", "2-2", "2-3"]
    expected = {None: in_order, 1: in_order, 2: ["0-0", "1-0", "0-1", "0-2", "2-0", "2-1", "2-2", "2-3"],
                5: ["0-0", "1-0", "2-0", "0-1", "2-1", "0-2", "2-2", "2-3"], tf.data.AUTOTUNE: in_order}   # TF 2.21
    for n, order in expected.items():
        assert [x.decode() for x in tf.data.TFRecordDataset(records, num_parallel_reads=n).as_numpy_iterator()] == order
        assert [x.decode() for x in tf.data.TextLineDataset(lines, num_parallel_reads=n).as_numpy_iterator()] == order
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`cycle_length` must be > 0 \[Op:LegacyParallel"):
        tf.data.TFRecordDataset(records, num_parallel_reads=0)
    fixed = tf.data.FixedLengthRecordDataset(lines, 4, num_parallel_reads=2)   # 3-char lines and their newline
    assert [x.decode() for x in fixed.as_numpy_iterator()] == [r + "\n" for r in expected[2]]


def test_repeat_take_skip_shard_enumerate():
    assert lst(D.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert lst(D.range(3).repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert lst(D.range(5).skip(2)) == [2, 3, 4] and lst(D.range(5).skip(-1)) == []
    assert lst(D.range(10).shard(3, 1)) == [1, 4, 7]
    assert lst(D.from_tensor_slices([5, 6]).enumerate(start=3)) == [(3, 5), (4, 6)]
    assert repr(D.from_tensor_slices({"a": [1]}).enumerate().element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), {'a': TensorSpec(shape=(), dtype=tf.int32, name=None)})")
    # planned (index-gathering) path over slices
    s = D.from_tensor_slices(np.arange(10))
    assert [b.tolist() for b in lst(s.skip(3).take(5).repeat(2).batch(4))] == [
        [3, 4, 5, 6], [7, 3, 4, 5], [6, 7]]


def test_window():
    def wins(ds):
        return [[int(v) for v in w] for w in ds]
    assert wins(D.range(7).window(3, shift=2)) == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
    assert wins(D.range(7).window(3, shift=2, drop_remainder=True)) == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
    assert wins(D.range(7).window(2, shift=1, stride=2)) == [[0, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5], [6]]
    flat = D.range(7).window(3, shift=2, drop_remainder=True).flat_map(lambda w: w.batch(3))
    assert [b.tolist() for b in lst(flat)] == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
    assert repr(D.from_tensor_slices({"a": [1, 2]}).window(2).element_spec) == \
        "{'a': DatasetSpec(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorShape([]))}"
    assert repr(next(iter(D.range(5).window(2)))) == \
        "<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"


def test_scan_reduce():
    assert lst(D.range(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))) == [0, 0, 10, 30, 60]
    r = D.range(5).reduce(np.int64(0), lambda s, x: s + x)
    assert r.dtype == tf.int64 and int(r) == 10
    a, b = D.range(3).reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * 2))
    assert (int(a), int(b)) == (3, 8)


def test_zip_concatenate():
    assert lst(D.zip(D.range(2), D.range(3))) == [(0, 0), (1, 1)]
    assert lst(D.zip((D.range(2), D.range(2)))) == [(0, 0), (1, 1)]
    d = lst(D.zip({"a": D.range(2), "b": D.range(3)}))
    assert d == [{"a": 0, "b": 0}, {"a": 1, "b": 1}]
    assert lst(D.range(2).concatenate(D.range(5, 7))) == [0, 1, 5, 6]
    assert repr(D.from_tensors([1]).concatenate(D.from_tensors([1, 2])).element_spec) == \
        "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"
    with pytest.raises(TypeError, match=r"^Incompatible dataset elements:\n  TensorSpec\(shape=\(\), dtype=tf.int64, "
                                        r"name=None\) vs.   TensorSpec\(shape=\(\), dtype=tf.float32, name=None\)$"):
        D.range(2).concatenate(D.from_tensor_slices([1.]))


def test_sample_and_choose():
    assert sorted(lst(D.sample_from_datasets([D.range(3), D.range(10, 12)], seed=1))) == [0, 1, 2, 10, 11]
    assert len(lst(D.sample_from_datasets([D.range(3), D.range(10, 11)], weights=[0., 1.],
                                          stop_on_empty_dataset=True))) == 1
    choice = D.from_tensor_slices(np.array([0, 1, 1, 0], np.int64))
    assert lst(D.choose_from_datasets([D.range(3), D.range(10, 13)], choice)) == [0, 10, 11, 1]
    with pytest.raises(TypeError, match=r"^Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                                        r"`tf.int64` tensors but are TensorSpec\(shape=\(\), dtype=tf.int32"):
        D.choose_from_datasets([D.range(3)], D.from_tensor_slices([0, 1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^\{\{function_node __wrapped__[^}]*\}\} Selector index out of range: 1 >= 1 \[Op:"):
        lst(D.choose_from_datasets([D.range(3)], D.from_tensor_slices(np.array([0, 1], np.int64))))
    c = D.from_tensor_slices(np.array([0, 0, 1], np.int64))
    assert lst(D.choose_from_datasets([D.range(1), D.range(10, 13)], c, stop_on_empty_dataset=False)) == [0, 10]
    assert lst(D.choose_from_datasets([D.range(1), D.range(10, 13)], c)) == [0]


def check_shuffle(out, n, k):
    assert sorted(out) == list(range(n))
    assert all(v < i + k for i, v in enumerate(out))      # buffer window: output i comes from inputs < i + k


@pytest.mark.parametrize("planned", [True, False])
def test_shuffle(planned):
    src = D.from_tensor_slices(np.arange(200)) if planned else D.range(200)
    for k in (1, 7, 50, 500):
        out = lst(src.shuffle(k))
        check_shuffle(out, 200, k)
        if k == 1:
            assert out == list(range(200))
    ds = src.shuffle(10, seed=3)
    a, b = lst(ds), lst(ds)
    assert a != b and sorted(a) == sorted(b)           # reshuffled each iteration
    assert lst(src.shuffle(10, seed=3)) == a          # the seed fixes the sequence
    fixed = src.shuffle(10, reshuffle_each_iteration=False)
    assert lst(fixed) == lst(fixed)
    tf.random.set_seed(5)
    first = lst(src.shuffle(10))
    tf.random.set_seed(5)
    assert lst(src.shuffle(10)) == first              # the global seed makes unseeded shuffles reproducible
    batches = lst(src.shuffle(20, seed=1).batch(32))
    assert [len(b) for b in batches] == [32] * 6 + [8]
    check_shuffle([int(v) for b in batches for v in b], 200, 20)
    two = lst(src.repeat(2).shuffle(5))
    assert sorted(two) == sorted(list(range(200)) * 2)


def test_cache(tmp_path):
    calls = []
    ds = D.range(3).map(lambda x: calls.append(1) or x).cache()
    assert lst(ds) == [0, 1, 2] and lst(ds) == [0, 1, 2] and len(calls) == 3
    path = str(tmp_path / "cache")
    assert lst(D.range(3).cache(path)) == [0, 1, 2]
    assert lst(D.range(0).concatenate(D.range(3)).cache(path)) == [0, 1, 2]


def test_prefetch_and_errors():
    assert lst(D.range(100).prefetch(3)) == list(range(100))
    assert lst(D.range(10).prefetch(tf.data.AUTOTUNE).batch(4).prefetch(1))[2].tolist() == [8, 9]

    def bad(x):
        if int(x) == 1:
            raise tf.errors.InvalidArgumentError(None, None, "bad")
        return x
    assert lst(D.range(4).map(bad).ignore_errors()) == [0, 2, 3]
    assert lst(D.range(4).map(bad).prefetch(2).ignore_errors()) == [0, 2, 3]
    assert lst(D.range(4).map(bad, num_parallel_calls=2).ignore_errors()) == [0, 2, 3]
    before = threading.active_count()
    it = iter(D.range(100).prefetch(1))
    next(it)
    del it     # the producer thread stops
    time.sleep(0.3)
    assert threading.active_count() == before


def test_group_by_window_and_buckets():
    assert [b.tolist() for b in lst(D.range(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3),
                                                                window_size=3))] == [
        [0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
    out = lst(D.from_tensor_slices(np.array([5, 3, 1, 5], np.int64)).group_by_window(
        lambda x: 10 - x, lambda k, d: d.batch(5), window_size=5))
    assert [b.tolist() for b in out] == [[5, 5], [3], [1]]
    ds = var_ds([[1], [1, 2, 3], [4, 5], [6], [7, 8, 9, 10]]).bucket_by_sequence_length(
        lambda x: x.shape[0], [2, 4], [2, 2, 2])
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, None), dtype=tf.int32, name=None)"
    assert [b.tolist() for b in lst(ds)] == [[[1, 2, 3], [4, 5, 0]], [[1], [6]], [[7, 8, 9, 10]]]


def test_unique():
    assert lst(D.from_tensor_slices([1, 2, 1, 3, 2]).unique()) == [1, 2, 3]


def test_options():
    o = tf.data.Options()
    o.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    o.deterministic = False
    got = D.range(3).with_options(o).map(lambda x: x).options()
    assert got.deterministic is False and got.experimental_distribute.auto_shard_policy == -1
    assert tf.data.Options().deterministic is None and tf.data.Options().threading.private_threadpool_size is None
    with pytest.raises(AttributeError, match="^Cannot set the property foo on Options.$"):
        o.foo = 1
    with pytest.raises(TypeError, match=r"^Property \"deterministic\" must be of type <class 'bool'>, got: 3 "
                                        r"\(type: <class 'int'>\)$"):
        o.deterministic = 3
    assert [int(p) for p in tf.data.experimental.AutoShardPolicy] == [-1, 0, 1, 2, 3]


def test_save_load(tmp_path):
    ds = D.from_tensor_slices(({"a": [1, 2, 3], "s": ["x", "yy", ""]}, np.arange(6.).reshape(3, 2)))
    ds = ds.concatenate(ds.take(1))
    path = str(tmp_path / "saved")
    ds.save(path)
    assert not any(name.endswith(".pkl") for name in os.listdir(path))
    back = D.load(path)
    assert repr(back) == f"<_LoadDataset element_spec={ds.element_spec!r}>"
    assert int(back.cardinality()) == 4
    a, b = lst(back)[1]
    assert a == {"a": 2, "s": b"yy"} and b.tolist() == [2., 3.]
    assert lst(D.load(path).map(lambda d, x: d["a"])) == [1, 2, 3, 1]
    with pytest.raises(tf.errors.NotFoundError, match="^tf.data snapshot element_spec file not found"):
        D.load(str(tmp_path / "missing"))


def test_text_files(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(b"hello\nworld\n")
    b.write_bytes(b"a\r\nb\n\nc")
    assert lst(tf.data.TextLineDataset([str(a), str(b)])) == [b"hello", b"world", b"a", b"b", b"", b"c"]
    assert repr(tf.data.TextLineDataset(str(a))) == \
        "<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
    pattern = str(tmp_path / "[ab].txt")
    assert lst(D.list_files(pattern, shuffle=False)) == [str(a).encode(), str(b).encode()]
    assert repr(D.list_files(pattern)) == "<_ShuffleDataset element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
    assert sorted(lst(D.list_files(pattern))) == [str(a).encode(), str(b).encode()]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"No files matched pattern: "):
        D.list_files(str(tmp_path / "zz*.txt"))


def test_make_csv_dataset_num_parallel_reads_interleaves_rows_as_tf(tmp_path):
    (tmp_path / "a.csv").write_text("a,b\n1,2\n3,4\n5,6\n")
    (tmp_path / "b.csv").write_text("a,b\n10,20\n30,40\n")
    files = [str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]

    def rows(**kw):
        ds = tf.data.experimental.make_csv_dataset(files, 10, shuffle=False, num_epochs=1, **kw)
        return [{k: v.numpy().tolist() for k, v in b.items()} for b in ds]
    assert rows(num_parallel_reads=2) == [{"a": [1, 10, 3, 30, 5], "b": [2, 20, 4, 40, 6]}]     # TF 2.21
    assert rows() == [{"a": [1, 3, 5, 10, 30], "b": [2, 4, 6, 20, 40]}]


def test_make_csv_dataset(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("a,b,name,label\n1,2.5,x,0\n3,4.5,y,1\n5,6,z,0\n")
    ds = tf.data.experimental.make_csv_dataset(str(path), batch_size=2, label_name="label", shuffle=False,
                                               num_epochs=1)
    assert repr(ds) == (
        "<_PrefetchDataset element_spec=(OrderedDict([('a', TensorSpec(shape=(None,), dtype=tf.int32, name=None)), "
        "('b', TensorSpec(shape=(None,), dtype=tf.float32, name=None)), ('name', TensorSpec(shape=(None,), "
        "dtype=tf.string, name=None))]), TensorSpec(shape=(None,), dtype=tf.int32, name=None))>")
    (f0, l0), (f1, l1) = lst(ds)
    assert isinstance(f0, collections.OrderedDict) and list(f0) == ["a", "b", "name"]
    assert f0["a"].tolist() == [1, 3] and f0["b"].tolist() == [2.5, 4.5] and f1["name"].tolist() == [b"z"]
    assert l0.tolist() == [0, 1] and l1.tolist() == [0]


def test_mnist_style_pipeline():
    images = np.random.rand(100, 4, 4, 1).astype(np.float32)
    labels = np.arange(100, dtype=np.int64)
    ds = D.from_tensor_slices((images, labels)).shuffle(10).batch(32)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(None, 4, 4, 1), dtype=tf.float32, name=None), "
                                     "TensorSpec(shape=(None,), dtype=tf.int64, name=None))")
    seen = []
    for x, y in ds:
        assert x.dtype == tf.float32 and y.dtype == tf.int64
        np.testing.assert_array_equal(x.numpy(), images[y.numpy()])
        seen.extend(y.numpy().tolist())
    check_shuffle(seen, 100, 10)
    images[:] = 0          # the dataset holds its own copy, as TF
    assert float(next(iter(D.from_tensor_slices(np.ones(3)).batch(3))).numpy().sum()) == 3.0


# -- iterator state (checkpointing) ------------------------------------------------------------------------------------
def test_iterator_state_round_trip_and_errors():
    ds = tf.data.Dataset.range(7).shuffle(4, seed=3).batch(2)
    it = iter(ds)
    next(it)
    state = it._serialize_state()
    rest = [b.numpy().tolist() for b in it]
    it2 = iter(ds)
    it2._restore_state(state)
    assert [b.numpy().tolist() for b in it2] == rest
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Could not parse the iterator state.*\[Op:DeserializeIterator\]"):
        iter(ds)._restore_state(b"\x00garbage")


def test_random_dataset_streams():
    seeded = tf.data.Dataset.random(seed=5).take(3)
    assert list(seeded.as_numpy_iterator()) == list(seeded.as_numpy_iterator())
    # TF 2.21: without a seed the dataset's seeds are drawn once (RandomSeeds), so each iteration repeats them;
    # rerandomize_each_iteration=True draws a new stream per iteration
    unseeded = tf.data.Dataset.random().take(3)
    assert list(unseeded.as_numpy_iterator()) == list(unseeded.as_numpy_iterator())
    assert list(tf.data.Dataset.random().take(3).as_numpy_iterator()) != list(unseeded.as_numpy_iterator())
    fresh = tf.data.Dataset.random(rerandomize_each_iteration=True).take(3)
    assert list(fresh.as_numpy_iterator()) != list(fresh.as_numpy_iterator())


# -- SparseTensor elements (reprs and values from TF 2.21) ---------------------------------------------------------

def _sparse():
    return tf.SparseTensor([[0, 1], [2, 0], [2, 3]], [1., 2., 3.], [3, 4])


def _parts(sp):
    return sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.dense_shape.numpy().tolist()


def test_sparse_slices_batch_unbatch():
    ds = tf.data.Dataset.from_tensor_slices(_sparse())
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([4]), tf.float32)"
    elems = list(ds)
    assert all(type(e) is tf.SparseTensor for e in elems)
    assert [_parts(e) for e in elems] == [([[1]], [1.0], [4]), ([], [], [4]), ([[0], [3]], [2.0, 3.0], [4])]
    assert elems[1].indices.shape == (0, 1)
    dense = list(ds.as_numpy_iterator())                 # TF 2.21 yields sparse elements densified
    np.testing.assert_array_equal(np.stack(dense), [[0, 1, 0, 0], [0, 0, 0, 0], [2, 0, 0, 3]])
    b = ds.batch(2)
    assert repr(b.element_spec) == "SparseTensorSpec(TensorShape([None, 4]), tf.float32)"
    assert [_parts(e) for e in b] == [([[0, 1]], [1.0], [2, 4]), ([[0, 0], [0, 3]], [2.0, 3.0], [1, 4])]
    assert repr(ds.batch(2, drop_remainder=True).element_spec) == "SparseTensorSpec(TensorShape([2, 4]), tf.float32)"
    u = b.unbatch()
    assert repr(u.element_spec) == "SparseTensorSpec(TensorShape([4]), tf.float32)"
    assert [_parts(e) for e in u] == [_parts(e) for e in elems]
    assert repr(tf.data.Dataset.from_tensors(_sparse()).element_spec) == \
        "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    mixed = tf.data.Dataset.from_tensor_slices({"a": _sparse(), "b": [1, 2, 3]})
    assert repr(mixed.element_spec) == ("{'a': SparseTensorSpec(TensorShape([4]), tf.float32), "
                                        "'b': TensorSpec(shape=(), dtype=tf.int32, name=None)}")
    with pytest.raises(ValueError, match="^Unbatching a sparse tensor is only supported for rank >= 1"):
        tf.data.Dataset.from_tensor_slices(tf.SparseTensor(np.zeros([0, 0], np.int64), np.zeros([0], np.float32),
                                                           np.zeros([0], np.int64)))


def test_sparse_batched_parse_example():
    def example(v):
        feature = {"x": tf.train.Feature(int64_list=tf.train.Int64List(value=v))}
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()

    ds = tf.data.Dataset.from_tensor_slices([example(v) for v in ([1, 2], [], [3], [4, 5, 6])])
    ds = ds.batch(3).map(lambda s: tf.io.parse_example(s, {"x": tf.io.VarLenFeature(tf.int64)}))
    assert repr(ds.element_spec) == "{'x': SparseTensorSpec(TensorShape([None, None]), tf.int64)}"
    out = [e["x"] for e in ds]
    assert all(type(e) is tf.SparseTensor for e in out)
    assert [_parts(e) for e in out] == [([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 2]),
                                        ([[0, 0], [0, 1], [0, 2]], [4, 5, 6], [1, 3])]
    dense = [e["x"].tolist() for e in ds.as_numpy_iterator()]
    assert dense == [[[1, 2], [0, 0], [3, 0]], [[4, 5, 6]]]
    u = ds.unbatch()
    assert repr(u.element_spec) == "{'x': SparseTensorSpec(TensorShape([None]), tf.int64)}"
    assert [e["x"].tolist() for e in u.as_numpy_iterator()] == [[1, 2], [0, 0], [3, 0], [4, 5, 6]]
    mapped = tf.data.Dataset.range(3).map(lambda i: tf.SparseTensor([[0]], [i], [5]))
    assert [e.tolist() for e in mapped.batch(2).as_numpy_iterator()] == [[[0, 0, 0, 0, 0], [1, 0, 0, 0, 0]],
                                                                          [[2, 0, 0, 0, 0]]]


def test_transformations_derive_from_their_receiver():
    """Every transformation is a `DerivedDataset` with the dataset it was called on among its inputs: the iterator's
    checkpoint state (random datasets) and `options()` walk the pipeline through `_inputs`."""
    from tfcompat.data.dataset import DerivedDataset
    sources = {"slices", "tensors", "range", "gen_legacy", "gen_legacy2", "dict", "tup", "strs", "random", "counter"}
    over_batches = {"unbatch", "rebatch", "bucket"}     # called on another dataset than S
    for name, (make, _, _) in REPRS.items():
        ds = make()
        assert isinstance(ds, DerivedDataset) == (name not in sources), name
        if name not in sources | over_batches:
            assert any(d is S for d in ds._inputs), name
    shuffled = D.range(4).shuffle(4, seed=3)
    it = iter(D.zip(D.range(4), shuffled.map(lambda x: x).batch(2)).prefetch(1))
    assert tf.data.Iterator is type(it) and it._base == [[(87654321 << 32) | 3, 0]]    # TF's seed pair, one int


def test_declared_unsupported_arguments_name_themselves(tmp_path):
    from tfcompat.framework.export import partial_note
    with pytest.raises(NotImplementedError, match=r"^tf.data.Dataset.save\(compression='GZIP'\) is not supported"):
        S.save(str(tmp_path / "a"), compression="GZIP")
    with pytest.raises(NotImplementedError, match=r"^tf.data.Dataset.load\(wait=True\) is not supported"):
        D.load(str(tmp_path / "a"), wait=True)
    with pytest.raises(NotImplementedError, match=r"^tf.data.experimental.load\(reader_func="):
        tf.data.experimental.load(str(tmp_path / "a"), reader_func=lambda ds: ds)
    assert "save arguments compression, shard_func, checkpoint_args" in partial_note(D)
    assert partial_note(tf.data.experimental.save) == "arguments compression, shard_func, checkpoint_args"
    assert partial_note(tf.data.TextLineDataset).startswith("file names given as a dataset;")
    assert "num_parallel_reads" not in partial_note(tf.data.TextLineDataset)
    S.save(str(tmp_path / "b"), compression=None)      # the default value is accepted
    assert lst(tf.data.experimental.load(str(tmp_path / "b"))) == [1, 2, 3]


def test_random_rerandomizes_as_tf():
    # TF 2.21: two passes over take(3) agree unless rerandomize_each_iteration=True. (Unseeded, TF draws the seeds
    # again for each dataset it iterates, so two `take(3)`s of one unseeded `random()` differ there; tfcompat draws
    # them once per `random()`, as TF does for passes over one iterated dataset.)
    def same(ds):
        return lst(ds.take(3)) == lst(ds.take(3))
    assert [same(D.random(seed=1)), same(D.random(seed=1, rerandomize_each_iteration=False)),
            same(D.random(seed=1, rerandomize_each_iteration=True)),
            same(D.random(rerandomize_each_iteration=True))] == [True, True, False, False]


def test_numpy_iterator_next_and_repr():
    # TF 2.21: as_numpy_iterator() wraps an OwnedIterator and keeps Python 2's `next()`
    it = tf.data.Dataset.range(3).as_numpy_iterator()
    assert re.fullmatch(r"NumpyIterator\(iterator=<tensorflow\.python\.data\.ops\.iterator_ops\.OwnedIterator "
                        r"object at 0x[0-9a-f]+>\)", repr(it))
    assert (it.next(), next(it), [int(v) for v in it]) == (0, 1, [2])


def test_snapshot_writes_on_the_first_pass_and_reads_after(tmp_path):
    calls = []

    def double(x):
        calls.append(1)
        return x * 2

    ds = tf.data.Dataset.range(5).map(lambda x: tf.py_function(double, [x], tf.int64)).snapshot(str(tmp_path))
    # as TF 2.21 (a py_function's output shape is unknown)
    assert repr(ds) == "<_MapDataset element_spec=TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)>"
    first = list(ds.as_numpy_iterator())
    n = len(calls)
    assert first == list(ds.as_numpy_iterator()) == [0, 2, 4, 6, 8] and len(calls) == n   # read back, not recomputed
    assert len(os.listdir(tmp_path)) == 1
    with pytest.raises(NotImplementedError, match=r"^tf\.data\.Dataset\.snapshot\(compression='GZIP'\)"):
        tf.data.Dataset.range(2).snapshot(str(tmp_path), compression="GZIP")
