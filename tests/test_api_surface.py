"""The public API surface: every TF 2.21 name answers `hasattr`/`getattr` honestly, and the version strings."""
import importlib
import os
import subprocess
import sys
import types

import pytest

import tfcompat as tf
from tfcompat import _api
from tfcompat.framework.errors import NotImplementedYet

API_LIST = os.path.join(os.path.dirname(tf.__file__), "_resources", "tf_api_2.21.txt")


def _api_names():
    with open(API_LIST, encoding="utf-8") as f:
        return [line.split("\t", 1)[0] for line in f if line.strip() and not line.startswith("#")]


def test_every_tf_name_answers_hasattr_and_getattr_honestly():
    # TF 2.21's whole public API list: `hasattr` is True or False (never raises); a name tfcompat lacks raises
    # NotImplementedYet, which is both a NotImplementedError and an AttributeError
    for target in _api.LAZY.values():          # imported directly first: the answers must not depend on the path
        if target.startswith("tfcompat"):
            importlib.import_module(target)
    found = missing = 0
    for full in _api_names():
        obj = tf
        for part in full.split(".")[1:]:
            has = hasattr(obj, part)
            try:
                obj = getattr(obj, part)
            except NotImplementedError as e:
                assert not has and isinstance(e, AttributeError), full
                missing += 1
                break
            assert has, full
        else:
            found += 1
    assert found > 2000 and missing > 1000 and found + missing == len(_api_names())     # 4792 names in all


@pytest.mark.parametrize("expr", ["tf.tpu", "tf.lite", "tf.experimental.dlpack", "tf.experimental.numpy.nextafter",
                                  "tf.keras.layers.FlaxLayer", "tf.nn.RNNCellResidualWrapper", "tf.nn.experimental.general_dropout",
                                  "tf.keras.optimizers.MultiOptimizer", "tf.optimizers.MultiOptimizer", "tf.saved_model.Asset",
                                  "tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER"])
def test_missing_namespaces_and_names_are_not_implemented_attribute_errors(expr):
    with pytest.raises(NotImplementedYet, match=r"is not implemented in tfcompat yet \(see compat_matrix\.md"):
        eval(expr)
    parent, _, attr = expr.rpartition(".")
    try:
        owner = eval(parent)
    except NotImplementedError:
        return                                  # a name whose parent is missing already
    assert hasattr(owner, attr) is False


def test_names_tf_does_not_have_are_plain_attribute_errors():
    with pytest.raises(AttributeError, match="module 'tensorflow' has no attribute 'estimator'") as e:
        tf.estimator  # noqa: B018   (gone from TF 2.16 on)
    assert not isinstance(e.value, NotImplementedError)
    keras = importlib.import_module("tfcompat.keras")
    with pytest.raises(AttributeError, match="module 'keras.losses' has no attribute 'nosuch'"):
        keras.losses.nosuch  # noqa: B018
    with pytest.raises(AttributeError, match="module 'keras._tf_keras.keras.losses' has no attribute 'nosuch'"):
        tf.keras.losses.nosuch  # noqa: B018


def test_every_lazy_namespace_and_keras_submodule_exists():
    keras = importlib.import_module("tfcompat.keras")
    for path, target in _api.LAZY.items():
        obj = tf
        for part in path.split("."):
            obj = getattr(obj, part)
        if target.startswith("tfcompat"):     # each package answers its own missing names (it may be imported
            assert "__getattr__" in vars(importlib.import_module(target)), target    # directly, not as tf.<path>)
            assert not isinstance(obj, _api.Namespace), path         # the package (or its view), never a Namespace
    for name in keras._SUBMODULES:
        assert hasattr(keras, name), name
    assert tf.metrics is tf.keras.metrics and tf.metrics.__name__ == "tfcompat._keras_view.metrics"


def test_an_export_into_a_lazy_package_namespace_is_refused():
    # a tf_export("compat.v1.nn.x") once made tf.compat.v1 a Namespace, hiding tfcompat.compat.v1 (its logging...)
    root = types.ModuleType("fake_root")
    with pytest.raises(RuntimeError, match=r"^tf\.compat is the package tfcompat\.compat: define its names there, "
                                           r"not with tf_export$"):
        _api._namespace(root, {"": root}, "compat.v1.nn")
    assert tf.compat.v1.logging.ERROR == 40 and tf.compat.v1.nn.depthwise_conv2d_native_backprop_input is \
        tf.nn.depthwise_conv2d_backprop_input


def test_a_lazy_entry_without_its_package_is_not_implemented(monkeypatch):
    monkeypatch.setitem(_api.LAZY, "tpu", "tfcompat.no_such_package")
    with pytest.raises(NotImplementedYet, match=r"tf\.tpu is not implemented in tfcompat yet"):
        tf.tpu  # noqa: B018
    assert not hasattr(tf, "tpu")


def test_tf_version_namespace():
    assert tf.__version__ == "2.21.0" and tf.version.VERSION == "2.21.0"
    assert isinstance(tf.version, types.ModuleType) and "VERSION" in dir(tf.version)


def test_keras_version_strings_under_the_alias():
    code = ("import tfcompat; tfcompat.enable_tensorflow_alias(); import tensorflow as tf; import keras; "
            "from tensorflow import keras as tk; "
            "print(tf.__version__, keras.__version__, tf.keras.__version__, tk.__version__, keras.version(), "
            "tf.keras.version())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout == "2.21.0 3.15.1 3.15.1 3.15.1 3.15.1 3.15.1\n", out.stderr
