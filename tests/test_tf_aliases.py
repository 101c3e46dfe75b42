"""TF's aliases: every TF 2.21 name bound to the same object as an implemented name is exported too."""
import os

import tfcompat as tf
from tfcompat.framework.export import EXPORTS

ALIASES = os.path.join(os.path.dirname(tf.__file__), "_resources", "tf_aliases_2.21.txt")

# (alias, name) pairs TF 2.21 binds to one object (`tf.sin is tf.math.sin` there) that tfcompat once lacked
TF_SAME = [("acos", "math.acos"), ("acosh", "math.acosh"), ("asin", "math.asin"), ("asinh", "math.asinh"),
           ("atan", "math.atan"), ("atanh", "math.atanh"), ("cos", "math.cos"), ("cosh", "math.cosh"),
           ("sin", "math.sin"), ("sinh", "math.sinh"), ("tan", "math.tan"), ("sign", "math.sign"),
           ("eig", "linalg.eig"), ("eigvals", "linalg.eigvals"), ("matrix_square_root", "linalg.sqrtm"),
           ("math.special.bessel_i0", "math.bessel_i0"), ("math.special.bessel_i0e", "math.bessel_i0e"),
           ("math.special.bessel_i1", "math.bessel_i1"), ("math.special.bessel_i1e", "math.bessel_i1e")]


def _resolve(name):
    obj = tf
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_top_level_aliases_are_tfs_objects():
    for alias, name in TF_SAME:
        assert _resolve(alias) is _resolve(name), alias


def test_every_recorded_group_is_one_object_once_implemented():
    with open(ALIASES, encoding="utf-8") as f:
        groups = [line.split() for line in f if not line.startswith("#")]
    assert len(groups) == 127
    for group in groups:
        exported = [name for name in group if name in EXPORTS]
        if exported:
            assert {id(EXPORTS[name]) for name in group} == {id(_resolve(name)) for name in group}, group


def test_alias_values_match_tf():
    # golden reprs from TF 2.21
    assert repr(tf.sin([0.5, -1.0])) == ("<tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 0.47942555, "
                                         "-0.84147096], dtype=float32)>")
    assert repr(tf.sign([-3., 0., 2.])) == ("<tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.,  0.,  1.], "
                                            "dtype=float32)>")
    assert repr(tf.cosh(1.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.5430805683135986>"
