"""Public op names rebound, when the first `tf.Graph` is made, to wrappers that make graph nodes inside a graph.

A call given a graph tensor (or, for random and print ops, any call inside a graph) records a node running the op when
a session runs it, as TF's graph ops; every other call runs the op as before. Nothing is rebound until a graph exists,
so eager code of a program that never builds one pays nothing.
"""
import functools
import sys

from tfcompat.framework import graph_state
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.graph import SymbolicTensor, deferred_call, has_graph_value, is_graph_value

_OP_MODULES = ("tfcompat.ops", "tfcompat.framework.op_def", "tfcompat.framework.convert", "tfcompat.eager.tape",
               "tfcompat.eager.control_flow")
# stateful ops TF runs at each Session.run even without graph inputs, and constants (TF's Const, zeros, ones nodes); deferred
# inside any graph
_ALWAYS = {"random.normal", "random.truncated_normal", "random.uniform", "random.categorical", "random.shuffle",
           "random.gamma", "random.poisson", "print", "constant", "zeros", "ones"}


def _graph_op(op, always):
    @functools.wraps(op)
    def call(*args, **kwargs):
        if graph_state.state.graphs and (always or has_graph_value(args, kwargs)):
            return deferred_call(op, args, kwargs, op.__name__)
        return op(*args, **kwargs)
    return call


def _is_tensor(op):
    @functools.wraps(op)
    def call(x):
        return isinstance(x, SymbolicTensor) or getattr(x, "_graph_variable", False) or op(x)
    return call


def _control_dependencies(op):
    @functools.wraps(op)
    def call(control_inputs):
        graph = graph_state.default_graph()
        if graph is not None:
            return graph.control_dependencies(control_inputs)
        return op(control_inputs)
    return call


def _executing_eagerly(op):
    @functools.wraps(op)
    def call():
        return not graph_state.state.graphs
    return call


def _get_static_value(op):
    @functools.wraps(op)
    def call(tensor, partial=False):
        return None if is_graph_value(tensor) else op(tensor, partial)
    return call


def _gradients(op):
    @functools.wraps(op)
    def call(*args, **kwargs):
        if graph_state.state.graphs:
            from tfcompat.compat.v1.graph_gradients import graph_gradients
            return graph_gradients(*args, **kwargs)
        return op(*args, **kwargs)
    return call


def _refused(op):
    @functools.wraps(op)
    def call(*args, **kwargs):
        if graph_state.state.graphs and has_graph_value(args, kwargs):
            raise NotImplementedError(f"tf.{op.__name__} on graph tensors (a graph control-flow op) is not supported "
                                      "by tfcompat's TF1 graph mode")
        return op(*args, **kwargs)
    return call


_WRAPPERS = {"cond": _refused, "case": _refused, "switch_case": _refused, "while_loop": _refused,
             "gradients": _gradients, "is_tensor": _is_tensor, "is_symbolic_tensor": _is_tensor, "control_dependencies": _control_dependencies,
             "executing_eagerly": _executing_eagerly, "get_static_value": _get_static_value}


# id(op) -> (op, its graph-mode wrapper), filled by `install`
_WRAPPED = {}


def install():
    """Rebinds every public op name (and `tf.compat.v1`'s copies of them) to its graph-mode wrapper, once."""
    done = _WRAPPED
    for full, op in list(EXPORTS.items()):
        if isinstance(op, type) or not callable(op) or not getattr(op, "__module__", "").startswith(_OP_MODULES):
            continue
        if id(op) not in done:
            special = _WRAPPERS.get(full)
            done[id(op)] = (op, special(op) if special else _graph_op(op, full in _ALWAYS))
        wrapped = done[id(op)][1]
        EXPORTS[full] = wrapped
        path, _, attr = full.rpartition(".")
        module = sys.modules.get("tfcompat" + ("." + path if path else ""))
        if module is not None and getattr(module, attr, None) is op:
            setattr(module, attr, wrapped)
    for module_name, module in list(sys.modules.items()):
        if module is not None and (module_name == "tfcompat.compat.v1" or module_name.startswith("tfcompat.compat.v1.")):
            rebind(module)


def rebind(module):
    """Rebinds `module`'s aliases of public ops to their graph-mode wrappers, once graph mode is on (tf.compat.v1
    and its submodules, including one imported later)."""
    names = module.__dict__
    for name, value in list(names.items()):
        wrapped = _WRAPPED.get(id(value))
        if wrapped is not None and wrapped[0] is value:
            names[name] = wrapped[1]
