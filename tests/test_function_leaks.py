"""Tensors a tf.function trace leaks into its globals or closure are TF's out-of-scope symbolic tensors after the
trace (values recorded from TF 2.21)."""
import pytest

import tfcompat as tf

OUT_OF_SCOPE = ("<tf.Tensor 'add:0' shape=() dtype=int32> is out of scope and cannot be used here. Use return "
                "values, explicit Python locals or TensorFlow collections to access it.")
leaked = None
kept = []


@tf.function
def _leaky(a):
    global leaked
    leaked = a + 1
    return leaked


def test_a_global_assigned_in_the_trace_is_out_of_scope_and_the_output_keeps_its_value():
    r = _leaky(tf.constant(1))
    assert repr(r) == "<tf.Tensor: shape=(), dtype=int32, numpy=2>" and type(r).__name__ == "EagerTensor"
    assert repr(leaked) == "<tf.Tensor 'add:0' shape=() dtype=int32>"
    assert str(leaked) == 'Tensor("add:0", shape=(), dtype=int32)'
    assert type(leaked).__name__ == "SymbolicTensor" and isinstance(leaked, tf.Tensor)
    assert (leaked.shape, leaked.dtype, leaked.name, leaked.device) == (tf.TensorShape([]), tf.int32, "add:0", "")
    with pytest.raises(AttributeError, match="^'SymbolicTensor' object has no attribute 'numpy'$"):
        leaked.numpy()
    assert not hasattr(leaked, "numpy")
    for use in (lambda: leaked + 1, lambda: tf.add(leaked, 1), lambda: leaked[0]):
        with pytest.raises(TypeError) as e:
            use()
        assert str(e.value).startswith(OUT_OF_SCOPE)
        assert "#all_outputs_of_a_tffunction_must_be_return_values for more information." in str(e.value)
    with pytest.raises(TypeError, match=r"^int\(\) argument must be a string, a bytes-like object or a real number, "
                                        r"not 'SymbolicTensor'$"):
        int(leaked)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="^Using a symbolic `tf.Tensor` as a Python "):
        bool(leaked)
    with pytest.raises(TypeError, match=r"^len is not well defined for a symbolic Tensor \(add:0\)\. Please call "):
        len(leaked)

    @tf.function
    def captures(b):
        return b + leaked
    with pytest.raises(TypeError) as e:
        captures(tf.constant(2))
    assert str(e.value).startswith(OUT_OF_SCOPE)
    assert _leaky(tf.constant(5)).numpy() == 6          # a replay: the leak stays as it was


def test_leaks_into_containers_and_closures_but_not_values_made_outside():
    outside = tf.constant(7)

    @tf.function
    def f(a):
        kept.append(a * 2)
        kept.append(outside)
        return a + outside

    assert f(tf.constant(3)).numpy() == 10
    assert type(kept[0]).__name__ == "SymbolicTensor" and kept[0].name == "mul:0"
    assert kept[1] is outside and outside.numpy() == 7
    box = [None]

    @tf.function
    def g(a):
        box[0] = a - 1
        return a
    g(tf.constant(1.0))
    assert type(box[0]).__name__ == "SymbolicTensor"
    assert repr(box[0]) == "<tf.Tensor 'sub:0' shape=() dtype=float32>"
