"""Runtime state lives with its owner: Keras's global config in `keras._config`, build/call state per thread."""
import threading
import warnings

import tfcompat as tf
from tfcompat.keras import _config

keras = tf.keras


def test_clear_session_restarts_layer_and_optimizer_names():
    # Keras 3.15: Adam().name is "adam" again after clear_session (one counter for every auto-name)
    assert keras.optimizers.Adam().name == "adam"
    assert keras.optimizers.Adam().name == "adam_1"
    keras.backend.clear_session()
    assert keras.optimizers.Adam().name == "adam"
    assert keras.layers.Dense(1).name == "dense"


def test_clear_session_sets_the_policy_from_floatx_and_reset_restores_defaults():
    keras.backend.set_floatx("float64")
    keras.mixed_precision.set_global_policy("mixed_float16")
    keras.backend.clear_session()
    # Keras 3.15: floatx stays, the policy follows it
    assert (keras.backend.floatx(), repr(keras.mixed_precision.global_policy())) == \
        ("float64", '<DTypePolicy "float64">')
    keras.backend.set_epsilon(0.5)
    keras.backend.set_image_data_format("channels_first")
    _config.reset()
    assert (keras.backend.floatx(), keras.backend.epsilon(), keras.backend.image_data_format(),
            repr(keras.mixed_precision.global_policy())) == \
        ("float32", 1e-7, "channels_last", '<DTypePolicy "float32">')


class _Outer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = keras.layers.Dense(2)

    def call(self, x):
        return self.inner(x)


def test_a_lazy_build_in_another_thread_does_not_hide_this_threads_build_warning():
    started, release = threading.Event(), threading.Event()

    class Slow(keras.layers.Layer):
        def build(self, input_shape):
            started.set()
            release.wait(10)

        def call(self, x):
            return x

    worker = threading.Thread(target=lambda: Slow()(tf.ones((1, 2))))
    worker.start()
    try:
        assert started.wait(10)       # the worker is inside a lazy build now
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _Outer().build((None, 3))
    finally:
        release.set()
        worker.join()
    assert any("does not have a `build()` method implemented" in str(w.message) for w in caught)
