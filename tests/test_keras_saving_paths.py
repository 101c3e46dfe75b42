"""Which file `keras.saving.load_model`/`save_model` take, and their errors, as Keras 3.15 under TF 2.21 (golden
text recorded from TF): a `.keras` zip, a legacy `.h5` file, else Keras's ValueErrors; also under a strategy."""
import logging
import re
import shutil

import pytest

import tfcompat as tf


def _model():
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])


def _not_supported(path):
    return re.escape(
        f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` files, legacy H5 format files "
        "(`.h5` extension). Note that the legacy SavedModel format is not supported by `load_model()` in Keras 3. In "
        "order to reload a TensorFlow SavedModel as an inference-only layer in Keras 3, use `keras.layers.TFSMLayer("
        f"{path}, call_endpoint='serving_default')` (note that your `call_endpoint` might have a different name).")


def test_load_model_paths(tmp_path):
    _model().save(tmp_path / "m.keras")
    shutil.copy(tmp_path / "m.keras", tmp_path / "m.zip")
    (tmp_path / "bad.keras").write_text("x")
    tf.saved_model.save(tf.Module(), str(tmp_path / "sm"))
    for path in (tmp_path / "sm", tmp_path / "nope", tmp_path / "m.zip"):     # a zip is read only as `.keras`
        with pytest.raises(ValueError, match=f"^{_not_supported(path)}$"):
            tf.keras.models.load_model(path)
    for path in (tmp_path / "bad.keras", tmp_path / "nope.keras"):
        with pytest.raises(ValueError, match=re.escape(f"File not found: filepath={path}. Please ensure the file is an "
                                                       "accessible `.keras` zip file.")):
            tf.keras.models.load_model(path)
    with pytest.raises(FileNotFoundError, match="No such file or directory"):
        tf.keras.models.load_model(tmp_path / "nope.h5")
    assert tf.keras.models.load_model(tmp_path / "m.keras").layers[0].kernel.shape == (3, 2)


def test_save_format_and_zipped(tmp_path, caplog):
    m = _model()
    with pytest.raises(ValueError, match=re.escape(
            "The `save_format` argument is deprecated in Keras 3. Please remove this argument and pass a file path "
            "with either `.keras` or `.h5` extension.Received: save_format=tf")):
        m.save(tmp_path / "m", save_format="tf")
    with caplog.at_level(logging.WARNING, logger="absl"):
        tf.keras.models.save_model(m, tmp_path / "m.keras", save_format="keras")
    assert [r.getMessage() for r in caplog.records] == [
        "The `save_format` argument is deprecated in Keras 3. We recommend removing this argument as it can be "
        "inferred from the file path. Received: save_format=keras"]
    assert (tmp_path / "m.keras").exists()
    with pytest.raises(ValueError, match=re.escape(
            f"When using `zipped=False`, the `filepath` argument should not end in `.keras`. Received: "
            f"filepath={tmp_path}/m.keras")):
        m.save(tmp_path / "m.keras", zipped=False)


def test_saving_method_argument_errors(tmp_path):
    m = _model()
    for kwargs in ({"options": 1}, {"save_format": "h5"}):
        with pytest.raises(TypeError, match=re.escape(
                f"Model.save_weights() got an unexpected keyword argument '{next(iter(kwargs))}'")):
            m.save_weights(tmp_path / "w.weights.h5", **kwargs)


def test_saving_under_a_strategy(tmp_path):
    """The tutorial distribute/save_and_load's calls: Keras 3 has no SavedModel `model.save`, no `options`, and no
    `save_spec`; a `.keras` file loads inside another strategy's scope."""
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        m = _model()
        m.compile(loss="mse")
    with pytest.raises(ValueError, match=re.escape(
            "Invalid filepath extension for saving. Please add either a `.keras` extension for the native Keras "
            "format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you want to export a "
            f"SavedModel for use with TFLite/TFServing/etc. Received: filepath={tmp_path}/tf_save.")):
        m.save(str(tmp_path / "tf_save"))
    with pytest.raises(ValueError, match=re.escape("The following argument(s) are not supported: ['options']")):
        m.save(str(tmp_path / "tf_save"), options=tf.saved_model.SaveOptions(experimental_io_device="/job:localhost"))
    with pytest.raises(AttributeError, match="^'Sequential' object has no attribute 'save_spec'$"):
        m.save_spec()
    m.save(tmp_path / "m.keras")
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope(), pytest.warns(UserWarning, match=re.escape(
            "Skipping variable loading for optimizer 'rm_sprop', because it has 4 variables whereas the saved "
            "optimizer has 2 variables.")):       # Keras's warning for a compiled model saved before training
        restored = tf.keras.models.load_model(tmp_path / "m.keras")
    assert [v.numpy().tolist() for v in restored.weights] == [v.numpy().tolist() for v in m.weights]
    with pytest.raises(TypeError, match=re.escape("load_model() got an unexpected keyword argument 'options'")):
        tf.keras.models.load_model(tmp_path / "m.keras", options=tf.saved_model.LoadOptions())
