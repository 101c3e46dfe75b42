"""TF1 graph mode (tf.Graph, tf.compat.v1.Session, placeholders, graph variables); golden values from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf
import tfcompat.compat.v1 as tf1


def test_ops_are_deferred_and_run_with_feeds():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, shape=[], name="x")
        v = tf.Variable(3.0, name="v")
        y = tf.multiply(x, v)
        z = x + 2
        assert repr(x) == "<tf.Tensor 'x:0' shape=() dtype=float32>"
        assert repr(v) == "<tf.Variable 'v:0' shape=() dtype=float32>"
        assert str(z.shape) == "()" and z.dtype == tf.float32
        with tf1.Session() as sess:
            assert tf1.get_default_session() is sess
            with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable v"):
                sess.run(y, {x: 5})
            sess.run(v.initializer)
            assert repr(sess.run(y, feed_dict={x: 5})) == "np.float32(15.0)"
            out = sess.run([y, {"k": z}, (v,)], feed_dict={"x:0": 5})
            assert repr(out) == "[np.float32(15.0), {'k': np.float32(7.0)}, (np.float32(3.0),)]"
            assert y.eval({x: 2.0}) == 6.0
        with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
            sess.run(z, {x: 3})


def test_variables_hold_state_per_session_and_assign_when_fetched():
    with tf.Graph().as_default():
        a = tf1.get_variable("a", shape=[], initializer=tf1.zeros_initializer())
        add = a.assign_add(4.0)
        with tf1.Session() as sess:
            assert sess.run(a.assign(4.0)) == 4.0
            assert sess.run(add) == 8.0
            assert sess.run(tf1.global_variables_initializer()) is None
            assert sess.run(add) == 4.0
            assert sess.run(add) == 8.0
        with tf1.Session() as other:
            with pytest.raises(tf.errors.FailedPreconditionError):
                other.run(a)


def test_feed_errors():
    with tf.Graph().as_default():
        p = tf1.placeholder(tf.float32, shape=[None, 3])
        with tf1.Session() as sess:
            assert sess.run(p, {p: [[1, 2, 3]]}).tolist() == [[1.0, 2.0, 3.0]]
            with pytest.raises(ValueError, match=r"Cannot feed value of shape \(1, 2\) for Tensor Placeholder:0, which "
                                                 r"has shape \(None, 3\)"):
                sess.run(p, {p: [[1, 2]]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder tensor "
                                                                     r"'Placeholder' with dtype float and shape \[\?,3\]"):
                sess.run(p + 1)
            with pytest.raises(TypeError, match='Argument `fetch` = None has invalid type "NoneType". Cannot be None'):
                sess.run(None)
            total = tf.reduce_sum(tf.matmul(p, tf.ones([3, 2])), axis=0, name="total")
            assert repr(total) == "<tf.Tensor 'total:0' shape=(2,) dtype=float32>"
            assert sess.run(total, {p: [[1, 2, 3], [4, 5, 6]]}).tolist() == [21.0, 21.0]
            with pytest.raises(NotImplementedError, match="ops with several outputs are not supported"):
                sess.run(tf.split(p, 3, axis=1), {p: [[1, 2, 3]]})
        with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
            p.numpy()
    with pytest.raises(RuntimeError, match=r"tf.placeholder\(\) is not compatible with eager execution."):
        tf1.placeholder(tf.float32)


def test_get_variable_reuse_rules_and_collections():
    with tf.Graph().as_default() as g:
        v = tf.Variable(1.0, name="v")
        v2 = tf.Variable(1.0, name="v")
        a = tf1.get_variable("a", shape=[])
        assert v2.name == "v_1:0"
        with pytest.raises(ValueError, match="Variable a already exists, disallowed. Did you mean to set reuse=True"):
            tf1.get_variable("a", shape=[])
        with tf1.variable_scope("s", reuse=True):
            with pytest.raises(ValueError, match="Variable s/q does not exist, or was not created with "
                                                 r"tf.get_variable\(\)"):
                tf1.get_variable("q", shape=[])
        with tf1.variable_scope("", reuse=True):
            assert tf1.get_variable("a") is a
        assert tf1.global_variables() == [v, v2, a]
        assert g.get_operation_by_name("v").type == "VarHandleOp"
        with pytest.raises(KeyError, match="The operation, 'x', does not exist in the graph."):
            g.get_tensor_by_name("x:0")
    assert tf1.global_variables() == []


def test_saver_and_checkpoints_in_a_session(tmp_path):
    prefix = str(tmp_path / "tf1-ckpt")
    with tf.Graph().as_default():
        a = tf1.get_variable("a", shape=[], initializer=tf1.constant_initializer(1))
        with tf1.variable_scope("scoped"):
            c = tf1.get_variable("c", shape=[], initializer=tf1.constant_initializer(3))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            saver = tf1.train.Saver()
            assert saver.save(sess, prefix) == prefix
            path = tf.train.Checkpoint(var_list={"a": a, "scoped/c": c}).save(str(tmp_path / "tf2"))
            assert path.endswith("tf2-1")
    reader = tf.train.load_checkpoint(prefix)
    assert {k: float(reader.get_tensor(k)) for k in reader.get_variable_to_shape_map()} == {"a": 1.0, "scoped/c": 3.0}
    with tf.Graph().as_default():
        with tf1.variable_scope("new_scope"):
            a = tf1.get_variable("a", shape=[], initializer=tf1.zeros_initializer())
            c = tf1.get_variable("scoped/c", shape=[], initializer=tf1.zeros_initializer())
        with tf1.Session() as sess:
            tf1.train.init_from_checkpoint(prefix, assignment_map={"/": "new_scope/"})
            sess.run(tf1.global_variables_initializer())
            assert sess.run([a, c]) == [1.0, 3.0]
    with tf.Graph().as_default():
        a = tf1.get_variable("x", shape=[], initializer=tf1.zeros_initializer())
        c = tf1.get_variable("y", shape=[], initializer=tf1.zeros_initializer())
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            status = tf.train.Checkpoint(var_list={"a": a, "scoped/c": c}).restore(path)
            assert sess.run([a, c]) == [0.0, 0.0]        # restore ops run only in run_restore_ops, as in TF
            status.run_restore_ops()
            assert sess.run([a, c]) == [1.0, 3.0]
            tf1.train.Saver({"a": c, "scoped/c": a}).restore(sess, prefix)
            assert sess.run([a, c]) == [3.0, 1.0]


def test_init_from_checkpoint_errors(tmp_path):
    prefix = tf.train.Checkpoint(a=tf.Variable(5.0)).save(str(tmp_path / "ck"))
    with tf.Graph().as_default():
        with tf1.variable_scope("new_scope"):
            tf1.get_variable("a", shape=[], initializer=tf1.zeros_initializer())
        tf1.get_variable("b", shape=[2], initializer=tf1.zeros_initializer())
        with pytest.raises(ValueError, match=r"Shape of variable b:0 \(\(2,\)\) doesn't match with shape of tensor "
                                             r"a/.ATTRIBUTES/VARIABLE_VALUE \(\[\]\) from checkpoint reader."):
            tf1.train.init_from_checkpoint(prefix, {"a/.ATTRIBUTES/VARIABLE_VALUE": "b"})
        with pytest.raises(ValueError, match="Tensor zz is not found in"):
            tf1.train.init_from_checkpoint(prefix, {"zz": "new_scope/a"})
        with pytest.raises(ValueError, match="Assignment map with scope only name new_scope should map to scope only "
                                             "a/.ATTRIBUTES/VARIABLE_VALUE. Should be 'scope/': 'other_scope/'."):
            tf1.train.init_from_checkpoint(prefix, {"a/.ATTRIBUTES/VARIABLE_VALUE": "new_scope/zz"})


def test_eager_variables_unchanged():
    v = tf.Variable(2.0)
    assert type(v).__name__ == "ResourceVariable" and float(v * 2) == 4.0
    with tf.Graph().as_default():
        with pytest.raises(NotImplementedError, match="only available when eager execution is enabled"):
            tf.Variable(1.0).numpy()
    assert np.asarray(tf.Variable([1.0]).numpy()).tolist() == [1.0]


def test_random_ops_run_at_each_session_run_and_control_dependencies():
    with tf.Graph().as_default():
        r = tf.random.uniform([4])
        w = tf.Variable(tf.zeros([2]))
        with tf.control_dependencies([w.assign([1.0, 2.0])]):
            total = tf.reduce_sum(tf.identity(w))
        assert tf.is_tensor(r) and not tf.executing_eagerly() and not tf1.executing_eagerly()
        with tf1.Session() as sess:
            assert (sess.run(r) != sess.run(r)).all()
            sess.run(w.initializer)
            assert sess.run(total) == 3.0
            assert sess.run(tf.group(w.assign([0.0, 0.0]))) is None
            assert sess.run(w).tolist() == [0.0, 0.0]
    assert tf.executing_eagerly()


def test_checkpoint_restores_a_name_based_checkpoint(tmp_path):
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    path = tf1.train.Saver([a, b]).save(None, str(tmp_path / "n1"))
    x, y = tf.Variable(0.0, name="a"), tf.Variable(0.0, name="zz")
    ckpt = tf.train.Checkpoint(v=[x, y])
    status = ckpt.restore(path)
    assert type(status).__name__ == "NameBasedSaverStatus" and (x.numpy(), y.numpy()) == (1.0, 0.0)
    with pytest.raises(AssertionError, match=r"Some objects had attributes which were not restored: \n    "
                                             r"<tf.Variable 'zz:0' shape=\(\) dtype=float32, numpy=0.0>: \['zz'\]"):
        status.assert_consumed()
    late = tf.Variable(0.0, name="b")
    ckpt.v.append(late)                  # joins the object graph later: restored then, as in TF
    assert late.numpy() == 2.0
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(\) when attempting to restore "
                                         r"variable with shape \(1,\)"):
        tf.train.Checkpoint(v=[tf.Variable([0.0], name="b")]).restore(path)


def test_gradients_and_gradient_descent_in_a_graph():
    X = np.arange(24, dtype="float32").reshape(6, 4) / 10
    Y = X @ np.array([[1.0], [2.0], [3.0], [4.0]], "float32") + 0.5
    with tf.Graph().as_default():
        x, y = tf1.placeholder(tf.float32, [None, 4]), tf1.placeholder(tf.float32, [None, 1], name="y")
        w, b = tf.Variable(tf.zeros([4, 1])), tf.Variable(tf.zeros([1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        grad_b = tf.gradients(loss, [w, b])[1]
        assert tf.gradients(loss, [x, tf.Variable(1.0)])[1] is None      # unconnected
        assert str(y) == 'Tensor("y:0", shape=(None, 1), dtype=float32)'
        step = tf1.train.GradientDescentOptimizer(0.05).minimize(loss)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            assert sess.run(grad_b, {x: X, y: Y}).tolist() == [-25.0]
            for _ in range(3):
                _, value = sess.run([step, loss], {x: X, y: Y})
            # float32 matmuls: their rounding follows the BLAS kernel the CPU gets (a few ulp over three steps)
            np.testing.assert_allclose(value, 0.4571075, rtol=1e-5)
            np.testing.assert_allclose(sess.run(w).ravel(), [2.1467695236206055, 2.2998242378234863,
                                                             2.4528791904449463, 2.605933904647827], rtol=1e-5)
            np.testing.assert_allclose(sess.run(b), [1.5305479764938354], rtol=1e-5)
    with pytest.raises(NotImplementedError, match="ProximalAdagradOptimizer is not supported by tfcompat"):
        tf1.train.ProximalAdagradOptimizer  # noqa: B018 - the access raises (Adadelta/Ftrl: test_corpus_migrate_v1_train)


def test_gradient_descent_optimizer_eagerly():
    v = tf.Variable(2.0)
    opt = tf1.train.GradientDescentOptimizer(0.1)
    assert opt.minimize(lambda: v * v, var_list=[v]) is None and np.isclose(v.numpy(), 1.6)
    assert opt.minimize(lambda: v * v) is None and np.isclose(v.numpy(), 1.28)
    with pytest.raises(RuntimeError, match="`loss` passed to Optimizer.compute_gradients should be a function"):
        opt.minimize(v * v, var_list=[v])


def test_tf1_saved_model_and_meta_graph_api_raise():
    for name in ("Builder", "simple_save", "load", "predict_signature_def"):
        with pytest.raises(NotImplementedError, match=f"tf.compat.v1.saved_model.{name} "):
            getattr(tf1.saved_model, name)
    assert tf1.saved_model.save is tf.saved_model.save
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with pytest.raises(NotImplementedError, match="export_meta_graph"):
            tf1.train.Saver().export_meta_graph("m.pb")


def test_print_and_py_function_run_at_session_run(capsys):
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [])
        printed = tf.print("value:", x)
        doubled = tf.py_function(lambda v: v * 2, [x], tf.float32)
        assert capsys.readouterr().err == ""          # nothing runs while the graph is built
        with tf1.Session() as sess:
            assert sess.run(printed, {x: 3.0}) is None
            assert sess.run(doubled, {x: 3.0}) == 6.0
        assert capsys.readouterr().err == "value: 3\n"
        with pytest.raises(NotImplementedError, match="tf.cond on graph tensors"):
            tf.cond(x > 0, lambda: x, lambda: -x)


def test_assign_shape_checks_and_name_scopes():
    with tf.Graph().as_default():
        with tf.name_scope("s"):
            assert tf1.placeholder(tf.float32, name="x").name == "s/x:0"
            assert tf1.placeholder(tf.float32).name == "s/Placeholder:0"
        v = tf.Variable(1.0)
        p = tf1.placeholder(tf.float32)
        with pytest.raises(ValueError, match=r"Cannot assign value to variable ' Variable:0': Shape mismatch.The "
                                             r"variable shape \(\), and the assigned value shape \(2,\) are "
                                             "incompatible."):
            v.assign([1.0, 2.0])
        assign = v.assign(p)
        with tf1.Session() as sess:
            sess.run(v.initializer)
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Trying to assign to variable with tensor with "
                                                                     r"wrong shape. Expected \[\] got \[2\]"):
                sess.run(assign, {p: [1.0, 2.0]})
            assert sess.run(v) == 1.0


def test_collections_and_elements_of_other_graphs():
    with tf.Graph().as_default():
        other_var, other_input = tf.Variable(1.0), tf1.placeholder(tf.float32)
    with tf.Graph().as_default():
        with tf1.Session() as sess:
            with pytest.raises(RuntimeError, match="The Session graph is empty. Add operations to the graph before "
                                                   r"calling run\(\)."):
                sess.run(other_var)
            tf1.placeholder(tf.float32)
            with pytest.raises(ValueError, match="is not an element of this graph"):
                sess.run(other_var)
            with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor:"):
                sess.run(tf.constant(1.0), {other_input: 1.0})
        tf1.add_to_collection("mine", 3)
        assert tf1.get_collection("mine") == [3] and tf1.get_collection_ref("mine") == [3]
        v = tf.Variable(1.0, trainable=False)
        assert tf1.get_collection(tf1.GraphKeys.GLOBAL_VARIABLES) == [v]
        assert tf1.get_collection(tf1.GraphKeys.TRAINABLE_VARIABLES) == []
    assert tf1.get_collection("mine") == [] and tf1.GraphKeys.TABLE_INITIALIZERS == "table_initializer"


def test_placeholder_with_default_and_interactive_session():
    with tf.Graph().as_default():
        p = tf1.placeholder_with_default([1.0, 2.0], shape=[None])
        assert repr(p) == "<tf.Tensor 'PlaceholderWithDefault:0' shape=(None,) dtype=float32>"
        with pytest.raises(ValueError):
            tf1.placeholder_with_default([1.0, 2.0], shape=[3])
        sess = tf1.InteractiveSession()
        assert p.eval().tolist() == [1.0, 2.0] and p.eval({p: [3.0]}).tolist() == [3.0]
        assert repr(tf1.local_variables_initializer()) == "<tf.Operation 'init' type=NoOp>"
        sess.close()
        with pytest.raises(ValueError, match="No default session is registered"):
            p.eval()
