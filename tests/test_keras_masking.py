"""Keras 3 masking: `_keras_mask` on layer outputs, masks reaching `call(mask=...)`/`compute_mask`, RNNs
consuming them (behaviour checked against TF 2.21 + Keras 3.15)."""
import warnings

import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers
IDS = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
IDS_MASK = [[True, True, False, False], [True, False, False, False]]


def test_embedding_mask_zero_attaches_the_mask():
    e = L.Embedding(5, 3, mask_zero=True)
    y = e(IDS)
    assert y._keras_mask.numpy().tolist() == IDS_MASK
    assert e.compute_mask(IDS).numpy().tolist() == IDS_MASK
    assert getattr(L.Embedding(5, 3)(IDS), "_keras_mask", None) is None
    with pytest.raises(AttributeError):
        L.Embedding(5, 3)(IDS)._keras_mask  # noqa: B018 - the read must raise


def test_masking_layer():
    x = np.array([[[1.], [0.]], [[0.], [2.]]], "float32")
    m = L.Masking(mask_value=0.0)
    out = m(x)
    assert out._keras_mask.numpy().tolist() == [[True, False], [False, True]]
    assert out.numpy().tolist() == [[[1.0], [0.0]], [[0.0], [2.0]]]
    assert m.get_config()["mask_value"] == 0.0
    x2 = np.array([[[1., 5.], [5., 5.]]], "float32")
    out2 = L.Masking(mask_value=5.0)(x2)
    assert out2._keras_mask.numpy().tolist() == [[True, False]]
    assert out2.numpy().tolist() == [[[1.0, 5.0], [0.0, 0.0]]]


class _Doubler(L.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.seen = []

    def call(self, inputs, mask=None):
        self.seen.append(("call", None if mask is None else mask.numpy().tolist()))
        return inputs * 2

    def compute_mask(self, inputs, mask=None):
        self.seen.append(("compute_mask", None if mask is None else mask.numpy().tolist()))
        return mask


def test_mask_reaches_custom_call_and_compute_mask_and_propagates():
    y = L.Embedding(5, 3, mask_zero=True)(IDS)
    layer = _Doubler()
    w = layer(y)
    assert layer.seen == [("call", IDS_MASK), ("compute_mask", IDS_MASK)]
    assert w._keras_mask.numpy().tolist() == IDS_MASK
    assert L.Dense(2)(y)._keras_mask.numpy().tolist() == IDS_MASK      # Dense supports masking in Keras 3
    assert L.LSTM(2)(y).shape == (2, 2)
    assert getattr(L.LSTM(2)(y), "_keras_mask", None) is None
    assert L.LSTM(2, return_sequences=True)(y)._keras_mask.numpy().tolist() == IDS_MASK


def test_explicit_mask_argument_wins():
    y = L.Embedding(5, 3, mask_zero=True)(IDS)
    layer = _Doubler()
    explicit = tf.constant([[True, False, False, False], [True, True, False, False]])
    layer(y, mask=explicit)
    assert layer.seen[0] == ("call", explicit.numpy().tolist())


def test_supports_masking_flags_as_keras():
    assert [L.Dense(1).supports_masking, L.Conv1D(2, 1).supports_masking, L.LSTM(2).supports_masking,
            L.Flatten().supports_masking, L.Layer().supports_masking, L.Identity().supports_masking,
            L.Lambda(lambda x: x).supports_masking, L.Masking().supports_masking] == \
        [True, False, True, False, False, True, False, True]


def test_non_masking_layer_warns():
    class NoMask(L.Layer):
        def call(self, inputs):
            return inputs + 0
    y = L.Embedding(5, 3, mask_zero=True)(IDS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        NoMask()(y)
    assert [str(w.message)[:83] for w in caught] == [
        "Layer 'no_mask' (of type NoMask) was passed an input with a mask attached to it. Ho"]


def test_lstm_skips_masked_steps_in_models():
    # a masked trailing step leaves the final state of the unmasked prefix (Keras semantics)
    tf.keras.utils.set_random_seed(0)
    x = np.array([[[1., 2.], [3., -1.], [0., 0.]]], "float32")
    lstm = L.LSTM(3)
    masked = tf.keras.Sequential([tf.keras.Input((3, 2)), L.Masking(0.0), lstm])
    np.testing.assert_allclose(masked(x).numpy(), lstm(x[:, :2]).numpy(), rtol=1e-6)
    inp = tf.keras.Input((4,), dtype="int32")
    emb = L.Embedding(5, 2, mask_zero=True)
    gru = L.GRU(3)
    model = tf.keras.Model(inp, gru(emb(inp)))
    np.testing.assert_allclose(model(IDS[:1]).numpy(), gru(emb(IDS[:1, :2])).numpy(), rtol=1e-6)


def test_lambda_mask_argument():
    y = L.Embedding(5, 3, mask_zero=True)(IDS)
    out = L.Lambda(lambda t, mask=None: t * tf.cast(mask, t.dtype)[..., None], mask=lambda t, m: m)(y)
    assert out._keras_mask.numpy().tolist() == IDS_MASK
    assert out.numpy()[0, 2].tolist() == [0.0, 0.0, 0.0]


def test_keras_tensors_carry_masks_in_functional_models():
    inp = tf.keras.Input((4,), dtype="int32")
    h = L.Embedding(5, 3, mask_zero=True)(inp)
    assert h._keras_mask.shape == (None, 4) and h._keras_mask.dtype == "bool"
    layer = _Doubler()
    out = L.GlobalAveragePooling1D()(layer(h))
    assert layer.seen and all(mask is not None for _, mask in layer.seen)   # the layer sees a mask while tracing
    assert getattr(L.Dense(2)(inp), "_keras_mask", None) is None
    model = tf.keras.Model(inp, out)
    layer.seen.clear()
    model(IDS)
    assert layer.seen == [("call", IDS_MASK), ("compute_mask", IDS_MASK)]
