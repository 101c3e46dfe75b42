"""tf.lookup tables: values, errors and their use in tf.function, tf.data and Keras (golden values: TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.lookup


def _kv(keys, values, **kw):
    return L.KeyValueTensorInitializer(keys, values, **kw)


def test_static_hash_table_lookup_size_export():
    table = L.StaticHashTable(_kv(["a", "b", "c"], [7, 8, 9]), -1)
    assert table.key_dtype == tf.string and table.value_dtype == tf.int32 and table.name is None
    out = table.lookup(tf.constant(["a", "f"]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [7, -1]            # TF 2.21
    assert table[tf.constant([["a", "b"], ["c", "d"]])].numpy().tolist() == [[7, 8], [9, -1]]
    size = table.size()
    assert size.dtype == tf.int64 and int(size) == 3
    keys, values = table.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 7), (b"b", 8), (b"c", 9)]
    assert int(table.default_value) == -1


def test_static_hash_table_composite_keys():
    table = L.StaticHashTable(_kv(["a", "b", "c"], [7, 8, 9]), -1)
    sp = table.lookup(tf.SparseTensor([[0, 0], [1, 2]], ["a", "z"], [2, 3]))
    assert sp.values.numpy().tolist() == [7, -1] and sp.dense_shape.numpy().tolist() == [2, 3]
    rt = table.lookup(tf.ragged.constant([["a", "b"], ["c"]]))
    assert rt.to_list() == [[7, 8], [9]]                                           # TF 2.21


def test_static_hash_table_int_keys_and_string_values():
    t = L.StaticHashTable(_kv(tf.constant([1, 2], tf.int64), ["x", "y"]), "UNK")
    assert t.lookup(tf.constant([1, 5], tf.int64)).numpy().tolist() == [b"x", b"UNK"]
    t2 = L.StaticHashTable(_kv([1, 2], [1.0, 2.0]), -1.0)
    assert t2.key_dtype == tf.int32 and t2.value_dtype == tf.float32
    assert t2.lookup(tf.constant([1, 5])).numpy().tolist() == [1.0, -1.0]


def test_static_hash_table_errors():
    table = L.StaticHashTable(_kv(["a", "b"], [1, 2]), -1)
    with pytest.raises(TypeError, match=r"Dtype of argument `keys` must be <dtype: 'string'>, received: "
                                        r"<dtype: 'int32'>"):
        table.lookup(tf.constant([1, 2]))
    with pytest.raises(AttributeError, match="'list' object has no attribute 'dtype'"):
        table.lookup(["a"])
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="HashTable has different value for same key. Key a has 1 and trying to add value 2 "
                             r"\[Op:LookupTableImportV2\]"):
        L.StaticHashTable(_kv(["a", "a"], [1, 2]), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[2\] for value, got \[3\]"):
        L.StaticHashTable(_kv(["a", "b"], [1, 2, 3]), -1)
    with pytest.raises(TypeError, match="Cannot convert -1.5 to EagerTensor of dtype int32"):
        L.StaticHashTable(_kv(["a", "b"], [1, 2]), -1.5)
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(\) are not compatible"):
        L.StaticHashTable(_kv([1, 2], [1.0, 2.0]), [1.0, 2.0])
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node HashTableV2\}\}.*"
                                                      "key_dtype=DT_BOOL"):
        L.StaticHashTable(_kv([True], [1]), -1)
    with pytest.raises(tf.errors.NotFoundError, match="value_dtype=DT_HALF"):
        L.StaticHashTable(_kv(["a"], tf.constant([1], tf.float16)), 0)


@pytest.fixture
def vocab_file(tmp_path):
    p = tmp_path / "v1.txt"
    p.write_text("emerson 10\nlake 20\npalmer 30\n")
    return str(p)


def _sorted_export(table):
    k, v = table.export()
    return sorted(zip(k.numpy().tolist(), v.numpy().tolist()))


def test_text_file_initializer(vocab_file):
    T = L.TextFileIndex
    t = L.StaticHashTable(L.TextFileInitializer(vocab_file, tf.string, 0, tf.int64, 1, delimiter=" "), -1)
    assert t.lookup(tf.constant(["palmer", "lake", "tarkus"])).numpy().tolist() == [30, 20, -1]
    t = L.StaticHashTable(L.TextFileInitializer(vocab_file, tf.string, T.WHOLE_LINE, tf.int64, T.LINE_NUMBER), -1)
    assert int(t.lookup(tf.constant("palmer 30"))) == 2
    t = L.StaticHashTable(L.TextFileInitializer(vocab_file, tf.int64, T.LINE_NUMBER, tf.string, T.WHOLE_LINE), "U")
    assert _sorted_export(t) == [(0, b"emerson 10"), (1, b"lake 20"), (2, b"palmer 30")]
    t = L.StaticHashTable(L.TextFileInitializer(vocab_file, tf.string, 0, tf.int64, -1, delimiter=" ",
                                                value_index_offset=5), -1)
    assert _sorted_export(t) == [(b"emerson", 5), (b"lake", 6), (b"palmer", 7)]
    t = L.StaticHashTable(L.TextFileInitializer(vocab_file, tf.string, -2, tf.int64, -1, vocab_size=2), -1)
    assert int(t.size()) == 2
    t = L.StaticHashTable(L.TextFileInitializer(tf.constant(vocab_file), tf.string, -2, tf.int64, -1), -1)
    assert int(t.size()) == 3
    assert T.WHOLE_LINE == -2 and T.LINE_NUMBER == -1


def test_text_file_initializer_errors(vocab_file, tmp_path):
    def table(fn, kd, ki, vd, vi, **kw):
        return L.StaticHashTable(L.TextFileInitializer(fn, kd, ki, vd, vi, **kw), -1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Invalid number of columns in .*v1.txt line 0 \(emerson 10\) : expected at least 2 "
                             r"got 1 \[Op:InitializeTableFromTextFileV2\]"):
        table(vocab_file, tf.string, 0, tf.int64, 1)
    missing = str(tmp_path / "nofile.txt")
    with pytest.raises(tf.errors.NotFoundError, match="nofile.txt; No such file or directory"):
        table(missing, tf.string, -2, tf.int64, -1)
    dup = tmp_path / "dup.txt"
    dup.write_text("a\nb\na\n")
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="HashTable has different value for same key. Key a has 0 and trying to add value 2"):
        table(str(dup), tf.string, -2, tf.int64, -1)
    bad = tmp_path / "bad.txt"
    bad.write_text("a 1\nb zz\n")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field zz in line 1 is not a valid int64."):
        table(str(bad), tf.string, 0, tf.int64, 1, delimiter=" ")
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(b"a\r\nb\r\n\nc")
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty line found at position 7."):
        table(str(crlf), tf.string, -2, tf.int64, -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid vocab_size in .*: expected 5 but got 3"):
        table(vocab_file, tf.string, -2, tf.int64, -1, vocab_size=5)
    for args, msg in [((tf.string, -2, tf.int64, -1), {"vocab_size": 0}),
                      ((tf.string, -3, tf.int64, -1), None), ((tf.string, -1, tf.int64, -1), None),
                      ((tf.float32, -2, tf.int64, -1), None), ((tf.string, -2, tf.int32, -1), None),
                      ((tf.string, -2, tf.float32, -2), None)]:
        with pytest.raises(ValueError):
            L.TextFileInitializer(vocab_file, *args, **(msg or {}))
    with pytest.raises(tf.errors.InvalidArgumentError, match="delimiter should be only 1 char"):
        table(vocab_file, tf.string, 0, tf.int64, 1, delimiter="ab")
    with pytest.raises(ValueError, match="`key_index` should be >= -2, received: -3."):
        L.TextFileInitializer(vocab_file, tf.string, -3, tf.int64, -1)
    with pytest.raises(ValueError, match="`value_dtype` must be int64 for `value_index` -1, received: <dtype: 'int32'>"):
        L.TextFileInitializer(vocab_file, tf.string, -2, tf.int32, -1)
    with pytest.raises(ValueError, match="`filename` argument required for tf.lookup.TextFileInitializer"):
        L.TextFileInitializer("", tf.string, -2, tf.int64, -1)


def test_static_vocabulary_table_oov_buckets(vocab_file):
    v = L.StaticVocabularyTable(L.TextFileInitializer(vocab_file, tf.string, 0, tf.int64, -1, delimiter=" "), 5)
    out = v.lookup(tf.constant(["palmer", "emerson", "king", "crimson", "tarkus", ""]))
    assert out.dtype == tf.int64 and out.numpy().tolist() == [2, 0, 6, 7, 7, 6]     # TF 2.21 (Fingerprint64)
    assert int(v.size()) == 8
    assert L.StaticVocabularyTable(None, 3).lookup(tf.constant(["a", "b", "c", "d"])).numpy().tolist() == [0, 1, 1, 2]
    init = _kv(["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64))
    assert L.StaticVocabularyTable(init, 5)[tf.constant(["emerson", "lake", "palmer", "king", "crimson"])] \
        .numpy().tolist() == [0, 1, 2, 6, 7]
    vi = L.StaticVocabularyTable(_kv(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 4)
    assert vi.lookup(tf.constant([10, 20, 30, 40, -5], tf.int64)).numpy().tolist() == [0, 1, 4, 2, 2]
    vi2 = L.StaticVocabularyTable(_kv(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 4,
                                  lookup_key_dtype=tf.int32)
    assert vi2.key_dtype == tf.int32
    assert vi2.lookup(tf.constant([10, 20, 30, 40], tf.int32)).numpy().tolist() == [0, 1, 4, 2]
    assert v.lookup(tf.SparseTensor([[0, 1]], ["zz"], [2, 2])).values.numpy().tolist() == [5]
    assert v.lookup(tf.ragged.constant([["lake", "zz"], []])).to_list() == [[1, 5], []]


def test_static_vocabulary_table_errors():
    with pytest.raises(ValueError, match="`num_oov_buckets` must be > 0; use StaticHashTable."):
        L.StaticVocabularyTable(None, 0)
    with pytest.raises(TypeError, match="Invalid `value_dtype`, expected <dtype: 'int64'> but got <dtype: 'int32'>."):
        L.StaticVocabularyTable(_kv(["a"], [0]), 4)
    with pytest.raises(TypeError, match=r"Invalid `key_dtype`, expected one of \(tf.int64, tf.string\), but got "
                                        "<dtype: 'int32'>."):
        L.StaticVocabularyTable(_kv([1], tf.constant([0], tf.int64)), 4)
    with pytest.raises(TypeError, match="Invalid `key_dtype`, expected integer but got <dtype: 'string'>."):
        L.StaticVocabularyTable(_kv(["a"], tf.constant([0], tf.int64)), 4, lookup_key_dtype=tf.int64)
    vi = L.StaticVocabularyTable(_kv(tf.constant([10], tf.int64), tf.constant([0], tf.int64)), 4)
    with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'int64'>, received: "
                                        "<dtype: 'int32'>"):
        vi.lookup(tf.constant([10], tf.int32))


def test_mutable_hash_table():
    m = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    assert m.insert(["a", "b", "c"], [7, 8, 9]) is None
    assert m.lookup(["a", "f"]).numpy().tolist() == [7, -1]
    assert int(m.lookup("a")) == 7 and int(m.size()) == 3
    m.remove(tf.constant(["c", "zz"]))
    assert int(m.size()) == 2
    m.insert([["a", "q"], ["r", "s"]], [[1, 2], [3, 4]])
    assert sorted(zip(*[x.numpy().tolist() for x in m.export()])) == [(b"a", 1), (b"b", 8), (b"q", 2), (b"r", 3),
                                                                      (b"s", 4)]
    m.insert(["a", "a"], [10, 11])
    assert m.lookup(["a"]).numpy().tolist() == [11]                                 # TF 2.21: the last one wins
    assert m.lookup(["a", "x"], dynamic_default_values=tf.constant([5, 6], tf.int64)).numpy().tolist() == [11, 6]


def test_mutable_hash_table_of_tensors():
    mv = L.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0])
    mv.insert([1, 2], [[1.0, 2.0], [3.0, 4.0]])
    assert mv.lookup([1, 3]).numpy().tolist() == [[1.0, 2.0], [0.0, 0.0]]
    assert mv.lookup([[1, 3]]).shape == (1, 2, 2)
    assert mv.lookup([1, 3], dynamic_default_values=[[9.0, 9.0], [8.0, 8.0]]).numpy().tolist() == \
        [[1.0, 2.0], [8.0, 8.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[2,2\] for value, got \[2\]"):
        mv.insert([1, 2], [1.0, 2.0])
    k, v = mv.export()
    assert v.shape == (2, 2) and sorted(k.numpy().tolist()) == [1, 2]


def test_mutable_hash_table_errors():
    m = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    with pytest.raises(AttributeError, match="'list' object has no attribute 'dtype'"):
        m.remove(["c"])
    with pytest.raises(TypeError, match=r"Cannot convert \[1.5\] to EagerTensor of dtype int64"):
        m.insert(["a"], [1.5])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[1\] for value, got \[2\] "
                                                             r"\[Op:LookupTableInsertV2\]"):
        m.insert(["a"], [1, 2])
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype string for Tensor with dtype "
                                         "int32"):
        m.lookup(tf.constant([1]))
    with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'string'>"):
        m.remove(tf.constant([1]))
    with pytest.raises(ValueError, match="values: Tensor conversion requested dtype int64 for Tensor with dtype int32"):
        m.insert(["a"], tf.constant([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Signature mismatch, have: resource, string, "
                                                             "int32->int32 expected: resource, string, int64->int64"):
        m.lookup(["a"], dynamic_default_values=[5, 6])
    with pytest.raises(tf.errors.NotFoundError, match=r"\{\{node MutableHashTableV2\}\}.*key_dtype=DT_BOOL"):
        L.experimental.MutableHashTable(tf.bool, tf.int32, 0)
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype int64"):
        L.experimental.MutableHashTable(tf.string, tf.int64, "x")


def test_dense_hash_table_buckets_as_tf():
    d = L.experimental.DenseHashTable(tf.string, tf.int64, -1, "", "$", initial_num_buckets=8)
    d.insert(["a", "b", "c"], [0, 1, 2])
    d.remove(tf.constant(["c"]))
    assert d.lookup(["a", "b", "c", "d"]).numpy().tolist() == [0, 1, -1, -1] and int(d.size()) == 2
    k, v = d.export()
    # TF 2.21: the buckets themselves (TF's Hash64 of the key, quadratic probing; 'c' left as the deleted key)
    assert k.numpy().reshape(-1).tolist() == [b"", b"", b"b", b"", b"a", b"$", b"", b""]
    assert v.numpy().reshape(-1).tolist() == [0, 0, 1, 0, 0, 2, 0, 0] and v.shape == (8, 1)
    di = L.experimental.DenseHashTable(tf.int64, tf.int64, -1, -1, -2, initial_num_buckets=4)
    di.insert([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    k, v = di.export()
    assert k.numpy().reshape(-1).tolist() == [-1, 1, 2, 3, 4, 5, -1, -1] and int(di.size()) == 5   # grown to 8


def test_dense_hash_table_errors():
    d = L.experimental.DenseHashTable(tf.string, tf.int64, -1, "", "$", initial_num_buckets=8)
    for call, which, op in [(lambda: d.insert([""], [1]), "empty_key", "LookupTableInsertV2"),
                            (lambda: d.insert(["$"], [1]), "deleted_key", "LookupTableInsertV2"),
                            (lambda: d.lookup([""]), "empty_key", "LookupTableFindV2"),
                            (lambda: d.remove(tf.constant([""])), "empty_key", "LookupTableRemoveV2")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Using the {which} as a table key is not allowed "
                                                                 rf"\[Op:{op}\]"):
            call()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Empty and deleted keys cannot be equal"):
        L.experimental.DenseHashTable(tf.int64, tf.int64, -1, 0, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of buckets must be at least 4 and a power of 2, "
                                                             "got: 5"):
        L.experimental.DenseHashTable(tf.int64, tf.int64, -1, 0, 1, initial_num_buckets=5)


def test_tables_in_tf_function_see_current_contents():
    m = L.experimental.MutableHashTable(tf.int64, tf.float32, -1.0)
    m.insert(tf.constant([1, 2], tf.int64), tf.constant([10.0, 20.0]))

    @tf.function
    def f(x):
        return m.lookup(x) * 2.0

    assert f(tf.constant([1, 3], tf.int64)).numpy().tolist() == [20.0, -2.0]
    m.insert(tf.constant([3], tf.int64), tf.constant([30.0]))
    assert f(tf.constant([1, 3], tf.int64)).numpy().tolist() == [20.0, 60.0]       # TF 2.21

    @tf.function
    def g(k, v):
        m.insert(k, v)
        return m.size()

    assert int(g(tf.constant([7], tf.int64), tf.constant([70.0]))) == 4
    assert int(g(tf.constant([8], tf.int64), tf.constant([80.0]))) == 5
    assert m.lookup(tf.constant([7, 8], tf.int64)).numpy().tolist() == [70.0, 80.0]
    ti = L.StaticHashTable(_kv(tf.constant([5, 6], tf.int64), tf.constant([0.5, 0.6])), 0.0)

    @tf.function
    def h(x):
        return ti.lookup(x) + 1.0

    assert np.allclose(h(tf.constant([5, 7], tf.int64)).numpy(), [1.5, 1.0])
    assert np.allclose(h(tf.constant([6, 6], tf.int64)).numpy(), [1.6, 1.6])


def test_tables_in_dataset_map_and_keras_layer():
    t = L.StaticHashTable(_kv(["a", "b"], tf.constant([1, 2], tf.int64)), -1)
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c"]).map(lambda s: t.lookup(s))
    assert [int(x) for x in ds.as_numpy_iterator()] == [1, 2, -1]
    keras = tf.keras

    class Lookup(keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.table = t

        def call(self, x):
            return tf.cast(self.table.lookup(x), tf.float32)

    inp = keras.Input(shape=(2,), dtype="string")
    model = keras.Model(inp, keras.layers.Dense(1, kernel_initializer="ones")(Lookup()(inp)))
    assert model.predict(tf.constant([["a", "b"], ["z", "a"]]), verbose=0).tolist() == [[3.0], [0.0]]  # TF 2.21


def test_checkpoint_of_mutable_tables(tmp_path):
    m = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    m.insert(["a", "b"], [1, 2])
    d = L.experimental.DenseHashTable(tf.int64, tf.float32, 0.0, -1, -2, initial_num_buckets=4)
    d.insert([5], [0.5])
    path = tf.train.Checkpoint(table=m, dense=d).save(str(tmp_path / "c"))
    # TF 2.21's keys: the tables' SaveableObject `table`, its tensors `-keys` and `-values`
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("dense/.ATTRIBUTES/table-keys",
                                             [4, 1]), ("dense/.ATTRIBUTES/table-values", [4, 1]),
                                             ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
                                             ("table/.ATTRIBUTES/table-keys", [2]),
                                             ("table/.ATTRIBUTES/table-values", [2])]
    m2 = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    m2.insert(["zz"], [9])
    d2 = L.experimental.DenseHashTable(tf.int64, tf.float32, 0.0, -1, -2, initial_num_buckets=16)
    tf.train.Checkpoint(table=m2, dense=d2).restore(path).assert_consumed()
    assert m2.lookup(["a", "b", "zz"]).numpy().tolist() == [1, 2, -1] and int(m2.size()) == 2   # replaced, as TF
    assert d2.lookup([5, 6]).numpy().tolist() == [0.5, 0.0] and d2.export()[0].shape == (4, 1)
    bad = L.experimental.MutableHashTable(tf.string, tf.float32, -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_name = table/.ATTRIBUTES/table-values; expected "
                                                             "dtype float does not equal original dtype int64"):
        tf.train.Checkpoint(table=bad).restore(path)


def test_more_tf_checks(tmp_path):
    init = _kv(["a", "b"], tf.constant([0, 1], tf.int64))
    assert L.StaticVocabularyTable(init, 2).name is None
    assert L.StaticVocabularyTable(init, 2, name="voc/").name == "voc"              # TF 2.21
    assert L.StaticVocabularyTable(None, 2).name == "hash_bucket"
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int64 for Tensor with dtype int32"):
        L.StaticHashTable(init, tf.constant(-1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="keys and values cannot be empty tensors."):
        L.StaticHashTable(_kv(tf.constant([], tf.string), tf.constant([], tf.int64)), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Default value must be a vector, got shape \[1,1\]"):
        L.experimental.MutableHashTable(tf.string, tf.int64, [[1]])
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(tf.errors.OutOfRangeError, match="Read less bytes than requested"):
        L.StaticHashTable(L.TextFileInitializer(str(empty), tf.string, -2, tf.int64, -1), -1)
    table = L.StaticHashTable(init, -1)
    assert table.lookup(tf.Variable(["a", "zz"])).numpy().tolist() == [0, -1]
    assert table.lookup(tf.constant([], tf.string)).shape == (0,)
    k, v = L.experimental.MutableHashTable(tf.string, tf.float32, [0.0, 0.0]).export()
    assert k.shape == (0,) and v.shape == (0, 2)
