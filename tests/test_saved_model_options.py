"""tf.saved_model.SaveOptions / LoadOptions and the module's constants, as TF 2.21 has them."""
import pytest

import tfcompat as tf


def test_options_are_accepted_by_save_and_load(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(2.0)
    tf.saved_model.save(m, str(tmp_path), options=tf.saved_model.SaveOptions(
        namespace_whitelist=["Custom"], experimental_io_device="/job:localhost", experimental_skip_saver=True))
    loaded = tf.saved_model.load(str(tmp_path), options=tf.saved_model.LoadOptions(
        experimental_io_device="/job:localhost"))
    assert loaded.v.numpy() == 2.0
    with pytest.raises(AttributeError, match="'str' object has no attribute 'namespace_whitelist'"):
        tf.saved_model.save(m, str(tmp_path), options="x")


def test_option_defaults_and_errors():
    o = tf.saved_model.SaveOptions()
    assert (o.namespace_whitelist, o.function_aliases, o.save_debug_info, o.extra_tags) == (None, {}, False, None)
    assert tf.saved_model.LoadOptions().allow_partial_checkpoint is False
    assert tf.saved_model.SaveOptions(namespace_whitelist=["a"]).namespace_whitelist == ["a"]
    with pytest.raises(TypeError, match=r"^`namespace_whitelist` must be a list of strings. Got: \('a',\) with type "
                                        r"<class 'tuple'>.$"):
        tf.saved_model.SaveOptions(namespace_whitelist=("a",))
    with pytest.raises(ValueError, match=r"^Whitelisted namespace must be a string. Got: b'b' of type <class 'bytes'>.$"):
        tf.saved_model.SaveOptions(namespace_whitelist=["a", b"b"])
    with pytest.raises(ValueError, match=r"^The option `experimental_image_format` is disabled in OSS.$"):
        tf.saved_model.SaveOptions(experimental_image_format=True)
    with pytest.raises(AttributeError, match="'SaveOptions' object has no attribute 'foo'"):
        o.foo = 1
    with pytest.raises(TypeError, match=r"^`namespace_whitelist` must be a list of strings. Got: Foo with type "
                                        r"<class 'str'>.$"):
        tf.saved_model.SaveOptions(namespace_whitelist="Foo")
    with pytest.raises(ValueError, match=r"^Received invalid VariablePolicy value: bad.$"):
        tf.saved_model.SaveOptions(experimental_variable_policy="bad")


def test_variable_policy():
    policy = tf.saved_model.experimental.VariablePolicy
    assert [repr(p) for p in policy] == [
        "<VariablePolicy.NONE: None>", "<VariablePolicy.SAVE_VARIABLE_DEVICES: 'save_variable_devices'>",
        "<VariablePolicy.EXPAND_DISTRIBUTED_VARIABLES: 'expand_distributed_variables'>"]
    assert str(policy.NONE) == "VariablePolicy.NONE"
    for cls in (tf.saved_model.SaveOptions, tf.saved_model.LoadOptions):
        assert cls().experimental_variable_policy is policy.NONE
        assert cls(experimental_variable_policy="SAVE_Variable_Devices").experimental_variable_policy is \
            policy.SAVE_VARIABLE_DEVICES
        assert cls(experimental_variable_policy=policy.EXPAND_DISTRIBUTED_VARIABLES).experimental_variable_policy is \
            policy.EXPAND_DISTRIBUTED_VARIABLES
        with pytest.raises(ValueError, match=r"^Received invalid VariablePolicy value: none.$"):
            cls(experimental_variable_policy="none")        # NONE's value is None, not "none"


@pytest.mark.parametrize("cls, arg, value", [
    ("SaveOptions", "save_debug_info", True), ("SaveOptions", "function_aliases", {"f": None}),
    ("SaveOptions", "extra_tags", ["gpu"]),
    ("SaveOptions", "experimental_custom_gradients", False),
    ("LoadOptions", "allow_partial_checkpoint", True), ("LoadOptions", "experimental_skip_checkpoint", True)])
def test_options_tfcompat_lacks_are_named(cls, arg, value):
    with pytest.raises(NotImplementedError, match=rf"^tf.saved_model.{cls}\({arg}="):
        getattr(tf.saved_model, cls)(**{arg: value})


def test_constants():
    sm = tf.saved_model
    assert (sm.DEFAULT_SERVING_SIGNATURE_DEF_KEY, sm.SERVING, sm.TRAINING, sm.ASSETS_KEY) == \
        ("serving_default", "serve", "train", "saved_model_assets")
    assert (sm.PREDICT_METHOD_NAME, sm.SAVED_MODEL_FILENAME_PB, sm.SAVED_MODEL_SCHEMA_VERSION) == \
        ("tensorflow/serving/predict", "saved_model.pb", 1)
