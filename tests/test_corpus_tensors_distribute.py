"""tf.distribute behaviour met in the TF guides on devices and distribution (gpu, distributed_training).

Golden values recorded from TF 2.21 (tensorflow-cpu, no GPU)."""
import pytest

import tfcompat as tf

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


@pytest.mark.parametrize("devices", [None, [], ()])
def test_mirrored_strategy_empty_devices_means_local_devices(devices):
    # TF 2.21: MirroredStrategy(tf.config.list_logical_devices('GPU')) on a machine without GPUs mirrors over the CPU
    # (`devices or all_local_devices()`): ('/job:localhost/replica:0/task:0/device:CPU:0',) 1
    s = tf.distribute.MirroredStrategy(devices)
    assert s.extended.worker_devices == (CPU0,)
    assert s.num_replicas_in_sync == 1


def test_mirrored_strategy_accepts_logical_devices():
    # TF 2.21: MirroredStrategy(tf.config.list_logical_devices('CPU')) -> ('.../device:CPU:0',) 1
    s = tf.distribute.MirroredStrategy(tf.config.list_logical_devices("CPU"))
    assert s.extended.worker_devices == (CPU0,)
    assert s.num_replicas_in_sync == 1


def test_mirrored_strategy_string_is_parsed_per_character():
    # TF 2.21: MirroredStrategy("/cpu:0") iterates the string ->
    # ValueError: Unknown attribute 'c' is encountered while parsing the device spec: 'c'.
    with pytest.raises(ValueError, match="Unknown attribute 'c' is encountered while parsing the device spec"):
        tf.distribute.MirroredStrategy("/cpu:0")


def test_mirrored_strategy_scope_builds_keras_model_without_gpus():
    # TF 2.21 (guide/gpu): a Functional model compiled under MirroredStrategy(list_logical_devices('GPU')) without GPUs
    s = tf.distribute.MirroredStrategy(tf.config.list_logical_devices("GPU"))
    with s.scope():
        inputs = tf.keras.layers.Input(shape=(1,))
        outputs = tf.keras.layers.Dense(1)(inputs)
        model = tf.keras.models.Model(inputs=inputs, outputs=outputs)
        model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.2))
    assert [tuple(w.shape) for w in model.weights] == [(1, 1), (1,)]


def test_input_context_batch_size_message():
    # TF 2.21: the message ends with a space
    with pytest.raises(ValueError) as e:
        tf.distribute.InputContext(num_replicas_in_sync=4).get_per_replica_batch_size(10)
    assert str(e.value) == "The `global_batch_size` 10 is not divisible by `num_replicas_in_sync` 4 "
    assert tf.distribute.InputContext(num_replicas_in_sync=4).get_per_replica_batch_size(64) == 16


def test_multi_worker_strategy_class_name():
    # TF 2.21: type(tf.distribute.MultiWorkerMirroredStrategy()).__name__ == 'CollectiveAllReduceStrategy'
    assert tf.distribute.MultiWorkerMirroredStrategy.__name__ == "CollectiveAllReduceStrategy"
    assert tf.distribute.experimental.MultiWorkerMirroredStrategy.__name__ == "CollectiveAllReduceStrategy"
