"""Keras optimizers as training scripts use them: values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1)."""
import warnings

import pytest

import tfcompat as tf


def lr_fn():
    return 0.1


def test_get_config_with_callable_learning_rate():
    # TF 2.21: a named function is serialized by its registered name, a lambda as its marshalled code (with Keras's
    # unsafe-lambda warning)
    config = tf.keras.optimizers.SGD(learning_rate=lr_fn).get_config()
    assert config["learning_rate"] == {'module': 'builtins', 'class_name': 'function', 'config': 'lr_fn',
                                       'registered_name': 'function'}
    assert sorted(config) == ['clipnorm', 'clipvalue', 'ema_momentum', 'ema_overwrite_frequency', 'global_clipnorm',
                              'gradient_accumulation_steps', 'learning_rate', 'loss_scale_factor', 'momentum', 'name',
                              'nesterov', 'use_ema', 'weight_decay']
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        config = tf.keras.optimizers.Adam(learning_rate=lambda: 0.1).get_config()
    assert config["learning_rate"]["class_name"] == "__lambda__"
    code, defaults, closure = config["learning_rate"]["config"]["value"]
    assert isinstance(code, str) and defaults is None and closure is None
    assert [str(x.message)[:53] for x in w] == ["The object being serialized includes a `lambda`. This"]


def test_tensor_learning_rate_is_rejected():
    with pytest.raises(ValueError, match=r"Received instead: learning_rate=0.30000001192092896"):
        tf.keras.optimizers.SGD(learning_rate=tf.constant(0.3))
