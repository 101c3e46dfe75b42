"""Logical devices: `tf.config.set_logical_device_configuration` splits the CPU as TF 2.21 does (values from TF)."""
import pytest

import tfcompat as tf
from tfcompat.framework import context
from tfcompat.ops import config_ops

C = tf.config.LogicalDeviceConfiguration


@pytest.fixture
def fresh_runtime():
    """The runtime as a new process has it (no op run yet, no device split); restored afterwards."""
    saved_device, saved_logical = list(context._default_device), dict(config_ops._Config.logical)
    context._default_device.clear()
    config_ops._Config.logical.clear()
    yield tf.config.list_physical_devices("CPU")[0]
    context._default_device[:] = saved_device
    config_ops._Config.logical.clear()
    config_ops._Config.logical.update(saved_logical)


def test_split_cpu_lists_logical_devices(fresh_runtime):
    cpu = fresh_runtime
    assert tf.config.get_logical_device_configuration(cpu) is None
    tf.config.set_logical_device_configuration(cpu, [C()] * 3)
    assert repr(tf.config.get_logical_device_configuration(cpu)) == (
        "[LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, experimental_device_ordinal=None)"
        ", LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, experimental_device_ordinal=None)"
        ", LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, experimental_device_ordinal=None)]")
    assert repr(tf.config.list_logical_devices("CPU")) == (
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU'), LogicalDevice(name='/device:CPU:1', "
        "device_type='CPU'), LogicalDevice(name='/device:CPU:2', device_type='CPU')]")
    assert repr(tf.config.list_physical_devices("CPU")) == (
        "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]")
    with tf.device("/CPU:1"):
        x = tf.constant(1.0) + 1
    with tf.device(tf.config.list_logical_devices()[2]):
        y = tf.zeros(2)
    assert float(x) == 2.0 and y.shape == (2,)


def test_virtual_device_configuration_is_the_same_api(fresh_runtime):
    cpu = fresh_runtime
    tf.config.experimental.set_virtual_device_configuration(cpu, [tf.config.experimental.VirtualDeviceConfiguration()] * 2)
    assert [d.name for d in tf.config.experimental.list_logical_devices("CPU")] == ["/device:CPU:0", "/device:CPU:1"]
    assert len(tf.config.experimental.get_virtual_device_configuration(cpu)) == 2


def test_configuring_after_initialization_is_tfs_runtime_error(fresh_runtime):
    cpu = fresh_runtime
    tf.config.set_logical_device_configuration(cpu, [C(), C()])
    tf.constant(1.0)                                      # the first op initializes the runtime
    tf.config.set_logical_device_configuration(cpu, [C(), C()])      # the same configuration is accepted
    with pytest.raises(RuntimeError, match="^Virtual devices cannot be modified after being initialized$"):
        tf.config.set_logical_device_configuration(cpu, [C()] * 3)


def test_listing_logical_devices_initializes(fresh_runtime):
    cpu = fresh_runtime
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == ["/device:CPU:0"]
    with pytest.raises(RuntimeError, match="Virtual devices cannot be modified after being initialized"):
        tf.config.set_logical_device_configuration(cpu, [C(), C()])


def test_bad_configurations_raise_tfs_errors(fresh_runtime):
    cpu = fresh_runtime
    cases = [([C(memory_limit=10)], ValueError, "Setting memory limit on CPU virtual devices is currently not supported"),
             ([C(experimental_priority=1)], ValueError,
              "Setting experimental_priority on CPU virtual  devices is currently not supported"),
             ([C(experimental_device_ordinal=1)], ValueError,
              "Setting experimental_device_ordinal on CPU virtual  devices is currently not supported"),
             (None, TypeError, "'NoneType' object is not iterable"),
             ([1], AttributeError, "'int' object has no attribute 'memory_limit'")]
    for configs, cls, message in cases:
        with pytest.raises(cls) as info:
            tf.config.set_logical_device_configuration(cpu, configs)
        assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        tf.config.set_logical_device_configuration("CPU:0", [C()])
    assert str(info.value) == "Unrecognized device: 'CPU:0'"
    assert tf.config.get_logical_device_configuration(cpu) is None
