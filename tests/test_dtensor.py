"""tf.experimental.dtensor in one process (golden texts and layouts recorded from TF 2.21 on 6 logical CPUs)."""
import numpy as np
import pytest

import tfcompat as tf
from tfcompat.experimental import dtensor

DEVICES = [f"CPU:{i}" for i in range(6)]
U = dtensor.UNSHARDED
NAMES = ",".join(f"/job:localhost/replica:0/task:0/device:CPU:{i}" for i in range(6))
MESH_X6 = f"|x=6|0,1,2,3,4,5|0,1,2,3,4,5|{NAMES}"
MESH_3x2 = f"|x=3,y=2|0,1,2,3,4,5|0,1,2,3,4,5|{NAMES}"


@pytest.fixture
def m2():
    return dtensor.create_mesh([("x", 3), ("y", 2)], devices=DEVICES)


def _d(mesh, shape, specs):
    """A DTensor of range values of `shape` with sharding `specs`."""
    value = tf.reshape(tf.range(float(np.prod(shape))), shape)
    return dtensor.relayout(dtensor.copy_to_mesh(value, dtensor.Layout.replicated(mesh, len(shape))),
                            dtensor.Layout(specs, mesh))


def _specs(t):
    return dtensor.fetch_layout(t).sharding_specs


def test_mesh(m2):
    m1 = dtensor.create_mesh([("x", 6)], devices=DEVICES)
    assert str(m1) == repr(m1) == f"Mesh.from_string({MESH_X6})"
    assert m2.to_string() == MESH_3x2
    assert (m2.dim_names, m2.shape(), m2.size, m2.num_local_devices(), m2.device_type()) == (["x", "y"], [3, 2], 6, 6,
                                                                                            "CPU")
    assert m2.local_devices() == NAMES.split(",") and m2.local_device_ids() == [0, 1, 2, 3, 4, 5]
    assert m2.global_device_ids().tolist() == [[0, 1], [2, 3], [4, 5]]
    assert m2.local_device_locations() == [{"x": 0, "y": 0}, {"x": 0, "y": 1}, {"x": 1, "y": 0}, {"x": 1, "y": 1},
                                           {"x": 2, "y": 0}, {"x": 2, "y": 1}]
    assert m2.dim_size("y") == 2 and m2["y"] == ("y", 2) and "x" in m2
    assert m2 == dtensor.create_mesh({"x": 3, "y": 2}, devices=DEVICES) and m2 != m1
    assert dtensor.Mesh.from_string(m2.to_string()) == m2
    named = dtensor.create_mesh([("a", 2)], devices=["CPU:0", "CPU:1"], mesh_name="mm")
    assert str(named) == ("Mesh.from_string(mm|a=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,"
                          "/job:localhost/replica:0/task:0/device:CPU:1)")
    with pytest.raises(ValueError, match=r"^length of devices \(6\) must be equal to total size of the mesh of "
                                         r"shape \[4\]$"):
        dtensor.create_mesh([("x", 4)], devices=DEVICES)
    with pytest.raises(NotImplementedError):
        dtensor.create_mesh([("x", 2)], devices=["GPU:0", "GPU:1"])
    with pytest.raises(NotImplementedError):
        dtensor.create_distributed_mesh([("x", 6)], device_type="CPU")
    with pytest.raises(ValueError, match="^Dimension z does not exist in mesh.Available dimensions: x,y$"):
        m2.dim_size("z")
    with pytest.raises(ValueError, match="^Input string is invalid: abc\ntensorflow/dtensor/cc/tensor_layout.cc:639 "
                                         ":: $"):
        dtensor.Mesh.from_string("abc")
    assert (dtensor.num_clients(), dtensor.client_id(), dtensor.job_name()) == (1, 0, "localhost")
    assert dtensor.device_name() == "/job:localhost/replica:0/task:0/device:CUSTOM:0"


def test_layout(m2):
    layout = dtensor.Layout(["y", "x"], m2)
    assert repr(layout) == str(layout) == f"Layout.from_string(sharding_specs:y,x, mesh:{MESH_3x2})"
    assert (layout.sharding_specs, layout.rank, layout.shape, layout.num_shards(0)) == (["y", "x"], 2, [3, 2], 2)
    assert not layout.is_fully_replicated() and dtensor.Layout.replicated(m2, 2).is_fully_replicated()
    assert dtensor.Layout.batch_sharded(m2, "y", rank=3).to_string() == \
        f"sharding_specs:y,unsharded,unsharded, mesh:{MESH_3x2}"
    assert dtensor.Layout.inner_sharded(m2, "x", rank=2).sharding_specs == [U, "x"]
    assert layout.delete([0]).sharding_specs == ["x"] and layout.delete([-1]).sharding_specs == ["y", "x"]
    with pytest.raises(ValueError, match="^mesh is not a valid Mesh object.$"):
        dtensor.Layout(["x"], "m")
    assert dtensor.Layout.from_string(layout.to_string()) == layout
    assert dtensor.Layout.replicated(m2, 0).to_string() == f"sharding_specs: mesh:{MESH_3x2}"
    assert (dtensor.UNSHARDED, dtensor.MATCH) == ("unsharded", "match")
    with pytest.raises(ValueError, match="^z: A dimension sharding must either be a valid mesh dimension or "
                                         "UNSHARDED.$"):
        dtensor.Layout(["z"], m2)
    with pytest.raises(ValueError, match=r"^Mesh dimension x was repeated in sharding specification \['x', 'x'\]. "
                                         "Mesh dimensions must be unique in a layout.$"):
        dtensor.Layout(["x", "x"], m2)


def test_text_of_replicated_and_sharded(m2):
    a = tf.reshape(tf.range(12), (6, 2))
    rep = dtensor.copy_to_mesh(a, dtensor.Layout.replicated(m2, 2))
    value = "[[0 1]\n [2 3]\n [4 5]\n [6 7]\n [8 9]\n [10 11]]"
    layout = f'layout="sharding_specs:unsharded,unsharded, mesh:{MESH_3x2}"'
    assert str(rep) == f"tf.Tensor({value}, {layout}, shape=(6, 2), dtype=int32)"
    assert repr(rep) == f"<tf.Tensor: shape=(6, 2), dtype=int32, value={value}, {layout}>"
    sh = dtensor.relayout(rep, dtensor.Layout(["x", "y"], m2))
    shards = ('{"CPU:0": [[0]\n [2]], "CPU:1": [[1]\n [3]], "CPU:2": [[4]\n [6]], "CPU:3": [[5]\n [7]], '
              '"CPU:4": [[8]\n [10]], "CPU:5": [[9]\n [11]]}')
    assert str(sh) == f'tf.Tensor({shards}, layout="sharding_specs:x,y, mesh:{MESH_3x2}", shape=(6, 2), dtype=int32)'
    with pytest.raises(tf.errors.UnimplementedError) as info:
        sh.numpy()
    assert str(info.value) == ("Trying to copy a non-single-device and non-replicated DTensor is not supported. "
                               f'Input tensor is: DTensor({shards}, layout="sharding_specs:x,y, mesh:{MESH_3x2}", '
                               "shape=[6,2], type=int32)")
    assert rep.numpy().tolist() == a.numpy().tolist()
    assert sh.device == rep.device == "/job:localhost/replica:0/task:0/device:CUSTOM:0"
    assert sh.shape == (6, 2) and len(sh) == 6
    floats = dtensor.copy_to_mesh(tf.constant([1.5, 1 / 3, -2.0, 1e-8, 3e12, float("nan")]),
                                  dtensor.Layout.replicated(m2, 1))
    assert str(floats).startswith("tf.Tensor([1.5 0.333333343 -2 1e-08 3e+12 nan], layout=")
    assert str(dtensor.copy_to_mesh(tf.constant(1.5), dtensor.Layout.replicated(m2, 0))).startswith(
        'tf.Tensor(1.5, layout="sharding_specs: mesh:')
    assert str(dtensor.copy_to_mesh(tf.constant([True, False]), dtensor.Layout.replicated(m2, 1))).startswith(
        "tf.Tensor([1 0], layout=")
    big = dtensor.call_with_layout(tf.ones, dtensor.Layout.replicated(m2, 2), shape=(64, 32))
    assert str(big).startswith("tf.Tensor([[1 1 1 ... 1 1 1]\n [1 1 1 ... 1 1 1]\n [1 1 1 ... 1 1 1]\n ...\n")


def test_pack_unpack_relayout(m2):
    a = tf.reshape(tf.range(12), (6, 2))
    hy = dtensor.copy_to_mesh(a, dtensor.Layout(["x", U], m2))
    parts = dtensor.unpack(hy)
    assert [(c.device, c.numpy().tolist()) for c in parts] == [
        (name, value) for name, value in zip(NAMES.split(","), [[[0, 1], [2, 3]]] * 2 + [[[4, 5], [6, 7]]] * 2 +
                                             [[[8, 9], [10, 11]]] * 2)]
    assert str(parts[0]) == "tf.Tensor(\n[[0 1]\n [2 3]], shape=(2, 2), dtype=int32)"
    packed = dtensor.pack([tf.constant([[i]]) for i in range(6)], dtensor.Layout(["x", "y"], m2))
    assert packed.shape == (3, 2) and dtensor.relayout(packed, dtensor.Layout.replicated(m2, 2)).numpy().tolist() == \
        [[0, 1], [2, 3], [4, 5]]
    m1 = dtensor.create_mesh([("x", 6)], devices=DEVICES)
    assert dtensor.pack([[1.5, 2]] * 6, dtensor.Layout.replicated(m1, 1)).numpy().tolist() == [1.5, 2.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="^The dtensor device /job:localhost/replica:0/task:0/"
                                                             "device:CUSTOM:0 expected 6 inputs to DTensorPack, but "
                                                             "got 3$"):
        dtensor.pack([tf.constant([1])] * 3, dtensor.Layout.replicated(m1, 1))
    with pytest.raises(tf.errors.UnimplementedError, match="^Components of a PackedTensor must currently all have "
                                                           "the same shape$"):
        dtensor.pack([tf.ones([2])] * 5 + [tf.ones([3])], dtensor.Layout.replicated(m1, 1))
    moved = dtensor.relayout(hy, dtensor.Layout.replicated(m1, 2))
    assert dtensor.fetch_layout(moved).mesh == m1
    with pytest.raises(tf.errors.UnknownError, match="requires dimension 0 to be divisible by sharding specified in "
                                                     "DTensorLayout, but got dimension size=5 is not divisible by "
                                                     "number of shards in layout for this dimension=3."):
        dtensor.relayout(tf.ones([5, 2]), dtensor.Layout(["x", "y"], m2))
    with pytest.raises(tf.errors.UnknownError, match="requires matching rank for layout and input, but got 1 as "
                                                     "suggested rank from layout but 2 from shape."):
        dtensor.relayout(hy, dtensor.Layout(["x"], m2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="^FetchLayout expects a tensor placed on the layout "
                                                             "device.$"):
        dtensor.fetch_layout(a)
    assert dtensor.fetch_layout(1.0) is None
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        dtensor.pack([tf.ones([2])] * 6, dtensor.Layout.replicated(m2, 2))
    assert str(info.value) == ("Packed layout should have the same rank as the rank for each component. The rank of "
                               "each component is: 1, while layout has rank: 2\nLayout: sharding_specs:unsharded,"
                               f"unsharded, mesh:{MESH_3x2}\n")
    with pytest.raises(tf.errors.InvalidArgumentError, match="^DTensorUnpack expects a tensor placed on the DTensor "
                                                             "device: /job:localhost/replica:0/task:0/device:CUSTOM:0, "
                                                             "but input was placed on device: "):
        dtensor.unpack(a)
    assert (dtensor.is_dtensor(hy), dtensor.is_dtensor(a)) == (True, False)
    dtensor.check_layout(hy, dtensor.fetch_layout(hy))
    with pytest.raises(ValueError, match="^Layout of tensor: Layout.from_string"):
        dtensor.check_layout(hy, dtensor.Layout.replicated(m2, 2))


@pytest.mark.parametrize("fn, want", [
    (lambda d, m: tf.reshape(d(m, [6, 4], ["x", "y"]), [-1]), ["x"]),
    (lambda d, m: tf.reshape(d(m, [6, 4], ["x", "y"]), [6, 2, 2]), ["x", "y", U]),
    (lambda d, m: tf.reshape(d(m, [6, 4], ["x", U]), [3, 8]), ["x", U]),
    (lambda d, m: tf.reshape(d(m, [6, 4], [U, "y"]), [2, 12]), [U, U]),
    (lambda d, m: tf.reshape(d(m, [6, 4], ["x", U]), [6, 4, 1]), ["x", U, U]),
    (lambda d, m: tf.matmul(d(m, [6, 6], ["x", U]), d(m, [6, 6], [U, "x"])), [U, U]),
    (lambda d, m: tf.matmul(d(m, [6, 6], ["x", U]), d(m, [6, 6], [U, "y"])), ["x", "y"]),
    (lambda d, m: tf.matmul(d(m, [6, 6], [U, "y"]), d(m, [6, 6], ["y", U])), [U, U]),
    (lambda d, m: tf.matmul(d(m, [6, 6], ["x", "y"]), d(m, [6, 6], ["y", U])), ["x", U]),
    (lambda d, m: tf.matmul(d(m, [6, 6], ["x", U]), d(m, [6, 6], ["y", U]), transpose_b=True), ["x", "y"]),
    (lambda d, m: tf.matmul(d(m, [6, 2, 2], ["x", U, U]), d(m, [6, 2, 2], [U, U, "y"])), ["x", U, "y"]),
    (lambda d, m: d(m, [6, 4], ["x", U]) + d(m, [6, 4], [U, "y"]), ["x", "y"]),
    (lambda d, m: d(m, [6, 4], ["x", U]) + d(m, [6, 4], ["y", U]), ["x", U]),
    (lambda d, m: d(m, [6, 4], [U, "y"]) + d(m, [6, 4], ["x", U]), ["x", "y"]),
    (lambda d, m: d(m, [6, 4], ["x", U]) + d(m, [4], ["y"]), ["x", "y"]),
    (lambda d, m: 2.0 * d(m, [6, 4], ["x", U]), ["x", U]),
    (lambda d, m: tf.reduce_sum(d(m, [6, 4], ["x", "y"]), axis=-1), ["x"]),
    (lambda d, m: tf.reduce_sum(d(m, [6, 4], ["x", "y"])), []),
    (lambda d, m: tf.reduce_max(d(m, [6, 4], ["x", "y"]), axis=0, keepdims=True), [U, "y"]),
    (lambda d, m: tf.argmax(d(m, [6, 4], ["x", "y"])), ["y"]),
    (lambda d, m: tf.nn.softmax(d(m, [6, 4], ["x", "y"])), ["x", "y"]),
    (lambda d, m: tf.transpose(d(m, [6, 4, 2], ["x", "y", U]), [2, 0, 1]), [U, "x", "y"]),
    (lambda d, m: tf.ones_like(d(m, [6, 4], ["x", "y"])), ["x", "y"]),
    (lambda d, m: tf.cast(d(m, [6, 4], ["x", "y"]), tf.int32), ["x", "y"]),
    (lambda d, m: tf.nn.relu(d(m, [6, 4], ["x", "y"])), ["x", "y"]),
    (lambda d, m: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=dtensor.copy_to_mesh(tf.zeros([6], tf.int32), dtensor.Layout(["x"], m)),
        logits=d(m, [6, 2], ["x", U])), ["x"]),
])
def test_layout_propagation(m2, fn, want):
    assert _specs(fn(_d, m2)) == want


def test_values_and_mesh_checks(m2):
    a = _d(m2, [2, 3], [U, "x"])
    b = dtensor.relayout(dtensor.copy_to_mesh(tf.constant([[6.0, 5], [4, 3], [2, 1]]),
                                              dtensor.Layout.replicated(m2, 2)), dtensor.Layout(["x", U], m2))
    c = tf.matmul(a, b)
    assert _specs(c) == [U, U] and c.numpy().tolist() == [[8.0, 5.0], [44.0, 32.0]]
    m1 = dtensor.create_mesh([("x", 6)], devices=DEVICES)
    with pytest.raises(tf.errors.UnknownError, match="All inputs to `tf_device.Cluster` must have same mesh "
                                                     "configuration."):
        _d(m2, [6, 2], ["x", U]) + dtensor.copy_to_mesh(tf.ones([6, 2]), dtensor.Layout.replicated(m1, 2))


def test_creation_with_layout(m2):
    layout = dtensor.Layout(["x", "y"], m2)
    ones = dtensor.call_with_layout(tf.ones, layout, shape=(6, 4))
    assert str(ones).startswith('tf.Tensor({"CPU:0": [[1 1]\n [1 1]], "CPU:1": [[1 1]\n [1 1]], "CPU:2"')
    assert _specs(tf.ones((6, 2), layout=layout)) == ["x", "y"]
    assert _specs(dtensor.call_with_layout(tf.function(tf.random.stateless_normal), layout, shape=(6, 4),
                                           seed=(1, 1))) == ["x", "y"]
    plain = dtensor.call_with_layout(tf.ones, None, shape=(2,))
    assert not dtensor.is_dtensor(plain)
    with dtensor.default_mesh(m2):
        assert dtensor.get_default_mesh() == m2
        assert _specs(tf.ones([2])) == [U]
    assert dtensor.get_default_mesh() is None and not dtensor.is_dtensor(tf.ones([2]))


def test_dvariable(m2):
    rep = dtensor.copy_to_mesh(tf.reshape(tf.range(12), (6, 2)), dtensor.Layout.replicated(m2, 2))
    v = dtensor.DVariable(rep)
    layout = f'layout="sharding_specs:unsharded,unsharded, mesh:{MESH_3x2}"'
    value = "[[0 1]\n [2 3]\n [4 5]\n [6 7]\n [8 9]\n [10 11]]"
    assert repr(v) == f"<tf.Variable 'Variable:0' shape=(6, 2) dtype=int32, value={value}, {layout}>"
    assert v.layout == dtensor.fetch_layout(v) == dtensor.fetch_layout(v.read_value()) == dtensor.fetch_layout(rep)
    total = v + rep
    assert repr(total).startswith("<tf.Tensor: shape=(6, 2), dtype=int32, value=[[0 2]\n [4 6]\n")
    assert _specs(total) == [U, U]
    unread = v.assign(dtensor.relayout(rep, dtensor.Layout(["x", "y"], m2)))
    assert repr(unread) == f"<tf.Variable 'UnreadVariable' shape=(6, 2) dtype=int32, value={value}, {layout}>"
    v.assign(tf.reshape(tf.range(12), (6, 2)))
    assert str(v.handle).startswith('tf.Tensor(<ResourceHandle(name="Variable/')
    assert str(v.handle).endswith(f'type="tensorflow::Var", dtype and shapes : "[ DType enum: 3, Shape: [6,2] ]")>, '
                                  f'{layout}, shape=(), dtype=resource)')
    m1 = dtensor.create_mesh([("x", 6)], devices=DEVICES)
    with pytest.raises(tf.errors.UnknownError, match="must have same mesh configuration"):
        v.assign(dtensor.copy_to_mesh(tf.ones([6, 2], tf.int32), dtensor.Layout.replicated(m1, 2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Neither layout nor DTensor initial value are "
                                                             "provided.$"):
        dtensor.DVariable(tf.ones([2]))
    w = dtensor.DVariable(tf.ones([6, 2]), layout=dtensor.Layout(["x", U], m2), name="w")
    assert w.name == "w:0" and _specs(w) == ["x", U] and _specs(w - 1.0) == ["x", U] and _specs(-w) == ["x", U]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    assert tape.gradient(loss, w).numpy().tolist() == [[2.0, 2.0]] * 6


def test_tf_function_computes_on_global_values(m2):
    w = dtensor.DVariable(dtensor.copy_to_mesh(tf.ones([2, 3]), dtensor.Layout.replicated(m2, 2)))
    x = dtensor.copy_to_mesh(tf.ones([6, 2]), dtensor.Layout.batch_sharded(m2, "x", 2))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.matmul(x, w))
        return tape.gradient(y, w), y

    for _ in range(2):                       # the trace, then its replay
        grad, y = step(x)
        assert grad.numpy().tolist() == [[6.0, 6.0, 6.0]] * 2 and float(y) == 36.0
