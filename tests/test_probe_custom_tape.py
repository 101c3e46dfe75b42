"""Probe fixes in GradientTape, tf.Variable and tf.Module (values and messages recorded from TF 2.21)."""
import re

import pytest

import tfcompat as tf


@pytest.mark.parametrize("fn", [tf.floor, tf.math.ceil, tf.math.rint, tf.round,
                                lambda x: x // 2.0, lambda x: tf.truncatediv(x, 2.0)])
def test_ops_without_gradient_give_none(fn):
    # TF 2.21 registers no gradient for Floor, Ceil, Rint, Round, FloorDiv, TruncateDiv: None, not zeros
    x = tf.constant([1.3, -2.7, 3.5])
    y = tf.constant([2.0, 2.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        t.watch(y)
        out = fn(x)
        out2 = tf.math.floordiv(x, y)
    assert t.gradient(out, x) is None
    assert t.gradient(out2, [x, y]) == [None, None]


def test_no_gradient_op_beside_a_differentiable_path():
    x = tf.constant(2.4)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.floor(x) * x + x        # TF 2.21: d/dx = floor(x) + 1 = 3
    assert t.gradient(y, x).numpy() == 3.0


def test_unconnected_gradients_enum():
    # TF 2.21: an enum, "zero"/"none" accepted, anything else a ValueError
    assert str(tf.UnconnectedGradients.ZERO) == "UnconnectedGradients.ZERO"
    assert repr(tf.UnconnectedGradients.NONE) == "<UnconnectedGradients.NONE: 'none'>"
    assert tf.UnconnectedGradients("zero") is tf.UnconnectedGradients.ZERO
    assert tf.UnconnectedGradients.ZERO != "zero"
    a = tf.Variable(1.0)
    c = tf.Variable(5.0)
    with tf.GradientTape(persistent=True) as tape:
        y = a * 2.0
    assert tape.gradient(y, c) is None
    assert tape.gradient(y, c, unconnected_gradients="zero").numpy() == 0.0
    assert tape.gradient(y, c, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0.0
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'foo'"):
        tape.gradient(y, c, unconnected_gradients="foo")
    assert tape.jacobian(y, c, unconnected_gradients="zero").numpy() == 0.0


def test_variable_constraint_must_be_callable():
    with pytest.raises(ValueError) as e:
        tf.Variable(1.0, constraint=3)
    assert str(e.value) == ("Argument `constraint` must be None or a callable. a callable. Got a <class 'int'>:  3")


def test_variable_initial_value_is_not_kept_eagerly():
    v = tf.Variable([1.0])
    with pytest.raises(RuntimeError, match="This property is not supported when eager execution is enabled."):
        _ = v.initial_value


def test_variable_default_aggregation_is_tf1_enum():
    # TF 2.21: tf.Variable(1.0).aggregation prints VariableAggregation.NONE (TF1's enum), equal to the V2 member
    v = tf.Variable(1.0)
    assert str(v.aggregation) == "VariableAggregation.NONE"
    assert v.aggregation == tf.VariableAggregation.NONE
    assert v.aggregation != tf.VariableAggregation.SUM
    assert str(tf.VariableAggregation.NONE) == "VariableAggregationV2.NONE"
    m = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    assert str(m.aggregation) == "VariableAggregationV2.MEAN"


class _Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(1.0, name="w")
        self.also_w = [self.w]


class _MLP(tf.Module):
    def __init__(self):
        super().__init__(name="mlp")
        self.l1 = _Dense()
        self.l2 = _Dense(name="out")
        self.layers = [self.l1, self.l2]
        self.cfg = {"a": _Dense()}


def test_module_walk_yields_each_object_once():
    # TF 2.21: each module and variable once, by identity, in sorted-attribute order, breadth first
    m = _MLP()
    assert [s.name for s in m.submodules] == ["__dense", "__dense", "out"]
    assert len(m.trainable_variables) == 3
    assert len(m.variables) == 3
    paths = [p for p, _ in m._flatten(predicate=lambda x: isinstance(x, tf.Variable), with_path=True)]
    assert paths == [("cfg", "a", "also_w", 0), ("cfg", "a", "w"), ("l1", "also_w", 0), ("l1", "w"),
                     ("l2", "also_w", 0), ("l2", "w"), ("layers", 0, "also_w", 0), ("layers", 0, "w"),
                     ("layers", 1, "also_w", 0), ("layers", 1, "w")]


def test_types_print_tf_class_paths():
    # TF 2.21: print(type(x)) of tensors, variables, dtypes and shapes
    import pickle
    assert repr(type(tf.constant(1))) == "<class 'tensorflow.python.framework.ops.EagerTensor'>"
    assert repr(tf.Tensor) == "<class 'tensorflow.python.framework.tensor.Tensor'>"
    v = tf.Variable(1.0)
    assert repr(type(v)) == "<class 'tensorflow.python.ops.resource_variable_ops.ResourceVariable'>"
    assert repr(tf.Variable) == "<class 'tensorflow.python.ops.variables.Variable'>"
    assert repr(type(v.assign(2.0))) == "<class 'tensorflow.python.ops.resource_variable_ops._UnreadVariable'>"
    assert repr(type(tf.float32)) == "<class 'tensorflow.python.framework.dtypes.DType'>"
    assert repr(type(tf.TensorShape([1]))) == "<class 'tensorflow.python.framework.tensor_shape.TensorShape'>"
    # values still pickle (through tfcompat's functions, not the classes' names)
    assert pickle.loads(pickle.dumps(tf.TensorShape([1, None]))).as_list() == [1, None]
    assert pickle.loads(pickle.dumps(tf.constant([1, 2]))).numpy().tolist() == [1, 2]
    assert pickle.loads(pickle.dumps(v)).numpy() == 2.0
    assert pickle.loads(pickle.dumps(tf.float64)) is tf.float64


def test_maximum_minimum_gradients_go_to_x_on_ties():
    # TF 2.21: Maximum/Minimum give the whole gradient to x where x == y (torch splits it), to y where x is NaN
    a = tf.Variable([0.0, 1.0, 2.0, float("nan")])
    b = tf.Variable([0.0, 2.0, 1.0, 1.0])
    w = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape(persistent=True) as t:
        hi = tf.maximum(a, b)
        lo = tf.minimum(a, b)
        y_hi = tf.reduce_sum(hi * w)
        y_lo = tf.reduce_sum(lo * w)
    assert str(hi.numpy().tolist()) == "[0.0, 2.0, 2.0, nan]"
    assert str(lo.numpy().tolist()) == "[0.0, 1.0, 1.0, nan]"
    assert [g.numpy().tolist() for g in t.gradient(y_hi, [a, b])] == [[1, 0, 3, 0], [0, 2, 0, 4]]
    assert [g.numpy().tolist() for g in t.gradient(y_lo, [a, b])] == [[1, 2, 0, 0], [0, 0, 3, 4]]
    s = tf.Variable(0.0)
    with tf.GradientTape(persistent=True) as t:
        first = tf.maximum(s, 0.0)
        second = tf.maximum(0.0, s)
    assert t.gradient(first, s).numpy() == 1.0
    assert t.gradient(second, s).numpy() == 0.0
    bb = tf.Variable([[0.0], [1.0]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.maximum(a[:3], bb))
    ga, gb = t.gradient(y, [a, bb])
    assert ga.numpy().tolist() == [1, 2, 2, 0] and gb.numpy().tolist() == [[0], [1]]
    inf = tf.Variable([float("inf")])
    with tf.GradientTape():
        assert tf.maximum(inf, 0.0).numpy().tolist() == [float("inf")]


def test_integer_variables_are_watched_without_gradient():
    # TF 2.21: an int variable read under the tape is in watched_variables(); its gradient is None
    xi = tf.Variable([1, 2])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(xi * 2)
    assert t.watched_variables() == (xi,)
    assert t.gradient(y, xi) is None


@pytest.mark.parametrize("fn,expected", [(tf.sqrt, [0.0, 0.5]), (tf.math.rsqrt, [0.0, -0.5]),
                                         (tf.math.reciprocal, [0.0, -1.0])])
def test_gradient_of_a_discarded_branch_is_zero(fn, expected):
    # TF 2.21: SqrtGrad/RsqrtGrad/ReciprocalGrad return 0 where the incoming gradient is 0, so the branch tf.where
    # discards at 0 sends back 0 (torch: 0 * inf = nan)
    z = tf.Variable([0.0, 1.0])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.where(z > 0, fn(z), 0.0))
    assert t.gradient(y, z).numpy().tolist() == expected


def test_sqrt_family_higher_order_and_traced_gradients():
    x = tf.Variable(4.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.sqrt(x) + tf.math.rsqrt(x) + tf.math.reciprocal(x)
        g = t1.gradient(y, x)
    assert g.numpy() == 0.125                     # TF 2.21
    assert t2.gradient(g, x).numpy() == 0.0234375

    @tf.function
    def inner(v):
        with tf.GradientTape() as t:
            t.watch(v)
            y = tf.reduce_sum(tf.where(v > 0, tf.sqrt(v), 0.0))
        return t.gradient(y, v)

    assert inner(tf.constant([0.0, 4.0])).numpy().tolist() == [0.0, 0.25]
    assert inner(tf.constant([0.0, 9.0])).numpy().tolist() == [0.0, pytest.approx(1 / 6)]
    c = tf.Variable([4.0 + 0j, 1j], dtype=tf.complex64)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.sqrt(c))
    g = t.gradient(y, c).numpy()
    assert g[0] == 0.25 and abs(g[1] - (0.35355338 + 0.35355338j)) < 1e-6


def test_batch_jacobian_shape_errors():
    inp = tf.constant([[1.0, 2.0, 3.0], [0.5, 0.1, -1.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch(inp)
        out = inp * 2
        total = tf.reduce_sum(inp)
    with pytest.raises(ValueError) as e:
        t.batch_jacobian(out[:1], inp)
    assert str(e.value) == "Need first dimension of target shape ((1, 3)) and source shape ((2, 3)) to match."
    with pytest.raises(IndexError, match="^list index out of range$"):
        t.batch_jacobian(total, inp)


def test_fifth_vectorized_jacobian_warns_of_retracing(caplog):
    # TF 2.21: each eager jacobian/batch_jacobian (pfor) traces a new tf.function of pfor.<locals>.f
    from tfcompat.eager import tape as tape_module
    from tfcompat.eager.function import _retrace
    _retrace._detectors.pop(tape_module.pfor().__code__, None)
    x = tf.constant([[1.0, 2.0]])
    with caplog.at_level("WARNING", logger="tensorflow"):
        for _ in range(4):
            with tf.GradientTape(persistent=True) as t:
                t.watch(x)
                y = x * x
            t.jacobian(y, x, experimental_use_pfor=False)     # no pfor, no trace
            with tf.GradientTape() as t:
                t.watch(x)
                y = x * x
            t.batch_jacobian(y, x)
        assert not caplog.records
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
        t.jacobian(y, x)
    assert re.match(r"5 out of the last 5 calls to <function pfor.<locals>.f at 0x[0-9a-f]+> triggered tf.function "
                    "retracing.", caplog.records[0].getMessage())


def test_loop_jacobians_need_a_persistent_tape():
    x = tf.constant([[1.0, 2.0]])
    for method, text in [("jacobian", "jacobian with eager execution enabled and with  experimental_use_pfor"),
                         ("batch_jacobian", "batch_jacobian with eager execution enabled and  with "
                                            "experimental_use_pfor")]:
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
        with pytest.raises(RuntimeError) as e:
            getattr(t, method)(y, x, experimental_use_pfor=False)
        assert str(e.value) == f"GradientTape must be created with persistent=True to compute the {text} set to False."


def test_augmented_assignment_on_variables():
    # TF 2.21: resource variables refuse `+=` & co. (TF's texts, `-=`'s `variable * value` included)
    texts = {"+=": "`variable += value` with `tf.Variable`s is not supported. Use `variable.assign_add(value)` to "
                   "modify the variable, or `out = variable + value` if you need to get a new output Tensor.",
             "-=": "`variable -= value` with `tf.Variable`s is not supported. Use `variable.assign_sub(value)` to "
                   "modify the variable, or `out = variable * value` if you need to get a new output Tensor.",
             "*=": "`var *= value` with `tf.Variable`s is not supported. Use `var.assign(var * value)` to modify the "
                   "variable, or `out = var * value` if you need to get a new output Tensor.",
             "/=": "`var /= value` with `tf.Variable`s is not supported. Use `var.assign(var / value)` to modify the "
                   "variable, or `out = var / value` if you need to get a new output Tensor.",
             "**=": "`var **= value` with `tf.Variable`s is not supported. Use `var.assign(var ** value)` to modify "
                    "the variable, or `out = var ** value` if you need to get a new output Tensor."}
    for op, text in texts.items():
        scope = {"w": tf.Variable(5.0)}
        with pytest.raises(RuntimeError) as e:
            exec(f"w {op} 2.0", scope)
        assert str(e.value) == text
    scope = {"u": tf.Variable(1.0).assign(2.0), "w": tf.Variable(3)}
    with pytest.raises(RuntimeError):
        exec("u += 1", scope)
    exec("w //= 2", scope)                      # no __ifloordiv__ in TF: rebinds to a tensor
    assert type(scope["w"]).__name__ == "EagerTensor" and scope["w"].numpy() == 1
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        scope = {"m": tf.Variable(1.0)}
    exec("m += 1", scope)                       # a distributed variable rebinds, as in TF
    assert type(scope["m"]).__name__ == "EagerTensor" and scope["m"].numpy() == 2.0


def test_sliced_assign_broadcast_error():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        v[0:2, 1].assign([9.0, 9.0, 9.0])
    assert str(e.value) == ("{{function_node __wrapped__ResourceStridedSliceAssign_device_/job:localhost/replica:0/"
                            "task:0/device:CPU:0}} Cannot broadcast input shape [3] into final shape [2] "
                            "[Op:ResourceStridedSliceAssign] name: strided_slice/_assign")


def test_xlogy_family_at_zero_x():
    # TF 2.21: 0 wherever x == 0 (y NaN too), and gradients 0 there for both inputs
    nan = float("nan")
    assert tf.math.xlogy([0.0, 0.0, 1.0], [nan, 0.0, 0.0]).numpy().tolist() == [0.0, 0.0, float("-inf")]
    assert tf.math.xlog1py([0.0, 0.0], [nan, -1.0]).numpy().tolist() == [0.0, 0.0]
    z = tf.Variable([0.0, 2.0])
    y = tf.Variable([0.0, 3.0])
    with tf.GradientTape(persistent=True) as t:
        a = tf.reduce_sum(tf.math.xlogy(z, y))
        b = tf.reduce_sum(tf.math.xlog1py(z, y - 1.0))
        c = tf.reduce_sum(tf.math.xdivy(z, y))
    f32 = lambda v: float(tf.constant(v, tf.float32).numpy())  # noqa: E731
    assert [g.numpy().tolist() for g in t.gradient(a, [z, y])] == [[0.0, f32(1.0986123085021973)],
                                                                  [0.0, f32(0.6666666865348816)]]
    assert [g.numpy().tolist() for g in t.gradient(b, [z, y])] == [[0.0, f32(1.0986123085021973)],
                                                                  [0.0, f32(0.6666666865348816)]]
    assert [g.numpy().tolist() for g in t.gradient(c, [z, y])] == [[0.0, f32(0.3333333432674408)],
                                                                  [0.0, f32(-0.2222222238779068)]]
    w = tf.Variable([[0.0], [1.0]])
    with tf.GradientTape() as t:
        r = tf.reduce_sum(tf.math.xlogy(w, y))
    gw, gy = t.gradient(r, [w, y])
    assert gw.numpy().tolist() == [[0.0], [float("-inf")]]
    assert gy.numpy().tolist() == [float("inf"), f32(0.3333333432674408)]


def test_watching_a_keras_variable_is_refused():
    # TF 2.21 + Keras 3: a Keras variable is no tf.Variable, GradientTape.watch raises (watch its `.value`)
    v = tf.keras.Variable(1.0, name="kv")
    with tf.GradientTape() as t:
        with pytest.raises(ValueError) as e:
            t.watch([v])
    assert str(e.value) == ("Passed in object <Variable path=kv, shape=(), dtype=float32, value=1.0> of type "
                            "'Variable', not tf.Tensor or tf.Variable or ExtensionType.")
