"""tf.distribute in one process: the default strategy, OneDeviceStrategy, MirroredStrategy over two (or three) CPU
replicas, distributed datasets, and Keras / custom training loops equal to one device's (texts from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf

MIRRORED_V = """MirroredVariable:{
  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,
  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=1.0>
}"""
MIRRORED_W = """MirroredVariable:{
  0: <tf.Variable 'w:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>,
  1: <tf.Variable 'w/replica_1:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>
}"""
SYNC_ON_READ = """SyncOnReadVariable:{
  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>,
  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=0.0>
}"""
PER_REPLICA_REPR = """PerReplica:{
  0: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>,
  1: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
}"""
PER_REPLICA_STR = """PerReplica:{
  0: tf.Tensor([1. 2.], shape=(2,), dtype=float32),
  1: tf.Tensor([2. 4.], shape=(2,), dtype=float32)
}"""


@pytest.fixture
def two():
    return tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])


def _scaled(x):
    ctx = tf.distribute.get_replica_context()
    return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)


def test_default_strategy_context():
    s = tf.distribute.get_strategy()
    assert type(s).__name__ == "_DefaultDistributionStrategy"
    assert (tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context()) == (False, False)
    assert type(tf.distribute.get_replica_context()).__name__ == "_DefaultReplicaContext"
    assert s.num_replicas_in_sync == 1
    assert float(s.run(lambda x: x + 1, args=(tf.constant(1.0),))) == 2.0


def test_scope_and_variables(two):
    assert two.num_replicas_in_sync == 2
    assert two.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",
                                           "/job:localhost/replica:0/task:0/device:CPU:1")
    with two.scope():
        v = tf.Variable(1.0)
        w = tf.Variable([1.0, 2.0], name="w", aggregation=tf.VariableAggregation.SUM)
        r = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
        assert (tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context()) == (True, True)
        assert tf.distribute.get_replica_context() is None
        assert tf.distribute.get_strategy() is two
    assert repr(v) == MIRRORED_V and str(v) == MIRRORED_V
    assert repr(w) == MIRRORED_W and repr(r) == SYNC_ON_READ
    assert type(v).__name__ == "MirroredVariable" and isinstance(v, tf.Variable)
    assert two.extended.variable_created_in_scope(v)


def test_run_reduce_gather(two):
    out = two.run(_scaled, args=(tf.constant([1.0, 2.0]),))
    assert repr(out) == PER_REPLICA_REPR and str(out) == PER_REPLICA_STR
    np.testing.assert_array_equal(two.reduce("SUM", out, axis=None).numpy(), [3.0, 6.0])
    assert float(two.reduce(tf.distribute.ReduceOp.MEAN, out, axis=0)) == 2.25
    np.testing.assert_array_equal(two.gather(out, axis=0).numpy(), [1.0, 2.0, 2.0, 4.0])
    assert [t.numpy().tolist() for t in two.experimental_local_results(out)] == [[1.0, 2.0], [2.0, 4.0]]
    # a value that is not per-replica: MEAN returns it, SUM raises; with an axis it is reduced on each replica
    np.testing.assert_array_equal(two.reduce("MEAN", tf.constant([1.0, 2.0]), axis=None).numpy(), [1.0, 2.0])
    assert float(two.reduce("SUM", tf.constant([1.0, 2.0]), axis=0)) == 6.0
    with pytest.raises(ValueError, match="A non-DistributedValues value tf.Tensor"):
        two.reduce("SUM", tf.constant([1.0, 2.0]), axis=None)
    with pytest.raises(ValueError, match="'PROD' is not a valid ReduceOp"):
        two.reduce("PROD", tf.constant(1.0), axis=None)
    assert len(two.experimental_local_results(tf.constant(1.0))) == 1
    assert two.run(lambda: tf.distribute.get_replica_context().num_replicas_in_sync) == 2     # one object: as is
    assert two.run(lambda: (tf.distribute.in_cross_replica_context(), tf.distribute.has_strategy())) == (False, True)


def test_all_reduce_and_merge_call(two):
    def fa(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", _scaled(x))
    assert str(two.run(fa, args=(tf.constant(1.0),))) == (
        "PerReplica:{\n  0: tf.Tensor(3.0, shape=(), dtype=float32),\n  1: tf.Tensor(3.0, shape=(), dtype=float32)\n}")

    def fm():
        return tf.distribute.get_replica_context().merge_call(
            lambda strategy, x: strategy.reduce("SUM", x, None), args=(_scaled(tf.constant(2.0)),))
    assert float(two.run(fm)) == 6.0


@pytest.mark.parametrize("agg,after_add,after_assign", [("SUM", 4.0, 11.0), ("MEAN", 2.5, 5.5),
                                                        ("ONLY_FIRST_REPLICA", 2.0, 5.0)])
def test_mirrored_variable_updates_in_replica_context(two, agg, after_add, after_assign):
    with two.scope():
        v = tf.Variable(1.0, aggregation=getattr(tf.VariableAggregation, agg))
    two.run(lambda: v.assign_add(_scaled(tf.constant(1.0))))
    assert float(v) == after_add
    two.run(lambda: v.assign(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 5,
                                     tf.float32)))
    assert float(v) == after_assign


def test_update_without_aggregation_is_refused_and_extended_update(two):
    with two.scope():
        v = tf.Variable(1.0)
    with pytest.raises(NotImplementedError, match="aggregation NONE"):
        two.run(lambda: v.assign_add(1.0))
    out = two.extended.update(v, lambda var, d: var.assign_add(d), args=(tf.constant(2.0),))
    assert str(out) == ("Mirrored:{\n  0: tf.Tensor(3.0, shape=(), dtype=float32),\n"
                        "  1: tf.Tensor(3.0, shape=(), dtype=float32)\n}")
    assert float(v) == 3.0


def test_sync_on_read_sum(two):
    with two.scope():
        r = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    two.run(lambda: r.assign_add(_scaled(tf.constant(1.0))))
    assert float(r.read_value()) == 3.0


def test_mixing_strategies_and_loss_scaling_contexts(two):
    other = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
        with two.scope(), other.scope():
            pass
    with two.scope():
        with pytest.raises(RuntimeError, match=r"^You are calling `compute_average_loss` in cross replica context"):
            tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))
        with pytest.raises(RuntimeError, match="`scale_regularization_loss` in cross replica context"):
            tf.nn.scale_regularization_loss(tf.constant(4.0))
    a, b = two.run(lambda x: (tf.nn.compute_average_loss(x), tf.nn.scale_regularization_loss(tf.constant(4.0))),
                   args=(tf.constant([1.0, 2.0, 3.0]),))
    assert [float(t) for t in a.values] == [1.0, 1.0] and [float(t) for t in b.values] == [2.0, 2.0]
    assert float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))) == 2.0


@pytest.mark.parametrize("n,expected", [(4, [[0, 1], [2, 3], []]), (5, [[0, 1], [2, 3], [4]]),
                                        (7, [[0, 1, 2], [3, 4, 5], [6]]), (1, [[0], [], []])])
def test_distribute_dataset_splits_global_batches(n, expected):
    three = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1", "CPU:2"])
    batches = list(three.experimental_distribute_dataset(tf.data.Dataset.range(n).batch(n)))
    assert [[x.numpy().tolist() for x in three.experimental_local_results(b)] for b in batches] == [expected]


def test_distribute_dataset_text_and_from_function(two):
    batches = list(two.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)))
    assert repr(batches[1]) == ("PerReplica:{\n  0: <tf.Tensor: shape=(2,), dtype=int64, numpy=array([4, 5])>,\n"
                                "  1: <tf.Tensor: shape=(2,), dtype=int64, numpy=array([6, 7])>\n}")
    seen = []

    def dataset_fn(ctx):
        seen.append((str(ctx), ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                     ctx.get_per_replica_batch_size(8)))
        return tf.data.Dataset.range(8).batch(ctx.get_per_replica_batch_size(8))
    out = list(two.distribute_datasets_from_function(dataset_fn))
    assert seen == [("tf.distribute.InputContext(input pipeline id 0, total: 1)", 1, 0, 2, 4)]
    assert str(out[0]) == ("PerReplica:{\n  0: tf.Tensor([0 1 2 3], shape=(4,), dtype=int64),\n"
                           "  1: tf.Tensor([4 5 6 7], shape=(4,), dtype=int64)\n}")
    assert str(tf.distribute.InputContext(2, 1, 4)) == "tf.distribute.InputContext(input pipeline id 1, total: 2)"
    assert str(tf.distribute.experimental.ValueContext()) == \
        "tf.distribute.ValueContext(replica id 0,  total replicas in sync: 1)"


def test_one_device_and_single_worker_strategies():
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert o.num_replicas_in_sync == 1 and float(o.run(_scaled, args=(tf.constant(1.0),))) == 1.0
    with o.scope():
        u = tf.Variable(2.0)
    assert type(u).__name__ == "ResourceVariable"
    m = tf.distribute.MultiWorkerMirroredStrategy()
    assert m.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)
    assert m.num_replicas_in_sync == 1 and m.extended.should_checkpoint
    assert type(m.cluster_resolver).__name__ == "TFConfigClusterResolver"
    with m.scope():
        v = tf.Variable(1.0)
    assert repr(v) == "MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>\n}"
    assert str(tf.distribute.experimental.CommunicationOptions().implementation) == "CommunicationImplementation.AUTO"


def test_central_storage_strategy_on_one_compute_device():
    """As TF 2.21: one compute device by default (even with several logical CPUs), plain variables."""
    s = tf.distribute.experimental.CentralStorageStrategy()
    cpu0 = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert (s.num_replicas_in_sync, s.extended.worker_devices, s.extended.parameter_devices) == (1, [cpu0], (cpu0,))
    assert isinstance(s, tf.distribute.Strategy)
    with s.scope():
        v = tf.Variable(1.0)
        assert tf.distribute.get_strategy() is s
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert type(v).__name__ == "ResourceVariable"
    assert str(s.reduce("SUM", s.run(lambda: tf.constant(2.0)), axis=None)) == \
        "tf.Tensor(2.0, shape=(), dtype=float32)"
    s.run(lambda: v.assign_add(1.0))
    assert float(v) == 2.0
    explicit = tf.distribute.experimental.CentralStorageStrategy(["CPU:0"], "CPU:0")
    assert explicit.extended.parameter_devices == ("CPU:0",)
    with pytest.raises(NotImplementedError, match="several compute devices"):
        tf.distribute.experimental.CentralStorageStrategy(["CPU:0", "CPU:1"])


def test_cluster_spec_as_tf():
    c = tf.train.ClusterSpec({"worker": ["localhost:1", "localhost:2"], "chief": {0: "h:3"}, "ps": {0: "a", 2: "b"}})
    assert repr(c) == "ClusterSpec({'chief': ['h:3'], 'ps': {0: 'a', 2: 'b'}, 'worker': ['localhost:1', 'localhost:2']})"
    assert c.as_dict() == {"worker": ["localhost:1", "localhost:2"], "chief": ["h:3"], "ps": {0: "a", 2: "b"}}
    assert (c.jobs, c.num_tasks("worker"), c.task_indices("ps"), c.job_tasks("ps")) == (
        ["worker", "chief", "ps"], 2, [0, 2], ["a", None, "b"])
    assert bool(c) and not tf.train.ClusterSpec({}) and tf.train.ClusterSpec(c).jobs == ["chief", "ps", "worker"]
    with pytest.raises(ValueError, match="No task with index 1 in job 'ps'"):
        c.task_address("ps", 1)
    with pytest.raises(ValueError, match="No such job in cluster: 'x'"):
        c.num_tasks("x")
    with pytest.raises(TypeError, match="`cluster` must be a dictionary mapping one or more job names"):
        tf.train.ClusterSpec(3)
    with pytest.raises(TypeError, match="The tasks for job 'w' must be a list or a dictionary from integers"):
        tf.train.ClusterSpec({"w": 3})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(c, task_type="worker", task_id=0)
    assert type(resolver.cluster_spec()) is tf.train.ClusterSpec


def _draws(strategy, fn):
    return [float(x) for x in strategy.experimental_local_results(strategy.run(fn))]


def test_generator_made_in_scope_draws_one_stream_per_replica(two):
    """TF's guide (random_numbers): a generator made in the scope keys each replica's draws by its replica id while
    its state advances once per draw; one made outside is one stream the replicas draw from in turn."""
    with two.scope():
        g = tf.random.Generator.from_seed(1)
        first, second = _draws(two, lambda: g.normal([])), _draws(two, lambda: g.normal([]))
    assert len({*first, *second}) == 4
    assert g.state.numpy().tolist() == [513, 0, 0]           # as TF: 256 per output, once for the replicas

    def fresh():                                              # a generator made in each replica: the same streams
        h = tf.random.Generator.from_seed(1)
        return tf.stack([h.normal([]), h.normal([])])
    with two.scope():
        pairs = [t.numpy().tolist() for t in two.experimental_local_results(two.run(fresh))]
    np.testing.assert_allclose(pairs, np.array([first, second]).T)
    three = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1", "CPU:2"])
    with three.scope():
        g3 = tf.random.Generator.from_seed(1)
        assert _draws(three, lambda: g3.normal([]))[:2] == first   # a replica's stream does not depend on the count
    outside = tf.random.Generator.from_seed(1)
    with two.scope():
        turns = _draws(two, lambda: outside.normal([]))
    alone = tf.random.Generator.from_seed(1)
    assert turns == [float(alone.normal([])), float(alone.normal([]))]


@pytest.mark.parametrize("name", ["ParameterServerStrategy", "TPUStrategy", "coordinator.ClusterCoordinator"])
def test_unsupported_strategies_name_themselves(name):
    obj = tf.distribute
    for part in name.split("."):
        obj = getattr(obj, part)
    with pytest.raises(NotImplementedError, match=f"tf.distribute.{name} is not supported"):
        obj(None)


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(64, 5).astype("float32")
    return x, (x @ rng.randn(5, 3)).argmax(1)


def _model():
    tf.keras.utils.set_random_seed(1)
    m = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(3)])
    m.compile(tf.keras.optimizers.Adam(0.01), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    return m


def test_keras_fit_evaluate_predict_mirrored_equal_one_device(two):
    x, y = _data()
    m1 = _model()
    h1 = m1.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    with two.scope():
        m2 = _model()
    assert m2.distribute_strategy is two
    h2 = m2.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(h2.history["loss"], h1.history["loss"], rtol=1e-6)
    assert h2.history["accuracy"] == h1.history["accuracy"]
    for a, b in zip(m1.weights, m2.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-6)
    np.testing.assert_allclose(m2.evaluate(x, y, verbose=0), m1.evaluate(x, y, verbose=0), rtol=1e-6)
    np.testing.assert_allclose(m2.predict(x[:7], verbose=0), m1.predict(x[:7], verbose=0), atol=1e-6)


def _custom_loop(devices, use_function):
    """Two epochs of TF's custom-loop recipe (`run` + `compute_average_loss` + `reduce`): losses and weights."""
    x, y = _data()
    s = tf.distribute.MirroredStrategy(devices)
    with s.scope():
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                                     tf.keras.layers.Dense(3)])
        opt = tf.keras.optimizers.SGD(0.1)
        loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_obj(yb, model(xb, training=True)), global_batch_size=16)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def train(inputs):
        return s.reduce("SUM", s.run(step, args=(inputs,)), axis=None)
    fn = tf.function(train) if use_function else train
    dataset = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(16))
    losses = [float(fn(b)) for _ in range(2) for b in dataset]
    if use_function:
        assert fn.experimental_get_tracing_count() == 1
    return losses, [w.numpy() for w in model.weights]


@pytest.mark.parametrize("use_function", [False, True])
def test_custom_loop_mirrored_equals_one_device(use_function):
    (loss1, w1), (loss2, w2) = _custom_loop(["CPU:0"], use_function), _custom_loop(["CPU:0", "CPU:1"], use_function)
    np.testing.assert_allclose(loss2, loss1, rtol=1e-6)
    for a, b in zip(w1, w2):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_checkpoint_under_mirrored_strategy_is_one_plain_copy(two, tmp_path):
    x, y = _data()

    def build(strategy):
        with strategy.scope():
            m = _model()
            m.fit(x, y, batch_size=16, epochs=1, verbose=0, shuffle=False)
        return m
    mirrored, plain = build(two), build(tf.distribute.get_strategy())
    a = tf.train.Checkpoint(model=mirrored, optimizer=mirrored.optimizer).write(str(tmp_path / "mirrored"))
    b = tf.train.Checkpoint(model=plain, optimizer=plain.optimizer).write(str(tmp_path / "plain"))
    assert tf.train.list_variables(a) == tf.train.list_variables(b)       # TF's layout: names, shapes, one copy
    fresh = _model()
    fresh.optimizer.build(fresh.trainable_variables)
    tf.train.Checkpoint(model=fresh, optimizer=fresh.optimizer).read(a).assert_consumed()
    for u, v in zip(fresh.weights + fresh.optimizer.variables, mirrored.weights + mirrored.optimizer.variables):
        np.testing.assert_array_equal(u.numpy(), v.numpy())
    with two.scope():                              # and a plain checkpoint restores under the strategy
        back = _model()
        back.optimizer.build(back.trainable_variables)
    tf.train.Checkpoint(model=back, optimizer=back.optimizer).read(b).assert_consumed()
    for u, v in zip(back.weights, plain.weights):
        np.testing.assert_array_equal(u.numpy(), v.numpy())


def test_distributed_elements_are_structures_of_per_replica_and_trace_by_spec(two):
    dataset = tf.data.Dataset.from_tensors(([1.0], [2.0])).repeat(8).batch(4)
    dist = two.experimental_distribute_dataset(dataset)
    first = next(iter(dist))
    assert isinstance(first, tuple) and [type(x).__name__ for x in first] == ["PerReplica", "PerReplica"]
    assert repr(dist.element_spec) == (
        "(PerReplicaSpec(TensorSpec(shape=(None, 1), dtype=tf.float32, name=None), TensorSpec(shape=(None, 1), "
        "dtype=tf.float32, name=None)), PerReplicaSpec(TensorSpec(shape=(None, 1), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(None, 1), dtype=tf.float32, name=None)))")

    @tf.function(input_signature=[dist.element_spec])
    def step(inputs):
        return two.run(lambda x: 2 * x[0] + x[1], args=(inputs,))
    outs = [step(b) for b in dist]
    assert [[float(t[0, 0]) for t in two.experimental_local_results(o)] for o in outs] == [[4.0, 4.0], [4.0, 4.0]]
    assert step.experimental_get_tracing_count() == 1
    iterator = iter(two.experimental_distribute_dataset(tf.data.Dataset.range(3).batch(2)))
    values = []
    while True:
        optional = iterator.get_next_as_optional()
        if not optional.has_value():
            break
        values.append([t.numpy().tolist() for t in two.experimental_local_results(optional.get_value())])
    assert values == [[[0], [1]], [[2], []]]
    per_replica = two.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(ctx.replica_id_in_sync_group))
    assert str(per_replica) == ("PerReplica:{\n  0: tf.Tensor(0, shape=(), dtype=int32),\n"
                                "  1: tf.Tensor(1, shape=(), dtype=int32)\n}")


def test_unbuilt_model_compiled_in_scope_trains_distributed(two):
    x, y = _data()
    with two.scope():
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
        model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    assert model.distribute_strategy is two
    model.fit(x, y, batch_size=16, epochs=1, verbose=0)
    assert all(type(v).__name__ == "Variable" and v._distribute_strategy is two for v in model.weights)


def test_tf_print_of_per_replica_values_shows_their_repr(two, capsys):
    """TF's input tutorial: tf.print of a tuple of PerReplica pformats each by its repr (text from TF 2.21)."""
    import sys
    x = tf.constant([[1.], [2.]])
    pr = two.run(lambda: tf.identity(x))
    tf.print((pr, 1), output_stream=sys.stdout)
    body = ("PerReplica:{\n  0: <tf.Tensor: shape=(2, 1), dtype=float32, numpy=\narray([[1.],\n       [2.]], "
            "dtype=float32)>,\n  1: <tf.Tensor: shape=(2, 1), dtype=float32, numpy=\narray([[1.],\n       [2.]], "
            "dtype=float32)>\n}")
    assert capsys.readouterr().out == "(" + body + ",\n 1)\n"


def test_replicas_on_devices_of_their_own_read_copies_and_write_the_primary():
    """The machinery of MirroredStrategy over several GPUs, on the CPU: a replica thread computing on a device of its
    own (here torch's storage-less 'meta' device stands for another GPU) reads a copy of a distributed variable made
    once per value (again after an update), while the primary stays where the variable was made; a replica's write
    goes to the primary's device. Logical CPU devices share the process's
    device: no copies."""
    import threading

    import torch

    from tfcompat.distribute import devices, values
    from tfcompat.framework.tensor import storage
    assert devices.replica_devices(["/job:localhost/replica:0/task:0/device:CPU:0",
                                    "/job:localhost/replica:0/task:0/device:CPU:1"]) is None
    s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    assert s.extended._replica_devices is None
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    primary = storage(v)
    seen = {}

    def replica(device, body):
        values.replica.device = torch.device(device)
        try:
            body()
        finally:
            values.replica.device = None

    def read():
        first = storage(v)
        seen["copy"] = (first.device.type, first is storage(v), tuple(first.shape))
        seen["moved"] = values.on_replica_device(torch.zeros(1)).device.type
        seen.setdefault("copies", []).append(first)

    def write():        # the primary on 'meta' now, the replica on the CPU
        v._set_storage(torch.tensor([5.0, 6.0]))
        seen["written"] = v.__dict__["_t"].device.type
    for device, body in (("meta", read), ("meta", read), ("cpu", write)):
        if body is write:
            v._set_storage(torch.zeros(2, device="meta"))
        elif "copies" in seen:
            v.assign([3.0, 4.0])        # an update: the next read copies the new value
        thread = threading.Thread(target=replica, args=(device, body))
        thread.start()
        thread.join()
    first, second = seen.pop("copies")
    assert first is not second
    assert seen == {"copy": ("meta", True, (2,)), "written": "meta", "moved": "meta"}
    assert values.on_replica_device(primary) is primary          # outside replicas: unchanged


def test_replicas_with_devices_of_their_own_train_as_one_device(monkeypatch):
    """The several-GPU path of MirroredStrategy run end to end on the CPU: each replica told its own device (both the
    CPU here), so replica threads enter it, inputs and merge results go through the moves to it, variable reads
    through the replica-device check and merges under the primary device; a custom loop (eager and in a
    tf.function) and Keras fit/evaluate/predict equal one device's."""
    import torch

    from tfcompat.distribute import devices
    monkeypatch.setattr(devices, "replica_devices",
                        lambda names: tuple(torch.device("cpu") for _ in names) if len(names) > 1 else None)
    assert tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"]).extended._replica_devices == (torch.device("cpu"),) * 2
    for use_function in (False, True):
        (loss1, w1), (loss2, w2) = _custom_loop(["CPU:0"], use_function), \
            _custom_loop(["CPU:0", "CPU:1"], use_function)
        np.testing.assert_allclose(loss2, loss1, rtol=1e-6)
        for a, b in zip(w1, w2):
            np.testing.assert_allclose(a, b, atol=1e-6)
    x, y = _data()
    m1 = _model()
    h1 = m1.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    with tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"]).scope():
        m2 = _model()
    h2 = m2.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(h2.history["loss"], h1.history["loss"], rtol=1e-6)
    for a, b in zip(m1.weights, m2.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-6)
    np.testing.assert_allclose(m2.evaluate(x, y, verbose=0), m1.evaluate(x, y, verbose=0), rtol=1e-6)
    np.testing.assert_allclose(m2.predict(x[:7], verbose=0), m1.predict(x[:7], verbose=0), atol=1e-6)
