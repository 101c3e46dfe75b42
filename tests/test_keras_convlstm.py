"""Keras 3's ConvLSTM1D/2D/3D against TF 2.21 / Keras 3.15.1: outputs with the same weights (return_sequences,
return_state, go_backwards, strides, dilation, channels_first, other activations, stateful), weight paths and
shapes, functional output shapes, config keys, errors, and .weights.h5 round trips."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers

# TF 2.21: (constructor, input shape, symbolic output shapes, [(weight path, shape)], outputs)
CASES = [
    ('L.ConvLSTM1D(2, 3)', (2, 4, 6, 3), [(None, 4, 2)],
     [('conv_lstm1d/conv_lstm_cell/kernel', (3, 3, 8)), ('conv_lstm1d/conv_lstm_cell/recurrent_kernel', (3, 2, 8)), ('conv_lstm1d/conv_lstm_cell/bias', (8,))],
     [[[[0.28389, 0.33065], [0.26741, 0.34739], [0.23335, 0.28529], [0.25074, 0.32955]], [[0.26817, 0.33646], [0.23254, 0.28753], [0.28861, 0.34526], [0.23193, 0.32806]]]]),
    ("L.ConvLSTM1D(2, 2, padding='same', return_sequences=True, return_state=True)", (1, 3, 5, 2), [(None, 3, 5, 2), (None, 5, 2), (None, 5, 2)],
     [('conv_lstm1d/conv_lstm_cell/kernel', (2, 2, 8)), ('conv_lstm1d/conv_lstm_cell/recurrent_kernel', (2, 2, 8)), ('conv_lstm1d/conv_lstm_cell/bias', (8,))],
     [[[[[-0.00081, 0.08724], [0.14509, 0.16543], [0.11975, 0.12335], [0.04609, 0.15397], [0.13725, 0.14774]], [[-0.06042, 0.15348], [0.26069, 0.25697], [0.01992, 0.15435], [0.19361, 0.2454], [0.1807, 0.22299]], [[0.07242, 0.236], [0.30861, 0.31352], [-0.01861, 0.20266], [0.29289, 0.30526], [0.15681, 0.2341]]]], [[[0.07242, 0.236], [0.30861, 0.31352], [-0.01861, 0.20266], [0.29289, 0.30526], [0.15681, 0.2341]]], [[[0.10485, 0.36131], [0.56129, 0.60281], [-0.02687, 0.28447], [0.51018, 0.62021], [0.25729, 0.35926]]]]),
    ("L.ConvLSTM1D(3, 2, strides=2, go_backwards=True, data_format='channels_first')", (1, 3, 2, 7), [(None, 3, 3)],
     [('conv_lstm1d/conv_lstm_cell/kernel', (2, 2, 12)), ('conv_lstm1d/conv_lstm_cell/recurrent_kernel', (2, 3, 12)), ('conv_lstm1d/conv_lstm_cell/bias', (12,))],
     [[[[0.12176, 0.40173, 0.15563], [0.04773, 0.31357, 0.04753], [0.03204, 0.22767, -0.12508]]]]),
    ('L.ConvLSTM2D(2, (2, 2))', (1, 3, 4, 5, 2), [(None, 3, 4, 2)],
     [('conv_lstm2d/conv_lstm_cell/kernel', (2, 2, 2, 8)), ('conv_lstm2d/conv_lstm_cell/recurrent_kernel', (2, 2, 2, 8)), ('conv_lstm2d/conv_lstm_cell/bias', (8,))],
     [[[[[0.25264, 0.33121], [0.19149, 0.22113], [0.12369, 0.29175], [0.22535, 0.24151]], [[0.30296, 0.31277], [0.0871, 0.17582], [0.28415, 0.33148], [0.13991, 0.18249]], [[0.19335, 0.21942], [0.02624, 0.21791], [0.25616, 0.26858], [0.01687, 0.15106]]]]]),
    ("L.ConvLSTM2D(2, 3, padding='same', return_sequences=True, dilation_rate=2, use_bias=False, unit_forget_bias=False)", (1, 2, 5, 5, 1), [(None, 2, 5, 5, 2)],
     [('conv_lstm2d/conv_lstm_cell/kernel', (3, 3, 1, 8)), ('conv_lstm2d/conv_lstm_cell/recurrent_kernel', (3, 3, 2, 8))],
     [[[[[[0.05137, 0.04522], [0.01359, -0.01579], [0.01194, 0.01129], [-0.0112, -0.03912], [-0.05576, -0.04658]], [[0.04361, 0.02445], [-0.01357, -0.04094], [0.02683, 0.02668], [-0.03736, -0.05408], [-0.04854, -0.02194]], [[0.02423, -0.01356], [-0.06541, -0.07399], [0.01594, 0.03226], [-0.07484, -0.0543], [-0.02204, 0.0214]], [[-0.0216, -0.04227], [-0.05293, -0.03168], [0.02103, 0.01643], [-0.03606, -0.00397], [0.02338, 0.03284]], [[-0.04465, -0.04904], [-0.03823, -0.00703], [0.02738, 0.02157], [-0.01189, 0.01649], [0.03874, 0.0331]]], [[[-0.02456, -0.033], [-0.02243, -0.00533], [0.0022, 0.00255], [-0.01502, 0.00145], [0.017, 0.02115]], [[-0.03667, -0.0327], [-0.0091, 0.00972], [-0.00917, -0.00807], [0.00145, 0.01419], [0.02135, 0.01911]], [[-0.04315, -0.01885], [0.01163, 0.02024], [-0.0106, -0.01924], [0.01909, 0.02344], [0.02404, 0.00323]], [[-0.01134, 0.00299], [0.01922, 0.01945], [-0.0058, -0.00493], [0.0233, 0.01528], [0.00132, -0.01727]], [[0.00503, 0.01239], [0.02135, 0.01346], [-0.01018, -0.00753], [0.02045, 0.00471], [-0.0154, -0.02385]]]]]]),
    ("L.ConvLSTM2D(1, 2, activation='relu', recurrent_activation='hard_sigmoid', return_state=True)", (2, 2, 3, 3, 2), [(None, 2, 2, 1), (None, 2, 2, 1), (None, 2, 2, 1)],
     [('conv_lstm2d/conv_lstm_cell/kernel', (2, 2, 2, 4)), ('conv_lstm2d/conv_lstm_cell/recurrent_kernel', (2, 2, 1, 4)), ('conv_lstm2d/conv_lstm_cell/bias', (4,))],
     [[[[[0.09686], [0.0]], [[0.0], [0.03125]]], [[[0.08171], [0.0]], [[0.02686], [0.0]]]], [[[[0.09686], [0.0]], [[0.0], [0.03125]]], [[[0.08171], [0.0]], [[0.02686], [0.0]]]], [[[[0.17562], [0.0]], [[0.0], [0.0569]]], [[[0.14558], [0.0]], [[0.05221], [0.0]]]]]),
    ('L.ConvLSTM3D(2, 2)', (1, 2, 3, 3, 3, 1), [(None, 2, 2, 2, 2)],
     [('conv_lstm3d/conv_lstm_cell/kernel', (2, 2, 2, 1, 8)), ('conv_lstm3d/conv_lstm_cell/recurrent_kernel', (2, 2, 2, 2, 8)), ('conv_lstm3d/conv_lstm_cell/bias', (8,))],
     [[[[[[0.02072, 0.11638], [0.22058, 0.25425]], [[0.20237, 0.26077], [0.01602, 0.12492]]], [[[0.00991, 0.10652], [0.16814, 0.20788]], [[0.23032, 0.27692], [0.03506, 0.14061]]]]]]),
]
STATEFUL = [[[[0.16686, 0.18584], [0.0354, 0.10441], [0.11927, 0.23104]]], [[[0.22439, 0.2515], [0.04905, 0.13344], [0.14402, 0.28927]]]]
CONFIG_KEYS = ['name', 'trainable', 'dtype', 'return_sequences', 'return_state', 'go_backwards', 'stateful', 'unroll', 'zero_output_for_mask', 'filters', 'kernel_size', 'strides', 'padding', 'data_format', 'dilation_rate', 'activation', 'recurrent_activation', 'use_bias', 'kernel_initializer', 'recurrent_initializer', 'bias_initializer', 'unit_forget_bias', 'kernel_regularizer', 'recurrent_regularizer', 'bias_regularizer', 'activity_regularizer', 'kernel_constraint', 'recurrent_constraint', 'bias_constraint', 'dropout', 'recurrent_dropout', 'seed']


def _input(shape):
    return (np.sin(np.arange(int(np.prod(shape)), dtype="float32") * 1.37 + 0.2) * 2).reshape(shape).astype("float32")


def _weights(layer):
    return [(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
            .astype("float32") / np.sqrt(np.prod(w.shape[:-1])) for i, w in enumerate(layer.weights)]


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=2e-5, rtol=1e-5)


@pytest.mark.parametrize("ctor,shape,sym,paths,outputs", CASES)
def test_conv_lstm_values(ctor, shape, sym, paths, outputs):
    tf.keras.backend.clear_session()
    layer = eval(ctor)
    y = layer(tf.keras.Input(shape[1:]))
    assert [tuple(t.shape) for t in (y if isinstance(y, (list, tuple)) else [y])] == sym
    assert [(w.path, tuple(w.shape)) for w in layer.weights] == paths
    layer.set_weights(_weights(layer))
    out = layer(_input(shape))
    for got, want in zip(out if isinstance(out, (list, tuple)) else [out], outputs):
        _close(got, want)


def test_conv_lstm_stateful_config_and_bias_init():
    s = L.ConvLSTM1D(2, 2, stateful=True)
    s.build((1, 2, 4, 1))
    s.set_weights(_weights(s))
    _close(s(_input((1, 2, 4, 1))), STATEFUL[0])
    _close(s(_input((1, 2, 4, 1))), STATEFUL[1])
    s.reset_states()
    _close(s(_input((1, 2, 4, 1))), STATEFUL[0])
    layer = L.ConvLSTM2D(2, 3)
    config = layer.get_config()
    assert list(config) == CONFIG_KEYS
    assert config["kernel_size"] == (3, 3) and config["recurrent_activation"] == "sigmoid"
    assert layer.filters == 2 and layer.kernel_size == (3, 3) and layer.cell.name == "conv_lstm_cell"
    clone = L.ConvLSTM2D.from_config(config)
    assert clone.filters == 2 and clone.padding == "valid"
    layer.build((None, 3, 5, 5, 2))
    np.testing.assert_array_equal(layer.weights[2], [0, 0, 1, 1, 0, 0, 0, 0])     # unit_forget_bias


def test_conv_lstm_dropout_training_and_model_params(tmp_path):
    layer = L.ConvLSTM1D(2, 2, dropout=0.5, recurrent_dropout=0.3, return_sequences=True)
    x = _input((4, 3, 5, 2))
    inference = np.asarray(layer(x))
    assert inference.shape == (4, 3, 4, 2)
    np.testing.assert_array_equal(layer(x), inference)
    assert not np.allclose(layer(x, training=True), inference)
    model = tf.keras.Sequential([tf.keras.Input((3, 5, 5, 1)), L.ConvLSTM2D(4, 3, padding="same",
                                                                            return_sequences=True),
                                 L.BatchNormalization(), L.ConvLSTM2D(2, 3)])
    assert model.output_shape == (None, 3, 3, 2)
    assert [layer.count_params() for layer in model.layers] == [736, 16, 440]   # TF 2.21's summary
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    clone = tf.keras.models.clone_model(model)
    clone.load_weights(path)
    xs = _input((1, 3, 5, 5, 1))
    _close(clone(xs), model(xs))


def test_conv_lstm_errors():
    with pytest.raises(ValueError, match="expected ndim=5, found ndim=4"):
        L.ConvLSTM2D(2, 3)(np.ones((1, 3, 5, 2), "float32"))
    with pytest.raises(ValueError, match=r"Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please "
                       r"provide `strides=1` or `dilation_rate=1`. Received: strides=\(2, 2\) and "
                       r"dilation_rate=\(2, 2\)"):
        L.ConvLSTM2D(2, 3, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match=r"ConvLSTM layers only support static input shapes for the spatial "
                       r"dimension. Received invalid input shape: input_shape=\(None, None, 5, 2\)"):
        L.ConvLSTM2D(2, 3)(tf.keras.Input((3, None, 5, 2)))
    with pytest.raises(ValueError, match="Received: causal"):
        L.ConvLSTM1D(2, 3, padding="causal")


def test_fit_convlstm_groupnorm_spectralnorm_matches_tf():
    tf.keras.utils.set_random_seed(0)
    x = np.sin(np.arange(4 * 3 * 6 * 6, dtype="float32") * 0.7).reshape(4, 3, 6, 6, 1)
    y = np.cos(np.arange(4 * 6 * 6, dtype="float32") * 0.3).reshape(4, 6, 6, 1)
    m = tf.keras.Sequential([tf.keras.Input((3, 6, 6, 1)), L.ConvLSTM2D(3, 3, padding="same", return_sequences=True),
                             L.GroupNormalization(3), L.ConvLSTM2D(2, 3, padding="same"),
                             L.SpectralNormalization(L.Conv2D(1, 1))])
    m.set_weights([(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
                   .astype("float32") / np.sqrt(np.prod(w.shape[:-1]) if len(w.shape) > 1 else 1)
                   for i, w in enumerate(m.weights)])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = m.fit(x, y, epochs=3, batch_size=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [4.48383, 1.5452, 0.60114], rtol=1e-4)     # TF 2.21
    np.testing.assert_allclose(m.predict(x[:1], verbose=0).ravel()[:6],
                               [0.03074, 0.054, 0.0567, 0.05848, 0.0576, 0.02577], atol=2e-5)
