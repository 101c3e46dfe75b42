"""`keras.backend` basics: the setters of Keras's global config (held in `keras._config`) and `clear_session`."""
from tfcompat.framework import dtypes
from tfcompat.keras import _config
from tfcompat.keras._config import config


def backend():
    """The name of the backend Keras runs on: "tensorflow"."""
    return "tensorflow"


def floatx():
    """The default float dtype of new layers and variables ("float32")."""
    return config.floatx


def set_floatx(value):
    """Sets the default float dtype (new layers follow it until the global dtype policy is first read)."""
    if not isinstance(value, str) or value not in ("bfloat16", "float16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'bfloat16', 'float16', "
                         f"'float32', 'float64'}}")
    config.floatx = dtypes.as_dtype(value).name


def epsilon():
    """The fuzz factor Keras adds in divisions and logs (1e-7)."""
    return config.epsilon


def set_epsilon(value):
    """Sets the fuzz factor (stored as given, as Keras does)."""
    config.epsilon = value


def image_data_format():
    """"channels_last" (default) or "channels_first"."""
    return config.image_data_format


def set_image_data_format(data_format):
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    config.image_data_format = data_format


def clear_session(free_memory=True):
    """Resets Keras's global state: name counters (`dense`, `dense_1`, `adam`, ...) and the dtype policy."""
    _config.clear_session()
    if free_memory:
        import gc
        gc.collect()


def is_keras_tensor(x):
    from tfcompat.keras.engine.keras_tensor import KerasTensor
    return isinstance(x, KerasTensor)


_ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32",
                   "int64", "bfloat16", "bool", "string", "float8_e4m3fn", "float8_e5m2", "complex64", "complex128")
_PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64", complex: "complex128"}


def standardize_dtype(dtype):
    """Keras's dtype name of `dtype` (a name, Python type, NumPy/TF/torch dtype); None is floatx; Keras's
    ValueError for anything else (e.g. "float")."""
    if dtype is None:
        return floatx()
    if isinstance(dtype, (str, type)):
        dtype = _PYTHON_DTYPES.get(dtype, dtype)
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    elif "torch" in str(dtype):
        dtype = str(dtype).split(".")[-1]
    if dtype not in _ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {dtype}")
    return dtype


def get_uid(prefix=""):
    """1 for the first call with `prefix`, then 2, 3, ... (the counters Keras's automatic names use)."""
    from tfcompat.keras.engine.naming import get_uid as next_uid
    return next_uid(prefix)


def is_float_dtype(dtype):
    """Whether `dtype` is a floating-point dtype (float16/32/64, bfloat16)."""
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype):
    """Whether `dtype` is a signed or unsigned integer dtype."""
    return standardize_dtype(dtype).startswith(("int", "uint"))
