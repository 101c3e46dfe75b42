"""tf.Module: variable collection order, submodules, names and name scopes (TF 2.21 values)."""
import pytest

import tfcompat as tf


class M(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.b = tf.Variable(1.0, name="b")
        self.a = tf.Variable(2.0, name="a")
        self.lst = [tf.Variable(3.0, name="l0"), tf.Variable(4.0, trainable=False, name="l1")]
        self.d = {"z": tf.Variable(5.0, name="z"), "y": tf.Variable(6.0, name="y")}
        with self.name_scope:
            self.w = tf.Variable(7.0, name="w")


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.m2 = M(name="sub2")
        self.m1 = M()
        self.c = tf.Variable(0.0, name="c")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.Variable(1.0, name="inner")


def test_variables_order_and_names():
    o = Outer()
    assert [v.name for v in o.variables] == [
        "c:0", "a:0", "b:0", "y:0", "z:0", "l0:0", "l1:0", "m/w:0", "a:0", "b:0", "y:0", "z:0", "l0:0", "l1:0",
        "sub2/w:0"]
    assert [v.name for v in o.trainable_variables] == [
        "c:0", "a:0", "b:0", "y:0", "z:0", "l0:0", "m/w:0", "a:0", "b:0", "y:0", "z:0", "l0:0", "sub2/w:0"]
    assert [m.name for m in o.submodules] == ["m", "sub2"]
    assert (o.name, o.name_scope.name, o(1).name) == ("outer", "outer/", "outer/inner:0")


def test_name_validation_and_scopes():
    with pytest.raises(ValueError, match="'bad name' is not a valid module name. Module names must be valid Python "
                                         r"identifiers \(e.g. a valid class name\)."):
        tf.Module(name="bad name")
    with tf.name_scope("outer"):
        m = M(name="mm")
        assert (m.name_scope.name, m.w.name, tf.Variable(1.0).name) == ("outer/mm/", "outer/mm/w:0",
                                                                          "outer/Variable:0")
