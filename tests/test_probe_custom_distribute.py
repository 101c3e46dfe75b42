"""Probe fixes in tf.distribute and tf.custom_gradient (texts recorded from TF 2.21)."""
import logging
import re

import pytest

import tfcompat as tf
from tfcompat.distribute import strategy as strategy_module

_WARNING = ("Using MirroredStrategy eagerly has significant overhead currently. We will be working on improving this "
            "in the future, but for now please wrap `call_for_each_replica` or `experimental_run` or `run` inside a "
            "tf.function to get the best performance.")


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def records():
    handler = _Records()
    logger = tf.get_logger()
    logger.addHandler(handler)
    saved = dict(strategy_module._EAGER_RUN_WARNINGS)
    strategy_module._EAGER_RUN_WARNINGS.clear()
    yield handler.messages
    logger.removeHandler(handler)
    strategy_module._EAGER_RUN_WARNINGS.clear()
    strategy_module._EAGER_RUN_WARNINGS.update(saved)


def test_mirrored_run_eagerly_warns_five_times(records):
    # TF 2.21: log_first_n(WARN, ..., 5) at mirrored_run's call site; none for a tf.function fn, a traced run,
    # OneDeviceStrategy or reduce(axis=...)
    s = tf.distribute.MirroredStrategy()
    s.reduce("MEAN", tf.constant([1.0, 3.0]), axis=0)
    tf.distribute.OneDeviceStrategy("/cpu:0").run(lambda: tf.constant(1.0))
    s.run(tf.function(lambda: tf.constant(1.0)))
    tf.function(lambda: s.run(lambda: tf.constant(1.0)))()
    assert records == []
    for _ in range(7):
        s.run(lambda: tf.constant(1.0))
    assert records == [_WARNING] * 5


def test_central_storage_counts_its_own_warnings(records):
    c = tf.distribute.experimental.CentralStorageStrategy()
    for _ in range(6):
        c.run(lambda: tf.constant(1.0))
    tf.distribute.MirroredStrategy().run(lambda: tf.constant(1.0))
    assert records == [_WARNING.replace("MirroredStrategy", "CentralStorageStrategy")] * 5 + [_WARNING]


def _text(obj):
    return re.sub(r"0x[0-9a-f]+", "ADDR", repr(obj))


def test_distribute_object_reprs():
    # TF 2.21's reprs (addresses masked)
    p = "<tensorflow.python.distribute."
    m = tf.distribute.MirroredStrategy()
    assert _text(m) == p + "mirrored_strategy.MirroredStrategy object at ADDR>"
    assert _text(m.extended) == p + "mirrored_strategy.MirroredExtended object at ADDR>"
    assert _text(m.run(tf.distribute.get_replica_context)) == p + "mirrored_run._MirroredReplicaContext object at ADDR>"
    ds = tf.data.Dataset.range(4).batch(2)
    dds = m.experimental_distribute_dataset(ds)
    assert _text(dds) == p + "input_lib.DistributedDataset object at ADDR>"
    assert _text(iter(dds)) == p + "input_lib.DistributedIterator object at ADDR>"
    assert _text(m.distribute_datasets_from_function(lambda c: ds)) == \
        p + "input_lib.DistributedDatasetsFromFunction object at ADDR>"
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert _text(o) == p + "one_device_strategy.OneDeviceStrategy object at ADDR>"
    assert _text(o.extended) == p + "one_device_strategy.OneDeviceExtended object at ADDR>"
    assert _text(o.run(tf.distribute.get_replica_context)) == \
        p + "one_device_strategy._OneDeviceReplicaContext object at ADDR>"
    d = tf.distribute.get_strategy()
    assert _text(d) == p + "distribute_lib._DefaultDistributionStrategy object at ADDR>"
    assert _text(d.extended) == p + "distribute_lib._DefaultDistributionExtended object at ADDR>"
    assert _text(tf.distribute.get_replica_context()) == p + "distribute_lib._DefaultReplicaContext object at ADDR>"
    c = tf.distribute.experimental.CentralStorageStrategy()
    assert _text(c) == p + "central_storage_strategy.CentralStorageStrategy object at ADDR>"
    assert _text(c.extended) == p + "parameter_server_strategy.ParameterServerStrategyExtended object at ADDR>"


def test_default_strategy_hands_datasets_back():
    # TF 2.21: the default strategy returns the dataset itself (prints <_BatchDataset element_spec=...>)
    ds = tf.data.Dataset.range(4).batch(2)
    d = tf.distribute.get_strategy()
    assert d.experimental_distribute_dataset(ds) is ds
    got = d.distribute_datasets_from_function(lambda ctx: ds.take(ctx.num_replicas_in_sync))
    assert [x.numpy().tolist() for x in got] == [[0, 1]]


w = None


def test_custom_gradient_messages():
    global w
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def bad_var(x):
        def grad(dy):
            return dy * w
        return x * w, grad

    with tf.GradientTape():
        with pytest.raises(TypeError) as e:
            bad_var(tf.constant(3.0))
    assert str(e.value) == ("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                            "uses variables: [<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>]")

    @tf.custom_gradient
    def wrong_count(a, b):
        def grad(dy):
            return dy
        return a * b, grad

    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch([a, b])
        y = wrong_count(a, b)
    with pytest.raises(ValueError, match=re.escape(
            "custom_gradient function expected to return 2 gradients, but returned 1 instead.")):
        t.gradient(y, [a, b])

    @tf.custom_gradient
    def few_var_grads(x):
        def grad(dy, variables=None):
            return dy * w, []
        return x * w, grad

    with tf.GradientTape() as t:
        y = few_var_grads(tf.constant(3.0))
    with pytest.raises(ValueError, match=re.escape("Must return gradient for each variable from @custom_gradient "
                                                   "grad_fn.")):
        t.gradient(y, w)


def test_compute_average_loss_with_global_batch_size_in_cross_replica_context():
    # TF 2.21: the strategy is asked (and a cross-replica context refused) only for the default batch size;
    # a zero batch size gives 0 (div_no_nan)
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        assert tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6).numpy() == 1.0
        with pytest.raises(RuntimeError, match="You are calling `compute_average_loss` in cross replica context"):
            tf.nn.compute_average_loss([1.0, 2.0, 3.0])
    assert tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=0).numpy() == 0.0
    assert tf.nn.compute_average_loss(tf.zeros([0])).numpy() == 0.0


def test_values_from_function_are_per_replica_under_mirrored():
    # TF 2.21: MirroredStrategy wraps every leaf (regroup(always_wrap=True)), even with one replica; OneDevice and
    # the default strategy give the value itself
    s = tf.distribute.MirroredStrategy(["/cpu:0"])
    got = s.experimental_distribute_values_from_function(lambda c: {"a": tf.constant(1)})
    assert str(got) == "{'a': PerReplica:{\n  0: <tf.Tensor: shape=(), dtype=int32, numpy=1>\n}}"
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert str(o.experimental_distribute_values_from_function(lambda c: tf.constant(1))) == \
        "tf.Tensor(1, shape=(), dtype=int32)"


def test_mixing_strategy_scopes_names_the_current_one_first():
    s = tf.distribute.MirroredStrategy(["/cpu:0"])
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    with pytest.raises(RuntimeError) as e:
        with s.scope():
            with o.scope():
                pass
    assert re.sub("0x[0-9a-f]+", "ADDR", str(e.value)) == (
        "Mixing different tf.distribute.Strategy objects: <tensorflow.python.distribute.mirrored_strategy."
        "MirroredStrategy object at ADDR> is not <tensorflow.python.distribute.one_device_strategy.OneDeviceStrategy "
        "object at ADDR>")


def test_custom_gradient_on_a_layer_method():
    # TF 2.21: @tf.custom_gradient binds `self` (TF's Bind descriptor): only `x` is differentiated
    class Clip(tf.keras.layers.Layer):
        @tf.custom_gradient
        def call(self, x):
            def grad(dy, variables=None):
                return tf.clip_by_value(dy, -0.01, 0.01)
            return tf.identity(x), grad

    c = Clip()
    xx = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as t:
        t.watch(xx)
        yy = tf.reduce_sum(c(xx) * 5.0)
    assert t.gradient(yy, xx).numpy().tolist() == [[pytest.approx(0.01), pytest.approx(0.01)]]   # float32 0.01
    assert Clip.call.__name__ == "call"
