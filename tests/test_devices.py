"""tf.device / tf.DeviceSpec: golden values from TF 2.21 (CPU-only machine: GPU scopes fall back to CPU)."""
import threading

import pytest

import tfcompat as tf
from tfcompat.framework.context import state

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_device_spec_parsing():
    cases = {
        "/cpu:0": ("/device:CPU:0", "<DeviceSpec(job=None, replica=None, task=None, device_type=CPU, device_index=0)>"),
        "/CPU:0": ("/device:CPU:0", "<DeviceSpec(job=None, replica=None, task=None, device_type=CPU, device_index=0)>"),
        "GPU:0": ("/device:GPU:0", "<DeviceSpec(job=None, replica=None, task=None, device_type=GPU, device_index=0)>"),
        CPU: (CPU, "<DeviceSpec(job=localhost, replica=0, task=0, device_type=CPU, device_index=0)>"),
        "cpu": ("/device:CPU:*", "<DeviceSpec(job=None, replica=None, task=None, device_type=CPU, device_index=None)>"),
        "/gpu:*": ("/device:GPU:*",
                   "<DeviceSpec(job=None, replica=None, task=None, device_type=GPU, device_index=None)>"),
    }
    for text, (canonical, rep) in cases.items():
        spec = tf.DeviceSpec.from_string(text)
        assert spec.to_string() == canonical
        assert repr(spec) == rep
    spec = tf.DeviceSpec.from_string(CPU)
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == ("localhost", 0, 0, "CPU", 0)
    assert tf.DeviceSpec(job="ps", device_type="GPU", device_index=0).to_string() == "/job:ps/device:GPU:0"
    ds = tf.DeviceSpec.from_string("/cpu:0")
    assert ds.replace(device_type="GPU", device_index=2).to_string() == "/device:GPU:2"
    assert ds == tf.DeviceSpec.from_string("/device:CPU:0")
    assert hash(ds) == hash(tf.DeviceSpec.from_string("/device:CPU:0"))
    assert ds.make_merged_spec(tf.DeviceSpec(job="w")).to_string() == "/job:w/device:CPU:0"


def test_device_scope_places_tensors():
    with tf.device("/cpu:0"):
        assert tf.constant(1.).device == CPU
        assert tf.convert_to_tensor([1, 2]).device == CPU
        assert state.device_name == CPU
    with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
        assert tf.constant([1.]).device == CPU


@pytest.mark.skipif(tf.config.list_physical_devices("GPU") != [], reason="CPU-only behaviour")
def test_missing_gpu_falls_back_to_cpu_like_tf():
    # TF 2.21 with soft placement (the default): `with tf.device('/gpu:0')` on a CPU-only machine runs on CPU.
    with tf.device("/gpu:0"):
        assert tf.constant(1.).device == CPU
    with tf.device("/device:GPU:1"):
        assert tf.constant(1.).device == CPU
    with tf.device("/device:XYZ:0"):
        assert tf.constant(1.).device == CPU
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.device("/gpu:0").__enter__()
    finally:
        tf.config.set_soft_device_placement(True)


def test_scope_nesting_restore_and_errors():
    before = (state.device, state.device_name)
    with tf.device("/cpu:0"):
        with tf.device(""):
            assert state.device_name == CPU
        with tf.device(None):
            assert state.device is None
        assert state.device_name == CPU
    assert (state.device, state.device_name) == before
    with pytest.raises(ValueError) as e:
        with tf.device("/foo:0"):
            pass
    assert str(e.value) == "Unknown attribute 'foo' is encountered while parsing the device spec: '/foo:0'."
    assert (state.device, state.device_name) == before
    with tf.device(tf.DeviceSpec(device_type="CPU", device_index=0)):
        assert state.device_name == CPU


def test_device_scope_is_thread_local():
    seen = []
    with tf.device("/cpu:0"):
        t = threading.Thread(target=lambda: seen.append(state.device_name))
        t.start()
        t.join()
    assert seen == [None]
