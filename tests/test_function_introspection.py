"""tf.function introspection: `tf.autograph.to_graph` as TF 2.21 names and binds its result, and the graph views
tfcompat cannot honestly give (AutoGraph source, GraphDef, operations, symbolic tensors) raising NotImplementedError.

Golden text: the same calls under TF 2.21.
"""
import pytest

import tfcompat as tf


def _absolute(x):
    if x > 0:
        return x
    return -x


class _Holder:
    def method(self, x):
        return x


def test_to_graph_gives_the_function_under_autograph_name():
    g = tf.autograph.to_graph(_absolute)
    assert (g.__name__, g.__qualname__) == ("tf___absolute", "outer_factory.<locals>.inner_factory.<locals>.tf___absolute")
    assert int(g(tf.constant(-2))) == 2 and int(g(tf.constant(3))) == 3
    assert tf.autograph.to_graph(_absolute, recursive=False).__name__ == "tf___absolute"
    assert tf.autograph.to_graph(tf.function(_absolute).python_function).__name__ == "tf___absolute"
    assert tf.autograph.to_graph(lambda x: x + 1)(1) == 2


def test_to_graph_of_a_bound_method_takes_self_explicitly():
    g = tf.autograph.to_graph(_Holder().method)
    with pytest.raises(TypeError, match=r"^outer_factory\.<locals>\.inner_factory\.<locals>\.tf__method\(\) missing 1 "
                                        r"required positional argument: 'x'$"):
        g(3)
    assert g(None, 3) == 3


@pytest.mark.parametrize("entity", [_Holder, print, 3, tf.function(_absolute)])
def test_to_graph_rejects_what_has_no_code(entity):
    with pytest.raises(Exception) as info:
        tf.autograph.to_graph(entity)
    assert type(info.value).__name__ == "ConversionError"
    assert str(info.value) == (f"converting {entity}: ValueError: Cannot apply autograph to a function that doesn't "
                               "expose a __code__ object. If this is a @tf.function, try passing f.python_function "
                               "instead.")


def test_graph_views_without_a_tensorflow_graph_raise():
    cf = tf.function(_absolute).get_concrete_function(tf.constant(1))
    graph = cf.graph
    assert graph.name == "_absolute" and repr(graph).startswith("FuncGraph(name=_absolute, id=")
    for view in (lambda: graph.as_graph_def(), lambda: graph.get_operations(), lambda: graph.inputs,
                 lambda: graph.outputs, lambda: graph.get_operation_by_name("x"), lambda: graph.get_tensor_by_name("x:0"),
                 lambda: cf.inputs, lambda: cf.outputs, lambda: tf.autograph.to_code(_absolute)):
        with pytest.raises(NotImplementedError):
            view()
