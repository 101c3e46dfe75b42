"""tf.dynamic_partition and tf.dynamic_stitch: golden values and errors from TF 2.21."""
import pytest

import tfcompat as tf

_PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def _err(fn):
    with pytest.raises(Exception) as e:
        fn()
    return type(e.value).__name__, str(e.value)


def test_dynamic_partition():
    a, b = tf.dynamic_partition(tf.range(5), [0, 1, 0, 1, 1], 2)
    assert a.numpy().tolist() == [0, 2] and b.numpy().tolist() == [1, 3, 4] and a.dtype == tf.int32
    parts = tf.dynamic_partition(tf.reshape(tf.range(6.), [3, 2]), [1, 0, 1], 3)
    assert [p.shape for p in parts] == [(1, 2), (2, 2), (0, 2)]
    assert parts[1].numpy().tolist() == [[0.0, 1.0], [4.0, 5.0]]
    parts = tf.dynamic_partition(tf.reshape(tf.range(6.), [3, 2]), [[1, 0], [0, 0], [1, 1]], 2)
    assert [p.numpy().tolist() for p in parts] == [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]]
    assert [p.numpy().tolist() for p in tf.dynamic_partition(5, 1, 2)] == [[], [5]]
    s = tf.dynamic_partition(["a", "b"], [1, 1], 2)
    assert s[0].shape == (0,) and s[1].numpy().tolist() == [b"a", b"b"]
    wrapped = _PREFIX % "DynamicPartition_num_partitions_2"
    assert _err(lambda: tf.dynamic_partition([1, 2], [0, 2], 2)) == (
        "InvalidArgumentError", wrapped + "partitions[1] = 2 is not in [0, 2) [Op:DynamicPartition]")
    assert _err(lambda: tf.dynamic_partition([[1, 2], [3, 4]], [[0, 2], [1, 0]], 2)) == (
        "InvalidArgumentError", wrapped + "partitions[0,1] = 2 is not in [0, 2) [Op:DynamicPartition]")
    assert _err(lambda: tf.dynamic_partition([1, 2], [[0], [1]], 2)) == (
        "InvalidArgumentError", wrapped + "data.shape must start with partitions.shape, got data.shape = [2], "
        "partitions.shape = [2,1] [Op:DynamicPartition]")
    assert _err(lambda: tf.dynamic_partition([1, 2], [0.0, 1.0], 2)) == (
        "TypeError", "Cannot convert [0.0, 1.0] to EagerTensor of dtype int32")
    assert _err(lambda: tf.dynamic_partition([1, 2], [0, 1], 0)) == (
        "InvalidArgumentError", "Value for attr 'num_partitions' of 0 must be at least minimum 1\n\t; NodeDef: "
        "{{node DynamicPartition}}; Op<name=DynamicPartition; signature=data:T, partitions:int32 -> "
        "outputs:num_partitions*T; attr=num_partitions:int,min=1; attr=T:type> [Op:DynamicPartition]")


def test_dynamic_stitch():
    assert tf.dynamic_stitch([[0, 2], [1, 3]], [[10, 30], [20, 40]]).numpy().tolist() == [10, 20, 30, 40]
    assert tf.dynamic_stitch([[0, 2], [2, 5]], [[10, 30], [20, 40]]).numpy().tolist() == [10, 0, 20, 0, 0, 40]
    r = tf.dynamic_stitch([0, [1, 2]], [[1., 2.], [[3., 4.], [5., 6.]]])
    assert r.dtype == tf.float32 and r.numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert tf.dynamic_stitch([[0, 0, 1]], [[1, 2, 3]]).numpy().tolist() == [2, 3]
    assert tf.dynamic_stitch([[0, 1]], [["a", "b"]]).numpy().tolist() == [b"a", b"b"]
    assert tf.dynamic_stitch([tf.constant([], tf.int32)], [tf.zeros([0, 3])]).shape == (0, 3)
    wrapped = _PREFIX % "DynamicStitch_N_2"
    assert _err(lambda: tf.dynamic_stitch([[0, 2], [1, -3]], [[10, 30], [20, 40]])) == (
        "InvalidArgumentError", wrapped + "indices[1] is out of range [Op:DynamicStitch]")
    assert _err(lambda: tf.dynamic_stitch([[0], [1]], [[[1, 2]], [[3, 4, 5]]])) == (
        "InvalidArgumentError", wrapped + "Need data[0].shape[1:] = data[1].shape[1:], got data[0].shape = [1,2], "
        "data[1].shape = [1,3], indices[0].shape = [1], indices[1].shape = [1] [Op:DynamicStitch]")
    assert _err(lambda: tf.dynamic_stitch([[0, 2]], [[10, 30, 1]])) == (
        "InvalidArgumentError", _PREFIX % "DynamicStitch_N_1" + "data[0].shape = [3] does not start with "
        "indices[0].shape = [2] [Op:DynamicStitch]")
    assert _err(lambda: tf.dynamic_stitch([[0], [1]], [[1], [2.]])) == (
        "TypeError", "Cannot convert [2.0] to EagerTensor of dtype int32")
    assert _err(lambda: tf.dynamic_stitch([[0, 1], [2]], [[1, 2]])) == (
        "ValueError", "List argument 'data' to 'dynamic_stitch' Op with length 1 must match length 2 of argument "
        "'indices'.")


def test_bitcast():
    assert tf.bitcast(tf.constant(1.0), tf.int32).numpy() == 1065353216
    r = tf.bitcast(tf.constant([1.0, 2.0]), tf.uint8)
    assert r.shape == (2, 4) and r.numpy().tolist() == [[0, 0, 128, 63], [0, 0, 0, 64]]
    r = tf.bitcast(tf.constant([[1, 2, 3, 4]], tf.uint8), tf.int32)
    assert r.shape == (1,) and r.numpy().tolist() == [67305985]
    assert tf.bitcast(tf.constant([-1], tf.int64), tf.uint64).numpy().tolist() == [18446744073709551615]
    assert tf.bitcast(tf.complex(1.0, 2.0), tf.float32).numpy().tolist() == [1.0, 2.0]
    assert tf.bitcast(tf.constant([[1, 2], [3, 4]], tf.uint8), tf.int16).numpy().tolist() == [513, 1027]
    assert _err(lambda: tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32)) == (
        "InvalidArgumentError", _PREFIX % "Bitcast" + "Cannot bitcast from 4 to 3 [Op:Bitcast] name: ")
    allowed = ("bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, int16, complex64, "
               "complex128, qint8, quint8, qint16, quint16, qint32")
    dt = "[" + ", ".join("DT_" + n.upper() for n in allowed.split(", ")) + "]"
    assert _err(lambda: tf.bitcast(tf.constant([1.]), tf.string)) == (
        "InvalidArgumentError", f"Value for attr 'type' of string is not in the list of allowed values: {allowed}\n"
        f"\t; NodeDef: {{{{node Bitcast}}}}; Op<name=Bitcast; signature=input:T -> output:type; attr=T:type,allowed="
        f"{dt}; attr=type:type,allowed={dt}> [Op:Bitcast] name: ")
    assert _err(lambda: tf.bitcast(tf.constant([True]), tf.int8))[1].startswith("Value for attr 'T' of bool ")


def test_accumulate_n_warns_as_deprecated(caplog):
    from tfcompat.ops import deprecation
    deprecation._WARNED.discard("accumulate_n")
    assert tf.math.accumulate_n([[1.0], [2.0]]).numpy().tolist() == [3.0]
    assert caplog.records[-1].getMessage().endswith(
        ": accumulate_n (from tensorflow.python.ops.math_ops) is deprecated and will be removed in a future "
        "version.\nInstructions for updating:\nUse `tf.math.add_n` Instead")
