"""tf.debugging, tf.config, logging, name_scope, TensorSpec, IndexedSlices: golden values from TF 2.21."""
import logging

import numpy as np
import pytest

import tfcompat as tf


def _err(cls, fn):
    with pytest.raises(cls) as e:
        fn()
    return str(e.value)


def test_executing_eagerly_and_logger():
    assert tf.executing_eagerly() is True
    lg = tf.get_logger()
    assert lg is logging.getLogger("tensorflow")
    v1 = tf.compat.v1.logging
    assert (v1.DEBUG, v1.INFO, v1.WARN, v1.WARNING, v1.ERROR, v1.FATAL) == (10, 20, 30, 30, 40, 50)
    old = lg.level
    try:
        v1.set_verbosity(v1.INFO)
        assert lg.level == 20 and v1.get_verbosity() == 20
    finally:
        lg.setLevel(old)


def test_assert_equal_shapes_and_messages():
    x = tf.zeros((32, 10))
    assert tf.debugging.assert_equal(x.shape, (32, 10)) is None
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.debugging.assert_equal(x.shape, (32, 11))) == (
        "Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\nCorresponding x values:\n[10]\n"
        "Corresponding y values:\n[11]\nFirst 2 elements of x:\n[32 10]\nFirst 2 elements of y:\n[32 11]")
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.debugging.assert_equal(
        tf.constant([1, 2, 3]), tf.constant([1, 2, 4]), message="msg", summarize=2)) == (
        "msg\nCondition x == y did not hold.\nIndices of first 1 different values:\n[[2]]\nCorresponding x values:\n"
        "[3]\nCorresponding y values:\n[4]\nFirst 2 elements of x:\n[1 2]\nFirst 2 elements of y:\n[1 2]")
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.debugging.assert_equal(tf.constant([1., 2]), 1.)) == (
        "Condition x == y did not hold.\nFirst 2 elements of x:\n[1. 2.]\nFirst 1 elements of y:\n[1.]")
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.debugging.assert_equal(
        tf.ones((2, 2)), tf.constant([[1., 2.], [3, 1]]))) == (
        "Condition x == y did not hold.\nIndices of first 2 different values:\n[[0 1]\n [1 0]]\n"
        "Corresponding x values:\n[1. 1.]\nCorresponding y values:\n[2. 3.]\nFirst 3 elements of x:\n[1. 1. 1.]\n"
        "First 3 elements of y:\n[1. 2. 3.]")
    assert "Incompatible shapes: [2] vs. [3] [Op:Equal]" in _err(
        tf.errors.InvalidArgumentError, lambda: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3])))
    assert tf.assert_equal is tf.debugging.assert_equal and tf.Assert is tf.debugging.Assert
    assert tf.assert_less is tf.debugging.assert_less and tf.assert_rank is tf.debugging.assert_rank


def test_comparison_asserts():
    IA = tf.errors.InvalidArgumentError
    assert _err(IA, lambda: tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([1, 3]))).startswith(
        "Condition x != y did not hold.\nIndices of first 1 different values:\n[[0]]\nCorresponding x values:\n[1]")
    assert _err(IA, lambda: tf.debugging.assert_less_equal(tf.constant([1, 4]), 3)) == (
        "Condition x <= y did not hold.\nFirst 2 elements of x:\n[1 4]\nFirst 1 elements of y:\n[3]")
    assert _err(IA, lambda: tf.debugging.assert_greater(tf.constant([1, 2]), 1)) == (
        "Condition x > y did not hold.\nFirst 2 elements of x:\n[1 2]\nFirst 1 elements of y:\n[1]")
    assert tf.debugging.assert_greater_equal(tf.constant([2, 3]), 2) is None
    assert _err(IA, lambda: tf.debugging.assert_equal(tf.range(30), tf.range(30) + 1)).startswith(
        "Condition x == y did not hold.\nIndices of first 3 different values:\n[[0]\n [1]\n [2]]\n")


def test_sign_asserts():
    IA = tf.errors.InvalidArgumentError
    assert _err(IA, lambda: tf.debugging.assert_positive(tf.constant([-1, 2, 3, 4]), message="m")) == (
        "m.  \nCondition x > 0 did not hold element-wise:\nx (shape=(4,) dtype=int32) = \n['-1', '2', '3', '...']")
    assert _err(IA, lambda: tf.debugging.assert_positive(tf.constant(-1.5))) == (
        "\nCondition x > 0 did not hold element-wise:\nx (shape=() dtype=float32) = \n-1.5")
    assert _err(IA, lambda: tf.debugging.assert_negative(tf.constant([-1, 2]))) == (
        "\nCondition x < 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['-1', '2']")
    assert _err(IA, lambda: tf.debugging.assert_non_negative(tf.constant([-1, 2]))) == (
        "\nCondition x >= 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['-1', '2']")
    assert _err(IA, lambda: tf.debugging.assert_non_positive(tf.constant([-1, 2]))) == (
        "\nCondition x <= 0 did not hold element-wise:x (shape=(2,) dtype=int32) = \n['-1', '2']")
    assert tf.debugging.assert_positive(tf.constant([1., 2.])) is None


def test_assert_near_and_Assert():
    IA = tf.errors.InvalidArgumentError
    assert _err(IA, lambda: tf.debugging.assert_near(tf.constant([1., 2.]), tf.constant([1., 2.1]))) == (
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b''\nb'x and y not equal to "
        "tolerance rtol = tf.Tensor(1.1920929e-06, shape=(), dtype=float32), atol = tf.Tensor(1.1920929e-06, "
        "shape=(), dtype=float32)'\nb'x (shape=(2,) dtype=float32) = '\n1.0, 2.0\nb'y (shape=(2,) dtype=float32) = '"
        "\n1.0, 2.1")
    assert tf.debugging.assert_near(tf.constant([1., 2.]), tf.constant([1., 2.0000001])) is None
    assert _err(IA, lambda: tf.debugging.Assert(False, [tf.zeros((2, 5))[0], "hello"])) == (
        "Expected 'False' to be true. Summarized data: 0.0, 0.0, 0.0, ...\nb'hello'")
    assert _err(IA, lambda: tf.debugging.Assert(tf.constant(False), [tf.range(10), tf.constant(1.5)], summarize=2)) \
        == "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 0, 1, ...\n1.5"
    assert tf.debugging.Assert(True, [1]) is None


def test_rank_shape_type_asserts():
    x = tf.zeros((32, 10))
    assert tf.debugging.assert_rank(x, 2) is None
    assert _err(ValueError, lambda: tf.debugging.assert_rank(x, 3)) == \
        "Tensor  must have rank 3.  Received rank 2, shape (32, 10)"
    assert _err(ValueError, lambda: tf.debugging.assert_rank(tf.zeros((2,)), 2, message="mm")) == \
        "mm.  Tensor  must have rank 2.  Received rank 1, shape (2,)"
    assert _err(ValueError, lambda: tf.debugging.assert_rank_at_least(x, 3)) == \
        "Tensor  must have rank at least 3.  Received rank 2, shape (32, 10)"
    assert _err(ValueError, lambda: tf.debugging.assert_rank_in(x, [0, 1])) == \
        "Tensor  must have rank in (0, 1).  Received rank 2, shape (32, 10)"
    assert _err(ValueError, lambda: tf.debugging.assert_scalar(x)) == "Expected scalar shape, saw shape: (32, 10)."
    assert tf.debugging.assert_shapes([(x, ("N", "Q")), (tf.zeros((32,)), ("N",))]) is None
    assert tf.debugging.assert_shapes([(x, (None, 10))]) is None
    assert tf.debugging.assert_shapes([(x, ("...", 10))]) is None
    assert _err(ValueError, lambda: tf.debugging.assert_shapes([(x, ("N", "Q")), (tf.zeros((31,)), ("N",))])) == (
        "Specified by tensor shape=(32, 10) dtype=float32 dimension 0.  Tensor shape=(31,) dtype=float32 dimension 0 "
        "must have size 32.  Received size 31, shape (31,)")
    assert _err(ValueError, lambda: tf.debugging.assert_shapes([(x, ("N", 3))])) == (
        "Specified explicitly.  Tensor shape=(32, 10) dtype=float32 dimension 1 must have size 3.  Received size 10, "
        "shape (32, 10)")
    assert _err(ValueError, lambda: tf.debugging.assert_shapes([(x, ("N", "N"))])) == (
        "Specified by tensor shape=(32, 10) dtype=float32 dimension 0.  Tensor shape=(32, 10) dtype=float32 "
        "dimension 1 must have size 32.  Received size 10, shape (32, 10)")
    assert _err(TypeError, lambda: tf.debugging.assert_type(x, tf.int32)) == \
        "tensor must be of type tf.int32; got tf.float32"
    assert _err(TypeError, lambda: tf.debugging.assert_integer(x, message="mm")) == \
        "mm.  Expected \"x\" to be integer type.  Found: tensor of dtype <dtype: 'float32'>"


def test_numerics_and_misc_debugging():
    IA = tf.errors.InvalidArgumentError
    assert _err(IA, lambda: tf.debugging.check_numerics(tf.constant([1., np.inf]), "bad")) == \
        ("{{function_node __wrapped__CheckNumerics_device_/job:localhost/replica:0/task:0/device:CPU:0}} bad : Tensor "
         "had Inf values [Op:CheckNumerics] name: ")
    assert _err(IA, lambda: tf.debugging.assert_all_finite(tf.constant([1., np.nan]), "bad")) == \
        ("{{function_node __wrapped__CheckNumerics_device_/job:localhost/replica:0/task:0/device:CPU:0}} bad : Tensor "
         "had NaN values [Op:CheckNumerics] name: ")
    assert _err(IA, lambda: tf.debugging.check_numerics(tf.constant([1, 2]), "bad")).startswith(
        "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double\n")
    np.testing.assert_array_equal(tf.debugging.check_numerics(tf.constant([1., 2.]), "bad").numpy(), [1., 2.])
    assert _err(TypeError, lambda: tf.debugging.assert_proper_iterable("abc")) == \
        "Expected argument \"values\" to be a \"proper\" iterable.  Found: <class 'str'>"
    assert tf.debugging.assert_proper_iterable([1]) is None
    assert tf.debugging.assert_same_float_dtype([tf.zeros((2,))]) == tf.float32
    assert _err(ValueError, lambda: tf.debugging.assert_same_float_dtype(
        [tf.constant(1.0), tf.constant(1.0, tf.float64)])) == (
        "tf.Tensor(1.0, shape=(), dtype=float64), type=<dtype: 'float64'>, must be of the same type "
        "(<dtype: 'float32'>) as tf.Tensor(1.0, shape=(), dtype=float32).")
    assert tf.debugging.is_numeric_tensor(tf.zeros(2)) and not tf.debugging.is_numeric_tensor(tf.constant("a"))
    with pytest.raises(NotImplementedError):
        tf.debugging.enable_check_numerics()


def test_config_devices():
    cpu = tf.config.list_physical_devices("CPU")
    assert cpu == [tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")]
    assert repr(cpu[0]) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert tf.config.list_physical_devices("cpu") == []
    assert tf.config.list_logical_devices("CPU") == [tf.config.LogicalDevice(name="/device:CPU:0", device_type="CPU")]
    assert _err(ValueError, lambda: tf.config.experimental.set_memory_growth(cpu[0], True)) == \
        "Cannot set memory growth on non-GPU and non-Pluggable devices"
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu[0])
    assert _err(ValueError, lambda: tf.config.experimental.get_memory_growth("x")) == "Unrecognized device: 'x'"
    assert cpu[0] in tf.config.get_visible_devices()
    assert tf.config.get_soft_device_placement() is True
    assert tf.config.get_logical_device_configuration(cpu[0]) is None
    assert repr(tf.config.LogicalDeviceConfiguration()) == ("LogicalDeviceConfiguration(memory_limit=None, "
                                                            "experimental_priority=None, experimental_device_ordinal=None)")
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    assert tf.config.experimental.get_device_details(cpu[0]) == {}
    assert tf.config.threading.get_inter_op_parallelism_threads() == 0
    assert tf.config.optimizer.get_experimental_options() == {"disable_model_pruning": False,
                                                              "disable_meta_optimizer": False}
    assert tf.config.optimizer.get_jit() == ""
    tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() == "autoclustering"
    tf.config.optimizer.set_jit(False)


def test_name_scope_and_eager_helpers():
    with tf.name_scope("a"):
        assert tf.Variable(1., name="v").name == "a/v:0"
        with tf.name_scope("b") as s:
            assert s == "a/b/"
            assert tf.Variable(1.).name == "a/b/Variable:0"
        with tf.name_scope("c/") as s:
            assert s == "c/"
            assert tf.Variable(1., name="w").name == "c/w:0"
    assert tf.Variable(1., name="v").name == "v:0"
    with tf.name_scope("") as s:
        assert s == ""
    assert _err(ValueError, lambda: tf.name_scope(None)) == "name for name_scope must be a string."
    with tf.init_scope(), tf.control_dependencies(None):
        pass
    assert tf.is_tensor(tf.constant(1)) and tf.is_tensor(tf.Variable(1.)) and not tf.is_tensor(1)
    assert tf.is_symbolic_tensor(tf.constant(1)) is False
    assert tf.no_op() is None and tf.group(tf.constant(1)) is None


def test_tensor_spec():
    s = tf.TensorSpec((2,), tf.float32)
    assert repr(s) == "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    assert repr(tf.TensorSpec([None, 3], name="x")) == "TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')"
    assert repr(tf.TensorSpec(None, tf.int32)) == "TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)"
    assert s.is_compatible_with(tf.constant([1., 2.])) and not s.is_compatible_with(tf.constant([1, 2]))
    assert s.is_compatible_with(tf.TensorSpec([None])) and tf.TensorSpec([None]).is_compatible_with(s)
    assert repr(tf.TensorSpec.from_tensor(tf.constant([[1]]), name="q")) == \
        "TensorSpec(shape=(1, 1), dtype=tf.int32, name='q')"
    assert s == tf.TensorSpec([2]) and hash(s) == hash(tf.TensorSpec([2])) and s != tf.TensorSpec([2], name="a")
    assert repr(s.most_specific_common_supertype([tf.TensorSpec([3])])) == \
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
    assert isinstance(s, tf.TypeSpec) and s.value_type is tf.Tensor
    with pytest.raises(TypeError):
        tf.TensorSpec([2], "foo")


def test_indexed_slices():
    isl = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), tf.constant([3, 2]))
    assert str(isl) == ("IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor([[1. 2.]], "
                        "shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))")
    assert isl.dtype == tf.float32 and isl.shape == (3, 2)
    assert str(tf.convert_to_tensor(isl)) == ("tf.Tensor(\n[[0. 0.]\n [1. 2.]\n [0. 0.]], shape=(3, 2), "
                                              "dtype=float32)")
    no_shape = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]))
    assert str(no_shape.shape) == "<unknown>"
    assert _err(ValueError, lambda: tf.convert_to_tensor(no_shape)) == (
        "Tensor conversion requested for IndexedSlices for argument `value` without dense_shape: IndexedSlices("
        "indices=tf.Tensor([1], shape=(1,), dtype=int32), values=tf.Tensor([[1. 2.]], shape=(1, 2), dtype=float32))")
