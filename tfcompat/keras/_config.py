"""Keras's global configuration, in one place: floatx, epsilon, image data format, dtype policy, name counters.

Keras keeps these process-wide (not per thread), and so does tfcompat. `keras.backend` and
`keras.mixed_precision` are the public setters; `clear_session()` resets the name counters and the dtype
policy, as Keras's does; `reset()` restores every default (tests call it between tests).
"""
import threading

FLOATX = "float32"
EPSILON = 1e-7
IMAGE_DATA_FORMAT = "channels_last"


class _Config:
    __slots__ = ("floatx", "epsilon", "image_data_format", "dtype_policy", "uids")

    def __init__(self):
        self.floatx = FLOATX                        # the default float dtype of new layers and variables
        self.epsilon = EPSILON                      # the fuzz factor of divisions and logs
        self.image_data_format = IMAGE_DATA_FORMAT  # "channels_last" or "channels_first"
        self.dtype_policy = FLOATX                  # the global dtype policy's name ("mixed_float16", ...)
        self.uids = {}                              # auto-name prefix -> how many names it has given


config = _Config()
uid_lock = threading.Lock()   # guards `config.uids` (layers may be created from several threads)


def clear_session():
    """Keras's `clear_session`: name counters start again and the dtype policy follows floatx."""
    with uid_lock:
        config.uids.clear()
    config.dtype_policy = config.floatx


def reset():
    """Every setting back to Keras's defaults and the name counters cleared."""
    config.floatx = FLOATX
    config.epsilon = EPSILON
    config.image_data_format = IMAGE_DATA_FORMAT
    clear_session()
