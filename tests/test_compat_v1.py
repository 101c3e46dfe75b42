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
    for name in ("placeholder", "Session", "disable_eager_execution", "get_variable"):
        with pytest.raises(NotImplementedError):
            getattr(v1, name)
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


def test_tensor_equality_switches():
    assert tf.compat.v1.enable_tensor_equality() is None
    x, y = tf.Variable(0.0), tf.Variable(0.0)
    assert repr(x == y) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    with pytest.raises(NotImplementedError, match="disable_tensor_equality"):
        tf.compat.v1.disable_tensor_equality()
