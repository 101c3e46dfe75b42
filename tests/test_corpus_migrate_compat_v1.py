"""TF1 names of `tf.compat.v1` as TF 2.21 + Keras 3 has them (the TF1->TF2 migration guides' slice of the corpus).

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import pytest

import tfcompat as tf


def test_v1_layers_is_keras3_lazy_loader_without_attributes():
    # TF 2.21: tf.compat.v1.layers is a KerasLazyLoader; Keras 3 has no TF1 layers
    layers = tf.compat.v1.layers
    assert type(layers).__name__ == "KerasLazyLoader"
    for name in ("dense", "Dense", "flatten", "conv2d", "foo"):
        with pytest.raises(AttributeError, match=f"^`{name}` is not available with Keras 3.$"):
            getattr(layers, name)
    assert not hasattr(layers, "Dense")
    # TF 2.21: the repr once initialised
    assert repr(layers) == ("<KerasLazyLoader (keras_3) keras._tf_keras.keras.__internal__.legacy.layers as layers "
                            "mode=v1>")
    with pytest.raises(ModuleNotFoundError, match="No module named 'keras._tf_keras.keras.__internal__'"):
        dir(layers)


def test_v1_rnn_cell_is_keras3_lazy_loader_without_attributes():
    rnn_cell = tf.compat.v1.nn.rnn_cell
    assert type(rnn_cell).__name__ == "KerasLazyLoader"
    with pytest.raises(AttributeError, match="^`LSTMCell` is not available with Keras 3.$"):
        rnn_cell.LSTMCell          # noqa: B018


def test_v1_layers_in_graph_mode_is_missing_too():
    with tf.Graph().as_default():
        with pytest.raises(AttributeError, match="`dense` is not available with Keras 3."):
            tf.compat.v1.layers.dense      # noqa: B018
