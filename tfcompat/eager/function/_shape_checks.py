"""Trace-time shape errors: an op whose static shape check fails while a tf.function body traces on fully known input
shapes raises TF's graph-construction ValueError, as TF runs each op's shape function while building the graph."""
import dis
import sys

import torch

from tfcompat.eager.function._state import tls
from tfcompat.framework import errors

# TF's node names of ops made by Python operators (`a + b` is `add`; `tf.add(a, b)` is `Add`)
_OPERATOR_NODES = {"AddV2": "add", "Sub": "sub", "Mul": "mul", "RealDiv": "truediv", "FloorDiv": "floordiv",
                   "FloorMod": "mod", "Pow": "pow"}
# TF's node names of ops made by their functions, where not the op's type (`tf.add` makes `Add`, an AddV2 op)
_FUNCTION_NODES = {"AddV2": "Add", "RealDiv": "truediv"}


def _static_trace(rec):
    """Whether a trace records with every input shape known (a spec's `None` dims leave the check to run time)."""
    if rec is None or rec.paused:
        return False
    return all(r.shape is None or r.shape.is_fully_defined() for r in list(rec.values.values())
               if r.name.startswith("I["))


def _by_operator():
    """Whether the user code that reached the op did so through a Python operator (its frame's current instruction)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("tfcompat."):
        frame = frame.f_back
    if frame is None:
        return False
    return dis.opname[frame.f_code.co_code[frame.f_lasti]] in ("BINARY_OP", "COMPARE_OP")


def _input_name(rec, x, node):
    """A NodeDef's name of an op input: the traced value's node (`a`, `sub`; a value computed from no input is a
    `Const`), or the name TF gives a constant it makes of a Python argument (`{node}/shape`)."""
    if isinstance(x, tuple):
        return x[0].format(node=node)
    label = (rec.symbol(x)[0] if isinstance(x, torch.Tensor) and rec.is_dynamic(x) else None) or rec.label("Const")
    return label[:-2] if label.endswith(":0") else label


def node_text(node, op_type, attrs, inputs):
    """TF's NodeDef text of the failing op (`node`: its default name, None: its function's), or None outside such a
    trace."""
    rec = tls.recorder
    if not _static_trace(rec):
        return None
    if _by_operator():
        node = _OPERATOR_NODES.get(op_type, node)
    node = node or _FUNCTION_NODES.get(op_type, op_type)
    name = rec.label(node)[:-2]
    return f"{{{{node {name}}}}} = {op_type}[{attrs}]({', '.join(_input_name(rec, x, name) for x in inputs)})"


errors.graph_node[0] = node_text
