"""`keras.config`: Keras 3's global settings, the getters and setters over `keras._config`'s one state."""
import warnings

from tfcompat.framework.export import partial_api
from tfcompat.keras._config import config, flags
from tfcompat.keras.backend import (  # noqa: F401  (the same functions as `keras.backend`'s, as in Keras)
    backend, epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format)
from tfcompat.keras.mixed_precision import dtype_policy, set_dtype_policy  # noqa: F401

_SET_BACKEND_WARNING = (
    "Using `keras.config.set_backend` is dangerous and should be done carefully. Already-instantiated objects will "
    "not be converted. Thus, any layers / tensors / etc. already created will no longer be usable without errors. "
    "It is strongly recommended not to keep around any Keras-originated objects instances created before calling "
    "`set_backend()`. This includes any function or class instance that uses any Keras functionality. All such code "
    "needs to be re-executed after calling `set_backend()` and re-importing all imported `keras` modules.")
_NO_FILTERING = "tfcompat does not filter traceback frames: the flag is kept and reported, tracebacks stay whole"


def enable_unsafe_deserialization():
    """Disables safe mode for this thread's loads: lambdas in configs deserialize (Keras's global safe mode off)."""
    from tfcompat.keras import saving_utils
    saving_utils.set_global_safe_mode(False)


@partial_api(_NO_FILTERING)
def enable_traceback_filtering():
    """Turns Keras's traceback filtering on (the default)."""
    flags.traceback_filtering = True


@partial_api(_NO_FILTERING)
def disable_traceback_filtering():
    """Turns Keras's traceback filtering off."""
    flags.traceback_filtering = False


def is_traceback_filtering_enabled():
    """Whether traceback filtering is on (True unless disabled in this thread)."""
    return flags.traceback_filtering


def enable_interactive_logging():
    """Keras's messages (progress bars, callbacks' lines) are written to stdout (the default)."""
    flags.interactive_logging = True


def disable_interactive_logging():
    """Keras's messages go to absl's logger at INFO level instead of stdout."""
    flags.interactive_logging = False


def is_interactive_logging_enabled():
    """Whether Keras writes its messages to stdout (True unless disabled in this thread)."""
    return flags.interactive_logging


def enable_flash_attention():
    """Lets attention layers use flash attention where the backend can (Keras's default: the flag back to None)."""
    flags.flash_attention = None


def disable_flash_attention():
    """Attention layers do not use flash attention."""
    flags.flash_attention = False


def is_flash_attention_enabled():
    """False once disabled, else None (Keras: "enabled where supported"; the TF backend has no flash kernel)."""
    return flags.flash_attention


def is_nnx_enabled():
    """Whether Flax NNX integration is on: False (it is a JAX-backend feature)."""
    return False


def set_backend(backend):  # noqa: F811  (Keras's parameter name)
    """Keras reloads itself on another backend; tfcompat's Keras runs on its TF runtime only."""
    name = backend
    warnings.warn(_SET_BACKEND_WARNING, stacklevel=2)
    if name != "tensorflow":
        raise NotImplementedError(f"keras.config.set_backend({name!r}) is not supported by tfcompat (Keras runs "
                                  "on tfcompat's TensorFlow runtime only)")


def max_epochs():
    """The cap on the epochs of any `fit` (None: no cap)."""
    return config.max_epochs


def set_max_epochs(max_epochs):
    """Caps the epochs of every `fit` (a debugging aid; None removes the cap)."""
    config.max_epochs = max_epochs


def max_steps_per_epoch():
    """The cap on the steps of one epoch of `fit`/`evaluate`/`predict` (None: no cap)."""
    return config.max_steps_per_epoch


def set_max_steps_per_epoch(max_steps_per_epoch):
    """Caps the steps of one epoch of `fit`, `evaluate` and `predict` (None removes the cap)."""
    config.max_steps_per_epoch = max_steps_per_epoch
