"""tf.function signatures: TF's argument names, binding errors and output specs of ConcreteFunctions (TF 2.21 text)."""
import pytest

import tfcompat as tf

_F = "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
_I = "TensorSpec(shape=(), dtype=tf.int32, name=None)"


def _error(fn):
    with pytest.raises(TypeError) as e:
        fn()
    return str(e.value)


def test_varargs_are_args_i_in_binding_errors_and_specs():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
    def f(x, *args):
        return x
    x = tf.constant([1.0])
    assert _error(lambda: f(x, tf.constant([1, 2]))) == (
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(2,), dtype=tf.int32, name=None) "
        f"to {_I}`. Received args: ({x!r}, {tf.constant([1, 2])!r}) and kwargs: {{}} for signature: (x: {_F}, "
        f"args_0: {_I}, /).")
    assert "missing a required argument: 'args_0'" in _error(lambda: f(x))
    assert repr(f.get_concrete_function().structured_input_signature) == (
        "((TensorSpec(shape=(None,), dtype=tf.float32, name='x'), TensorSpec(shape=(), dtype=tf.int32, "
        "name='args_0')), {})")


def test_nested_input_signature_leaves_are_named_by_path():
    @tf.function(input_signature=[(tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32))])
    def f(p):
        print(p[0], p[1])
        return p[0]
    assert repr(f.get_concrete_function().structured_input_signature) == (
        "(((TensorSpec(shape=(None,), dtype=tf.float32, name='p_0'), TensorSpec(shape=(), dtype=tf.int32, "
        "name='p_1')),), {})")
    assert f"for signature: (p: Tuple[{_F}, {_I}])." in _error(lambda: f((tf.constant([1.0]), tf.constant(1.0))))


def test_traced_specs_and_placeholders_are_named_as_tf(capsys):
    @tf.function
    def h(p, q, *args, **kw):
        print(p[0], p[1], args[0], kw["z"])
        return p[0]
    h((tf.constant([1.0]), tf.constant([1.0, 2.0])), {"k": tf.constant(1.0), "a": [tf.constant(1)]}, tf.constant(1),
      z=tf.constant(2))
    assert capsys.readouterr().out == (
        'Tensor("p:0", shape=(1,), dtype=float32) Tensor("p_1:0", shape=(2,), dtype=float32) '
        'Tensor("args_0:0", shape=(), dtype=int32) '
        'Tensor("z:0", shape=(), dtype=int32)\n')

    @tf.function
    def g(a, b=2, *args, **kw):
        return {"s": a + b, "t": (a, [a * 2])}
    cf = g.get_concrete_function(tf.constant(1.0), 3, tf.constant(2.0), tf.constant(2.0), z=tf.constant(3))
    assert repr(cf.structured_input_signature) == (
        "((TensorSpec(shape=(), dtype=tf.float32, name='a'), 3, TensorSpec(shape=(), dtype=tf.float32, "
        "name='args_0'), TensorSpec(shape=(), dtype=tf.float32, name='args_1')), {'z': TensorSpec(shape=(), "
        "dtype=tf.int32, name='z')})")
    assert cf.pretty_printed_signature().splitlines()[:6] == [
        "Input Parameters:",
        "  a (POSITIONAL_ONLY): TensorSpec(shape=(), dtype=tf.float32, name=None)",
        "  b (POSITIONAL_ONLY): Literal[3]",
        "  args_0 (POSITIONAL_ONLY): TensorSpec(shape=(), dtype=tf.float32, name=None)",
        "  args_1 (POSITIONAL_ONLY): TensorSpec(shape=(), dtype=tf.float32, name=None)",
        "  z (KEYWORD_ONLY): TensorSpec(shape=(), dtype=tf.int32, name=None)"]

    @tf.function
    def n(p, q):
        return p[0]
    cf = n.get_concrete_function((tf.TensorSpec([None]), tf.TensorSpec([2])),
                                 {"k": tf.constant(1.0), "a": [tf.constant(1)]})
    assert repr(cf.structured_input_signature) == (
        "(((TensorSpec(shape=(None,), dtype=tf.float32, name='p_0'), TensorSpec(shape=(2,), dtype=tf.float32, "
        "name='p_1')), {'k': TensorSpec(shape=(), dtype=tf.float32, name='q_k'), 'a': [TensorSpec(shape=(), "
        "dtype=tf.int32, name='q_a_0')]}), {})")
    assert cf.pretty_printed_signature().splitlines()[2] == (
        "  q (POSITIONAL_OR_KEYWORD): Dict[['k', TensorSpec(shape=(), dtype=tf.float32, name=None)], ['a', "
        "List[TensorSpec(shape=(), dtype=tf.int32, name=None)]]]")
    assert cf.pretty_printed_signature().splitlines()[4] == "  TensorSpec(shape=(None,), dtype=tf.float32, name=None)"


def test_concrete_function_binding_errors():
    @tf.function
    def g(a, b=2, *args, **kw):
        return {"s": a + b, "t": (a, [a * 2])}
    cf = g.get_concrete_function(tf.constant(1.0), 3, tf.constant(2.0), z=tf.constant(3))
    assert _error(lambda: cf(tf.constant(1))).startswith(
        "Binding inputs to tf.function failed due to `missing a required argument: 'b'`. Received args: "
        f"({tf.constant(1)!r},) and kwargs: {{}} for signature: (a: TensorSpec(shape=(), dtype=tf.float32, "
        "name=None), b: Literal[3], args_0: TensorSpec(shape=(), dtype=tf.float32, name=None), /, *, z: ")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2
    cf = f.get_concrete_function()
    assert cf(tf.constant([[1.0]])).numpy().tolist() == [[2.0]]       # TF's flat call takes other shapes
    assert cf(x=tf.constant([1.0])).numpy().tolist() == [2.0]
    y = tf.constant([1.0])
    assert _error(lambda: cf(y=y)) == (
        f"Binding inputs to tf.function failed due to `missing a required argument: 'x'`. Received args: () and "
        f"kwargs: {{'y': {y!r}}} for signature: (x: {_F}) -> {_F}.\n"
        "Fallback to flat signature also failed due to: f(x) missing required arguments: x.")

    @tf.function
    def d(a, b=2, c=(1, 2)):
        return a * b
    assert d.get_concrete_function(tf.constant(1.0))(tf.constant(2.0)).numpy() == 4.0
    assert d.get_concrete_function(tf.constant(1.0), 3, (1, 2))(tf.constant(2.0)).numpy() == 6.0
    cf = d.get_concrete_function(tf.constant(1.0), 3, (1, 3))
    assert "missing a required argument: 'c'" in _error(lambda: cf(tf.constant(2.0), 3))


def test_output_specs_shapes_and_dtypes():
    @tf.function
    def g(a, b=2, *args, **kw):
        return {"s": a + b, "t": (a, [a * 2])}
    cf = g.get_concrete_function(tf.constant(1.0), 3, tf.constant(2.0), z=tf.constant(3))
    assert repr(cf.output_shapes) == "{'s': TensorShape([]), 't': (TensorShape([]), [TensorShape([])])}"
    assert repr(cf.output_dtypes) == "{'s': tf.float32, 't': (tf.float32, [tf.float32])}"

    m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def serve(x):
        return {"y": m(x), "n": tf.reduce_sum(x, axis=1), "s": tf.shape(x)}
    want = ("{'y': TensorSpec(shape=(None, 3), dtype=tf.float32, name=None), 'n': TensorSpec(shape=(None,), "
            "dtype=tf.float32, name=None), 's': TensorSpec(shape=(2,), dtype=tf.int32, name=None)}")
    assert repr(serve.get_concrete_function().structured_outputs) == want
    assert serve(tf.ones((5, 4)))["y"].shape == (5, 3)
    assert repr(serve.get_concrete_function().structured_outputs) == want

    @tf.function
    def h(x, y):
        return tf.concat([x, y], 0), x[:, :2], tf.reshape(x, [-1])
    cf = h.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([2, 3]))
    assert [tuple(s) for s in cf.output_shapes] == [(None, 3), (None, 2), (None,)]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2
    f(tf.constant([1.0, 2.0]))
    f(tf.constant([1.0, 2.0, 3.0]))     # another shape runs the body again: the output spec stays general
    assert repr(f.get_concrete_function().structured_outputs) == _F


def test_output_of_an_unknown_rank_input_has_unknown_shape():
    @tf.function
    def pow(a, b):
        return a ** b
    square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    assert str(square).splitlines()[4] == "  TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"
    assert square(tf.constant(10.0)).numpy() == 100.0


def test_ragged_and_sparse_input_signatures():
    r1, r2 = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[1], [3, 4, 5], []])

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def rows(r):
        return tf.reduce_sum(r, axis=1)
    assert rows(r1).numpy().tolist() == [3, 3] and rows(r2).numpy().tolist() == [1, 12, 0]
    assert rows.experimental_get_tracing_count() == 1
    assert repr(rows.get_concrete_function().structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64),), {})"
    assert "Can not cast" in _error(lambda: rows(tf.ragged.constant([[1.0]])))

    s1 = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    s2 = tf.sparse.SparseTensor([[0, 1]], [5.0], [2, 3])

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def sums(s):
        return tf.sparse.reduce_sum(s, axis=1)
    assert sums(s1).numpy().tolist() == [1.0, 2.0] and sums(s2).numpy().tolist() == [5.0, 0.0]
    assert sums.experimental_get_tracing_count() == 1
    assert repr(sums.get_concrete_function().structured_input_signature) == \
        "((SparseTensorSpec(TensorShape([None, 3]), tf.float32),), {})"


def test_composite_arguments_are_traced_by_spec():
    @tf.function
    def rows(r):
        return tf.reduce_sum(r, axis=1)
    rows(tf.ragged.constant([[1, 2], [3]]))
    rows(tf.ragged.constant([[4], [5, 6]]))       # same spec (shape [2, None]): no new trace
    rows(tf.ragged.constant([[1], [3, 4, 5], []]))
    assert rows.experimental_get_tracing_count() == 2

    @tf.function
    def sums(s):
        return tf.sparse.reduce_sum(s, axis=1)
    for indices in ([[0, 0], [1, 2]], [[0, 1]]):
        sums(tf.sparse.SparseTensor(indices, [1.0] * len(indices), [2, 3]))
    assert sums.experimental_get_tracing_count() == 1
