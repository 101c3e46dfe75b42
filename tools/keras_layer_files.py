"""Writes one `.keras` file per built-in layer and checks that the other implementation loads them all.

    /root/tfvenv/bin/python tools/keras_layer_files.py write DIR     # real Keras 3: DIR/<case>.keras + expected.npz
    python tools/keras_layer_files.py check DIR                       # tfcompat: load each, compare predictions
    (and the other way round: `write` under tfcompat, `check` under real Keras)
    /root/tfvenv/bin/python tools/keras_layer_files.py configs FILE   # real Keras: the compact test fixture

Each case is a functional model `Input(s) -> layer` (weights as initialized); the configs fixture
(tests/fixtures/keras/layer_configs.json) keeps only each layer's serialized config (with its build config), its
inputs and the output shape, so tests can replay them without the files.
"""
import json
import os
import sys

import numpy as np

F, I, S = "float32", "int32", "string"
# case -> (layer expression, [(input shape without batch, dtype)]); the expression is evaluated with `L` the
# `keras.layers` module of the implementation under test.
CASES = {
    "Activation": ("L.Activation('relu')", [((4,), F)]),
    "ActivityRegularization": ("L.ActivityRegularization(l1=0.01)", [((4,), F)]),
    "Add": ("L.Add()", [((4,), F), ((4,), F)]),
    "Average": ("L.Average()", [((4,), F), ((4,), F)]),
    "Maximum": ("L.Maximum()", [((4,), F), ((4,), F)]),
    "Minimum": ("L.Minimum()", [((4,), F), ((4,), F)]),
    "Multiply": ("L.Multiply()", [((4,), F), ((4,), F)]),
    "Subtract": ("L.Subtract()", [((4,), F), ((4,), F)]),
    "Concatenate": ("L.Concatenate(axis=-1)", [((4,), F), ((2,), F)]),
    "Dot": ("L.Dot(axes=1)", [((4,), F), ((4,), F)]),
    "Attention": ("L.Attention()", [((3, 4), F), ((3, 4), F)]),
    "AdditiveAttention": ("L.AdditiveAttention()", [((3, 4), F), ((3, 4), F)]),
    "MultiHeadAttention": ("L.MultiHeadAttention(num_heads=2, key_dim=2)", [((3, 4), F), ((3, 4), F)]),
    "AveragePooling1D": ("L.AveragePooling1D(2)", [((6, 2), F)]),
    "AveragePooling2D": ("L.AveragePooling2D(2)", [((6, 6, 2), F)]),
    "AveragePooling3D": ("L.AveragePooling3D(2)", [((4, 4, 4, 2), F)]),
    "MaxPooling1D": ("L.MaxPooling1D(2)", [((6, 2), F)]),
    "MaxPooling2D": ("L.MaxPooling2D(2)", [((6, 6, 2), F)]),
    "MaxPooling3D": ("L.MaxPooling3D(2)", [((4, 4, 4, 2), F)]),
    "GlobalAveragePooling1D": ("L.GlobalAveragePooling1D()", [((6, 2), F)]),
    "GlobalAveragePooling2D": ("L.GlobalAveragePooling2D()", [((6, 6, 2), F)]),
    "GlobalAveragePooling3D": ("L.GlobalAveragePooling3D()", [((4, 4, 4, 2), F)]),
    "GlobalMaxPooling1D": ("L.GlobalMaxPooling1D()", [((6, 2), F)]),
    "GlobalMaxPooling2D": ("L.GlobalMaxPooling2D(keepdims=True)", [((6, 6, 2), F)]),
    "GlobalMaxPooling3D": ("L.GlobalMaxPooling3D()", [((4, 4, 4, 2), F)]),
    "BatchNormalization": ("L.BatchNormalization()", [((4,), F)]),
    "LayerNormalization": ("L.LayerNormalization()", [((4,), F)]),
    "Bidirectional": ("L.Bidirectional(L.LSTM(3))", [((5, 2), F)]),
    "Bidirectional_seq": ("L.Bidirectional(L.GRU(3, return_sequences=True), merge_mode='sum')", [((5, 2), F)]),
    "TimeDistributed": ("L.TimeDistributed(L.Dense(3))", [((5, 4), F)]),
    "CategoryEncoding": ("L.CategoryEncoding(num_tokens=5, output_mode='one_hot')", [((1,), I)]),
    "CenterCrop": ("L.CenterCrop(4, 4)", [((6, 6, 3), F)]),
    "Conv1D": ("L.Conv1D(3, 2, activation='relu')", [((6, 2), F)]),
    "Conv1DTranspose": ("L.Conv1DTranspose(3, 2)", [((6, 2), F)]),
    "Conv2D": ("L.Conv2D(3, 2, padding='same')", [((6, 6, 2), F)]),
    "Conv2DTranspose": ("L.Conv2DTranspose(3, 2, strides=2)", [((6, 6, 2), F)]),
    "Conv3D": ("L.Conv3D(3, 2)", [((4, 4, 4, 2), F)]),
    "Conv3DTranspose": ("L.Conv3DTranspose(3, 2)", [((4, 4, 4, 2), F)]),
    "DepthwiseConv2D": ("L.DepthwiseConv2D(2, depth_multiplier=2)", [((6, 6, 2), F)]),
    "SeparableConv2D": ("L.SeparableConv2D(3, 2)", [((6, 6, 2), F)]),
    "Cropping1D": ("L.Cropping1D(1)", [((6, 2), F)]),
    "Cropping2D": ("L.Cropping2D(1)", [((6, 6, 2), F)]),
    "Cropping3D": ("L.Cropping3D(1)", [((4, 4, 4, 2), F)]),
    "Dense": ("L.Dense(3, activation='relu')", [((4,), F)]),
    "Dense_mixed": ("L.Dense(3, dtype='mixed_float16')", [((4,), F)]),
    "Discretization": ("L.Discretization(bin_boundaries=[0.0, 1.0])", [((4,), F)]),
    "Dropout": ("L.Dropout(0.5)", [((4,), F)]),
    "ELU": ("L.ELU()", [((4,), F)]),
    "EinsumDense": ("L.EinsumDense('ab,bc->ac', output_shape=3, bias_axes='c')", [((4,), F)]),
    "Embedding": ("L.Embedding(10, 3)", [((5,), I)]),
    "Embedding_mask": ("L.Embedding(10, 3, mask_zero=True)", [((5,), I)]),
    "Flatten": ("L.Flatten()", [((3, 2), F)]),
    "GRU": ("L.GRU(3)", [((5, 2), F)]),
    "LSTM": ("L.LSTM(3, return_sequences=True)", [((5, 2), F)]),
    "SimpleRNN": ("L.SimpleRNN(3)", [((5, 2), F)]),
    "RNN_LSTMCell": ("L.RNN(L.LSTMCell(3))", [((5, 2), F)]),
    "RNN_GRUCell": ("L.RNN(L.GRUCell(3))", [((5, 2), F)]),
    "RNN_SimpleRNNCell": ("L.RNN(L.SimpleRNNCell(3))", [((5, 2), F)]),
    "RNN_StackedRNNCells": ("L.RNN(L.StackedRNNCells([L.LSTMCell(3), L.GRUCell(2)]))", [((5, 2), F)]),
    "GaussianDropout": ("L.GaussianDropout(0.1)", [((4,), F)]),
    "GaussianNoise": ("L.GaussianNoise(0.1)", [((4,), F)]),
    "Identity": ("L.Identity()", [((4,), F)]),
    "IntegerLookup": ("L.IntegerLookup(vocabulary=[1, 2, 3])", [((3,), I)]),
    "StringLookup": ("L.StringLookup(vocabulary=['a', 'b'])", [((2,), S)]),
    "TextVectorization": ("L.TextVectorization(vocabulary=['a', 'b'], output_sequence_length=3)", [((1,), S)]),
    "LeakyReLU": ("L.LeakyReLU(negative_slope=0.1)", [((4,), F)]),
    "Normalization": ("L.Normalization(mean=[0.5, 0.0, 1.0, 2.0], variance=[2.0, 1.0, 4.0, 1.0])", [((4,), F)]),
    "PReLU": ("L.PReLU()", [((4,), F)]),
    "Permute": ("L.Permute((2, 1))", [((3, 2), F)]),
    "RandomContrast": ("L.RandomContrast(0.2)", [((6, 6, 3), F)]),
    "RandomFlip": ("L.RandomFlip()", [((6, 6, 3), F)]),
    "RandomRotation": ("L.RandomRotation(0.1)", [((6, 6, 3), F)]),
    "RandomTranslation": ("L.RandomTranslation(0.1, 0.1)", [((6, 6, 3), F)]),
    "RandomZoom": ("L.RandomZoom(0.1)", [((6, 6, 3), F)]),
    "ReLU": ("L.ReLU(max_value=6.0)", [((4,), F)]),
    "RepeatVector": ("L.RepeatVector(2)", [((4,), F)]),
    "Rescaling": ("L.Rescaling(1 / 255.0, offset=0.5)", [((4,), F)]),
    "Reshape": ("L.Reshape((2, 2))", [((4,), F)]),
    "Resizing": ("L.Resizing(3, 3)", [((6, 6, 3), F)]),
    "Softmax": ("L.Softmax()", [((4,), F)]),
    "SpatialDropout1D": ("L.SpatialDropout1D(0.2)", [((5, 2), F)]),
    "SpatialDropout2D": ("L.SpatialDropout2D(0.2)", [((6, 6, 2), F)]),
    "SpatialDropout3D": ("L.SpatialDropout3D(0.2)", [((4, 4, 4, 2), F)]),
    "UpSampling1D": ("L.UpSampling1D(2)", [((3, 2), F)]),
    "UpSampling2D": ("L.UpSampling2D(2)", [((3, 3, 2), F)]),
    "UpSampling3D": ("L.UpSampling3D(2)", [((2, 2, 2, 2), F)]),
    "ZeroPadding1D": ("L.ZeroPadding1D(1)", [((3, 2), F)]),
    "ZeroPadding2D": ("L.ZeroPadding2D(1)", [((3, 3, 2), F)]),
    "ZeroPadding3D": ("L.ZeroPadding3D(1)", [((2, 2, 2, 2), F)]),
}


def sample(shape, dtype, seed):
    """A deterministic batch of 2 inputs of `shape`/`dtype`."""
    rng = np.random.default_rng(seed)
    if dtype == S:
        return np.array([["a", "b", "c"][i % 3] for i in range(2 * int(np.prod(shape)))], dtype=object).reshape((2,) + shape)
    if dtype == I:
        return rng.integers(0, 4, size=(2,) + shape).astype("int32")
    return rng.normal(size=(2,) + shape).astype("float32")


def inputs_of(case):
    return [sample(shape, dtype, k) for k, (shape, dtype) in enumerate(CASES[case][1])]


def predict(tf, model, case):
    """The model's output on the case's inputs, called directly (strings go in as `tf.constant`)."""
    xs = [tf.constant(x) for x in inputs_of(case)]
    return np.asarray(model(xs if len(xs) > 1 else xs[0], training=False))


def build(keras, case):
    """The functional model `Input(s) -> layer` of `case`, and its layer."""
    expr, specs = CASES[case]
    keras.utils.set_random_seed(0)
    ins = [keras.Input(shape, dtype=dtype) for shape, dtype in specs]
    layer = eval(expr, {"L": keras.layers})       # the table above, not input from a file
    out = layer(ins if len(ins) > 1 and case != "MultiHeadAttention" else ins[0]) if case != "MultiHeadAttention" \
        else layer(ins[0], ins[1])
    return keras.Model(ins, out), layer


def implementation():
    """(tf, keras) of this environment: real TensorFlow and Keras where installed, else tfcompat."""
    import importlib
    try:
        return importlib.import_module("tensorflow"), importlib.import_module("keras")
    except ImportError:
        return importlib.import_module("tfcompat"), importlib.import_module("tfcompat.keras")


def write(out_dir):
    tf, keras = implementation()
    os.makedirs(out_dir, exist_ok=True)
    expected = {}
    for case in CASES:
        model, _ = build(keras, case)
        model.save(os.path.join(out_dir, f"{case}.keras"))
        expected[case] = predict(tf, model, case)
    np.savez(os.path.join(out_dir, "expected.npz"), **expected)


def configs(path):
    import keras
    out = {}
    for case in CASES:
        model, layer = build(keras, case)
        out[case] = {"layer": keras.layers.serialize(layer), "output_shape": list(model.output.shape),
                     "inputs": [[list(shape), dtype] for shape, dtype in CASES[case][1]]}
    with open(path, "w") as f:       # one case a line
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}"
                                     for k, v in out.items()) + "\n}\n")


def check(in_dir):
    tf, keras = implementation()
    expected = np.load(os.path.join(in_dir, "expected.npz"))
    failed = 0
    for case in CASES:
        try:
            model = keras.models.load_model(os.path.join(in_dir, f"{case}.keras"))
            got = predict(tf, model, case)
            np.testing.assert_allclose(got, expected[case], rtol=1e-3, atol=1e-4)
        except Exception as e:  # noqa: BLE001 -- a report line per case, then the next one
            failed += 1
            print(f"FAIL {case}: {type(e).__name__}: {str(e)[:300]}")
    print(f"{len(CASES) - failed}/{len(CASES)} layer files load and predict as where they were written")
    return failed


if __name__ == "__main__":
    mode, where = sys.argv[1], sys.argv[2]
    if mode == "write":
        write(where)
    elif mode == "configs":
        configs(where)
    else:
        sys.exit(1 if check(where) else 0)
