"""Keras 3.15 takes file paths only: `load_model`/`load_weights` given a file object raise os.stat's TypeError, and
`save`/`save_weights` Keras's extension ValueError naming the object (golden text from TF 2.21 + Keras 3.15.1)."""
import io
import re

import pytest

import tfcompat as tf


def _model():
    return tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])


def test_loaders_refuse_file_objects_as_keras_does(tmp_path):
    model = _model()
    model.save(tmp_path / "m.keras")
    model.save_weights(tmp_path / "m.weights.h5")
    for name, load in (("m.keras", tf.keras.models.load_model), ("m.weights.h5", model.load_weights)):
        with open(tmp_path / name, "rb") as f:
            with pytest.raises(TypeError, match=r"^stat: path should be string, bytes, os.PathLike or integer, not "
                                                r"BufferedReader$"):
                load(f)
        with pytest.raises(TypeError, match=r"^stat: path should be string, bytes, os.PathLike or integer, not "
                                            r"BytesIO$"):
            load(io.BytesIO((tmp_path / name).read_bytes()))
    with pytest.raises(TypeError, match=r"^stat: path should be string, bytes, os.PathLike or integer, not NoneType$"):
        tf.keras.models.load_model(None)


def test_savers_refuse_file_objects_as_keras_does(tmp_path):
    model = _model()
    buf = io.BytesIO()
    with pytest.raises(ValueError, match=re.escape(
            "Invalid filepath extension for saving. Please add either a `.keras` extension for the native Keras "
            "format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you want to export a "
            f"SavedModel for use with TFLite/TFServing/etc. Received: filepath={buf}.")):
        model.save(buf)
    with open(tmp_path / "x.keras", "wb") as f, pytest.raises(ValueError, match=re.escape(
            f"Received: filepath=<_io.BufferedWriter name='{tmp_path / 'x.keras'}'>.")):
        model.save(f)
    with pytest.raises(ValueError, match=re.escape(f"The filename must end in `.weights.h5`. Received: filepath={buf}")):
        model.save_weights(buf)
    assert buf.getvalue() == b""
