"""`keras.config` as Keras 3.15 (names, defaults, errors, the debugging caps, logging and safe-mode switches)."""
import contextlib
import io
import warnings

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import keras
from tfcompat.keras import layers, saving_utils

KERAS_CONFIG_NAMES = [  # dir(keras.config) in Keras 3.15.1, public names
    "backend", "disable_flash_attention", "disable_interactive_logging", "disable_traceback_filtering",
    "dtype_policy", "enable_flash_attention", "enable_interactive_logging", "enable_traceback_filtering",
    "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format", "is_flash_attention_enabled",
    "is_interactive_logging_enabled", "is_nnx_enabled", "is_traceback_filtering_enabled", "max_epochs",
    "max_steps_per_epoch", "set_backend", "set_dtype_policy", "set_epsilon", "set_floatx", "set_image_data_format",
    "set_max_epochs", "set_max_steps_per_epoch"]


def test_every_keras_config_name_is_there_and_in_tf_keras():
    for name in KERAS_CONFIG_NAMES:
        assert callable(getattr(keras.config, name)), name
        assert getattr(tf.keras.config, name) is getattr(keras.config, name)
    assert keras.config.set_floatx is keras.backend.set_floatx


def test_defaults():
    c = keras.config
    assert (c.backend(), c.floatx(), c.epsilon(), c.image_data_format()) == ("tensorflow", "float32", 1e-07,
                                                                            "channels_last")
    assert repr(c.dtype_policy()) == '<DTypePolicy "float32">'
    assert (c.is_traceback_filtering_enabled(), c.is_interactive_logging_enabled(), c.is_nnx_enabled()) == \
        (True, True, False)
    assert (c.max_epochs(), c.max_steps_per_epoch(), c.is_flash_attention_enabled()) == (None, None, None)


def test_set_floatx_error():
    # Keras prints its set of valid values in hash order, which changes between runs
    with pytest.raises(ValueError) as e:
        keras.config.set_floatx("float8")
    head, valid = str(e.value).split(" Expected one of ")
    assert head == "Unknown `floatx` value: float8."
    assert sorted(valid.strip("{}").split(", ")) == ["'bfloat16'", "'float16'", "'float32'", "'float64'"]


@pytest.mark.parametrize("setter, value, message", [
    ("set_image_data_format", "nchw", "The `data_format` argument must be one of {'channels_first', "
                                      "'channels_last'}. Received: data_format=nchw"),
    ("set_dtype_policy", 3, "Invalid `policy` argument. Expected the string name of a policy (such as "
                            "'mixed_float16') or a `DTypePolicy` instance. Received: policy=3 (of type <class 'int'>)"),
    ("set_dtype_policy", "int7", "Cannot convert 'int7' to a mixed precision DTypePolicy. Valid policies include "
                                 "'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
                                 "'float32'."),
])
def test_setter_errors(setter, value, message):
    with pytest.raises(ValueError) as e:
        getattr(keras.config, setter)(value)
    assert str(e.value) == message


def test_set_epsilon_keeps_the_value_as_given():
    keras.config.set_epsilon(1)
    assert repr(keras.config.epsilon()) == "1"


def test_switches():
    c = keras.config
    c.disable_flash_attention()
    assert c.is_flash_attention_enabled() is False
    c.enable_flash_attention()
    assert c.is_flash_attention_enabled() is None
    c.disable_traceback_filtering()
    assert c.is_traceback_filtering_enabled() is False
    assert tf.debugging.is_traceback_filtering_enabled() is True      # TF's own switch is another one
    c.enable_traceback_filtering()
    assert c.is_traceback_filtering_enabled() is True


def test_set_backend_other_than_tensorflow_is_refused():
    with pytest.warns(UserWarning, match="^Using `keras.config.set_backend` is dangerous and should be done "
                                         "carefully. Already-instantiated objects will not be converted."):
        keras.config.set_backend("tensorflow")
    with pytest.raises(NotImplementedError, match="set_backend\\('jax'\\)"), pytest.warns(UserWarning):
        keras.config.set_backend("jax")


def _fit_model():
    model = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_max_epochs_and_max_steps_per_epoch_cap_fit_evaluate_predict():
    x, y = np.ones((20, 3), "float32"), np.ones((20, 1), "float32")
    model = _fit_model()
    keras.config.set_max_epochs(2)
    keras.config.set_max_steps_per_epoch(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(x, y, epochs=5, batch_size=4, verbose=0)
        assert model.predict(x, batch_size=4, verbose=0).shape == (12, 1)
        model.evaluate(x, y, batch_size=4, verbose=0)
    assert history.epoch == [0, 1]
    messages = [str(w.message) for w in caught]
    assert messages[:2] == ["Limiting epochs to 2", "Limiting steps_per_epoch to 3"]
    assert messages.count("Limiting steps_per_epoch to 3") == 3


def test_disabled_interactive_logging_keeps_stdout_quiet(caplog):
    x, y = np.ones((20, 3), "float32"), np.ones((20, 1), "float32")
    model = _fit_model()
    keras.config.disable_interactive_logging()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), caplog.at_level("INFO", logger="absl"):
        model.fit(x, y, epochs=1, verbose=1)
        model.evaluate(x, y, verbose=1)
    assert out.getvalue() == ""
    assert any("\x1b[1m1/1\x1b[0m \x1b[32m━━━━" in r.getMessage() for r in caplog.records)
    keras.config.enable_interactive_logging()
    with contextlib.redirect_stdout(out):
        model.evaluate(x, y, verbose=1)
    assert "\x1b[1m1/1\x1b[0m \x1b[32m━━━━" in out.getvalue()


def test_enable_unsafe_deserialization_loads_lambdas(tmp_path):
    model = keras.Sequential([keras.Input((3,)), layers.Lambda(lambda t: t * 2)])
    path = str(tmp_path / "m.keras")
    model.save(path)
    with pytest.raises(ValueError, match="Requested the deserialization of a `Lambda` layer"):
        keras.models.load_model(path)
    keras.config.enable_unsafe_deserialization()
    try:
        np.testing.assert_array_equal(keras.models.load_model(path).predict(np.ones((1, 3)), verbose=0),
                                      [[2.0, 2.0, 2.0]])
    finally:
        saving_utils.set_global_safe_mode(None)
