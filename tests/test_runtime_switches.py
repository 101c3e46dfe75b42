"""TF's runtime switches programs set: Grappler options, placement logging, traceback filtering (values from TF 2.21)."""
import pytest

import tfcompat as tf
from tfcompat.ops import config_ops


@pytest.fixture(autouse=True)
def _restore():
    options, placement = dict(config_ops._Config.optimizer_options), config_ops._Config.log_device_placement
    yield
    config_ops._Config.optimizer_options = options
    config_ops._Config.log_device_placement = placement
    tf.debugging.enable_traceback_filtering()


def test_experimental_options_are_kept_and_read_back_as_tf_does():
    get, set_ = tf.config.optimizer.get_experimental_options, tf.config.optimizer.set_experimental_options
    assert get() == {"disable_model_pruning": False, "disable_meta_optimizer": False}
    set_({"constant_folding": False})
    assert list(get().items()) == [("constant_folding", False), ("disable_model_pruning", False),
                                   ("disable_meta_optimizer", False)]
    set_({"debug_stripper": True, "layout_optimizer": True})
    set_({"constant_folding": True, "foo": True})       # unknown keys are kept but not reported
    set_({"min_graph_nodes": 5, "disable_meta_optimizer": True})
    assert list(get().items()) == [("layout_optimizer", True), ("constant_folding", True), ("debug_stripper", True),
                                   ("disable_model_pruning", False), ("disable_meta_optimizer", True),
                                   ("min_graph_nodes", 5)]


def test_experimental_options_errors():
    with pytest.raises(ValueError, match="^dictionary update sequence element #0 has length 1; 2 is required$"):
        tf.config.optimizer.set_experimental_options(["x"])
    with pytest.raises(TypeError, match="^'NoneType' object is not iterable$"):
        tf.config.optimizer.set_experimental_options(None)


def test_log_device_placement_is_kept():
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    assert tf.debugging.get_log_device_placement() is True
    assert float(tf.constant([1.0])[0] + 1) == 2.0
    tf.debugging.set_log_device_placement(False)
    assert tf.debugging.get_log_device_placement() is False
    with pytest.raises(TypeError, match="^TFE_ContextSetLogDevicePlacement\\(\\): incompatible function arguments"):
        tf.debugging.set_log_device_placement("x")


def test_traceback_filtering_switch():
    assert tf.debugging.is_traceback_filtering_enabled() is True
    tf.debugging.disable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled() is False
    tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled() is True
