"""Layout propagation: public ops and operators given DTensors return DTensors with TF's output layout.

Installed when `tf.experimental.dtensor` is first imported (programs without DTensors pay nothing): the public
names of the ops below are rebound to wrappers that run the op on the global values and attach the output layout
of TF's rule (elementwise: the inputs' shardings merged by broadcasting; matmul: rows of `a`, columns of `b`;
reductions: the reduced dimensions dropped or, with keepdims, unsharded). Ops outside these tables take DTensors
as regular tensors and return regular tensors; regular tensors mixed with DTensors count as replicated (TF accepts
only scalars and small integer tensors there). Divergences from TF: gradients of tapes are regular tensors (TF
propagates layouts through the backward ops), and inside tf.function bodies ops return regular tensors (traces
see DTensor arguments as regular tensors; replays return regular tensors).
"""
import functools
import inspect
import sys

from tfcompat.dtensor.layout import UNSHARDED, Layout
from tfcompat.dtensor.mesh import get_default_mesh
from tfcompat.dtensor.tensor import DTensor, layout_of, make, relayout
from tfcompat.eager.function._state import current_recorder
from tfcompat.framework import errors
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.tensor import EagerTensor, Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops.extension_dispatch import BINARY_APIS, UNARY_APIS

REDUCTIONS = ("math.reduce_sum", "math.reduce_mean", "math.reduce_max", "math.reduce_min", "math.reduce_prod",
              "math.reduce_all", "math.reduce_any", "math.reduce_logsumexp", "math.reduce_std",
              "math.reduce_variance")
ELEMENTWISE = UNARY_APIS + BINARY_APIS + ("math.add_n", "nn.softmax", "identity", "stop_gradient", "nn.bias_add")
CREATION = ("ones", "zeros", "fill", "random.stateless_normal", "random.stateless_uniform", "random.normal",
            "random.uniform")
LOGITS_LOSSES = ("nn.sparse_softmax_cross_entropy_with_logits", "nn.softmax_cross_entropy_with_logits")
OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
             "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__and__", "__rand__",
             "__or__", "__ror__", "__xor__", "__rxor__", "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__abs__",
             "__invert__", "__matmul__", "__rmatmul__")


# -- rules: (output shape, [(layout, shape)], bound arguments) -> sharding specs ------------------------------------
def _inputs(values):
    """(layout, shape) of each DTensor or DVariable among `values` (and inside lists and tuples of them)."""
    found = []
    for v in values:
        if isinstance(v, (list, tuple)):
            found += _inputs(v)
        else:
            layout = layout_of(v)
            if layout is not None:
                found.append((layout, tuple(storage(v).shape)))
    return found


def _merge(shape, found):
    """Each output dimension sharded as the first input dimension of the same size (aligned from the right) that
    is sharded on a mesh dimension not used yet."""
    specs, used = [], set()
    for i, size in enumerate(shape):
        spec = UNSHARDED
        for layout, in_shape in found:
            j = i - (len(shape) - len(in_shape))
            s = layout.sharding_specs[j] if j >= 0 else UNSHARDED
            if s != UNSHARDED and s not in used and in_shape[j] == size:
                spec = s
                break
        if spec != UNSHARDED:
            used.add(spec)
        specs.append(spec)
    return specs


def elementwise(shape, found, bound):
    return _merge(shape, found)


def _specs_and_shape(x):
    layout = layout_of(x)
    shape = tuple(storage(x).shape) if isinstance(x, (Tensor, Variable)) else ()
    return (layout.sharding_specs if layout is not None else [UNSHARDED] * len(shape)), shape


def matmul(shape, found, bound):
    mesh = found[0][0].mesh
    a_specs, a_shape = _specs_and_shape(bound.get("a"))
    b_specs, b_shape = _specs_and_shape(bound.get("b"))
    row = a_specs[-1] if bound.get("transpose_a") or bound.get("adjoint_a") else a_specs[-2]
    col = b_specs[-2] if bound.get("transpose_b") or bound.get("adjoint_b") else b_specs[-1]
    batch = _merge(shape[:-2], [(Layout(a_specs[:-2], mesh), a_shape[:-2]), (Layout(b_specs[:-2], mesh), b_shape[:-2])])
    if row in batch:
        row = UNSHARDED
    if col in batch:
        col = UNSHARDED
    if row == col:                  # both on one mesh dimension: TF replicates the result
        row = col = UNSHARDED
    return batch + [row, col]


def _int_list(value):
    return value.numpy().tolist() if isinstance(value, Tensor) else list(value)


def transpose(shape, found, bound):
    specs = found[0][0].sharding_specs
    perm = bound.get("perm")
    perm = list(range(len(specs)))[::-1] if perm is None else _int_list(perm)
    return [specs[p] for p in perm]


def reshape(shape, found, bound):
    """Dimensions grouped into runs of equal size products: the first output dimension of each run keeps the
    sharding of the run's first input dimension (when it divides evenly), the others are unsharded."""
    layout, in_shape = found[0]
    specs, i, j = [UNSHARDED] * len(shape), 0, 0
    while i < len(in_shape) and j < len(shape):
        first_in, first_out = i, j
        a, b = in_shape[i], shape[j]
        i, j = i + 1, j + 1
        while a != b:
            if a < b:
                a, i = a * in_shape[i], i + 1
            else:
                b, j = b * shape[j], j + 1
        spec = layout.sharding_specs[first_in]
        if spec != UNSHARDED and shape[first_out] % layout.num_shards(first_in) == 0:
            specs[first_out] = spec
    return specs


def reduction(shape, found, bound):
    layout, in_shape = found[0]
    rank = len(in_shape)
    axis = bound.get("axis")
    if axis is None:
        axes = set(range(rank))
    else:
        axis = axis.numpy().tolist() if isinstance(axis, Tensor) else axis
        axes = {a % rank for a in (axis if isinstance(axis, (list, tuple)) else [axis])}
    keep = bound.get("keepdims")
    return [UNSHARDED if i in axes else s for i, s in enumerate(layout.sharding_specs) if keep or i not in axes]


def arg_reduction(shape, found, bound):
    """argmax/argmin: axis 0 by default."""
    return reduction(shape, found, {**bound, "axis": 0 if bound.get("axis") is None else bound["axis"]})


def logits_loss(shape, found, bound):
    logits = layout_of(bound.get("logits"))
    found = [(Layout(logits.sharding_specs[:-1], logits.mesh), tuple(storage(bound["logits"]).shape[:-1]))] \
        if logits is not None else []
    labels = layout_of(bound.get("labels"))
    if labels is not None:
        found.append((labels, tuple(storage(bound["labels"]).shape)))
    return _merge(shape, found)


# -- wrappers -------------------------------------------------------------------------------------------------------
def _check_meshes(found):
    mesh = found[0][0].mesh
    if any(layout.mesh != mesh for layout, _ in found[1:]):
        raise errors.UnknownError(None, None, "<unknown>:0: error: 'tf_device.cluster' op failed during mesh "
                                  "propagation. All inputs to `tf_device.Cluster` must have same mesh configuration.")
    return mesh


def _attach(result, rule, found, bound):
    if type(result) is not EagerTensor and type(result) is not DTensor or current_recorder() is not None:
        return result               # inside tf.function traces values are regular tensors (replays return those)
    mesh = _check_meshes(found)
    t = storage(result)
    return make(t, Layout(rule(tuple(t.shape), found, bound), mesh))


def wrap_op(fn, rule, creation=False):
    """`fn` returning DTensors with `rule`'s layout when given DTensors; `layout=` (where `fn` has that parameter)
    and, for creation ops, an enclosing `default_mesh` make its result a DTensor too."""
    signature = inspect.signature(fn)
    takes_layout = "layout" in signature.parameters

    @functools.wraps(fn)
    def op(*args, **kwargs):
        layout = kwargs.pop("layout", None) if takes_layout else None
        found = _inputs(args) + _inputs(kwargs.values())
        result = fn(*args, **kwargs)
        if layout is not None:
            return relayout(result, layout)
        if found:
            try:
                bound = signature.bind(*args, **kwargs).arguments
            except TypeError:
                bound = {}
            return _attach(result, rule, found, bound)
        mesh = get_default_mesh() if creation else None
        if mesh is not None and type(result) is EagerTensor and current_recorder() is None:
            return make(storage(result), Layout.replicated(mesh, storage(result).ndim))
        return result
    return op


def _operator(fn, name):
    rule = matmul if "matmul" in name else elementwise
    reflected = name.startswith("__r") and name not in ("__rshift__",)

    def method(*args):
        found = _inputs(args)
        result = fn(*args)
        if rule is matmul:
            a, b = (args[1], args[0]) if reflected else (args[0], args[1])
            return _attach(result, rule, found, {"a": a, "b": b})
        return _attach(result, rule, found, {})
    method.__name__ = name
    return method


def _rebind(fn, op, names):
    """Every public name bound to `fn` (in the registry and in its namespace module) now names `op`."""
    for full in names:
        EXPORTS[full] = op
        path, _, attr = full.rpartition(".")
        module = sys.modules.get("tfcompat" + ("." + path if path else ""))
        if module is not None and module.__dict__.get(attr) is fn:
            setattr(module, attr, op)


_installed = []


def install(dvariable_class):
    """Rebinds the tables' public ops and gives DTensor and `dvariable_class` layout-propagating operators (once)."""
    if _installed:
        return
    _installed.append(True)
    names_of = {}
    for full, obj in EXPORTS.items():
        names_of.setdefault(id(obj), []).append(full)
    tables = [(ELEMENTWISE, elementwise, False), (("linalg.matmul",), matmul, False), (REDUCTIONS, reduction, False),
              (("math.argmax", "math.argmin"), arg_reduction, False), (("transpose",), transpose, False),
              (("reshape",), reshape, False),
              (LOGITS_LOSSES, logits_loss, False), (CREATION, elementwise, True)]
    for names, rule, creation in tables:
        for name in names:
            fn = EXPORTS.get(name)
            if fn is None or not callable(fn) or isinstance(fn, type):
                continue
            _rebind(fn, wrap_op(fn, rule, creation), names_of.get(id(fn), [name]))
    for cls, base in ((DTensor, EagerTensor), (dvariable_class, Variable)):
        for name in OPERATORS:
            fn = getattr(base, name, None)
            if fn is not None and fn is not getattr(object, name, None):
                setattr(cls, name, _operator(fn, name))
