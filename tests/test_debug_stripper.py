"""`tf.config.optimizer.set_experimental_options({'debug_stripper': True})`: inside tf.functions, failing asserts,
CheckNumerics and tf.print are removed as Grappler's DebugStripper removes them; eager code and asserts of constants
(checked while TF traces) still raise. Behaviour checked against TF 2.21."""
import contextlib

import pytest

import tfcompat as tf
from tfcompat.ops import config_ops


@pytest.fixture(autouse=True)
def _restore():
    options = dict(config_ops._Config.optimizer_options)
    yield
    config_ops._Config.optimizer_options = options


@contextlib.contextmanager
def _options(options):
    # TF merges the options set: restoring the old ones leaves a key they lack on, so each is turned off explicitly
    tf.config.optimizer.set_experimental_options(options)
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options(dict.fromkeys(options, False))


def _debug_ops():
    @tf.function
    def f(x):
        y = tf.debugging.check_numerics(x, "Bad!")
        tf.debugging.Assert(x < 0, [x])
        tf.debugging.assert_less(x, 0.0, message="not negative")
        tf.print("printed", x)
        return y * 2
    return f


def test_debug_ops_are_stripped_inside_functions(capsys):
    with _options({"debug_stripper": True}):
        f = _debug_ops()
        assert str(f(tf.constant(float("inf")))) == "tf.Tensor(inf, shape=(), dtype=float32)"
        assert str(f(tf.constant([float("nan")]))) == "tf.Tensor([nan], shape=(1,), dtype=float32)"
        with pytest.raises(tf.errors.InvalidArgumentError, match="eager : Tensor had Inf values"):
            tf.debugging.check_numerics(tf.constant(float("inf")), "eager")
    assert capsys.readouterr().err == ""


def test_the_option_is_read_when_the_function_runs(capsys):
    f = _debug_ops()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Bad! : Tensor had Inf values"):
        f(tf.constant(float("inf")))
    with _options({"debug_stripper": True}):
        assert float(f(tf.constant(float("inf")))) == float("inf")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Bad! : Tensor had Inf values"):
        f(tf.constant(float("inf")))
    assert float(f(tf.constant(-1.0))) == -2.0
    assert capsys.readouterr().err == "printed -1\n"


def test_constant_conditions_and_unused_options_change_nothing():
    with _options({"debug_stripper": True}):
        @tf.function
        def constant_assert(x):
            tf.debugging.assert_equal(1, 2)
            return x

        with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
            constant_assert(tf.constant(1.0))

        @tf.function
        def constant_check(x):
            tf.debugging.Assert(False, ["data"])
            return tf.debugging.check_numerics(tf.constant(float("nan")), "c") + x

        assert str(constant_check(tf.constant(1.0))) == "tf.Tensor(nan, shape=(), dtype=float32)"
    with _options({"constant_folding": True}):
        with pytest.raises(tf.errors.InvalidArgumentError):
            _debug_ops()(tf.constant(float("inf")))
