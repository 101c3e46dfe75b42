"""Keras 3 model structure as Keras 3.15.1 shows it: KerasTensor (repr, tuple shape, str dtype, keras_tensor_N
names), ops recorded by Python operators and keras.ops, layer.input/.output of Sequential and shared layers,
symbolic shapes with unknown dims, the first call of a subclassed model, and `summary()` tables.

Golden text: the same scenarios run under TF 2.21 + Keras 3.15.1 (COLUMNS=120, summaries through print_fn).
"""
import contextlib
import io

import numpy as np
import pytest

import tfcompat as tf
from tfcompat.keras import layers, ops

keras = tf.keras


@pytest.fixture(autouse=True)
def _columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    keras.backend.clear_session()


def summ(m, **kw):
    out = []
    m.summary(print_fn=lambda s, **k: out.append(s), **kw)
    return "".join(out)


def _kt_basics():
    x = keras.Input((3,))
    y = layers.Dense(4)(x)
    n = keras.Input((None, 10), batch_size=5, name="foo")
    e = layers.Embedding(10, 4, mask_zero=True)(keras.Input((None,), dtype="int32"))
    return "\n".join(map(str, [repr(x), str(y), x.shape, type(x.shape).__name__, x.dtype, type(x.dtype).__name__,
                               x.ndim, repr(n), repr(e), repr(e._keras_mask)]))


GOLDEN_KT_BASICS = """\
<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor>
<KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor_1>
(None, 3)
tuple
float32
str
2
<KerasTensor shape=(5, None, 10), dtype=float32, sparse=False, ragged=False, name=foo>
<KerasTensor shape=(None, None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor_3>
<KerasTensor shape=(None, None), dtype=bool, sparse=False, ragged=False, name=keras_tensor_4>
"""


def test_kt_basics():
    assert _kt_basics() + "\n" == GOLDEN_KT_BASICS


def _kt_errors():
    x = keras.Input((3,))
    out = []
    for f in (lambda: bool(x), lambda: np.asarray(x), lambda: int(x), lambda: float(x), lambda: list(x),
              lambda: tf.add(x, 1)):
        try:
            f()
            out.append("no error")
        except Exception as e:  # noqa: BLE001 - the class and text are what is compared
            out.append(f"{type(e).__name__}: {str(e)[:80]}")
    return "\n".join(out)


GOLDEN_KT_ERRORS = """\
TypeError: A symbolic KerasTensor cannot be used as a boolean.
ValueError: A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't
ValueError: A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't
ValueError: A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't
NotImplementedError: Iterating over a symbolic KerasTensor is not supported.
ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is
"""


def test_kt_errors():
    assert _kt_errors() + "\n" == GOLDEN_KT_ERRORS


def _operators():
    x = keras.Input((3,), name="x")
    b = keras.Input((3,), dtype="bool", name="b")
    outs = [x + 1, 1 + x, x - x, 2 - x, x * 2, x / 2, 2 / x, x // 2, x % 2, x ** 2, 2 ** x, x < 1, x <= 1,
            x > 1, x >= 1, x != 1, b & b, b | b, b ^ b, ~b, -x, abs(x), x[:, :2], round(x), x.reshape((-1, 3, 1))]
    return "\n".join(f"{o._keras_history.operation.name} {type(o._keras_history.operation).__name__} "
                     f"{o.shape} {o.dtype}" for o in outs)


GOLDEN_OPERATORS = """\
add Add (None, 3) float32
add_1 Add (None, 3) float32
subtract Subtract (None, 3) float32
subtract_1 Subtract (None, 3) float32
multiply Multiply (None, 3) float32
true_divide TrueDivide (None, 3) float32
true_divide_1 TrueDivide (None, 3) float32
floor_divide FloorDivide (None, 3) float32
mod Mod (None, 3) float32
power Power (None, 3) float32
power_1 Power (None, 3) float32
less Less (None, 3) bool
less_equal LessEqual (None, 3) bool
greater Greater (None, 3) bool
greater_equal GreaterEqual (None, 3) bool
not_equal NotEqual (None, 3) bool
logical_and LogicalAnd (None, 3) bool
logical_or LogicalOr (None, 3) bool
logical_xor LogicalXor (None, 3) bool
logical_not LogicalNot (None, 3) bool
negative Negative (None, 3) float32
absolute Absolute (None, 3) float32
get_item GetItem (None, 2) float32
round Round (None, 3) float32
reshape Reshape (None, 3, 1) float32
"""


def test_operators():
    assert _operators() + "\n" == GOLDEN_OPERATORS


def _op_model():
    x = keras.Input((3,))
    y = layers.Dense(4, kernel_initializer="ones")(x)
    z = y + 1
    w = z * y
    v = w[:, :2]
    u = ops.relu(v)
    t = -u
    m = keras.Model(x, t)
    return "\n".join(map(str, [m.layers, m.operations, m(np.array([[1.0, -2.0, 0.5]], "float32")).numpy().tolist()])) + "\n" + summ(m)


GOLDEN_OP_MODEL = """\
[<InputLayer name=input_layer, built=True>, <Dense name=dense, built=True>]
[<InputLayer name=input_layer, built=True>, <Dense name=dense, built=True>, <Operation name=add>, <Operation name=multiply>, <Operation name=get_item>, <Operation name=relu>, <Operation name=negative>]
[[-0.0, -0.0]]
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ input_layer (InputLayer)      │ (None, 3)                 │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ dense (Dense)                 │ (None, 4)                 │              16 │ input_layer[0][0]          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ add (Add)                     │ (None, 4)                 │               0 │ dense[0][0]                │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ multiply (Multiply)           │ (None, 4)                 │               0 │ add[0][0], dense[0][0]     │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ get_item (GetItem)            │ (None, 2)                 │               0 │ multiply[0][0]             │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ relu (Relu)                   │ (None, 2)                 │               0 │ get_item[0][0]             │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ negative (Negative)           │ (None, 2)                 │               0 │ relu[0][0]                 │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 16 (64.00 B)
 Trainable params: 16 (64.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_op_model():
    assert _op_model() + "\n" == GOLDEN_OP_MODEL


def _residual():
    inputs = keras.Input((8,))
    x = layers.Dense(8)(inputs)
    r = x
    x = layers.Dense(8)(x)
    x += r
    x = layers.Dense(2)(x)
    return summ(keras.Model(inputs, x))


GOLDEN_RESIDUAL = """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ input_layer (InputLayer)      │ (None, 8)                 │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ dense (Dense)                 │ (None, 8)                 │              72 │ input_layer[0][0]          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ dense_1 (Dense)               │ (None, 8)                 │              72 │ dense[0][0]                │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ add (Add)                     │ (None, 8)                 │               0 │ dense_1[0][0], dense[0][0] │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ dense_2 (Dense)               │ (None, 2)                 │              18 │ add[0][0]                  │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 162 (648.00 B)
 Trainable params: 162 (648.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_residual():
    assert _residual() + "\n" == GOLDEN_RESIDUAL


def _shared_nested():
    inp = keras.Input((4,), batch_size=8, name="in")
    d = layers.Dense(4, name="shared")
    o1 = d(inp)
    o2 = d(o1)
    inner = keras.Model(inp, o2, name="inner")
    s1 = summ(inner)
    xin = keras.Input((4,), name="outer_in")
    h = layers.Dense(2)(inner(xin))
    outer = keras.Model(xin, h, name="outer")
    return "\n".join(map(str, [d.output.name, o1.name, len(d._inbound_nodes), inner.output.name, inner.input.name,
                               outer.input_shape, outer.output_shape, hasattr(d, "input_shape"),
                               hasattr(inner, "get_output_at")])) + "\n" + s1 + summ(outer)


GOLDEN_SHARED_NESTED = """\
keras_tensor
keras_tensor
2
keras_tensor_1
in
(None, 4)
(None, 2)
False
False
Model: "inner"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ in (InputLayer)               │ (8, 4)                    │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ shared (Dense)                │ (8, 4)                    │              20 │ in[0][0], shared[0][0]     │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 20 (80.00 B)
 Trainable params: 20 (80.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ outer_in (InputLayer)                │ (None, 4)                   │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ inner (Functional)                   │ (None, 4)                   │              20 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense (Dense)                        │ (None, 2)                   │              10 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 30 (120.00 B)
 Trainable params: 30 (120.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_shared_nested():
    assert _shared_nested() + "\n" == GOLDEN_SHARED_NESTED


def _seq_io():
    s = keras.Sequential([keras.Input((3,), batch_size=4), layers.Dense(2), layers.Dense(1)])
    out = [s.layers[0].input, s.layers[0].output, s.layers[1].input, s.inputs, s.outputs, s.input_shape, s.output_shape]
    s3 = keras.Sequential([layers.Dense(2), layers.Dense(1)])
    for f in (lambda: s3.layers[0].output, lambda: s3.inputs, lambda: s3.outputs, lambda: s3.input_shape, lambda: s3.output_shape):
        try:
            out.append(f())
        except Exception as e:  # noqa: BLE001 - the class and text are what is compared
            out.append(f"{type(e).__name__}: {e}")
    s3(ops.ones((2, 3)))
    out += [s3.layers[0].output, s3.inputs]
    return "\n".join(map(str, out)) + "\n" + summ(s)


GOLDEN_SEQ_IO = """\
<KerasTensor shape=(4, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor>
<KerasTensor shape=(4, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor_1>
<KerasTensor shape=(4, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor_1>
[<KerasTensor shape=(4, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor>]
[<KerasTensor shape=(4, 1), dtype=float32, sparse=False, ragged=False, name=keras_tensor_2>]
(4, 3)
(4, 1)
AttributeError: The layer dense_2 has never been called and thus has no defined output.
AttributeError: Sequential model 'sequential_1' has no defined inputs yet.
AttributeError: Sequential model 'sequential_1' has no defined outputs yet.
AttributeError: Sequential model 'sequential_1' has no defined input shape yet.
AttributeError: Sequential model 'sequential_1' has no defined output shape yet.
<KerasTensor shape=(2, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor_4>
[<KerasTensor shape=(2, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor_3>]
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense (Dense)                        │ (4, 2)                      │               8 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_1 (Dense)                      │ (4, 1)                      │               3 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 11 (44.00 B)
 Trainable params: 11 (44.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_seq_io():
    assert _seq_io() + "\n" == GOLDEN_SEQ_IO


def _seq_add():
    s = keras.Sequential()
    s.add(keras.Input((3,)))
    s.add(layers.Dense(2))
    s.add(layers.Dense(2))
    return "\n".join(map(str, [s.inputs, s.layers[0].output, s.outputs, len(s.layers[0]._inbound_nodes)]))


GOLDEN_SEQ_ADD = """\
[<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor>]
<KerasTensor shape=(None, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor_1>
[<KerasTensor shape=(None, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor_3>]
2
"""


def test_seq_add():
    assert _seq_add() + "\n" == GOLDEN_SEQ_ADD


def _feature_extraction():
    m = keras.Sequential([keras.Input((5, 5, 1)), layers.Conv2D(2, 3, kernel_initializer="ones"),
                          layers.Conv2D(1, 2, kernel_initializer="ones", name="mid"), layers.Flatten()])
    fe = keras.Model(inputs=m.inputs, outputs=[l.output for l in m.layers])
    f = fe(np.ones((1, 5, 5, 1), "float32"))
    fe2 = keras.Model(inputs=m.inputs, outputs=m.get_layer(name="mid").output)
    return "\n".join(map(str, [[tuple(t.shape) for t in f], f[2].numpy().tolist(), fe2(np.ones((1, 5, 5, 1), "float32")).shape,
                               [l.name for l in fe.layers]]))


GOLDEN_FEATURE_EXTRACTION = """\
[(1, 3, 3, 2), (1, 2, 2, 1), (1, 4)]
[[72.0, 72.0, 72.0, 72.0]]
(1, 2, 2, 1)
['input_layer', 'conv2d', 'mid', 'flatten']
"""


def test_feature_extraction():
    # TF 2.21 warns too: `inputs=m.inputs` is a list, the call gives a NumPy array
    with pytest.warns(UserWarning, match="The structure of `inputs` doesn't match the expected structure"):
        assert _feature_extraction() + "\n" == GOLDEN_FEATURE_EXTRACTION


def _none_dims():
    ts = keras.Input(shape=(None, 10), name="ts")
    x = layers.Conv1D(3, 3)(ts)
    p = layers.MaxPooling1D(2)(x)
    s = layers.Conv1D(3, 3, strides=2)(ts)
    g = layers.GlobalMaxPooling1D()(x)
    r = layers.Reshape((-1,))(ts)
    return "\n".join(str(t.shape) for t in (x, p, s, g, r))


GOLDEN_NONE_DIMS = """\
(None, None, 3)
(None, None, 3)
(None, None, 3)
(None, 3)
(None, None)
"""


def test_none_dims():
    assert _none_dims() + "\n" == GOLDEN_NONE_DIMS


def _subclass_first_call():
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = layers.Dense(2)
            self.e = layers.Dense(3)
        def call(self, x):
            print("call", tuple(x.shape))
            return self.e(self.d(x))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        sm = Sub()
        sm(ops.ones((2, 3)))
    w = keras.Input((3,))
    with contextlib.redirect_stdout(io.StringIO()):      # (Keras prints None for the unknown batch dim here)
        sm2 = Sub()
        o = sm2(w)
    return buf.getvalue() + "\n".join(map(str, [w.name, o.name, [v.path for v in sm.weights]])) + "\n" + summ(sm)


GOLDEN_SUBCLASS_FIRST_CALL = """\
call (2, 3)
call (2, 3)
keras_tensor_1
keras_tensor_3
['sub/dense/kernel', 'sub/dense/bias', 'sub/dense_1/kernel', 'sub/dense_1/bias']
Model: "sub"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense (Dense)                        │ (2, 2)                      │               8 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_1 (Dense)                      │ (2, 3)                      │               9 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 17 (68.00 B)
 Trainable params: 17 (68.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_subclass_first_call():
    assert _subclass_first_call() + "\n" == GOLDEN_SUBCLASS_FIRST_CALL


def _subclass_summary():
    class MyDense(layers.Layer):
        def __init__(self, units):
            super().__init__()
            self.units = units
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units))
        def call(self, x):
            return ops.matmul(x, self.w)
    class MyModel(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = MyDense(4)
            self.b = layers.Dense(2)
            self.c = layers.Dropout(0.5)
            self.u = layers.Dense(3)
        def call(self, x):
            return self.c(self.b(self.a(x)))
    m = MyModel()
    m(np.ones((2, 3), "float32"))
    return summ(m) + summ(m, show_trainable=True)


GOLDEN_SUBCLASS_SUMMARY = """\
Model: "my_model"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ my_dense (MyDense)                   │ ?                           │              12 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense (Dense)                        │ (2, 2)                      │              10 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dropout (Dropout)                    │ ?                           │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_1 (Dense)                      │ ?                           │     0 (unbuilt) │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 22 (88.00 B)
 Trainable params: 22 (88.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "my_model"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━┓
┃ Layer (type)                          ┃ Output Shape                  ┃        Param # ┃ Traina… ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━┩
│ my_dense (MyDense)                    │ ?                             │             12 │    Y    │
├───────────────────────────────────────┼───────────────────────────────┼────────────────┼─────────┤
│ dense (Dense)                         │ (2, 2)                        │             10 │    Y    │
├───────────────────────────────────────┼───────────────────────────────┼────────────────┼─────────┤
│ dropout (Dropout)                     │ ?                             │              0 │    -    │
├───────────────────────────────────────┼───────────────────────────────┼────────────────┼─────────┤
│ dense_1 (Dense)                       │ ?                             │    0 (unbuilt) │    -    │
└───────────────────────────────────────┴───────────────────────────────┴────────────────┴─────────┘
 Total params: 22 (88.00 B)
 Trainable params: 22 (88.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_subclass_summary():
    assert _subclass_summary() + "\n" == GOLDEN_SUBCLASS_SUMMARY


def _long_names():
    inputs = keras.Input(shape=(8, 8, 3), name="img")
    x = layers.Conv2D(4, 3, padding="same")(inputs)
    b = layers.MaxPooling2D(2, name="max_pooling2d_with_a_long_name")(x)
    y = layers.Conv2D(4, 3, padding="same")(b)
    z = layers.add([y, b])
    g = layers.GlobalAveragePooling2D()(z)
    return summ(keras.Model(inputs, g, name="toy"))


GOLDEN_LONG_NAMES = """\
Model: "toy"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ img (InputLayer)              │ (None, 8, 8, 3)           │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ conv2d (Conv2D)               │ (None, 8, 8, 4)           │             112 │ img[0][0]                  │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ max_pooling2d_with_a_long_na… │ (None, 4, 4, 4)           │               0 │ conv2d[0][0]               │
│ (MaxPooling2D)                │                           │                 │                            │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ conv2d_1 (Conv2D)             │ (None, 4, 4, 4)           │             148 │ max_pooling2d_with_a_long… │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ add (Add)                     │ (None, 4, 4, 4)           │               0 │ conv2d_1[0][0],            │
│                               │                           │                 │ max_pooling2d_with_a_long… │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ global_average_pooling2d      │ (None, 4)                 │               0 │ add[0][0]                  │
│ (GlobalAveragePooling2D)      │                           │                 │                            │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 260 (1.02 KB)
 Trainable params: 260 (1.02 KB)
 Non-trainable params: 0 (0.00 B)

"""


def test_long_names():
    assert _long_names() + "\n" == GOLDEN_LONG_NAMES


def _summary_options():
    inner = keras.Sequential([keras.Input((3,)), layers.Dense(2, name="d1"), layers.Dense(2, name="d2")], name="inner")
    x = keras.Input((3,), name="x")
    y = layers.Dense(1, name="head")(inner(x))
    m = keras.Model(x, y, name="outer")
    m.get_layer("head").trainable = False
    out = summ(m, expand_nested=True) + summ(m, show_trainable=True) + summ(m, layer_range=["inner", "head"])
    try:
        summ(m, layer_range=["nope", "head"])
    except ValueError as e:
        out += f"ValueError: {e}\n"
    return out + summ(m, line_length=60, positions=[0.5, 0.8, 1.0])


GOLDEN_SUMMARY_OPTIONS = """\
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ x (InputLayer)                       │ (None, 3)                   │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ inner (Sequential)                   │ (None, 2)                   │              14 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│    └ d1 (Dense)                      │ (None, 2)                   │               8 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│    └ d2 (Dense)                      │ (None, 2)                   │               6 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ head (Dense)                         │ (None, 1)                   │               3 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 17 (68.00 B)
 Trainable params: 14 (56.00 B)
 Non-trainable params: 3 (12.00 B)
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━┓
┃ Layer (type)                          ┃ Output Shape                  ┃        Param # ┃ Traina… ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━┩
│ x (InputLayer)                        │ (None, 3)                     │              0 │    -    │
├───────────────────────────────────────┼───────────────────────────────┼────────────────┼─────────┤
│ inner (Sequential)                    │ (None, 2)                     │             14 │    Y    │
├───────────────────────────────────────┼───────────────────────────────┼────────────────┼─────────┤
│ head (Dense)                          │ (None, 1)                     │              3 │    N    │
└───────────────────────────────────────┴───────────────────────────────┴────────────────┴─────────┘
 Total params: 17 (68.00 B)
 Trainable params: 14 (56.00 B)
 Non-trainable params: 3 (12.00 B)
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ inner (Sequential)                   │ (None, 2)                   │              14 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ head (Dense)                         │ (None, 1)                   │               3 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 17 (68.00 B)
 Trainable params: 14 (56.00 B)
 Non-trainable params: 3 (12.00 B)
ValueError: Passed layer_names do not match the layer names in the model. Received: ['nope', 'head']
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┓
┃ Layer (type)                ┃ Output Shape   ┃   Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━━━━━┩
│ x (InputLayer)              │ (None, 3)      │         0 │
├─────────────────────────────┼────────────────┼───────────┤
│ inner (Sequential)          │ (None, 2)      │        14 │
├─────────────────────────────┼────────────────┼───────────┤
│ head (Dense)                │ (None, 1)      │         3 │
└─────────────────────────────┴────────────────┴───────────┘
 Total params: 17 (68.00 B)
 Trainable params: 14 (56.00 B)
 Non-trainable params: 3 (12.00 B)

"""


def test_summary_options():
    assert _summary_options() + "\n" == GOLDEN_SUMMARY_OPTIONS


def _multi_output():
    x = keras.Input((3,), name="x")
    a = layers.Dense(2, name="a")(x)
    b = layers.Dense(3, name="b")(a)
    c = layers.Concatenate(name="c")([a, b])
    m = keras.Model(x, [a, c])
    return "\n".join(map(str, [c._keras_history, layers.Concatenate in [type(l) for l in m.layers],
                               m.get_layer("c").input])) + "\n" + summ(m)


GOLDEN_MULTI_OUTPUT = """\
KerasHistory(operation=<Concatenate name=c, built=True>, node_index=0, tensor_index=0)
True
[<KerasTensor shape=(None, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor>, <KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor_1>]
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ x (InputLayer)                │ (None, 3)                 │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ a (Dense)                     │ (None, 2)                 │               8 │ x[0][0]                    │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ b (Dense)                     │ (None, 3)                 │               9 │ a[0][0]                    │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ c (Concatenate)               │ (None, 5)                 │               0 │ a[0][0], b[0][0]           │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 17 (68.00 B)
 Trainable params: 17 (68.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_multi_output():
    assert _multi_output() + "\n" == GOLDEN_MULTI_OUTPUT


def _nested_first_layer():
    aug = keras.Sequential([layers.RandomFlip("horizontal", input_shape=(8, 8, 3)), layers.RandomRotation(0.1)])
    m = keras.Sequential([aug, layers.Rescaling(1.0 / 255), layers.Conv2D(2, 3, padding="same"), layers.MaxPooling2D(),
                          layers.Flatten(), layers.Dense(2)])
    inner = keras.Sequential([keras.Input((4,)), layers.Dense(3)])
    m2 = keras.Sequential([inner, layers.Dense(1)])
    return "\n".join(map(str, [m.built, m.input_shape, m.output_shape, m2.built, m2.inputs[0].shape, inner.input_shape])) + "\n" + summ(m) + summ(m2)


GOLDEN_NESTED_FIRST_LAYER = """\
True
(None, 8, 8, 3)
(None, 2)
True
(None, 4)
(None, 4)
Model: "sequential_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ sequential (Sequential)              │ (None, 8, 8, 3)             │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ rescaling (Rescaling)                │ (None, 8, 8, 3)             │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ conv2d (Conv2D)                      │ (None, 8, 8, 2)             │              56 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ max_pooling2d (MaxPooling2D)         │ (None, 4, 4, 2)             │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ flatten (Flatten)                    │ (None, 32)                  │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense (Dense)                        │ (None, 2)                   │              66 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 122 (488.00 B)
 Trainable params: 122 (488.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "sequential_3"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ sequential_2 (Sequential)            │ (None, 3)                   │              15 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_2 (Dense)                      │ (None, 1)                   │               4 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 19 (76.00 B)
 Trainable params: 19 (76.00 B)
 Non-trainable params: 0 (0.00 B)

"""


@pytest.mark.filterwarnings("ignore:Do not pass an `input_shape`")     # Keras warns (TF 2.21 too)
def test_nested_first_layer():
    assert _nested_first_layer() + "\n" == GOLDEN_NESTED_FIRST_LAYER


def _functional_shapes():
    a = keras.Input((3,), name="a")
    b = keras.Input((4,), name="b")
    m = keras.Model({"a": a, "b": b}, [layers.Dense(1)(a), layers.Dense(2)(b)])
    m1 = keras.Model([a], layers.Dense(1)(a))
    return "\n".join(map(str, [m.input_shape, m.output_shape, m1.input_shape, m1.output_shape, m1.input, m.input]))


GOLDEN_FUNCTIONAL_SHAPES = """\
[(None, 3), (None, 4)]
[(None, 1), (None, 2)]
(None, 3)
(None, 1)
[<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=a>]
{'a': <KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=a>, 'b': <KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, name=b>}
"""


def test_functional_shapes():
    assert _functional_shapes() + "\n" == GOLDEN_FUNCTIONAL_SHAPES


def _functional_in_functional():
    x = keras.Input((4,), name="x")
    inner = keras.Model(x, layers.Dense(3, name="d")(x), name="inner")
    y = keras.Input((4,), name="y")
    z1 = inner(y)
    z2 = inner(y)
    out = layers.Concatenate()([z1, z2])
    m = keras.Model(y, out, name="outer")
    return "\n".join(map(str, [len(inner._inbound_nodes), inner.output.shape, z1._keras_history.node_index, z2._keras_history.node_index])) + "\n" + summ(m)


GOLDEN_FUNCTIONAL_IN_FUNCTIONAL = """\
2
(None, 3)
0
1
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                  ┃ Output Shape              ┃         Param # ┃ Connected to               ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ y (InputLayer)                │ (None, 4)                 │               0 │ -                          │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ inner (Functional)            │ (None, 3)                 │              15 │ y[0][0], y[0][0]           │
├───────────────────────────────┼───────────────────────────┼─────────────────┼────────────────────────────┤
│ concatenate (Concatenate)     │ (None, 6)                 │               0 │ inner[0][0], inner[1][0]   │
└───────────────────────────────┴───────────────────────────┴─────────────────┴────────────────────────────┘
 Total params: 15 (60.00 B)
 Trainable params: 15 (60.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_functional_in_functional():
    assert _functional_in_functional() + "\n" == GOLDEN_FUNCTIONAL_IN_FUNCTIONAL


def _mask_pass_through():
    class Act(layers.Layer):
        def __init__(self):
            super().__init__()
            self.supports_masking = True

        def call(self, x):
            return ops.relu(x)
    inputs = keras.Input(shape=(None,), dtype="int32")
    e = layers.Embedding(50, 4, mask_zero=True)(inputs)
    a = Act()(e)
    d = layers.Dense(3)(a)
    lstm = layers.LSTM(2, return_sequences=True)(d)
    return "\n".join(repr(t) for t in (e, e._keras_mask, a, a._keras_mask, d, getattr(d, "_keras_mask", None), lstm,
                                       getattr(lstm, "_keras_mask", None)))


GOLDEN_MASK_PASS_THROUGH = """\
<KerasTensor shape=(None, None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor_1>
<KerasTensor shape=(None, None), dtype=bool, sparse=False, ragged=False, name=keras_tensor_2>
<KerasTensor shape=(None, None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor_3>
<KerasTensor shape=(None, None), dtype=bool, sparse=False, ragged=False, name=keras_tensor_2>
<KerasTensor shape=(None, None, 3), dtype=float32, sparse=False, ragged=False, name=keras_tensor_4>
<KerasTensor shape=(None, None), dtype=bool, sparse=False, ragged=False, name=keras_tensor_2>
<KerasTensor shape=(None, None, 2), dtype=float32, sparse=False, ragged=False, name=keras_tensor_5>
<KerasTensor shape=(None, None), dtype=bool, sparse=False, ragged=False, name=keras_tensor_2>
"""


def test_mask_pass_through():
    assert _mask_pass_through() + "\n" == GOLDEN_MASK_PASS_THROUGH


def test_symbolic_errors_are_keras_value_errors():
    # (Keras 3.15.1's messages where tfcompat has the same text; the class everywhere)
    with pytest.raises(ValueError, match=r"^Computed output size would be zero or negative\. Received `inputs "
                                         r"shape=\(None, 2, 10\)`, `kernel shape=\(3, 10, 3\)`"):
        layers.Conv1D(3, 3)(keras.Input((2, 10)))
    with pytest.raises(ValueError, match=r"^Cannot broadcast shape, the failure dim has value 3, which cannot be "
                                         r"broadcasted to 4\. Input shapes are: \[None, 3\] and \[None, 4\]\.$"):
        keras.Input((3,)) + keras.Input((4,))
    with pytest.raises(ValueError):
        layers.Add()([keras.Input((3,)), keras.Input((4,))])
    with pytest.raises(ValueError):
        ops.matmul(keras.Input((3,)), keras.Input((4, 5)))


def test_unknown_dims_broadcast_as_keras():
    a, b = keras.Input((None,)), keras.Input((3,))
    shapes = [(a + b).shape, (b * 2).shape, (a + 1.0).shape, ops.add(b, ops.ones((3,))).shape,
              (keras.Input((None, 1)) + keras.Input((5,))).shape]
    assert shapes == [(None, 3), (None, 3), (None, None), (None, 3), (None, None, 5)]     # Keras 3.15.1
    m = keras.Model([a, b], a + b)
    assert m([np.ones((2, 3), "float32"), np.ones((2, 3), "float32")]).numpy().tolist() == [[2.0] * 3] * 2


def test_models_with_ops_save_as_keras_and_load(tmp_path):
    import json
    x = keras.Input((3,))
    y = layers.Dense(2)(x)
    m = keras.Model(x, -(ops.relu(y + 1) * y))
    entry = json.loads(json.dumps(m.get_config()["layers"][2]))
    assert entry == {"module": "keras.src.ops.numpy", "class_name": "Add", "config": {"name": "add"},  # Keras 3.15.1
                     "registered_name": "Add", "name": "add", "inbound_nodes": [{"args": [
                         {"class_name": "__keras_tensor__", "config": {"shape": [None, 2], "dtype": "float32",
                                                                       "keras_history": ["dense", 0, 0]}}, 1],
                         "kwargs": {}}]}
    m.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert [type(op).__name__ for op in loaded.operations] == ["InputLayer", "Dense", "Add", "Relu", "Multiply",
                                                               "Negative"]
    data = np.array([[1.0, -2.0, 3.0]], "float32")
    np.testing.assert_allclose(loaded(data).numpy(), m(data).numpy())
    x = keras.Input((3,))
    with pytest.raises(NotImplementedError, match="cannot save the Keras op 'get_item' \\(GetItem\\)"):
        keras.Model(x, x[:, :2]).get_config()


def test_first_call_trace_leaves_state_alone():
    # Keras 3.15.1: the build trace prints, but assigns no metric or variable ("call" twice, count 2.0, calls 1)
    class End(layers.Layer):
        def __init__(self):
            super().__init__()
            self.acc = keras.metrics.BinaryAccuracy()
            self.d = layers.Dense(1)
            self.calls = tf.Variable(0)

        def call(self, x, y):
            p = self.d(x)
            self.acc.update_state(y, p)
            self.calls.assign_add(1)
            print("call")
            return p
    e = End()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        e(np.ones((2, 3), "float32"), np.ones((2, 1), "float32"))
    assert buf.getvalue() == "call\ncall\n"
    assert float(e.acc.variables[1].numpy()) == 2.0 and int(e.calls.numpy()) == 1


def _sequential_build_paths():
    unbuilt = keras.Sequential([layers.Dense(4), layers.Dense(2)])
    s1 = summ(unbuilt)
    built = keras.Sequential([layers.Dense(4), layers.Dense(2)])
    built.build((None, 3))
    called = keras.Sequential([layers.Dense(4), layers.Dense(2)])
    called(np.ones((5, 3), "float32"))
    fitted = keras.Sequential([layers.Dense(4), layers.Dense(2)])
    fitted.compile("sgd", "mse")
    fitted.fit(np.ones((8, 3), "float32"), np.ones((8, 2), "float32"), batch_size=4, verbose=0)
    return s1 + summ(built) + summ(called) + summ(fitted) + str([l.output.shape for l in fitted.layers])


GOLDEN_SEQUENTIAL_BUILD_PATHS = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense (Dense)                        │ ?                           │     0 (unbuilt) │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_1 (Dense)                      │ ?                           │     0 (unbuilt) │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "sequential_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense_2 (Dense)                      │ (None, 4)                   │              16 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_3 (Dense)                      │ (None, 2)                   │              10 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 26 (104.00 B)
 Trainable params: 26 (104.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "sequential_2"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense_4 (Dense)                      │ (5, 4)                      │              16 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_5 (Dense)                      │ (5, 2)                      │              10 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 26 (104.00 B)
 Trainable params: 26 (104.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "sequential_3"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense_6 (Dense)                      │ (4, 4)                      │              16 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_7 (Dense)                      │ (4, 2)                      │              10 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 28 (116.00 B)
 Trainable params: 26 (104.00 B)
 Non-trainable params: 0 (0.00 B)
 Optimizer params: 2 (12.00 B)
[(4, 4), (4, 2)]
"""


def test_sequential_build_paths():
    assert _sequential_build_paths() + "\n" == GOLDEN_SEQUENTIAL_BUILD_PATHS


def test_symbolic_calls_assign_no_state():
    class Counting(layers.Layer):
        def __init__(self):
            super().__init__()
            self.acc = keras.metrics.Mean()
            self.calls = tf.Variable(0)

        def call(self, x):
            self.acc.update_state(x)
            self.calls.assign_add(1)
            return x
    layer = Counting()
    layer(keras.Input((None, 3)))           # Keras 3.15.1: count 0.0, calls 0
    assert float(layer.acc.variables[1].numpy()) == 0.0 and int(layer.calls.numpy()) == 0


def _subclass_build():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = layers.Dense(4)
            self.b = layers.Dense(2)

        def call(self, x):
            return self.b(self.a(x))
    m = Net()
    with pytest.warns(UserWarning, match="does not have a `build\\(\\)` method implemented"):     # as Keras
        m.build((None, 3))
    out = [m.built, [w.shape for w in m.weights]]
    return "\n".join(map(str, out)) + "\n" + summ(m)


GOLDEN_SUBCLASS_BUILD = """\
True
[]
Model: "net"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense (Dense)                        │ ?                           │     0 (unbuilt) │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ dense_1 (Dense)                      │ ?                           │     0 (unbuilt) │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_subclass_build():
    assert _subclass_build() + "\n" == GOLDEN_SUBCLASS_BUILD


def _subclass_symbolic_call():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = layers.Dense(4)

        def call(self, x):
            return self.a(x)
    m = Net()
    x = keras.Input((3,))
    y = m(x)
    f = keras.Model(x, y)
    return str(y) + "\n" + summ(m) + summ(f)


GOLDEN_SUBCLASS_SYMBOLIC_CALL = """\
<KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor_2>
Model: "net"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ dense (Dense)                        │ (None, 4)                   │              16 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 16 (64.00 B)
 Trainable params: 16 (64.00 B)
 Non-trainable params: 0 (0.00 B)
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ input_layer (InputLayer)             │ (None, 3)                   │               0 │
├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤
│ net (Net)                            │ (None, 4)                   │              16 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 16 (64.00 B)
 Trainable params: 16 (64.00 B)
 Non-trainable params: 0 (0.00 B)

"""


def test_subclass_symbolic_call():
    assert _subclass_symbolic_call() + "\n" == GOLDEN_SUBCLASS_SYMBOLIC_CALL


def test_node_repr():
    d = layers.Dense(2, name="shared")
    d(keras.Input((3,)))
    (node,) = d._inbound_nodes
    assert repr(node) == f"<Node operation=shared, id={id(node)}>"      # Keras 3.15.1's text
