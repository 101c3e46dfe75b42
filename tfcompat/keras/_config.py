"""Keras's global configuration, in one place: floatx, epsilon, image data format, dtype policy, name counters.

It also holds `keras.config`'s debugging caps on `fit`'s epochs and steps (`KERAS_MAX_EPOCHS` and
`KERAS_MAX_STEPS_PER_EPOCH` in the environment set them) and, per thread as Keras's `global_state` keeps them,
its flags: traceback filtering, interactive logging, flash attention.

Keras keeps these process-wide (not per thread), and so does tfcompat. `keras.backend` and
`keras.mixed_precision` are the public setters; `clear_session()` resets the name counters and the dtype
policy, as Keras's does; `reset()` restores every default (tests call it between tests).
"""
import os
import threading

FLOATX = "float32"
EPSILON = 1e-7
IMAGE_DATA_FORMAT = "channels_last"


class _Config:
    __slots__ = ("floatx", "epsilon", "image_data_format", "dtype_policy", "uids", "max_epochs",
                 "max_steps_per_epoch")

    def __init__(self):
        self.floatx = FLOATX                        # the default float dtype of new layers and variables
        self.epsilon = EPSILON                      # the fuzz factor of divisions and logs
        self.image_data_format = IMAGE_DATA_FORMAT  # "channels_last" or "channels_first"
        self.dtype_policy = None                    # the global dtype policy's name ("mixed_float16", ...); None
        #                                             until first read, which fixes it to floatx (`policy_name`)
        self.uids = {}                              # auto-name prefix -> how many names it has given
        self.max_epochs = _env_int("KERAS_MAX_EPOCHS")                      # cap on `fit`'s epochs
        self.max_steps_per_epoch = _env_int("KERAS_MAX_STEPS_PER_EPOCH")    # cap on steps of fit/evaluate/predict


def _env_int(name):
    value = os.environ.get(name)
    return int(value) if value is not None else None


class _ThreadFlags(threading.local):
    def __init__(self):
        self.traceback_filtering = True     # recorded only: tfcompat never filters traceback frames
        self.interactive_logging = True     # False: Keras's messages go to absl's logger at INFO
        self.flash_attention = None         # None (the default, "when possible") or False once disabled


config = _Config()
flags = _ThreadFlags()
uid_lock = threading.Lock()   # guards `config.uids` (layers may be created from several threads)


def policy_name():
    """The global dtype policy's name: the first read after a `clear_session` fixes it to floatx, as Keras caches its
    global policy then (a later `set_floatx` leaves it alone)."""
    name = config.dtype_policy
    if name is None:
        name = config.dtype_policy = config.floatx
    return name


def clear_session():
    """Keras's `clear_session`: name counters start again and the dtype policy is unset (floatx at its next read)."""
    with uid_lock:
        config.uids.clear()
    config.dtype_policy = None


def reset():
    """Every setting back to Keras's defaults and the name counters cleared."""
    config.floatx = FLOATX
    config.epsilon = EPSILON
    config.image_data_format = IMAGE_DATA_FORMAT
    fresh = _Config()
    config.max_epochs, config.max_steps_per_epoch = fresh.max_epochs, fresh.max_steps_per_epoch
    flags.__init__()
    clear_session()
