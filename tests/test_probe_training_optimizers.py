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


def _muon_fit(**kw):
    import numpy as np
    const = tf.keras.initializers.Constant
    x = (np.arange(120).reshape(30, 4) % 9).astype("float32") / 9
    y = (x.sum(1, keepdims=True) > 2).astype("float32")
    inp = tf.keras.Input((4,))
    h = tf.keras.layers.Dense(6, activation="tanh", kernel_initializer=const(0.05), bias_initializer=const(0.01))(inp)
    h = tf.keras.layers.Dense(3, activation="relu", kernel_initializer=const(0.2), name="mid")(h)
    out = tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer=const(-0.1), name="head")(h)
    m = tf.keras.Model(inp, out)
    opt = tf.keras.optimizers.Muon(**kw)
    m.compile(opt, "binary_crossentropy")
    h = m.fit(x, y, epochs=2, batch_size=10, verbose=0, shuffle=False)
    return h.history["loss"], [np.asarray(w).ravel()[0] for w in m.get_weights()], opt


@pytest.mark.parametrize("kw,loss,weights,rtol", [
    ({}, [0.6919994950294495, 0.6912357211112976],
     [0.05042567849159241, 0.015757068991661072, 0.2003168761730194, 0.005749639123678207, -0.10055474191904068,
      -0.005749217700213194], 1e-5),
    # the Newton-Schulz iteration amplifies rounding in a rank-1 momentum's null space: TF's own matmul noise
    (dict(learning_rate=0.05, nesterov=False, rms_rate=None, weight_decay=None, adam_lr_ratio=0.5,
          exclude_layers=["head"]), [0.6853044033050537, 0.6638469696044922],
     [0.08034810423851013, 0.15326127409934998, 0.23282299935817719, 0.14224810898303986, -0.2035357505083084,
      -0.13842438161373138], 2e-4),
    (dict(learning_rate=tf.keras.optimizers.schedules.ExponentialDecay(0.02, 2, 0.5), ns_steps=3, momentum=0.9,
          adam_weight_decay=None), [0.6878770589828491, 0.6800654530525208],
     [0.0537366047501564, 0.06733310222625732, 0.20257046818733215, 0.05720708146691322, -0.1045113131403923,
      -0.05708005279302597], 1e-5),
])
def test_muon_fit(kw, loss, weights, rtol):
    import numpy as np
    history, first, opt = _muon_fit(**kw)
    np.testing.assert_allclose(history, loss, rtol=1e-5)        # TF 2.21
    np.testing.assert_allclose(first, weights, rtol=rtol)
    # TF 2.21: a momentum for every variable, a velocity after it for those taking AdamW steps (not 2-D, excluded)
    paths = [v.path.split("/", 1)[1] for v in opt.variables if not v.path.endswith(("iteration", "learning_rate"))]
    expected = ['kernel_momentum', 'bias_momentum', 'bias_velocity', 'kernel_momentum', 'bias_momentum',
                'bias_velocity', 'kernel_momentum']
    expected += ['kernel_velocity'] if "exclude_layers" in kw else []
    expected += ['bias_momentum', 'bias_velocity']
    assert [p.split("_", p.count("_") - 1)[-1] for p in paths] == expected
    assert [p.startswith("head_") for p in paths][-3 - ("exclude_layers" in kw):] == [True] * (3 + ("exclude_layers"
                                                                                                  in kw))


def test_muon_by_name_and_config():
    opt = tf.keras.optimizers.get("muon")
    assert type(opt).__name__ == "Muon"
    config = opt.get_config()
    del config["name"]
    assert config == {      # TF 2.21
        'learning_rate': 0.0010000000474974513, 'weight_decay': 0.004, 'clipnorm': None, 'global_clipnorm': None,
        'clipvalue': None, 'use_ema': False, 'ema_momentum': 0.99, 'ema_overwrite_frequency': None,
        'loss_scale_factor': None, 'gradient_accumulation_steps': None, 'adam_beta_1': 0.9, 'adam_beta_2': 0.999,
        'epsilon': 1e-07, 'exclude_layers': [], 'muon_a': 3.4445, 'muon_b': -4.775, 'muon_c': 2.0315,
        'adam_lr_ratio': 1, 'momentum': 0.95, 'ns_steps': 5, 'nesterov': True, 'exclude_embeddings': True,
        'adam_weight_decay': 0.004, 'rms_rate': 0.2}
    assert list(config) == list({k: 0 for k in config})     # key order as Keras's


def test_muon_needs_keras_variables():
    v = tf.Variable(tf.ones((2, 2)))
    with pytest.raises(AttributeError, match="'ResourceVariable' object has no attribute 'path'"):   # TF 2.21
        tf.keras.optimizers.Muon().apply_gradients([(tf.ones((2, 2)), v)])


_NODE = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
_UPDATE = "Cannot update variable with shape [2] using a Tensor with shape %s, shapes must be equal. [Op:%s] name: "


@pytest.mark.parametrize("make,grad,cls,message", [
    # TF 2.21: the first op of each optimizer's Keras update that sees the gradient fails
    (lambda: tf.keras.optimizers.SGD(0.1), [1., 1., 1.], tf.errors.InvalidArgumentError,
     _NODE % "AssignSubVariableOp" + _UPDATE % ("[3]", "AssignSubVariableOp")),
    (lambda: tf.keras.optimizers.SGD(0.1), 1.0, tf.errors.InvalidArgumentError,
     _NODE % "AssignSubVariableOp" + _UPDATE % ("[]", "AssignSubVariableOp")),
    (lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9), [1., 1., 1.], tf.errors.InvalidArgumentError,
     _NODE % "Sub" + "Incompatible shapes: [2] vs. [3] [Op:Sub] name: "),
    (lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9), [[1., 1.], [1., 1.]], ValueError,
     "Cannot assign value to variable ' sgd/Variable_0_momentum:0': Shape mismatch.The variable shape (2,), and the "
     "assigned value shape (2, 2) are incompatible."),
    (lambda: tf.keras.optimizers.Adam(), [1., 1., 1.], tf.errors.InvalidArgumentError,
     _NODE % "Sub" + "Incompatible shapes: [3] vs. [2] [Op:Sub]"),
    (lambda: tf.keras.optimizers.Adam(), [[1., 1.], [1., 1.]], tf.errors.InvalidArgumentError,
     _NODE % "AssignAddVariableOp" + _UPDATE % ("[2,2]", "AssignAddVariableOp")),
    (lambda: tf.keras.optimizers.RMSprop(), [1., 1., 1.], tf.errors.InvalidArgumentError,
     _NODE % "AddV2" + "Incompatible shapes: [2] vs. [3] [Op:AddV2] name: "),
    (lambda: tf.keras.optimizers.RMSprop(), [[1., 1.], [1., 1.]], ValueError,
     "Cannot assign value to variable ' rmsprop/Variable_0_velocity:0': Shape mismatch.The variable shape (2,), and "
     "the assigned value shape (2, 2) are incompatible."),
    (lambda: tf.keras.optimizers.Adagrad(), [1., 1., 1.], tf.errors.InvalidArgumentError,
     _NODE % "AssignAddVariableOp" + _UPDATE % ("[3]", "AssignAddVariableOp")),
])
def test_gradient_of_another_shape(make, grad, cls, message):
    opt = make()
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(cls) as e:
        opt.apply_gradients([(tf.constant(grad), v)])
    if cls is ValueError:       # the optimizer's auto-name depends on what ran before
        import re
        assert re.sub(r"' \w+/", "' OPT/", str(e.value)) == re.sub(r"' \w+/", "' OPT/", message)
    else:
        assert str(e.value) == message


@pytest.mark.parametrize("kw,loss,first", [
    ({}, [0.6919030547142029, 0.692160427570343],
     [0.0029770457185804844, 0.0027830936014652252, -0.004457005299627781, -0.008272574283182621]),
    (dict(learning_rate=0.05, warmup_steps=4, weight_decay=0.01), [0.6901766657829285, 0.6796859502792358],
     [0.07299283146858215, 0.0644625797867775, -0.1297476589679718, -0.10090024024248123]),
    (dict(learning_rate=tf.keras.optimizers.schedules.ExponentialDecay(0.02, 2, 0.5), beta_1=0.8),
     [0.6894081234931946, 0.6859038472175598],
     [0.031054480001330376, 0.028172871097922325, -0.04758570343255997, -0.040967151522636414]),
])
def test_schedule_free_adamw_fit(kw, loss, first):
    import numpy as np
    const = tf.keras.initializers.Constant
    x = (np.arange(120).reshape(30, 4) % 9).astype("float32") / 9
    y = (x.sum(1, keepdims=True) > 2).astype("float32")
    inp = tf.keras.Input((4,))
    h = tf.keras.layers.Dense(6, activation="tanh", kernel_initializer=const(0.05), bias_initializer=const(0.01))(inp)
    out = tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer=const(-0.1), name="head")(h)
    m = tf.keras.Model(inp, out)
    opt = tf.keras.optimizers.ScheduleFreeAdamW(**kw)
    m.compile(opt, "binary_crossentropy")
    h = m.fit(x, y, epochs=2, batch_size=10, verbose=0, shuffle=False)
    np.testing.assert_allclose(h.history["loss"], loss, rtol=1e-5)        # TF 2.21
    np.testing.assert_allclose([np.asarray(w).ravel()[0] for w in m.get_weights()], first, rtol=1e-5)
    slots = [v.path.rsplit("_", 1)[1] for v in opt.variables[-8:]]
    assert slots == ["momentum", "velocity"] * 4


def test_schedule_free_adamw_steps_and_config():
    import numpy as np
    v = tf.keras.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.ScheduleFreeAdamW(0.1)
    seen = []
    for i in range(3):
        opt.apply_gradients([(tf.constant([0.5, -1.0]) * (i + 1), v)])
        seen.append(v.numpy().tolist())
    np.testing.assert_allclose(seen, [[0.8999999761581421, 2.0999999046325684],     # TF 2.21
                                      [0.8367640972137451, 2.163235664367676],
                                      [0.7694075703620911, 2.2305922508239746]], rtol=1e-6)
    config = tf.keras.optimizers.get("schedulefreeadamw").get_config()
    del config["name"]
    assert config == {'learning_rate': 0.0024999999441206455, 'weight_decay': None, 'clipnorm': None,
                      'global_clipnorm': None, 'clipvalue': None, 'use_ema': False, 'ema_momentum': 0.99,
                      'ema_overwrite_frequency': None, 'loss_scale_factor': None, 'gradient_accumulation_steps': None,
                      'beta_1': 0.9, 'beta_2': 0.999, 'epsilon': 1e-08, 'warmup_steps': 0}
