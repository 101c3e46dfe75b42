"""Top-level tf.* names from TF 2 user code: TF's own initializers, runtime helpers, unravel_index, the
space_to_batch family. Golden values recorded from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

IAE = tf.errors.InvalidArgumentError


# -- initializers (init_ops_v2) -------------------------------------------------------------------------------------
def test_constant_initializer_values_and_dtypes():
    v = tf.constant_initializer([1, 2, 3, 4])([2, 2])
    assert v.dtype == tf.int32 and v.numpy().tolist() == [[1, 2], [3, 4]]          # TF 2.21: the value's dtype
    assert tf.constant_initializer([1, 2, 3, 4])([2, 2], dtype=tf.float64).dtype == tf.float64
    assert tf.constant_initializer(2)([2], dtype="float32").numpy().tolist() == [2.0, 2.0]
    assert tf.constant_initializer(np.array([1., 2.]))([2]).dtype == tf.float64
    with pytest.raises(TypeError, match=r"Tensor \[1 2 3 4\] \(converted from \[1, 2, 3, 4\]\) has 4 elements, but "
                                        r"got `shape` \(3, 2\) with 6 elements"):
        tf.constant_initializer([1, 2, 3, 4])([3, 2])
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant_initializer(1.5)([2], dtype=tf.int32)
    with pytest.raises(TypeError, match="Invalid type for initial value: EagerTensor. Expected Python scalar, list "
                                        "or tuple of values, or numpy.ndarray."):
        tf.constant_initializer(tf.constant(1.))
    with pytest.raises(TypeError, match=r"Keyword argument should be one of \['partition_shape', "
                                        r"'partition_offset'\]. Received: foo"):
        tf.constant_initializer(1)([2], foo=1)
    with pytest.raises(ValueError, match="Constant initializer doesn't support partition-related arguments"):
        tf.constant_initializer(1)([4], partition_shape=[2])
    v = tf.constant_initializer(1, support_partition=True)([4], partition_shape=[2], partition_offset=[0])
    assert v.numpy().tolist() == [1, 1, 1, 1]          # TF 2.21: Constant ignores partition_shape


def test_zeros_ones_initializers():
    assert tf.zeros_initializer()([2, 3]).dtype == tf.float32
    assert tf.zeros_initializer()([2], dtype=tf.bool).numpy().tolist() == [False, False]
    assert tf.ones_initializer()([2], dtype=tf.complex64).numpy().tolist() == [1 + 0j, 1 + 0j]
    assert tf.ones_initializer()(tf.constant([2, 1])).shape == (2, 1)
    assert tf.ones_initializer()(tf.TensorShape([2, 1])).shape == (2, 1)
    assert tf.zeros_initializer()([2], partition_shape=[1], partition_offset=[0]).shape == (1,)
    with pytest.raises(ValueError, match=r"Argument `dtype` expected to be numeric or boolean. Received "
                                         r"<dtype: 'string'>."):
        tf.zeros_initializer()([2], dtype=tf.string)
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: None to a TensorFlow DType."):
        tf.zeros_initializer()([2], dtype=None)
    with pytest.raises(IAE, match="Dimension -1 must be >= 0"):
        tf.zeros_initializer()([-1])


def test_random_initializers():
    with pytest.raises(ValueError, match=r"Argument `dtype` is expected to be floating point. Received: "
                                         r"<dtype: 'int32'>."):
        tf.random_normal_initializer()([2], dtype=tf.int32)
    with pytest.raises(ValueError, match=r"Argument `dtype` expected to be numeric or boolean. Received "
                                         r"<dtype: 'bool'>."):
        tf.random_uniform_initializer()([2], dtype=tf.bool)
    v = tf.random_uniform_initializer(0, 10)([500], dtype=tf.int32).numpy()
    assert v.dtype == np.int32 and v.min() >= 0 and v.max() < 10
    assert tf.random_uniform_initializer()([2], dtype=tf.float16).dtype == tf.float16
    v = tf.random_normal_initializer(1.0, 2.0)([20000]).numpy()
    assert abs(v.mean() - 1) < 0.1 and abs(v.std() - 2) < 0.1
    v = tf.random_uniform_initializer(seed=3)([20000]).numpy()
    assert v.min() >= -0.05 and v.max() < 0.05 and abs(v.mean()) < 0.002
    init = tf.random_normal_initializer(seed=1)          # seeded: the same values on every call, as TF's stateless op
    assert np.array_equal(init([3]).numpy(), init([3]).numpy())


F32 = np.float32


def test_seeded_initializers_are_tf_philox_values():
    # TF 2.21, bit for bit (StatelessRandom*V2 with seed [seed, 0])
    assert tf.random_normal_initializer(seed=1)([6]).numpy().tolist() == F32(
        [0.006332515273243189, -0.024650828912854195, 0.0315595380961895, -0.03944232687354088,
         0.028415445238351822, -0.07784968614578247]).tolist()
    assert tf.random_normal_initializer(1.0, 2.0, seed=-5)([2, 2], dtype=tf.float64).numpy().tolist() == [
        [1.9555354266576799, 2.512592500166421], [1.999904009978989, 2.950532171204526]]
    assert tf.random_normal_initializer(seed=7)([3], dtype=tf.float16).numpy().astype(float).tolist() == [
        -0.033721923828125, -0.0179290771484375, -0.093994140625]
    assert tf.random_uniform_initializer(seed=1)([4]).numpy().tolist() == F32(
        [0.0378488190472126, -0.004001975059509277, 0.010029125958681107, -0.010740231722593307]).tolist()
    assert tf.random_uniform_initializer(-1, 1, seed=2 ** 40)([3], dtype=tf.bfloat16).numpy().astype(float).tolist() \
        == [-0.90625, 0.6875, 0.078125]
    assert tf.random_uniform_initializer(0, 10, seed=1)([9], dtype=tf.int32).numpy().tolist() == [9, 4, 0, 6, 1, 4,
                                                                                                   8, 8, 8]
    assert tf.random_uniform_initializer(0, 2 ** 40, seed=1)([3], dtype=tf.int64).numpy().tolist() == [
        699667608141, 708649473624, 877467297955]
    x = tf.random_normal_initializer(seed=3)([200, 50]).numpy()       # element 6150.. (block 1537 of Philox)
    assert x[123, :5].tolist() == F32([-0.09453380107879639, 0.009381256066262722, 0.042368918657302856,
                                       0.0068817599676549435, -0.05710321292281151]).tolist()
    assert abs(float(x.astype(np.float64).sum()) - 0.9648633003234863) < 1e-4
    layer = tf.keras.layers.Dense(3, kernel_initializer=tf.random_uniform_initializer(seed=4))
    layer.build((None, 2))
    assert layer.kernel.numpy().tolist() == F32([[0.008059777319431305, 0.040578875690698624, -0.02123589627444744],
                                                 [0.026999834924936295, 0.0048406608402729034,
                                                  -0.01037449762225151]]).tolist()
    with pytest.raises(IAE, match=r"Need minval < maxval, got 5 >= 2 \[Op:StatelessRandomUniformIntV2\]"):
        tf.random_uniform_initializer(5, 2, seed=1)([5], dtype=tf.int32)
    with pytest.raises(IAE, match=r"Dimension -1 must be >= 0 \[Op:StatelessRandomNormalV2\]"):
        tf.random_normal_initializer(seed=1)([-1])
    with pytest.raises(ValueError, match="mean: Tensor conversion requested dtype float32 for Tensor with dtype "
                                         "float64"):
        tf.random_normal_initializer(tf.constant(1., tf.float64), seed=1)([2])
    with pytest.raises(ValueError, match="Can't convert Python sequence with out-of-range integer to Tensor."):
        tf.random_normal_initializer(seed=2 ** 63)([2])


def test_initializer_config_repr_and_use():
    assert tf.random_normal_initializer(1.0, 2.0, seed=5).get_config() == {"mean": 1.0, "stddev": 2.0, "seed": 5}
    cfg = tf.random_normal_initializer.from_config({"mean": 1.0, "stddev": 2.0, "seed": None, "dtype": "x"})
    assert cfg.get_config() == {"mean": 1.0, "stddev": 2.0, "seed": None}
    assert tf.random_uniform_initializer().get_config() == {"minval": -0.05, "maxval": 0.05, "seed": None}
    assert tf.ones_initializer().get_config() == {}
    assert tf.constant_initializer(3).get_config() == {"value": 3}
    assert repr(tf.zeros_initializer()).startswith("<tensorflow.python.ops.init_ops_v2.Zeros object at 0x")
    v = tf.Variable(tf.constant_initializer(2.)([2]))
    assert v.dtype == tf.float32 and v.numpy().tolist() == [2.0, 2.0]
    layer = tf.keras.layers.Dense(2, kernel_initializer=tf.constant_initializer(0.5),
                                  bias_initializer=tf.ones_initializer())
    layer.build((None, 3))
    assert layer.kernel.numpy().tolist() == [[0.5, 0.5]] * 3 and layer.bias.numpy().tolist() == [1.0, 1.0]


# -- runtime helpers ------------------------------------------------------------------------------------------------
def test_get_static_value():
    assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]
    assert tf.get_static_value(3) == 3 and tf.get_static_value([1, 2]) == [1, 2]
    assert tf.get_static_value("abc") == "abc" and tf.get_static_value(None) is None
    assert tf.get_static_value(tf.Variable(2.)) is None                     # TF 2.21: None for variables
    assert tf.get_static_value(tf.sparse.from_dense([[1, 0]])) is None
    assert tf.get_static_value(tf.constant(["a"])).tolist() == [b"a"]
    seen = []

    @tf.function
    def f(x):
        seen.append((tf.get_static_value(x), tf.get_static_value(x * 2), tf.get_static_value(tf.constant(3)),
                     tf.inside_function()))
        return x
    f(tf.constant([1., 2.]))
    assert seen == [(None, None, 3, True)]                  # TF 2.21: traced values are unknown
    assert tf.inside_function() is False


def test_tuple_guarantee_const_name_scope_timestamp():
    ts = [tf.constant(1), None]
    assert tf.tuple(ts) is ts and tf.tuple([]) == [] and tf.tuple([1, 2]) == [1, 2]
    assert tf.guarantee_const([1, 2]).numpy().tolist() == [1, 2]
    x = tf.Variable(2.)
    with tf.GradientTape() as g:
        y = tf.guarantee_const(x * 3.)
    with pytest.raises(LookupError, match="gradient registry has no entry for: GuaranteeConst"):
        g.gradient(y, x)
    assert tf.get_current_name_scope() == ""
    with tf.name_scope("a"):
        with tf.name_scope("b"):
            assert tf.get_current_name_scope() == "a/b"
        with tf.name_scope("c/"):
            assert tf.get_current_name_scope() == "c"
    t = tf.timestamp()
    assert t.dtype == tf.float64 and t.shape == ()

    @tf.function
    def stamp():
        return tf.timestamp()
    a = stamp()
    b = stamp()
    assert float(b) > float(a)                 # read on every call, not a traced constant


def test_grad_pass_through():
    x = tf.Variable(1.0)
    z = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.grad_pass_through(x.assign)(z ** 2)
    assert float(tape.gradient(y, z)) == 6.0 and float(x) == 9.0            # TF 2.21
    a = tf.constant([1.5, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.grad_pass_through(tf.round)(a * 2.)
    assert y.numpy().tolist() == [3.0, 5.0] and tape.gradient(y, a).numpy().tolist() == [2.0, 2.0]

    @tf.function
    def h(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.grad_pass_through(tf.round)(x * 2.)
        return tape.gradient(y, x)
    assert h(tf.constant([1.2])).numpy().tolist() == [2.0]


# -- unravel_index --------------------------------------------------------------------------------------------------
def test_unravel_index():
    r = tf.unravel_index(indices=[2, 5, 7], dims=[3, 3])
    assert r.dtype == tf.int32 and r.numpy().tolist() == [[0, 1, 2], [2, 2, 1]]
    assert tf.unravel_index(5, [3, 3]).numpy().tolist() == [1, 2]
    r = tf.unravel_index([1], tf.constant([3, 3], tf.int64))
    assert r.dtype == tf.int64 and r.numpy().tolist() == [[0], [1]]
    assert tf.unravel_index([-1], [3, 3]).numpy().tolist() == [[0], [-1]]          # TF 2.21: C++ / and %
    assert tf.unravel_index(0, []).shape == (0,)
    cases = [
        (([9], [3, 3]), "index is out of bound as with dims"),
        (([1], [3, 0]), "Input dims cannot contain a dim of zero, but dims contains zero at index 1"),
        (([1], [3, -3]), "Input dims cannot be negative. Got dim = -3 at index 1"),
        (([[1, 2], [3, 4]], [3, 3]), 'The indices can only be scalar or vector, got "\\[2,2\\]"'),
        (([1], [[3, 3]]), 'The indices can only be 1-D, got "\\[1,2\\]"'),
        (([1.], [3, 3]), "Value for attr 'Tidx' of float is not in the list of allowed values: int32, int64"),
    ]
    for args, msg in cases:
        with pytest.raises(IAE, match="(?s)" + msg + r".*\[Op:UnravelIndex\]$"):
            tf.unravel_index(*args)
    with pytest.raises(IAE, match=r"received empty tensor indices: Tensor<type: int32 shape: \[0\] values: >"):
        tf.unravel_index(tf.constant([], tf.int32), [3, 3])


# -- space_to_batch family ------------------------------------------------------------------------------------------
X = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)


def test_space_to_batch_values():
    r = tf.space_to_batch(X, [2, 2], [[0, 0], [0, 0]])
    assert r.shape == (4, 2, 2, 1)
    assert r.numpy()[..., 0].tolist() == [[[0, 2], [8, 10]], [[1, 3], [9, 11]], [[4, 6], [12, 14]],
                                          [[5, 7], [13, 15]]]                                  # TF 2.21
    r = tf.nn.space_to_batch(np.arange(12, dtype=np.int32).reshape(2, 3, 2, 1), [2, 2], [[1, 0], [0, 2]])
    assert r.shape == (8, 2, 2, 1) and r.dtype == tf.int32
    assert r.numpy()[..., 0].tolist() == [[[0, 0], [2, 0]], [[0, 0], [8, 0]], [[0, 0], [3, 0]], [[0, 0], [9, 0]],
                                          [[0, 0], [4, 0]], [[6, 0], [10, 0]], [[1, 0], [5, 0]], [[7, 0], [11, 0]]]
    assert tf.space_to_batch(X, [2], [[0, 0]]).shape == (2, 2, 4, 1)
    assert tf.space_to_batch_nd(X, np.array([2, 2], np.int64), [[0, 0], [0, 0]]).shape == (4, 2, 2, 1)
    assert tf.space_to_batch(tf.constant([[1, 2, 3, 4]]), [2], [[0, 0]]).numpy().tolist() == [[1, 3], [2, 4]]
    assert tf.space_to_batch(X, [], tf.zeros([0, 2], tf.int32)).shape == (1, 4, 4, 1)
    assert tf.space_to_batch(tf.zeros([0, 4, 4, 1]), [2, 2], [[0, 0], [0, 0]]).shape == (0, 2, 2, 1)


def test_batch_to_space_values():
    y = np.arange(16, dtype=np.float32).reshape(4, 2, 2, 1)
    assert tf.batch_to_space(y, [2, 2], [[0, 0], [0, 0]]).numpy()[0, ..., 0].tolist() == [
        [0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]]                          # TF 2.21
    assert tf.batch_to_space(y, [2, 2], [[1, 0], [0, 1]]).numpy()[0, ..., 0].tolist() == [
        [8, 12, 9], [2, 6, 3], [10, 14, 11]]
    assert tf.batch_to_space(y, 2, [[0, 0], [0, 0]]).shape == (1, 4, 4, 1)        # an int block: both dims
    assert tf.batch_to_space(tf.zeros([0, 4, 4, 1]), [2, 2], [[0, 0], [0, 0]]).shape == (0, 8, 8, 1)


@pytest.mark.parametrize("block, pads, msg", [
    ([3, 2], [[0, 0], [0, 0]], r"padded_shape\[0\]=4 is not divisible by block_shape\[0\]=3"),
    ([2, 2], [[0, 0]], r"paddings should have shape \[2, 2\] instead of \[1,2\]"),
    ([0, 2], [[0, 0], [0, 0]], "All values in block_shape must be positive, got value, 0 at index 0."),
    ([-2, 2], [[-1, 0], [0, 0]], "All values in block_shape must be positive, got value, -2 at index 0."),
    ([2, 2], [[-1, 1], [0, 0]], "Paddings must be non-negative"),
    ([3, 2], [[0, 0], [0, -1]], r"padded_shape\[0\]=4 is not divisible by block_shape\[0\]=3"),
    ([2, 2, 2, 2, 2], [[0, 0]] * 5, "input rank should be >= 6 instead of 4"),
    ([[2, 2]], [[0, 0], [0, 0]], "block_shape rank should be 1 instead of 2"),
    (2, [[0, 0], [0, 0]], "block_shape rank should be 1 instead of 0"),
    ([2., 2.], [[0, 0], [0, 0]], "Value for attr 'Tblock_shape' of float is not in the list of allowed values"),
    ([2, 2], [[0., 0], [0, 0]], "Value for attr 'Tpaddings' of float is not in the list of allowed values"),
])
def test_space_to_batch_errors(block, pads, msg):
    with pytest.raises(IAE, match="(?s)" + msg + r".*\[Op:SpaceToBatchND\]$"):
        tf.space_to_batch(X, block, pads)


@pytest.mark.parametrize("block, crops, msg", [
    ([3, 2], [[0, 0], [0, 0]], r"Input batch dimension \(4\) is not divisible by product of block sizes \(6\)"),
    ([2, 2], [[3, 2], [0, 0]], r"cropped_shape\[0\]=-1 must be non-negative"),
    ([2, 2], [[-1, 0], [0, 0]], "Crops must be non-negative"),
    ([0, 2], [[0, 0], [0, 0]], "Product of block sizes must be positive, got 0"),
    ([-2, 2], [[0, 0], [0, 0]], "Product of block sizes must be positive, got -4"),
    ([-2, -2], [[0, 0], [0, 0]], r"cropped_shape\[0\]=-4 must be non-negative"),
    ([4, 1], [[0, 0], [3, 0]], r"cropped_shape\[1\]=-1 must be non-negative"),
    ([2, 2], [0, 0], r"crops should have shape \[2, 2\] instead of \[2\]"),
    ([2, 2], [[0., 0], [0, 0]], "Value for attr 'Tcrops' of float is not in the list of allowed values"),
])
def test_batch_to_space_errors(block, crops, msg):
    with pytest.raises(IAE, match="(?s)" + msg + r".*\[Op:BatchToSpaceND\]$"):
        tf.batch_to_space(np.zeros([4, 2, 2, 1], np.float32), block, crops)


def test_space_batch_dtypes_and_gradients():
    with pytest.raises(tf.errors.NotFoundError, match=r"SpaceToBatchND\[T=DT_BOOL, Tblock_shape=DT_INT32, "
                                                      r"Tpaddings=DT_INT32\]"):
        tf.space_to_batch(tf.constant([[True, False]]), [2], [[0, 0]])
    with pytest.raises(tf.errors.NotFoundError, match=r"BatchToSpaceND\[T=DT_STRING"):
        tf.batch_to_space(tf.constant([["a"], ["b"]]), [2], [[0, 0]])
    assert tf.space_to_batch(tf.zeros([1, 2, 2, 1], tf.uint32), [2], [[0, 0]]).dtype == tf.uint32
    v = tf.Variable(np.arange(8, dtype=np.float32).reshape(1, 2, 4, 1))
    with tf.GradientTape() as g:
        z = tf.space_to_batch(v, [2, 2], [[0, 0], [0, 0]]) ** 2
    assert g.gradient(z, v).numpy()[..., 0].tolist() == [[[0, 2, 4, 6], [8, 10, 12, 14]]]        # TF 2.21
    with tf.GradientTape() as g:
        z = tf.batch_to_space(v * 1., [1, 1], [[0, 1], [1, 0]]) ** 2
    assert g.gradient(z, v).numpy()[..., 0].tolist() == [[[0, 2, 4, 6], [0, 0, 0, 0]]]

    @tf.function
    def round_trip(x):
        return tf.batch_to_space(tf.space_to_batch(x, [2, 2], [[1, 1], [0, 2]]), [2, 2], [[1, 1], [0, 2]])
    assert np.array_equal(round_trip(tf.constant(X)).numpy(), X)
    assert np.array_equal(round_trip(tf.constant(X + 1)).numpy(), X + 1)


def test_required_space_to_batch_paddings():
    p, c = tf.required_space_to_batch_paddings([5, 7], [2, 3])
    assert p.dtype == tf.int32 and p.numpy().tolist() == [[0, 1], [0, 2]] and c.numpy().tolist() == [[0, 1], [0, 2]]
    p, c = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [2, 2]])
    assert p.numpy().tolist() == [[1, 0], [2, 3]] and c.numpy().tolist() == [[0, 0], [0, 1]]      # TF 2.21
    with pytest.raises(ValueError, match="input_shape: Tensor conversion requested dtype int32 for Tensor with "
                                         "dtype int64"):
        tf.required_space_to_batch_paddings(tf.constant([5, 7], tf.int64), [2, 3])
    with pytest.raises(ValueError, match=r"Shapes \(1,\) and \[2\] are incompatible"):
        tf.required_space_to_batch_paddings([5], [2, 3])
    with pytest.raises(ValueError, match=r"Shapes \(1, 1\) and \[1\] are incompatible"):
        tf.required_space_to_batch_paddings([[5]], [2])
    with pytest.raises(TypeError, match=r"Cannot convert \[5.0\] to EagerTensor of dtype int32"):
        tf.required_space_to_batch_paddings([5.], [2])


# -- fingerprint, edit_distance -------------------------------------------------------------------------------------
def test_fingerprint_farmhash64():
    fp = tf.fingerprint(tf.constant([[1, 2], [3, 4]]))
    assert fp.dtype == tf.uint8 and fp.numpy().tolist() == [[76, 18, 253, 133, 168, 204, 240, 10],
                                                            [254, 162, 60, 240, 103, 244, 53, 255]]     # TF 2.21
    assert tf.fingerprint(tf.constant(["abc", "hello world, this is a longer string of some bytes!!"])).numpy(
    ).tolist() == [[105, 243, 231, 116, 160, 179, 165, 36], [181, 193, 87, 67, 83, 243, 238, 98]]
    assert tf.fingerprint(tf.constant([["a", "b"], ["c", "d"]])).numpy().tolist() == [
        [122, 64, 59, 169, 136, 60, 55, 83], [52, 252, 224, 38, 64, 226, 155, 60]]
    assert tf.fingerprint(tf.constant([1.5, -2.0])).numpy().tolist() == [
        [64, 181, 56, 72, 223, 224, 189, 72], [204, 185, 213, 68, 114, 142, 202, 62]]
    assert tf.fingerprint(tf.constant([[[1, 2], [3, 4]]], tf.int64)).numpy().tolist() == [
        [20, 22, 69, 105, 139, 191, 144, 16]]
    assert tf.fingerprint(tf.zeros([2, 0])).numpy().tolist() == [[79, 64, 144, 47, 59, 106, 225, 154]] * 2
    assert tf.fingerprint(tf.zeros([0, 3])).shape == (0, 8)
    with pytest.raises(IAE, match=r"`data` should have at least one dimension: \[\] \[Op:Fingerprint\]$"):
        tf.fingerprint(tf.constant(1))
    with pytest.raises(IAE, match=r"Unsupported fingerprint method: md5 \[Op:Fingerprint\]$"):
        tf.fingerprint(tf.constant([1]), method="md5")


def test_edit_distance():
    hyp = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], (2, 1, 1))
    truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"], (2, 2, 2))
    d = tf.edit_distance(hyp, truth)
    assert d.dtype == tf.float32 and d.numpy().tolist() == [[np.inf, 1.0], [0.5, 1.0]]                 # TF 2.21
    assert tf.edit_distance(hyp, truth, normalize=False).numpy().tolist() == [[1, 1], [1, 1]]
    assert tf.edit_distance(truth, hyp).numpy().tolist() == [[1, np.inf], [1, np.inf]]
    h = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 2, 3], [2, 3])
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0], tf.int32), [1, 2])
    assert tf.edit_distance(h, tf.SparseTensor([[0, 0], [0, 1]], [1, 3], [1, 2])).numpy().tolist() == [0.5, 0.0]
    assert tf.edit_distance(empty, empty).numpy().tolist() == [0.0]
    # entries are taken in the order given; runs are merged by location as TF's kernel does
    assert tf.edit_distance(h, tf.SparseTensor([[0, 1], [0, 0]], [3, 1], [2, 2])).numpy().tolist() == [1.5, 0.0]
    assert tf.edit_distance(h, tf.SparseTensor([[0, 0], [1, 0], [0, 1]], [1, 5, 3], [2, 2])).numpy().tolist() == [
        1.0, 1.0]
    assert tf.edit_distance(tf.SparseTensor([[1, 0], [0, 0], [0, 1]], [5, 1, 3], [2, 2]), h).numpy().tolist() == [
        np.inf, np.inf]
    assert tf.edit_distance(tf.SparseTensor([[0, 0], [2, 1]], [1.5, 2.5], [3, 3]),
                            tf.SparseTensor([[1, 0], [2, 0]], [1.5, 2.5], [3, 2])).numpy().tolist() == [np.inf, 1, 0]
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor."):
        tf.edit_distance(tf.constant([1]), h)
    with pytest.raises(IAE, match=r"as input #4\(zero-based\) was expected to be a int32 tensor but is a float tensor "
                                  r"\[Op:EditDistance\] name: edit_distance$"):
        tf.edit_distance(h, tf.SparseTensor([[0, 0]], [1.], [1, 2]))
    with pytest.raises(IAE, match=r"matching ranks, but their shapes are: \[3\] and \[2\]"):
        tf.edit_distance(h, tf.SparseTensor([[0, 0, 0]], [1], [1, 2, 2]))
    with pytest.raises(IAE, match="must have rank at least 2, but truth_shape rank is: 1"):
        tf.edit_distance(tf.SparseTensor([[0]], [1], [3]), tf.SparseTensor([[1]], [1], [3]))
    with pytest.raises(tf.errors.InternalError, match=r"Got an inner product 5 which would require writing to outside "
                                                      r"of the buffer for the output tensor \(max elements 1\)"):
        tf.edit_distance(tf.SparseTensor([[5, 0]], [1], [1, 3]), tf.SparseTensor([[0, 1]], [1], [1, 3]))


# -- tf.sets --------------------------------------------------------------------------------------------------------
def _sp(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


def test_sets_dense():
    a = tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    b = tf.constant([[[1, 3], [5, 5]], [[5, 6], [0, 8]]])
    r = tf.sets.intersection(a, b)
    assert r.indices.dtype == tf.int64 and r.values.dtype == tf.int32
    assert _sp(r) == ([[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], [1, 5, 6, 8], [2, 2, 2])            # TF 2.21
    assert _sp(tf.sets.union(a, b)) == (
        [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1],
         [1, 1, 2]], [1, 2, 3, 3, 4, 5, 5, 6, 0, 7, 8], [2, 2, 3])
    assert _sp(tf.sets.difference(a, b)) == ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 1, 0]], [2, 3, 4, 7], [2, 2, 2])
    assert _sp(tf.sets.difference(a, b, aminusb=False)) == ([[0, 0, 0], [0, 1, 0], [1, 1, 0]], [3, 5, 0], [2, 2, 1])
    x = tf.constant([[3, 1, 3, 2], [9, 8, 9, 8]])
    y = tf.constant([[2, 3, 5, 5], [1, 1, 1, 1]])
    assert _sp(tf.sets.intersection(x, y)) == ([[0, 0], [0, 1]], [2, 3], [2, 2])
    assert _sp(tf.sets.union(x, y)) == ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2]],
                                        [1, 2, 3, 5, 1, 8, 9], [2, 4])
    assert _sp(tf.sets.difference(x, y)) == ([[0, 0], [1, 0], [1, 1]], [1, 8, 9], [2, 2])
    assert _sp(tf.sets.union(tf.constant([["b", "a"]]), tf.constant([["c", "a"]])))[1:] == ([b"a", b"b", b"c"], [1, 3])
    r = tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[3, 4]]))
    assert _sp(r) == ([], [], [1, 0]) and r.indices.shape == (0, 2)
    assert tf.sets.union([[1, 2]], [[2, 5]]).values.numpy().tolist() == [1, 2, 5]
    assert tf.sets.union(tf.constant([[1, 2]], tf.uint8), tf.constant([[1, 2]], tf.uint8)).values.dtype == tf.uint8


def test_sets_sparse_and_size():
    sa = tf.SparseTensor([[0, 0], [1, 1]], [7, 9], [2, 3])
    dense = tf.constant([[7, 1], [9, 9]])
    assert _sp(tf.sets.intersection(dense, sa)) == ([[0, 0], [1, 0]], [7, 9], [2, 1])                    # TF 2.21
    assert _sp(tf.sets.union(sa, dense)) == ([[0, 0], [0, 1], [1, 0]], [1, 7, 9], [2, 2])
    assert _sp(tf.sets.union(dense, sa)) == ([[0, 0], [0, 1], [1, 0]], [1, 7, 9], [2, 2])
    assert _sp(tf.sets.union(sa, sa)) == ([[0, 0], [1, 0]], [7, 9], [2, 1])
    assert tf.sets.difference(tf.SparseTensor([[0, 0], [0, 1]], [2, 2], [1, 3]),
                              tf.constant([[3]])).values.numpy().tolist() == [2]
    s = tf.sets.size(tf.sparse.from_dense([[1, 0, 2], [0, 0, 0]]))
    assert s.dtype == tf.int32 and s.numpy().tolist() == [2, 0]
    assert tf.sets.size(tf.SparseTensor([[0, 0], [0, 1]], [2, 2], [1, 3])).numpy().tolist() == [1]
    assert tf.sets.size.__name__ == "set_size" and not hasattr(tf.sets, "set_size")


def test_sets_errors():
    with pytest.raises(TypeError, match=r"Expected `SparseTensor`, got tf.Tensor\(\[1 2 2\], shape=\(3,\), "
                                        r"dtype=int32\)."):
        tf.sets.size(tf.constant([1, 2, 2]))
    with pytest.raises(TypeError, match=r"'a' has invalid dtype `<dtype: 'float32'>` not in supported dtypes: "
                                        r"`frozenset\(\{tf.int32, tf.uint8, tf.int16, tf.int8, tf.string, tf.int64, "
                                        r"tf.uint16\}\)`."):
        tf.sets.union(tf.constant([[1., 2.]]), tf.constant([[1., 2.]]))
    with pytest.raises(TypeError, match=r"Types don't match, <dtype: 'int32'> vs <dtype: 'int64'>."):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2]], tf.int64))
    with pytest.raises(IAE, match=r"Shape \[2\] has rank 1 < 2 \[Op:DenseToDenseSetOperation\] name: $"):
        tf.sets.union(tf.constant([1, 2]), tf.constant([1, 2]))
    with pytest.raises(IAE, match=r"Mismatched shapes \[1\] vs \[1,1\] \[Op:DenseToDenseSetOperation\]"):
        tf.sets.union(tf.constant([[1, 2]]), tf.constant([[[1, 2]]]))
    with pytest.raises(IAE, match=r"indices\[1\] = \[0,0\] is out of order. Many sparse ops require sorted indices."
                                  r"\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n \[Op:SetSize\]"):
        tf.sets.size(tf.SparseTensor([[0, 1], [0, 0]], [2, 3], [1, 3]))


# -- tf.nn extras -----------------------------------------------------------------------------------------------------
def test_sufficient_statistics_and_global_norm():
    x = tf.constant([[1., 2., 3.], [4., 6., 8.]])
    c, m, v, s = tf.nn.sufficient_statistics(x, [0])
    assert float(c) == 2.0 and c.dtype == tf.float32 and s is None                                     # TF 2.21
    assert m.numpy().tolist() == [5, 8, 11] and v.numpy().tolist() == [17, 40, 73]
    c, m, v, s = tf.nn.sufficient_statistics(x, [0, 1], shift=1.0, keepdims=True)
    assert float(c) == 6 and m.numpy().tolist() == [[18]] and v.numpy().tolist() == [[88]] and float(s) == 1.0
    c, m, v, s = tf.nn.sufficient_statistics(tf.constant([[1, 2]]), [0])
    assert c.dtype == tf.int32 and m.numpy().tolist() == [1, 2] and v.numpy().tolist() == [1, 4]
    with pytest.raises(IndexError):
        tf.nn.sufficient_statistics(x, [2])
    with pytest.raises(IAE, match=r"Incompatible shapes: \[2,3\] vs. \[2\] \[Op:Sub\]"):
        tf.nn.sufficient_statistics(x, [1], shift=tf.constant([1., 2.]))
    w = tf.Variable([[1., 2., 3.], [4., 6., 8.]])
    with tf.GradientTape() as g:
        _, m, v, _ = tf.nn.sufficient_statistics(w, [0], shift=1.)
        y = tf.reduce_sum(m) + tf.reduce_sum(v)
    assert g.gradient(y, w).numpy().tolist() == [[1, 3, 5], [7, 11, 15]]
    args = (x, tf.constant([1., 2., 3.]), tf.constant([1., 4., 9.]), tf.constant([0., 1., 0.]),
            tf.constant([2., 2., 2.]), 0.001)
    np.testing.assert_allclose(tf.nn.batch_norm_with_global_normalization(*args, True).numpy(),
                               [[0, 1, 0], [5.9970026, 4.9995003, 3.333148]], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.batch_norm_with_global_normalization(*args, False).numpy(),
                               [[0, 1, 0], [2.9985013, 2.9997501, 1.666574]], rtol=1e-6)


def test_collapse_repeated():
    lab, n = tf.nn.collapse_repeated(tf.constant([[1, 1, 2, 2, 2, 3, 0], [4, 4, 4, 5, 5, 0, 0]]), tf.constant([7, 4]))
    assert lab.numpy().tolist() == [[1, 2, 3, 0], [4, 5, 0, 0]] and n.numpy().tolist() == [4, 2]        # TF 2.21
    lab, n = tf.nn.collapse_repeated(tf.constant([[1, 1, 1], [2, 3, 3]]), [3, 3])
    assert lab.numpy().tolist() == [[1, 0], [2, 3]] and n.numpy().tolist() == [1, 2]
    lab, n = tf.nn.collapse_repeated(tf.constant([[1.5, 1.5, 1]]), [3])
    assert lab.dtype == tf.float32 and lab.numpy().tolist() == [[1.5, 1.0]]
    lab, n = tf.nn.collapse_repeated(tf.constant([[1, 1, 1]]), [0])
    assert lab.shape == (1, 0) and n.numpy().tolist() == [0]
    lab, n = tf.nn.collapse_repeated(tf.constant([[1, 2, 1]]), [5])
    assert lab.numpy().tolist() == [[1, 2, 1]] and n.numpy().tolist() == [3]


MX = np.array([3., 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3], np.float32).reshape(1, 4, 4, 1)
MK = np.array([0., 1., -1., 0.5], np.float32).reshape(2, 2, 1)


@pytest.mark.parametrize("fn, strides, padding, rates, want", [
    ("dilation2d", [1, 1, 1, 1], "VALID", [1, 1, 1, 1], [[9.5, 8, 6.5], [10, 9, 8.5], [8, 9.5, 9]]),
    ("dilation2d", [1, 1, 1, 1], "SAME", [1, 1, 1, 1], [[9.5, 8, 6.5, 5], [10, 9, 8.5, 7], [8, 9.5, 9, 8],
                                                          [9, 10, 9, 3]]),
    ("dilation2d", [1, 2, 2, 1], "SAME", [1, 1, 1, 1], [[9.5, 6.5], [8, 9]]),
    ("dilation2d", [1, 1, 1, 1], "VALID", [1, 2, 2, 1], [[5.5, 8.5], [9.5, 9]]),
    ("dilation2d", [1, 1, 1, 1], "SAME", [1, 2, 2, 1], [[9.5, 4, 8, 1], [3.5, 5.5, 8.5, 4], [10, 9.5, 9, 8],
                                                          [4, 6, 9, 5]]),
    ("erosion2d", [1, 1, 1, 1], "SAME", [1, 1, 1, 1], [[2, 0.5, 1, 0.5], [3, 2, 1.5, 5.5], [4, 2.5, 3, 2],
                                                         [8, 6.5, 4, 2.5]]),
    ("erosion2d", [1, 2, 1, 1], "VALID", [1, 1, 1, 1], [[2, 0.5, 1], [4, 2.5, 3]]),
])
def test_morphology_values(fn, strides, padding, rates, want):
    out = getattr(tf.nn, fn)(tf.constant(MX), tf.constant(MK), strides, padding, "NHWC", rates)
    assert out.numpy()[0, ..., 0].tolist() == want                                                       # TF 2.21


def test_morphology_gradients_dtypes_errors():
    xv, kv = tf.Variable(MX), tf.Variable(MK)
    weights = tf.reshape(tf.range(16.), [1, 4, 4, 1])
    with tf.GradientTape() as g:
        s = tf.reduce_sum(tf.nn.dilation2d(xv, kv, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]) * weights)
    gx, gk = g.gradient(s, [xv, kv])
    assert gx.numpy()[0, ..., 0].tolist() == [[0, 0, 0, 0], [0, 10, 0, 5], [0, 0, 0, 34], [20, 0, 36, 15]]
    assert gk.numpy()[..., 0].tolist() == [[57, 27], [19, 17]]                                           # TF 2.21
    with tf.GradientTape() as g:
        s = tf.reduce_sum(tf.nn.erosion2d(xv, kv, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]) * weights)
    gx, gk = g.gradient(s, [xv, kv])
    assert gx.numpy()[0, ..., 0].tolist() == [[0, 1, 0, 3], [0, 0, 8, 7], [0, 26, 0, 0], [0, 25, 0, 50]]
    assert gk.numpy()[..., 0].tolist() == [[-14, -18], [-34, -54]]
    out = tf.nn.dilation2d(tf.constant(MX.astype(np.int32)), MK.astype(np.int32), [1, 1, 1, 1], "VALID", "NHWC",
                           [1, 1, 1, 1])
    assert out.dtype == tf.int32 and out.numpy()[0, ..., 0].tolist() == [[9, 8, 6], [10, 9, 8], [8, 9, 9]]
    assert tf.nn.dilation2d(MX, np.zeros([5, 5, 1], np.float32), [1] * 4, "VALID", "NHWC", [1] * 4).shape == (
        1, 0, 0, 1)

    @tf.function
    def dil(x):
        return tf.nn.dilation2d(x, MK, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])
    assert dil(tf.constant(MX)).numpy()[0, 0, :, 0].tolist() == [9.5, 8, 6.5, 5]
    assert dil(tf.constant(MX + 1)).numpy()[0, 0, :, 0].tolist() == [10.5, 9, 7.5, 6]
    x, k = tf.constant(MX), tf.constant(MK)
    with pytest.raises(ValueError, match="`data_format` values other  than 'NHWC' are not supported. Received: "
                                         "data_format=NCHW"):
        tf.nn.dilation2d(x, k, [1, 1, 1, 1], "VALID", "NCHW", [1, 1, 1, 1])
    cases = [
        (tf.errors.UnimplementedError, (x, k, [2, 1, 1, 1], "VALID"), "Stride is only supported across spatial "
                                                                       "dimensions."),
        (IAE, (x, k, [1, 1, 1], "VALID"), "Length for attr 'strides' of 3 must be at least minimum 4"),
        (IAE, (x, tf.zeros([2, 2, 2]), [1] * 4, "VALID"), "input and filter must have the same depth: 1 vs 2"),
        (IAE, (x, tf.zeros([2, 2]), [1] * 4, "VALID"), r"filter must be 3-dimensional: \[2,2\]"),
        (IAE, (tf.zeros([4, 4, 1]), k, [1] * 4, "VALID"), r"input must be 4-dimensional\[4,4,1\]"),
        (IAE, (x, k, [1] * 4, "FOO"), "Value for attr 'padding' of \"FOO\" is not in the list of allowed values"),
        (IAE, (x, tf.cast(k, tf.float64), [1] * 4, "VALID"), r"cannot compute Dilation2D as input #1\(zero-based\) "
                                                             "was expected to be a float tensor but is a double"),
        (IAE, (tf.cast(x, tf.bool), tf.cast(k, tf.bool), [1] * 4, "VALID"), "Value for attr 'T' of bool is not in "
                                                                            "the list of allowed values"),
    ]
    for cls, args, msg in cases:
        with pytest.raises(cls, match="(?s)" + msg + r".*\[Op:Dilation2D\] name: $"):
            tf.nn.dilation2d(*args, "NHWC", [1, 1, 1, 1])


def test_with_space_to_batch():
    x = tf.reshape(tf.range(36.), [1, 6, 6, 1])
    k = tf.reshape(tf.range(1., 5.), [2, 2, 1, 1])

    def pool(inp, num_spatial_dims, padding):
        return tf.nn.max_pool2d(inp, 2, 1, padding)

    def conv(inp, num_spatial_dims, padding):
        return tf.nn.conv2d(inp, k, 1, padding)
    out = tf.nn.with_space_to_batch(x, [2, 2], "VALID", pool)[0, ..., 0]
    assert out.numpy().tolist() == [[14, 15, 16, 17], [20, 21, 22, 23], [26, 27, 28, 29], [32, 33, 34, 35]]  # TF 2.21
    out = tf.nn.with_space_to_batch(x, [2, 3], "SAME", conv, filter_shape=[2, 2])[0, ..., 0]
    assert out.numpy()[:2].tolist() == [[32, 54, 61, 68, 27, 30], [60, 102, 112, 122, 48, 52]]
    out = tf.nn.with_space_to_batch(x, [2, 2], [[0, 0], [1, 1], [2, 0], [0, 0]], conv)[0, ..., 0]
    assert out.numpy()[:2].tolist() == [[24, 28, 50, 57, 64, 71], [48, 54, 96, 106, 116, 126]]
    out = tf.nn.with_space_to_batch(x, [1, 1], "SAME", conv)[0, ..., 0]          # rate 1: op(input, n, padding)
    assert out.numpy()[0].tolist() == [48, 58, 68, 78, 88, 38]
    out = tf.nn.with_space_to_batch(tf.reshape(tf.range(12.), [1, 12, 1]), [3], "VALID",
                                    lambda inp, n, p: tf.nn.conv1d(inp, tf.ones([2, 1, 1]), 1, p))
    assert out.numpy()[0, :, 0].tolist() == [3, 5, 7, 9, 11, 13, 15, 17, 19]
    for kwargs, msg in [
        (dict(dilation_rate=[0, 2], padding="VALID"), r"`dilation_rate` must be positive. Received: "
                                                      r"dilation_rate=\[0 2\]"),
        (dict(dilation_rate=[2, 2], padding="FOO"), "`padding` must be one of 'SAME' or 'VALID'. Received: "
                                                    "padding=FOO"),
        (dict(dilation_rate=[2, 2], padding="SAME"), "`filter_shape` must be specified for `padding='SAME'`"),
        (dict(dilation_rate=[2, 2], padding="VALID", spatial_dims=[2, 1]), "`spatial_dims` must be a monotonically "
                                                                           "increasing sequence of positive integers"),
        (dict(dilation_rate=[2, 2, 2, 2], padding="VALID"), r"`input.shape.rank` must be at least 5. Received: "
                                                            r"input.shape=\(1, 6, 6, 1\) with rank 4"),
    ]:
        with pytest.raises(ValueError, match=msg):
            tf.nn.with_space_to_batch(x, op=pool, **kwargs)


# -- fractional pooling ---------------------------------------------------------------------------------------------
def _seqs(x, ratio, **kw):
    out = tf.nn.fractional_max_pool(x, ratio, **kw)
    return out.row_pooling_sequence.numpy().tolist(), out.col_pooling_sequence.numpy().tolist()


def test_fractional_pool_sequences_are_tfs():
    x = tf.zeros([1, 10, 13, 1])
    # TF 2.21 (seeds (87654321, seed) without a global seed)
    assert _seqs(x, [1, 1.44, 1.73, 1], pseudo_random=True, seed=5) == ([0, 1, 3, 5, 6, 8, 10],
                                                                        [0, 2, 4, 6, 8, 10, 11, 13])
    assert _seqs(x, [1, 3.3, 1.1, 1], pseudo_random=True, seed=123) == ([0, 3, 7, 10],
                                                                        [0, 1, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13])
    assert _seqs(x, [1, 1.44, 1.73, 1], seed=5) == ([0, 2, 3, 5, 7, 8, 10], [0, 2, 4, 5, 7, 9, 11, 13])
    r, c = _seqs(tf.zeros([1, 25, 40, 1]), [1, 2.0, 1.5, 1], seed=5)
    assert r == [0, 2, 4, 6, 8, 10, 12, 15, 17, 19, 21, 23, 25]
    assert c == [0, 2, 4, 5, 7, 8, 10, 11, 13, 14, 15, 16, 18, 20, 21, 23, 25, 26, 28, 30, 32, 33, 35, 37, 38, 39, 40]
    tf.random.set_seed(42)
    try:
        assert _seqs(x, [1, 1.44, 1.73, 1], pseudo_random=True, seed=5) == ([0, 1, 3, 5, 6, 8, 10],
                                                                            [0, 1, 3, 5, 7, 9, 11, 13])
    finally:
        tf.random.set_seed(None)
    r, c = _seqs(x, [1, 1.44, 1.73, 1])                     # seed 0: TF draws a fresh sequence; sizes k or k + 1
    assert r[0] == 0 and r[-1] == 10 and set(np.diff(r)) <= {1, 2} and len(c) == 8


def test_fractional_pool_values_gradients_errors():
    vals = (np.arange(30, dtype=np.float32) * 7 % 30).reshape(1, 5, 6, 1)
    xv = tf.Variable(vals)
    for fn, want_out, want_grad in [
        (tf.nn.fractional_max_pool, [[26, 28, 29], [24, 27, 29], [25, 27, 23]],
         [[0, 0, 0, 0, 2, 0], [0, 0, 1, 0, 0, 0], [4, 0, 0, 0, 0, 9], [0, 0, 0, 13, 0, 0], [0, 7, 0, 0, 0, 9]]),
        (tf.nn.fractional_avg_pool, [[12.333333015441895, 16.33333396911621, 18.5], [12, 16, 16.5], [14, 13, 13.5]],
         [[0.1111111119389534, 0.1111111119389534, 0.3333333432674408, 0.2222222238779068, 0.7222222089767456, 0.5],
          [0.1111111119389534, 0.1111111119389534, 0.3333333432674408, 0.2222222238779068, 0.7222222089767456, 0.5],
          [0.7777777910232544, 0.7777777910232544, 1.8333333730697632, 1.0555555820465088, 3.055555582046509, 2.0],
          [1.8333333730697632, 1.8333333730697632, 4.0, 2.1666667461395264, 5.916666507720947, 3.75],
          [1.1666666269302368, 1.1666666269302368, 2.5, 1.3333333730697632, 3.5833332538604736, 2.25]]),
    ]:
        with tf.GradientTape() as g:
            o, r, c = fn(xv, [1, 1.5, 1.7, 1], overlapping=True, seed=7)
            weights = tf.reshape(tf.range(1., 10.), [1, 3, 3, 1])
            s = tf.reduce_sum(o * weights)
        assert o.numpy()[0, ..., 0].tolist() == want_out and r.numpy().tolist() == [0, 2, 3, 5]     # TF 2.21
        assert c.numpy().tolist() == [0, 2, 4, 6] and r.dtype == tf.int64
        assert g.gradient(s, xv).numpy()[0, ..., 0].tolist() == want_grad
    out = tf.nn.fractional_max_pool(np.arange(60, dtype=np.float32).reshape(1, 5, 6, 2), [1, 1.5, 1.5, 1],
                                    pseudo_random=True, seed=3)
    assert type(out).__name__ == "FractionalMaxPool"
    assert out.output.numpy()[0, :, :, 1].tolist() == [[1, 5, 7, 11], [25, 29, 31, 35], [49, 53, 55, 59]]
    assert out.col_pooling_sequence.numpy().tolist() == [0, 1, 3, 4, 6]
    assert tf.nn.fractional_avg_pool(tf.ones([1, 5, 6, 2], tf.int32) * 3, [1, 1.5, 2, 1], seed=3)[0].dtype == tf.int32

    @tf.function
    def f(x):
        return tf.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1], pseudo_random=True, seed=3).output
    assert f(tf.constant(vals)).numpy()[0, ..., 0].tolist() == [[0, 14, 21, 28], [24, 26, 15, 29], [18, 25, 27, 23]]
    x = tf.zeros([1, 5, 6, 2])
    for ratio, msg in [([1.5, 2.0], "`pooling_ratio` should have first and last elements with value 1.0."),
                       ([1, 0.5, 2, 1], r"`pooling_ratio` elements should be >= 1.0. Received: "
                                        r"pooling_ratio=\[1, 0.5, 2, 1\]"),
                       (0.5, "`pooling_ratio` should be >= 1.0. Received: pooling_ratio=0.5"),
                       ("a", "`pooling_ratio` should be an int or a list of ints. Received: pooling_ratio=a")]:
        with pytest.raises(ValueError, match=msg):
            tf.nn.fractional_max_pool(x, ratio, seed=3)
    with pytest.raises(IAE, match="Pooling ratio is higher than input dimension size for dimension 1. Input dim "
                                  r"size: 5 pooling ratio: 6 \[Op:FractionalMaxPool\]$"):
        tf.nn.fractional_max_pool(x, [1, 6, 2, 1], seed=3)
    with pytest.raises(IAE, match=r"tensor_in must be 4-dimensional \[Op:FractionalMaxPool\]$"):
        tf.nn.fractional_max_pool(tf.zeros([5, 6, 2]), [1, 1.5, 2, 1], seed=3)
    with pytest.raises(IAE, match="Value for attr 'T' of half is not in the list of allowed values: float, double, "
                                  "int32, int64"):
        tf.nn.fractional_max_pool(tf.zeros([1, 5, 6, 2], tf.float16), [1, 1.5, 2, 1], seed=3)


# -- make_tensor_proto ----------------------------------------------------------------------------------------------
def _proto_text(p):
    return str(p).replace("\n", " | ")


def test_make_tensor_proto():
    # TF 2.21's text of each proto
    assert _proto_text(tf.make_tensor_proto([1., 2.])) == (
        'dtype: DT_FLOAT | tensor_shape { |   dim { |     size: 2 |   } | } | tensor_content: '
        '"\\000\\000\\200?\\000\\000\\000@" | ')
    assert _proto_text(tf.make_tensor_proto(3)) == "dtype: DT_INT32 | tensor_shape { | } | int_val: 3 | "
    assert _proto_text(tf.make_tensor_proto(3.5, shape=[2, 2])) == (
        "dtype: DT_FLOAT | tensor_shape { |   dim { |     size: 2 |   } |   dim { |     size: 2 |   } | } | "
        "float_val: 3.5 | ")
    assert _proto_text(tf.make_tensor_proto([2 ** 40, 1])).startswith("dtype: DT_INT64")
    assert _proto_text(tf.make_tensor_proto(["a", "bc"])).endswith('string_val: "a" | string_val: "bc" | ')
    assert _proto_text(tf.make_tensor_proto([1 + 2j])).endswith("dcomplex_val: 1 | dcomplex_val: 2 | ")
    assert _proto_text(tf.make_tensor_proto(np.array([1.5], np.float16))).endswith("half_val: 15872 | ")
    assert _proto_text(tf.make_tensor_proto(tf.constant(7))) == "dtype: DT_INT32 | tensor_shape { | } | int_val: 7 | "
    assert _proto_text(tf.make_tensor_proto([1, 2], shape=[3])).endswith("int_val: 1 | int_val: 2 | ")
    assert _proto_text(tf.make_tensor_proto([], shape=[0, 3])) == (
        "dtype: DT_FLOAT | tensor_shape { |   dim { |   } |   dim { |     size: 3 |   } | } | ")
    assert tf.make_ndarray(tf.make_tensor_proto([[1, 2], [3, 4]])).tolist() == [[1, 2], [3, 4]]
    for args, kwargs, cls, msg in [
        (([1.5],), dict(dtype=tf.int32), TypeError, "Expected int32, but got 1.5 of type 'float'."),
        (([1, 2, 3],), dict(shape=[2]), ValueError, "Too many elements provided. Takes at most 2, but got 3."),
        (([1, 2],), dict(shape=[1, 2], verify_shape=True), TypeError,
         r"Expected Tensor's shape: \(1, 2\), but got \(2,\)."),
        ((None,), {}, ValueError, "None values not supported."),
        (([1, 2],), dict(dtype=tf.string), TypeError, "Expected string, but got 1 of type 'int'."),
        (([tf.constant(1)],), {}, TypeError, "Expected any non-tensor type, but got a tensor instead."),
    ]:
        with pytest.raises(cls, match=msg):
            tf.make_tensor_proto(*args, **kwargs)


def test_approx_top_k_and_isotonic_regression():
    x = tf.Variable([[3., 1., 4., 1., 5., 9., 2., 6.], [5., 3., 5., 8., 9., 7., 9., 3.]])
    with tf.GradientTape() as g:
        v, i = tf.nn.approx_max_k(x, 3)
        s = tf.reduce_sum(v * [[1., 2., 3.]])
    assert v.numpy().tolist() == [[9, 6, 5], [9, 9, 8]] and i.numpy().tolist() == [[5, 7, 4], [4, 6, 3]]  # TF 2.21
    assert i.dtype == tf.int32 and type(tf.approx_top_k(x, 2)).__name__ == "ApproxTopK"
    assert g.gradient(s, x).numpy().tolist() == [[0, 0, 0, 0, 3, 1, 0, 2], [0, 0, 0, 3, 1, 0, 2, 0]]
    with pytest.raises(tf.errors.NotFoundError, match=r"ApproxTopK\[T=DT_FLOAT, aggregate_to_topk=true, is_max_k=false, "
                                                      r"k=3, recall_target=0.95, reduction_dimension=-1"):
        tf.approx_top_k(x, 3, is_max_k=False)        # TF 2.21's CPU kernels have no min-k
    with pytest.raises(IAE, match="Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, "
                                  "float"):
        tf.nn.approx_max_k(tf.constant([1, 5, 2]), 2)
    with pytest.raises(IAE, match="input must have at least k columns. Had 8, needed 9"):
        tf.nn.approx_max_k(x, 9)
    with tf.GradientTape() as g:
        o, seg = tf.nn.isotonic_regression(x)
        s = tf.reduce_sum(o * tf.range(16.)[None, :8])
    assert o.numpy().tolist() == [[3.875] * 8, [6.5714287757873535] * 7 + [3.0]]                          # TF 2.21
    assert seg.numpy().tolist() == [[0] * 8, [0] * 7 + [1]] and seg.dtype == tf.int32
    assert g.gradient(s, x).numpy().tolist() == [[3.5] * 8, [3.0] * 7 + [7.0]]
    with tf.GradientTape() as g:
        o, seg = tf.nn.isotonic_regression(x, decreasing=False, axis=0)
        s = tf.reduce_sum(o * tf.reshape(tf.range(16.), [2, 8]))
    assert o.numpy().tolist() == [[3, 1, 4, 1, 5, 8, 2, 4.5], [5, 3, 5, 8, 9, 8, 9, 4.5]]
    assert seg.numpy().tolist() == [[0] * 8, [1, 1, 1, 1, 1, 0, 1, 0]]
    assert g.gradient(s, x).numpy().tolist() == [[0, 1, 2, 3, 4, 9, 6, 11], [8, 9, 10, 11, 12, 9, 14, 11]]
    r = tf.nn.isotonic_regression(tf.constant([[1, 3, 2]]))
    assert r.output.dtype == tf.float64 and r.output.numpy().tolist() == [[2, 2, 2]]
    assert r.segments.numpy().tolist() == [[0, 0, 1]]


def test_aggregation_method_constants():
    A = tf.AggregationMethod
    assert (A.ADD_N, A.DEFAULT, A.EXPERIMENTAL_TREE, A.EXPERIMENTAL_ACCUMULATE_N) == (0, 0, 1, 2)        # TF 2.21


def test_compat_v1_initializers_are_tf1s():
    v1 = tf.compat.v1
    assert v1.random_normal_initializer().get_config() == {"mean": 0.0, "stddev": 1.0, "seed": None,
                                                            "dtype": "float32"}                        # TF 2.21
    assert v1.random_uniform_initializer().get_config() == {"minval": 0.0, "maxval": None, "seed": None,
                                                             "dtype": "float32"}
    assert v1.truncated_normal_initializer(0.1, 0.2, seed=3, dtype=tf.float64).get_config() == {
        "mean": 0.1, "stddev": 0.2, "seed": 3, "dtype": "float64"}
    assert v1.glorot_uniform_initializer().get_config() == {"seed": None, "dtype": "float32"}
    assert v1.variance_scaling_initializer().get_config() == {"scale": 1.0, "mode": "fan_in",
                                                               "distribution": "truncated_normal", "seed": None,
                                                               "dtype": "float32"}
    assert v1.random_normal_initializer()([2], tf.float64).dtype == tf.float64
    assert v1.random_uniform_initializer(0, 10, dtype=tf.int32)([3]).dtype == tf.int32
    x = v1.glorot_uniform_initializer(seed=1)([200, 100]).numpy()
    assert np.abs(x).max() <= (6 / 300) ** 0.5 and np.abs(x).max() > 0.98 * (6 / 300) ** 0.5
    v = v1.random_normal_initializer()([20000]).numpy()
    assert abs(v.std() - 1.0) < 0.05                                   # TF1's default stddev is 1.0, not TF2's 0.05
    with pytest.raises(ValueError, match=r"Argument `dtype` is expected to be floating point. Received: "
                                         r"<dtype: 'int32'>."):
        v1.random_normal_initializer(dtype=tf.int32)
    with pytest.raises(ValueError, match=r"Argument `mode` should be one of \('fan_in', 'fan_out', 'fan_avg'\). "
                                         "Received: x"):
        v1.variance_scaling_initializer(mode="x")
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype tf.int32"):
        v1.random_uniform_initializer()([2], dtype=tf.int32)


def test_atrous_conv2d_transpose():
    v = tf.constant(np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) / 10)
    f = tf.constant(np.arange(3 * 3 * 2 * 3, dtype=np.float32).reshape(3, 3, 2, 3) / 7)
    out = tf.nn.atrous_conv2d_transpose(v, f, [2, 4, 4, 2], 2, "SAME")
    assert out.shape == (2, 4, 4, 2)
    np.testing.assert_allclose(out.numpy()[0, 0, :, 0], [15.7143, 22.4, 32.1714, 41.9429], rtol=1e-5)     # TF 2.21
    out = tf.nn.atrous_conv2d_transpose(v, f, [2, 8, 8, 2], 2, "VALID")
    np.testing.assert_allclose(out.numpy()[1, 0, :4, 1], [8.4286, 8.9429, 30.4857, 32.2857], rtol=1e-5)
    out = tf.nn.atrous_conv2d_transpose(v, f, [2, 4, 4, 2], 1, "SAME")
    np.testing.assert_allclose(out.numpy()[0, 0, :, 0], [9.0286, 24.3429, 36.6857, 37.3143], rtol=1e-5)
    with pytest.raises(IAE, match=r"padded_shape\[0\]=5 is not divisible"):     # TF's own pipeline fails here too
        tf.nn.atrous_conv2d_transpose(v, f, [2, 5, 7, 2], 3, "SAME")
    for args, msg in [((f, [2, 4, 4, 2], 0, "SAME"), "`rate` cannot be less than one. Received: rate=0"),
                      ((f, [2, 4, 4, 3], 2, "SAME"), "`output_shape` channel count must be compatible with `filters` "
                                                     "output channel count"),
                      ((f, [2, 4, 4, 2], 2, "FOO"), "`padding` must be either 'VALID' or 'SAME'. Received: "
                                                    "padding=FOO"),
                      ((f[:, :, :, :2], [2, 4, 4, 2], 2, "SAME"), "`value` channel count must be compatible with "
                                                                  "`filters` input channel count"),
                      ((f, [2, 4, 4], 2, "SAME"), r"`output_shape` must have shape \(4,\). Received: "
                                                  r"output_shape=\(3,\)")]:
        with pytest.raises(ValueError, match=msg):
            tf.nn.atrous_conv2d_transpose(v, *args)


def test_extract_volume_patches():
    x = tf.reshape(tf.range(2 * 3 * 4 * 5 * 2, dtype=tf.float32), [2, 3, 4, 5, 2])
    p = tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], "VALID")
    assert p.shape == (2, 2, 2, 2, 16)
    assert p.numpy()[1, 1, 0, 1].tolist() == [164, 165, 166, 167, 174, 175, 176, 177, 204, 205, 206, 207, 214, 215,
                                              216, 217]                                                  # TF 2.21
    p = tf.extract_volume_patches(x, [1, 2, 3, 2, 1], [1, 2, 2, 3, 1], "SAME")
    assert p.shape == (2, 2, 2, 2, 24)
    assert p.numpy()[0, 1, 1, 1].tolist() == [106, 107, 108, 109, 116, 117, 118, 119] + [0] * 16
    assert p.numpy()[0, 0, 0, 0].tolist() == [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 40, 41, 42, 43, 50, 51, 52,
                                              53, 60, 61, 62, 63]
    xv = tf.Variable(x)
    with tf.GradientTape() as g:
        y = tf.extract_volume_patches(xv, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "SAME")
    assert g.gradient(y, xv).numpy()[0, :, :, 0, 0].tolist() == [[1, 2, 2, 2], [2, 4, 4, 4], [2, 4, 4, 4]]
    for args, cls, msg in [
        (([2, 2, 2, 2, 1], [1] * 5, "VALID"), tf.errors.UnimplementedError, "Only support ksizes across space."),
        (([1, 2, 2, 2, 1], [2, 1, 1, 1, 1], "VALID"), tf.errors.UnimplementedError, "Only support strides across "
                                                                                     "space."),
        (([1, 2, 2, 2], [1] * 5, "VALID"), IAE, "Length for attr 'ksizes' of 4 must be at least minimum 5"),
        (([1, 2, 2, 2, 1], [1] * 5, "FOO"), IAE, "Value for attr 'padding' of \"FOO\" is not in the list"),
        (([1, 9, 2, 2, 1], [1] * 5, "VALID"), IAE, r"Computed output size would be negative: -5 \[input_size: 3, "
                                                   r"effective_filter_size: 9, stride: 1\]"),
    ]:
        with pytest.raises(cls, match=msg):
            tf.extract_volume_patches(x, *args)
    with pytest.raises(IAE, match=r"input must be 5-dimensional\[3,4,5,2\]"):
        tf.extract_volume_patches(x[0], [1, 2, 2, 2, 1], [1] * 5, "VALID")


def test_compat_v1_initializers_namespace():
    init = tf.compat.v1.initializers
    assert init.random_normal().get_config() == {"mean": 0.0, "stddev": 1.0, "seed": None, "dtype": "float32"}
    assert init.he_normal().get_config() == {"scale": 2.0, "mode": "fan_in", "distribution": "truncated_normal",
                                             "seed": None, "dtype": "float32"}                       # TF 2.21
    assert init.lecun_uniform().get_config()["distribution"] == "uniform"
    assert init.zeros is tf.compat.v1.zeros_initializer and init.constant is tf.compat.v1.constant_initializer
    assert init.global_variables is tf.compat.v1.global_variables_initializer
    assert not hasattr(init, "orthogonal")


def test_compat_v1_signatures_of_space_batch_morphology_fractional():
    v1 = tf.compat.v1
    x = tf.reshape(tf.range(16.), [1, 4, 4, 1])
    assert v1.space_to_batch(x, [[0, 0], [0, 0]], 2).numpy()[..., 0].tolist() == [
        [[0, 2], [8, 10]], [[1, 3], [9, 11]], [[4, 6], [12, 14]], [[5, 7], [13, 15]]]                   # TF 2.21
    assert v1.space_to_batch(x, [[0, 0], [0, 0]], block_shape=2).shape == (4, 2, 2, 1)
    assert v1.nn.space_to_batch(x, [[1, 1], [0, 0]], 2).shape == (4, 3, 2, 1)
    with pytest.raises(ValueError, match="Cannot specify both 'block_size' and 'block_shape'."):
        v1.space_to_batch(x, [[0, 0], [0, 0]], block_size=2, block_shape=2)
    with pytest.raises(ValueError, match=r"Shape \(4, 2, 2\) must have rank 4"):
        v1.space_to_batch(tf.zeros([1, 4, 4]), [[0, 0], [0, 0]], 2)
    y = tf.reshape(tf.range(16.), [4, 2, 2, 1])
    assert v1.batch_to_space(y, [[0, 0], [0, 0]], 2).numpy()[0, ..., 0].tolist() == [
        [0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]]
    assert v1.batch_to_space_nd(y, [2, 2], [[0, 0], [1, 0]]).shape == (1, 4, 3, 1)
    k = tf.reshape(tf.constant([0., 1., -1., 0.5]), [2, 2, 1])
    assert v1.nn.dilation2d(x, k, [1, 1, 1, 1], [1, 1, 1, 1], "SAME").numpy()[0, 0, :, 0].tolist() == [
        5.5, 6.5, 7.5, 6.0]
    assert v1.nn.dilation2d(x, filters=k, strides=[1] * 4, dilations=[1, 2, 2, 1],
                            padding="VALID").numpy()[0, ..., 0].tolist() == [[10.5, 11.5], [14.5, 15.5]]
    with pytest.raises(ValueError, match="Cannot specify both 'rates' and 'dilations'."):
        v1.nn.dilation2d(x, k, [1] * 4, rates=[1] * 4, padding="VALID", dilations=[1] * 4)
    assert v1.nn.erosion2d(x, k, [1] * 4, [1] * 4, "SAME").numpy()[0, 0, :, 0].tolist() == [-0.5, 0.5, 1.5, 2.5]
    assert v1.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1], True, False, True, 5, 9)[1].numpy().tolist() == [0, 2, 4]
    with pytest.raises(IAE, match="Both seed and seed2 should be 0 if deterministic is false."):
        v1.nn.fractional_max_pool(x, [1, 1.5, 1.5, 1], seed=5)
    with pytest.raises(TypeError, match="Expected list for 'pooling_ratio' argument to 'fractional_max_pool' Op, "
                                        "not 1.5."):
        v1.nn.fractional_max_pool(x, 1.5, deterministic=True, seed=3)
    with pytest.raises(tf.errors.UnimplementedError, match="Fractional average pooling is not yet supported on the "
                                                           "batch nor channel dimension."):
        v1.nn.fractional_avg_pool(x, [2, 1.5, 1.5, 1], deterministic=True, seed=1)
    with pytest.raises(IAE, match="pooling_ratio cannot be smaller than 1, got: 0.5"):
        v1.nn.fractional_max_pool(x, [1, 1.5, 0.5, 1], deterministic=True, seed=1)


def test_compat_v1_sufficient_statistics_keep_dims():
    x = tf.constant([[1., 2.], [3., 4.]])
    assert tf.compat.v1.nn.sufficient_statistics(x, [0], keep_dims=True)[1].shape == (1, 2)            # TF 2.21
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'."):
        tf.compat.v1.nn.sufficient_statistics(x, [0], keep_dims=True, keepdims=True)


def test_compat_v1_sets_names():
    s = tf.compat.v1.sets
    assert s.set_union is tf.sets.union and s.union is tf.sets.union and s.set_size is tf.sets.size   # TF 2.21
    assert s.set_intersection is tf.sets.intersection and s.set_difference is tf.sets.difference
