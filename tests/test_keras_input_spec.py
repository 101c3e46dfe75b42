"""Keras 3's InputSpec checks before a layer runs, integer inputs, and constructor checks (TF 2.21 / Keras 3.15)."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers


def _error(fn):
    with pytest.raises(ValueError) as info:
        fn()
    return str(info.value)


def test_dense_checks_rank_and_last_axis_before_call():
    d = L.Dense(2)
    assert _error(lambda: d(np.ones((3,), "float32"))) == (
        "Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected min_ndim=2, found "
        "ndim=1. Full shape received: (3,)")
    d(np.ones((2, 3), "float32"))
    assert _error(lambda: d(np.ones((2, 4), "float32"))) == (
        "Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected axis -1 of input shape "
        "to have value 3, but received input with shape (2, 4)")
    assert _error(lambda: d(np.ones((2, 2, 4), "float32"))).endswith(
        "expected axis -1 of input shape to have value 3, but received input with shape (2, 2, 4)")


@pytest.mark.parametrize("make, x, message", [
    (lambda: L.Conv1D(2, 3), np.ones((2, 5), "float32"),
     "Input 0 with name 'None' of layer 'conv1d' is incompatible with the layer: expected min_ndim=3, found ndim=2. "
     "Full shape received: (2, 5)"),
    (lambda: L.Conv1D(2, 3), np.ones((2, 2, 3), "float32"),
     "Computed output size would be zero or negative. Received `inputs shape=(2, 2, 3)`, `kernel shape=(3, 3, 2)`, "
     "`dilation_rate=[1]`, `strides=(1,)`, `padding=valid`."),
    (lambda: L.Conv2D(2, 3), np.ones((1, 2, 5, 5, 1), "float32"),
     "Kernel shape must have the same length as input, but received kernel of shape (3, 3, 1, 2) and input of "
     "shape (1, 2, 5, 5, 1)."),
    (lambda: L.Conv2DTranspose(2, 3), np.ones((2, 5, 5), "float32"),
     "Input 0 with name 'None' of layer 'conv2d_transpose' is incompatible with the layer: expected min_ndim=4, "
     "found ndim=3. Full shape received: (2, 5, 5)"),
    (lambda: L.DepthwiseConv2D(3), np.ones((2, 5, 5), "float32"),
     "Input 0 with name 'None' of layer 'depthwise_conv2d' is incompatible with the layer: expected min_ndim=4, "
     "found ndim=3. Full shape received: (2, 5, 5)"),
    (lambda: L.MaxPooling2D(), np.ones((2, 5, 5), "float32"),
     "Input 0 with name 'None' of layer 'max_pooling2d' is incompatible with the layer: expected ndim=4, found "
     "ndim=3. Full shape received: (2, 5, 5)"),
    (lambda: L.MaxPooling1D(), np.ones((2, 5), "float32"),
     "Input 0 with name 'None' of layer 'max_pooling1d' is incompatible with the layer: expected ndim=3, found "
     "ndim=2. Full shape received: (2, 5)"),
    (lambda: L.GlobalAveragePooling2D(), np.ones((2, 5, 5), "float32"),
     "Input 0 with name 'None' of layer 'global_average_pooling2d' is incompatible with the layer: expected ndim=4, "
     "found ndim=3. Full shape received: (2, 5, 5)"),
    (lambda: L.LSTM(2), np.ones((2, 5), "float32"),
     "Input 0 with name 'None' of layer 'lstm' is incompatible with the layer: expected ndim=3, found ndim=2. Full "
     "shape received: (2, 5)"),
])
def test_layers_check_their_input_spec(make, x, message):
    layer = make()
    assert _error(lambda: layer(x)) == message


def test_built_conv_and_batch_norm_check_the_channel_axis():
    c = L.Conv2D(2, 3)
    c(np.ones((1, 5, 5, 1), "float32"))
    assert _error(lambda: c(np.ones((1, 5, 5, 2), "float32"))) == (
        "Input 0 with name 'None' of layer 'conv2d' is incompatible with the layer: expected axis -1 of input shape "
        "to have value 1, but received input with shape (1, 5, 5, 2)")
    bn = L.BatchNormalization()
    bn(np.ones((1, 3), "float32"))
    assert _error(lambda: bn(np.ones((1, 4), "float32"))) == (
        "Input 0 with name 'None' of layer 'batch_normalization' is incompatible with the layer: expected axis -1 of "
        "input shape to have value 3, but received input with shape (1, 4)")


def test_custom_layer_input_spec_and_repr():
    class Square(L.Layer):
        def __init__(self):
            super().__init__()
            self.input_spec = L.InputSpec(ndim=2, axes={-1: 2}, dtype="float32")

        def call(self, x):
            return x * x
    layer = Square()
    assert repr(layer.input_spec) == "InputSpec(dtype=float32, ndim=2, axes={-1: 2})"
    assert _error(lambda: layer(np.ones((2, 3), "float32"))).endswith(
        "expected axis -1 of input shape to have value 2, but received input with shape (2, 3)")
    assert tf.keras.InputSpec is L.InputSpec


def test_dense_units_must_be_a_python_int():
    for units in (np.int32(3), np.int64(3), 3.0, 0, -1, "3", None, 2.5):
        assert _error(lambda u=units: L.Dense(u)) == (
            f"Received an invalid value for `units`, expected a positive integer. Received: units={units}")
    assert L.Dense(True).units is True


def test_integer_inputs_keep_the_gradient_path():
    # Keras: Dense promotes uint8/int64/bool inputs to its float kernel; models cast inputs to their Input dtype
    for dtype in ("uint8", "int64", "bool"):
        d = L.Dense(2)
        with tf.GradientTape() as tape:
            y = d(np.ones((2, 3), dtype))
        assert y.dtype == tf.float32
        assert [g is None for g in tape.gradient(y, d.trainable_variables)] == [False, False]
    x = np.random.RandomState(0).randint(0, 255, (8, 6, 6, 1)).astype("uint8")
    y = np.arange(8) % 2
    for first in ([], [tf.keras.Input((6, 6, 1))]):
        m = tf.keras.Sequential(first + [L.Conv2D(2, 3), L.Flatten(), L.Dense(2)])
        m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        m.fit(x, y, epochs=1, verbose=0)
        assert m(x).dtype == tf.float32
    inp = tf.keras.Input((3,), dtype="int32")
    model = tf.keras.Model(inp, L.Lambda(lambda t: t)(inp))
    out = model(np.full((2, 3), 1.7, "float32"))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[1, 1, 1], [1, 1, 1]]


def test_dense_rejects_string_inputs_as_keras():
    with pytest.raises(ValueError, match="dtype='string' is not a valid dtype for Keras type promotion."):
        L.Dense(2)(tf.constant([["a"]]))


def test_embedding_ids_out_of_range_and_negative():
    e = L.Embedding(10, 2)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        e(np.full((2, 3), 12, "int32"))
    assert str(info.value).split("\n")[2] == (
        "\x1b[1m{{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "indices[0,0] = 12 is not in [0, 10) [Op:GatherV2]\x1b[0m")
    table = e.embeddings.numpy()
    np.testing.assert_array_equal(e(np.full((1, 1), -1, "int32")).numpy()[0, 0], table[9])


def test_input_spec_sees_the_autocast_input():
    class Square(L.Layer):
        def __init__(self):
            super().__init__()
            self.input_spec = L.InputSpec(ndim=2, axes={-1: 2}, dtype="float32")

        def call(self, x):
            return x * x
    layer = Square()
    assert layer(np.ones((2, 2), "float64")).dtype == tf.float32       # float64 is autocast before the check
    assert _error(lambda: layer(np.ones((2, 2), "int32"))) == (
        "Input 0 with name 'None' of layer 'square' is incompatible with the layer: expected dtype=float32, found "
        "dtype=int32")


def test_convolutions_reject_integer_inputs_as_keras_on_tf():
    # Keras 3 on TF 2.21 converts the kernel to the input's dtype (Conv2D/3D/transposes) or hands it to the op
    conv = L.Conv2D(1, 1, kernel_initializer="ones")
    with pytest.raises(ValueError) as info:
        conv(np.ones((1, 2, 2, 1), "uint8"))
    assert str(info.value).split("\n")[2] == (
        "\x1b[1mIncompatible type conversion requested to type uint8 for `tf.Variable of type float32. (Variable: "
        "<tf.Variable 'conv2d/kernel:0' shape=(1, 1, 1, 1) dtype=float32, numpy=array([[[[1.]]]], dtype=float32)>)"
        "\x1b[0m")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute Conv2D as input #1\(zero-based\) was "
                                                             r"expected to be a int32 tensor but is a float tensor"):
        L.Conv1D(1, 1)(np.ones((1, 2, 1), "int32"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint8 is not in the list of "
                                                             "allowed values: half, bfloat16, float, double\n"):
        L.DepthwiseConv2D(1)(np.ones((1, 2, 2, 1), "uint8"))
    assert L.Conv2D(1, 1)(np.ones((1, 2, 2, 1), "float64")).dtype == tf.float32


def test_pooling_windows_larger_than_the_input_give_empty_outputs():
    x = np.ones((2, 2, 2, 1), "float32")
    assert L.MaxPooling2D(3)(x).shape == (2, 0, 0, 1)
    assert L.AveragePooling2D(3)(x).shape == (2, 0, 0, 1)
    assert L.MaxPooling1D(3)(x[:, :, 0]).shape == (2, 0, 1)
    assert tf.nn.avg_pool1d(x[:, :, 0], 3, 2, "VALID").shape == (2, 0, 1)
    assert tf.nn.max_pool3d(np.ones((1, 2, 2, 2, 1), "float32"), 3, 1, "VALID").shape == (1, 0, 0, 0, 1)
    assert tf.nn.max_pool2d(x.astype("int32"), 3, 1, "VALID").shape == (2, 0, 0, 1)


def test_layers_with_float_weights_compute_integer_inputs_in_float():
    x = np.array([[1, 2], [3, 5]], "int32")
    einsum = L.EinsumDense("ab,bc->ac", output_shape=3, kernel_initializer="ones")(x)
    assert einsum.dtype == tf.float32 and einsum.numpy().tolist() == [[3.0, 3.0, 3.0], [8.0, 8.0, 8.0]]
    assert L.LayerNormalization()(x).dtype == tf.float32
    assert L.BatchNormalization()(x).dtype == tf.float32
    assert L.LSTM(2)(np.ones((1, 2, 2), "int32")).dtype == tf.float32
    assert L.SimpleRNN(2)(np.ones((1, 2, 2), "uint8")).dtype == tf.float32
    assert L.Dropout(0.5)(x, training=False).dtype == tf.int32       # no float weights: the dtype stays
