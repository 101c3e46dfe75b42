"""TF1 names of `tf.compat.v1` as TF 2.21 + Keras 3 has them (the TF1->TF2 migration guides' slice of the corpus).

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import pytest

import tfcompat as tf


def test_v1_layers_is_keras3_lazy_loader_without_attributes():
    # TF 2.21: tf.compat.v1.layers is a KerasLazyLoader; Keras 3 has no TF1 layers
    layers = tf.compat.v1.layers
    assert type(layers).__name__ == "KerasLazyLoader"
    for name in ("dense", "Dense", "flatten", "conv2d", "foo"):
        with pytest.raises(AttributeError, match=f"^`{name}` is not available with Keras 3.$"):
            getattr(layers, name)
    assert not hasattr(layers, "Dense")
    # TF 2.21: the repr once initialised
    assert repr(layers) == ("<KerasLazyLoader (keras_3) keras._tf_keras.keras.__internal__.legacy.layers as layers "
                            "mode=v1>")
    with pytest.raises(ModuleNotFoundError, match="No module named 'keras._tf_keras.keras.__internal__'"):
        dir(layers)


def test_v1_rnn_cell_is_keras3_lazy_loader_without_attributes():
    rnn_cell = tf.compat.v1.nn.rnn_cell
    assert type(rnn_cell).__name__ == "KerasLazyLoader"
    with pytest.raises(AttributeError, match="^`LSTMCell` is not available with Keras 3.$"):
        rnn_cell.LSTMCell          # noqa: B018


def test_v1_layers_in_graph_mode_is_missing_too():
    with tf.Graph().as_default():
        with pytest.raises(AttributeError, match="`dense` is not available with Keras 3."):
            tf.compat.v1.layers.dense      # noqa: B018


def test_graph_name_scopes_are_unique_as_in_tf():
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None], name="x")
        got = []
        for _ in range(2):
            with tf.name_scope("acc") as s:
                got.append((s, tf.reduce_sum(x, name="value").name, tf.identity(x).name))
                with tf.name_scope("tp") as s2:
                    got.append((s2, tf.identity(x).name))
        # TF 2.21
        assert got == [("acc/", "acc/value:0", "acc/Identity:0"), ("acc/tp/", "acc/tp/Identity:0"),
                       ("acc_1/", "acc_1/value:0", "acc_1/Identity:0"), ("acc_1/tp/", "acc_1/tp/Identity:0")]
        with v1.name_scope("acc") as s:
            assert (s, tf.identity(x).name) == ("acc_2/", "acc_2/Identity:0")
        with v1.name_scope(None, "acc") as s:
            assert s == "acc_3/"
        with v1.name_scope("acc/") as s:            # an absolute scope is entered as it is
            assert (s, tf.identity(x).name) == ("acc/", "acc/Identity_1:0")
        with tf.name_scope("x") as s:               # op and scope names share one namespace
            assert (s, tf.identity(x).name) == ("x_1/", "x_1/Identity:0")
        with tf.name_scope("outer"):
            with v1.name_scope(None) as s:
                assert (s, tf.identity(x).name) == ("", "Identity:0")
            with v1.name_scope(None, "d") as s:
                assert s == "outer/d/"
            with v1.name_scope("", "d") as s:
                assert s == ""


def test_graph_variable_scopes_open_unique_name_scopes():
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None], name="x")
        got = []
        for _ in range(2):
            with v1.variable_scope(None, default_name="mean") as vs:
                got.append((vs.name, vs.original_name_scope, tf.identity(x).name))
        with v1.variable_scope("vs") as s1:
            got.append((s1.name, s1.original_name_scope, tf.identity(x).name))
        with v1.variable_scope("vs") as s2:
            got.append((s2.name, s2.original_name_scope, tf.identity(x).name))
        with v1.variable_scope(s1) as s3:
            got.append((s3.name, s3.original_name_scope, tf.identity(x).name))
        with v1.variable_scope("outer2"):
            with v1.variable_scope(None, default_name="mean") as vs:
                got.append((vs.name, vs.original_name_scope))
        # TF 2.21
        assert got == [("mean", "mean/", "mean/Identity:0"), ("mean_1", "mean_1/", "mean_1/Identity:0"),
                       ("vs", "vs/", "vs/Identity:0"), ("vs", "vs_1/", "vs_1/Identity:0"),
                       ("vs", "vs/", "vs_2/Identity:0"), ("outer2/mean", "outer2/mean/")]


def test_eager_v1_name_scope_signature():
    v1 = tf.compat.v1
    # TF 2.21: eagerly, names are not made unique
    with v1.name_scope(None, "d") as s:
        assert s == "d/"
    for _ in range(2):
        with v1.name_scope("e") as s:
            assert s == "e/"
    with v1.name_scope(None) as s:
        assert s == ""


def _scale(x, scalar_name):
    var1 = tf.compat.v1.get_variable(scalar_name, shape=[], initializer=tf.compat.v1.constant_initializer(1.5))
    return x * var1


def test_make_template_shares_variables_in_a_graph():
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        scale_by_y = v1.make_template("scale_by_y", _scale, scalar_name="y")
        z = scale_by_y(tf.constant(2.0))
        w = scale_by_y(tf.constant(3.0))
        other = v1.make_template("scale_by_y", _scale, scalar_name="y")
        other(tf.constant(1.0))
        # TF 2.21
        assert [v.name for v in v1.global_variables()] == ["scale_by_y/y:0", "scale_by_y_1/y:0"]
        assert (scale_by_y.name, scale_by_y.variable_scope_name, other.variable_scope_name) == (
            "scale_by_y", "scale_by_y/", "scale_by_y_1/")
        assert [v.name for v in scale_by_y.trainable_variables] == ["scale_by_y/y:0"]
        assert (z.name, w.name) == ("scale_by_y/mul:0", "scale_by_y_1/mul:0")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run([z, w]) == [3.0, 4.5]
        bad = v1.make_template("bad", lambda x: x * tf.Variable(1.0))
        bad(1.0)
        with pytest.raises(ValueError, match="Trainable variable created when calling a template after the first "
                                             "time, perhaps you used tf.Variable when you meant tf.get_variable"):
            bad(2.0)


def test_make_template_eagerly():
    v1 = tf.compat.v1
    t = v1.make_template("scale_by_y", _scale, scalar_name="y")
    # TF 2.21
    assert type(t).__name__ == "EagerTemplate"
    assert (float(t(tf.constant(2.0))), float(t(tf.constant(3.0)))) == (3.0, 4.5)
    assert [v.name for v in t.variables] == ["scale_by_y/y:0"]
    t2 = v1.make_template("scale_by_y", _scale, scalar_name="y")
    t2(1.0)
    assert ([v.name for v in t2.variables], t2.variable_scope_name) == (["scale_by_y_1/y:0"], "scale_by_y_1/")


def test_global_default_graph_while_eager():
    v1 = tf.compat.v1
    g = v1.get_default_graph()
    # TF 2.21: eager ops leave TF's global graph empty; it shares the eager collections
    assert type(g).__name__ == "Graph" and isinstance(g, tf.Graph)
    assert g is v1.get_default_graph() and g.get_operations() == [] and not g.finalized
    tf.Variable(1.0)
    assert g.get_operations() == [] and v1.global_variables() == []
    ref = v1.get_collection_ref("test_corpus_migrate_foo")
    try:
        v1.add_to_collection("test_corpus_migrate_foo", 3)
        assert g.get_collection("test_corpus_migrate_foo") == [3] == v1.get_collection("test_corpus_migrate_foo")
    finally:
        ref.clear()
    with tf.Graph().as_default() as g2:
        assert v1.get_default_graph() is g2
    sess = v1.Session()
    assert sess.graph is g
    with pytest.raises(RuntimeError, match=r"The Session graph is empty. Add operations to the graph before calling "
                                           r"run\(\)."):
        sess.run(tf.constant(3))


def test_v1_saved_model_constant_modules():
    sm = tf.compat.v1.saved_model
    # TF 2.21
    assert {k: getattr(sm.tag_constants, k) for k in dir(sm.tag_constants) if not k.startswith("_")} == {
        "GPU": "gpu", "SERVING": "serve", "TPU": "tpu", "TRAINING": "train"}
    assert {k: getattr(sm.signature_constants, k) for k in dir(sm.signature_constants) if not k.startswith("_")} == {
        "CLASSIFY_INPUTS": "inputs", "CLASSIFY_METHOD_NAME": "tensorflow/serving/classify",
        "CLASSIFY_OUTPUT_CLASSES": "classes", "CLASSIFY_OUTPUT_SCORES": "scores",
        "DEFAULT_SERVING_SIGNATURE_DEF_KEY": "serving_default", "PREDICT_INPUTS": "inputs",
        "PREDICT_METHOD_NAME": "tensorflow/serving/predict", "PREDICT_OUTPUTS": "outputs",
        "REGRESS_INPUTS": "inputs", "REGRESS_METHOD_NAME": "tensorflow/serving/regress", "REGRESS_OUTPUTS": "outputs"}
