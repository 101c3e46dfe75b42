"""`keras.backend` basics: the global Keras config (floatx, epsilon, image format) and `clear_session`."""
from tfcompat.framework import dtypes
from tfcompat.keras.engine import naming

_config = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def backend():
    """The name of the backend Keras runs on: "tensorflow"."""
    return "tensorflow"


def floatx():
    """The default float dtype of new layers and variables ("float32")."""
    return _config["floatx"]


def set_floatx(value):
    """Sets the default float dtype; new layers use it unless a mixed-precision policy is set."""
    if value not in ("bfloat16", "float16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'bfloat16', 'float16', "
                         f"'float32', 'float64'}}")
    _config["floatx"] = dtypes.as_dtype(value).name
    from tfcompat.keras.layers import base
    if not base._global_policy[0].startswith("mixed_"):
        base._global_policy[0] = _config["floatx"]


def epsilon():
    """The fuzz factor Keras adds in divisions and logs (1e-7)."""
    return _config["epsilon"]


def set_epsilon(value):
    _config["epsilon"] = float(value)


def image_data_format():
    """"channels_last" (default) or "channels_first"."""
    return _config["image_data_format"]


def set_image_data_format(data_format):
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    _config["image_data_format"] = data_format


def clear_session(free_memory=True):
    """Resets Keras's global state: layer name counters (`dense`, `dense_1`, ...) and the dtype policy."""
    naming.reset()
    from tfcompat.keras.layers import base
    base._global_policy[0] = _config["floatx"]
    if free_memory:
        import gc
        gc.collect()


def is_keras_tensor(x):
    from tfcompat.keras.engine.keras_tensor import KerasTensor
    return isinstance(x, KerasTensor)


def standardize_dtype(dtype):
    return dtypes.as_dtype(dtype).name
