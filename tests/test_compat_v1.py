"""tf.compat and tf.compat.v1: golden values from TF 2.21."""
import logging
import pathlib

import pytest

import tfcompat as tf


def test_compat_helpers():
    assert tf.compat.as_bytes("é") == b"\xc3\xa9"
    assert tf.compat.as_text(b"\xc3\xa9") == "é" and tf.compat.as_str(b"a") == "a"
    with pytest.raises(TypeError) as e:
        tf.compat.as_bytes(1)
    assert str(e.value) == "Expected binary or unicode string, got 1"
    assert tf.compat.as_str_any(3) == "3"
    assert tf.compat.path_to_str(pathlib.Path("/a/b")) == "/a/b"
    assert tf.compat.dimension_value(tf.TensorShape([3])[0]) == 3
    assert tf.compat.forward_compatible(2020, 1, 1) is True
    assert tf.compat.forward_compatible(2030, 1, 1) is False
    assert tf.compat.bytes_or_text_types == (bytes, str)
    assert tf.compat.v2 is tf


def test_v1_logging(capsys):
    v1 = tf.compat.v1
    lg = tf.get_logger()
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append((record.levelname, record.getMessage()))

    h = Keep()
    lg.addHandler(h)
    old = lg.level
    try:
        v1.logging.set_verbosity(v1.logging.INFO)
        assert v1.logging.get_verbosity() == 20
        v1.logging.info("hi %d", 3)
        v1.logging.debug("hidden")
        v1.logging.warn("w")
        for i in range(3):
            v1.logging.log_every_n(v1.logging.INFO, "every %d", 2, i)
        v1.logging.log_if(v1.logging.ERROR, "cond", False)
    finally:
        lg.removeHandler(h)
        lg.setLevel(old)
    assert records == [("INFO", "hi 3"), ("WARNING", "w"), ("INFO", "every 0"), ("INFO", "every 2")]
    with pytest.raises(NotImplementedError):
        v1.logging.flush()


def test_v1_eager_and_graph_names():
    v1 = tf.compat.v1
    assert v1.executing_eagerly() is True
    assert v1.enable_eager_execution() is None
    assert v1.constant is tf.constant
    for name in ("disable_v2_behavior", "wrap_function"):
        with pytest.raises(NotImplementedError):
            getattr(v1, name)
    with pytest.raises(RuntimeError, match="The Session graph is empty"):
        v1.Session().run(tf.constant(1.0))      # TF 2.21: a session of the (empty) global graph while eager
    assert v1.Graph is tf.Graph
    for name in ("import_meta_graph", "QueueRunner"):      # MonitoredSession/Scaffold: test_corpus_migrate_v1_monitored
        with pytest.raises(NotImplementedError, match=f"^tf.compat.v1.train.{name} is TF1 graph-mode API"):
            getattr(v1.train, name)
    with pytest.raises(AttributeError):
        v1.no_such_name_anywhere  # noqa: B018 - the access raises


def test_dimension():
    D = tf.compat.v1.Dimension
    a, n = D(16), D(None)
    assert (repr(a), repr(n), str(a), str(n), a.value, n.value) == ("Dimension(16)", "Dimension(None)", "16", "?",
                                                                      16, None)
    assert a.is_compatible_with(16) and n.is_compatible_with(16) and not a.is_compatible_with(D(3))
    assert repr(a.merge_with(None)) == "Dimension(16)" and repr(n.merge_with(4)) == "Dimension(4)"
    for call in (lambda: a.merge_with(3), lambda: a.assert_is_compatible_with(3)):
        with pytest.raises(ValueError, match="^Dimensions 16 and 3 are not compatible$"):
            call()
    assert (a == 16) is True and (a == D(16)) is True and (n == 16) is None and (a != 3) is True
    assert int(a) == 16
    assert [repr(x) for x in (a + 1, n + 1, a * 2, a // 3)] == ["Dimension(17)", "Dimension(None)", "Dimension(32)",
                                                                "Dimension(5)"]
    assert (a < 20) is True and (n < 20) is None
    with pytest.raises(TypeError, match="^unhashable type: 'Dimension'$"):
        hash(a)
    with pytest.raises(ValueError, match="^Dimension -1 must be >= 0$"):
        D(-1)
    with pytest.raises(TypeError, match="^Dimension value must be integer or None or have an __index__ method, "
                                        "got value ''x'' with type '<class 'str'>'$"):
        D("x")
    assert tf.compat.v1.dimension_value(a) == 16 and tf.TensorShape([a, n]).as_list() == [16, None]


def test_tensor_shape_dims_are_dimensions():
    # TF 2.21: TensorShape.dims is still a list of tf.compat.v1.Dimension
    s = tf.TensorShape([2, None])
    assert repr(s.dims) == "[Dimension(2), Dimension(None)]"
    assert (s.dims[0] == 2) is True and str(s.dims[1]) == "?" and s.dims[0].is_compatible_with(16) is False
    assert tf.TensorShape(None).dims is None and list(s) == [2, None]


def test_tensor_equality_switches():
    assert tf.compat.v1.enable_tensor_equality() is None
    x, y, t = tf.Variable(0.0), tf.Variable(0.0), tf.constant([1, 2])
    assert repr(x == y) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    try:
        tf.compat.v1.disable_tensor_equality()
        # TF 2.21: identity comparisons; variables hash by identity, eager tensors stay unhashable
        assert (x == y, x == x, x != y, t == t, t == 1, t != t, t != 1, x == 0.0, 1 == t) == (
            False, True, True, True, False, False, True, False, False)
        assert {x: 1}[x] == 1
        with pytest.raises(TypeError, match=r"^Tensor is unhashable. Instead, use tensor.ref\(\) as the key.$"):
            hash(t)
    finally:
        tf.compat.v1.enable_tensor_equality()
    assert repr(t == 1) == "<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>"
    with pytest.raises(TypeError, match="^Variable is unhashable"):
        hash(x)


def test_session_run_hook_interface():
    hook = tf.compat.v1.train.SessionRunHook()
    assert (hook.begin(), hook.after_create_session(None, None), hook.before_run(None),
            hook.after_run(None, None), hook.end(None)) == (None,) * 5
    assert repr(tf.compat.v1.train.SessionRunArgs(fetches=1)) == "SessionRunArgs(fetches=1, feed_dict=None, options=None)"


def test_feature_columns_are_tf_namedtuples(caplog):
    fc = tf.compat.v1.feature_column
    n = fc.numeric_column("x", shape=[28, 28])
    assert repr(n) == "NumericColumn(key='x', shape=(28, 28), default_value=None, dtype=tf.float32, normalizer_fn=None)"
    c = fc.categorical_column_with_identity("c", num_buckets=3)
    assert repr(fc.indicator_column(c)) == ("IndicatorColumn(categorical_column=IdentityCategoricalColumn(key='c', "
                                            "number_buckets=3, default_value=None))")
    assert repr(fc.bucketized_column(tf.feature_column.numeric_column("b"), [1., 2.])) == (
        "BucketizedColumn(source_column=NumericColumn(key='b', shape=(1,), default_value=None, dtype=tf.float32, "
        "normalizer_fn=None), boundaries=(1.0, 2.0))")
    v = fc.categorical_column_with_vocabulary_list("v", ["a", "b"])
    assert repr(v) == ("VocabularyListCategoricalColumn(key='v', vocabulary_list=('a', 'b'), dtype=tf.string, "
                       "default_value=-1, num_oov_buckets=0)")
    assert repr(fc.weighted_categorical_column(c, "w")) == (
        "WeightedCategoricalColumn(categorical_column=IdentityCategoricalColumn(key='c', number_buckets=3, "
        "default_value=None), weight_feature_key='w', dtype=tf.float32)")
    assert repr(fc.crossed_column(["a", "b"], 5)) == "CrossedColumn(keys=('a', 'b'), hash_bucket_size=5, hash_key=None)"
    assert (n.name, c.num_buckets, fc.embedding_column(v, 4).name) == ("x", 3, "v_embedding")
    for call, message in [(lambda: fc.numeric_column("x", shape=[0]), "shape dimensions must be greater than 0. "
                                                                      "shape: (0,), key: x"),
                          (lambda: fc.categorical_column_with_identity("c", 0), "num_buckets 0 < 1, column_name c"),
                          (lambda: fc.numeric_column(3), "key must be a string. Got: type <class 'int'>. Given key: 3."),
                          (lambda: fc.bucketized_column(n, [1.]), "source_column must be one-dimensional column. "
                                                                  f"Given: {n}")]:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == message
    with pytest.raises(NotImplementedError, match="tf.feature_column.input_layer"):
        fc.input_layer({}, [n])


def test_feature_column_deprecation_warning_names_the_caller(caplog):
    import tfcompat.ops.deprecation as deprecation
    deprecation._WARNED.discard("numeric_column")
    tf.feature_column.numeric_column("z")
    err = caplog.records[-1].getMessage()
    assert err.startswith("From ") and "test_compat_v1.py:" in err and err.split(": ", 1)[1].startswith(
        "numeric_column (from tensorflow.python.feature_column.feature_column_v2) is deprecated and will be removed "
        "in a future version.\nInstructions for updating:\nUse Keras preprocessing layers instead")


def test_estimator_is_gone_as_in_tf_2_21():
    with pytest.raises(AttributeError, match="^module 'tensorflow.compat.v1' has no attribute 'estimator'$"):
        _ = tf.compat.v1.estimator


def test_variable_scope_and_get_variable_eagerly():
    tf1 = tf.compat.v1
    with tf1.variable_scope("outer"):
        with tf1.variable_scope("inner") as scope:
            v = tf1.get_variable("w", shape=[2], initializer=tf1.constant_initializer(3))
            z = tf1.get_variable("z", shape=[], dtype=tf.int32)
        assert scope.name == "outer/inner" and tf1.get_variable_scope().name == "outer"
    assert v.name == "outer/inner/w:0" and v.numpy().tolist() == [3.0, 3.0]
    assert z.dtype == tf.int32 and z.numpy() == 0
    with tf.name_scope("ns"):
        assert tf1.get_variable("x", shape=[], initializer=tf1.zeros_initializer()).name == "x:0"
    with pytest.raises(NotImplementedError, match=r"get_variable\(partitioner=...\)"):
        tf1.get_variable("p", shape=[1], partitioner=object())


def test_saver_writes_and_restores_tf1_name_based_checkpoints(tmp_path, caplog):
    tf1 = tf.compat.v1
    a = tf.Variable(1.0, name="a")
    with tf.name_scope("scoped"):
        c = tf.Variable(3.0, name="c")
    path = tf1.train.Saver(var_list=[a, c]).save(sess=None, save_path=str(tmp_path / "ckpt"))
    assert path == str(tmp_path / "ckpt")
    assert caplog.records[-1].getMessage().startswith("Saver is deprecated, please switch to tf.train.Checkpoint")
    reader = tf.train.load_checkpoint(path)
    assert sorted(reader.get_variable_to_shape_map()) == ["a", "scoped/c"] and reader.get_tensor("scoped/c") == 3.0
    assert tf.train.latest_checkpoint(str(tmp_path)) == path
    a2, c2 = tf.Variable(0.0), tf.Variable(0.0)
    tf1.train.Saver({"a": a2, "scoped/c": c2}).restore(sess=None, save_path=path)
    assert (a2.numpy(), c2.numpy()) == (1.0, 3.0)
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        tf1.train.Saver({"nope": a2}).restore(None, path)
    with pytest.raises(RuntimeError, match="`var_list` must specify a list or dict of variables"):
        tf1.train.Saver()
    assert tf1.train.Checkpoint is tf.train.Checkpoint
