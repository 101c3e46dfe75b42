"""`tf.compat.v1`: the TF1 names that make sense eagerly; other names resolve to their TF2 equivalent.

Inside `with tf.Graph().as_default():` TF1 graph mode works as in TF (`session.py`, `framework/graph.py`):
placeholders, graph variables, `Session.run` with feeds, initializers, `get_variable` reuse rules, `train.Saver`.
Outside a graph they work as under TF 2's eager execution; `disable_eager_execution` makes TF1's global graph the
outermost default graph for the rest of the program.
"""
from tfcompat.compat.v1 import graph_ops, logging  # noqa: F401
from tfcompat.framework import graph_state
from tfcompat.framework.dimension import Dimension, as_dimension  # noqa: F401
from tfcompat.compat.v1.division import div  # noqa: F401
from tfcompat.compat.v1.reductions import (argmax, argmin, count_nonzero, reduce_all, reduce_any,  # noqa: F401
                                           reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod,
                                           reduce_sum)
from tfcompat.compat.v1.tensor_equality import disable_tensor_equality, enable_tensor_equality  # noqa: F401
from tfcompat.compat.v1.state_ops import (batch_scatter_update, scatter_add, scatter_div, scatter_max,  # noqa: F401
                                          scatter_min, scatter_mul, scatter_nd_add, scatter_nd_sub,
                                          scatter_nd_update, scatter_sub, scatter_update, tensor_scatter_add,
                                          tensor_scatter_sub, tensor_scatter_update)
from tfcompat.compat.v1.session import (GraphKeys, InteractiveSession, Session, add_to_collection,  # noqa: F401
                                        add_to_collections, get_collection, get_collection_ref, get_default_graph,
                                        get_default_session, global_variables, global_variables_initializer,
                                        initialize_all_variables, local_variables, local_variables_initializer,
                                        model_variables, placeholder,
                                        placeholder_with_default, trainable_variables, variables_initializer)
from tfcompat.ops.space_batch_ops import (batch_to_space_nd, batch_to_space_v1 as batch_to_space,  # noqa: F401
                                         space_to_batch_v1 as space_to_batch)
from tfcompat.compat.v1.init_ops_v1 import (glorot_normal_initializer, glorot_uniform_initializer,  # noqa: F401
                                            random_normal_initializer, random_uniform_initializer,
                                            truncated_normal_initializer, variance_scaling_initializer)
from tfcompat.compat.v1.variable_scope import (VariableScope, constant_initializer, get_variable,  # noqa: F401
                                               get_variable_scope, name_scope, ones_initializer, variable_scope,
                                               zeros_initializer)

from tfcompat.compat.v1.template import make_template  # noqa: F401,E402

graph_state.on_first_graph(graph_ops.install)

_GRAPH_ONLY = {
    "disable_v2_behavior", "disable_resource_variables",
    "tables_initializer",
    "ConfigProto", "GPUOptions", "RunOptions",
    "RunMetadata", "sparse_placeholder", "wrap_function",
}


def executing_eagerly():
    """True, except while a `tf.Graph` is the default graph."""
    return not graph_state.state.graphs


def executing_eagerly_outside_functions():
    return not graph_state.state.graphs


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Eager execution is always on in tfcompat; options other than the defaults are not supported."""
    if config is not None or device_policy is not None or execution_mode is not None:
        raise NotImplementedError("tf.compat.v1.enable_eager_execution(config/device_policy/execution_mode)")


def enable_v2_behavior():
    """TF2 behaviour is always on in tfcompat."""


def disable_eager_execution():
    """TF1's graph mode for the rest of the program: ops build the global default graph, which `Session`s run."""
    if graph_state.global_graph is None:
        from tfcompat.framework.graph import Graph
        graph_state.set_global_graph(Graph())


def reset_default_graph():
    """A fresh global graph (after `disable_eager_execution`); eagerly there is none to reset."""
    if len(graph_state.state.graphs) > (graph_state.global_graph is not None):
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    if graph_state.global_graph is not None:
        from tfcompat.framework.graph import Graph
        graph_state.set_global_graph(Graph())


def dimension_value(dimension):
    """The int (or None) of a Dimension."""
    return getattr(dimension, "value", dimension)


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    if attr in ("train", "saved_model", "nn", "initializers", "sets", "metrics", "losses", "data"):
        import importlib
        module = globals()[attr] = importlib.import_module(f"tfcompat.compat.v1.{attr}")
        graph_ops.rebind(module)        # graph mode may already be on: its aliases of ops defer as tf.*'s do
        return module
    if attr == "layers":                # TF 2.21 + Keras 3: a loader whose every attribute is missing
        from tfcompat.compat.v1.keras3_legacy import layers
        globals()[attr] = layers
        return layers
    if attr == "feature_column":
        from tfcompat.compat import feature_column
        globals()[attr] = feature_column
        return feature_column
    if attr in _GRAPH_ONLY:
        raise NotImplementedError(f"tf.compat.v1.{attr} is TF1 graph-mode API that tfcompat lacks (its graphs are "
                                  "built only inside tf.Graph().as_default())")
    import tfcompat
    try:
        value = getattr(tfcompat, attr)
    except AttributeError:
        raise AttributeError(f"module 'tensorflow.compat.v1' has no attribute '{attr}'") from None
    globals()[attr] = value
    return value
