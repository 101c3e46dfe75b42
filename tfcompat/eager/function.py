"""`tf.function`: traced once per input signature, then replayed without re-running the Python body.

Design (torch-level trace and replay):

- Calls are keyed by TF's input signature: tensors by dtype and shape, variables by dtype and shape,
  other Python values by value (`2` and `2.0` share a trace, as in TF). A new key is a new trace
  (`experimental_get_tracing_count()`); with `reduce_retracing=True` or an `input_signature`, shapes
  generalize to `None` dims as TF does, and any trace whose specs are compatible is reused.
- A trace runs the Python body once on the real inputs (so `print`, `list.append` happen then, and
  `tf.print` prints) under a `TorchDispatchMode` that records every aten op the body runs, including
  the backward ops of `GradientTape`s used inside the body. Op inputs are resolved to function inputs,
  to reads of `tf.Variable`s (any variable alive or created during the trace), to values of earlier
  ops, or to captured constants; variables whose value changed are recorded as writes. `tf.print`,
  `tf.py_function` and `tf.numpy_function` are recorded as host callbacks that run on every call.
- The recording is compiled to straight-line Python (one call per aten op: no tfcompat wrappers,
  dtype checks or conversion) and replayed for later calls with the same signature; with
  `jit_compile=True` the replay program runs through `torch.compile`, its scalar guards (`bool(t)`,
  `.item()`: e.g. the label range check of sparse cross-entropy) computed inside the graph and checked
  after it, and a failing compiled run falls back to the plain program (see `_Jit`).
- Replays are differentiable by an outer `GradientTape`: tapes outside the function are hidden while
  tracing, and the replay reads variables through the tapes.

Documented divergences from TF:
- A body whose Python control flow depends on tensor values (`if x > 0:`, `int(x)`, `x.numpy()` on
  values computed from the inputs) cannot be replayed: tfcompat then runs the Python body on every
  call for that signature (values stay right; Python side effects repeat). With `autograph=False`,
  a tensor used as a Python `bool` raises TF's `OperatorNotAllowedInGraphError` instead.
- Recorded programs are shape-specific: under a generalized signature (`None` dims), the first call
  with a new concrete shape runs the Python body again (it does not count as a trace).
- While tracing, `str()`/`repr()` of a traced tensor give TF's symbolic text (`Tensor("x:0", ...)`),
  and the body otherwise sees real values (`executing_eagerly()` is True).
- String tensors as inputs make the function run its Python body on every call.
"""
import contextlib
import functools
import inspect
import itertools
import sys
import threading
import warnings
import weakref

import numpy as np
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from tfcompat.framework import errors, variables
from tfcompat.framework.context import state
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, _wrap
from tfcompat.framework.variables import Variable
from tfcompat.util import nest

# -- live variables (a trace resolves op inputs to variable reads) ----------------------------------------------------
_live_vars = weakref.WeakValueDictionary()      # id(variable) -> variable


def _on_variable(v):
    _live_vars[id(v)] = v
    rec = getattr(_tls, "recorder", None)
    if rec is not None:
        rec.created(v)


variables._creation_hooks.append(_on_variable)

_tls = threading.local()
_run_eagerly = [False]

_RETRACE_HISTORY, _RETRACE_THRESHOLD, _RETRACE_MAX_WARNINGS = 10, 5, 2
_retrace_detectors = weakref.WeakKeyDictionary()      # Python function's code -> _RetraceDetector


class _RetraceDetector:
    """TF's frequent-tracing detector for one Python function (shared by every `tf.function` of it, so that
    `tf.function(f)` made in a loop is caught): it warns, at most twice, when 5 of its last ~10 calls traced."""

    __slots__ = ("calls_per_trace", "count", "warnings", "untraced")

    def __init__(self):
        self.calls_per_trace = []     # calls since each recent trace (that trace included)
        self.count = 0
        self.warnings = 0
        self.untraced = 0             # calls without tracing since the last trace, added in at the next one

    def traced(self, function):
        if self.untraced:
            if not self.calls_per_trace:
                self.calls_per_trace.append(0)
            self.calls_per_trace[-1] += self.untraced
            self.count += self.untraced
            self.untraced = 0
        self.count += 1
        self.calls_per_trace.append(1)
        while self.calls_per_trace and self.count - self.calls_per_trace[0] > _RETRACE_HISTORY:
            self.count -= self.calls_per_trace.pop(0)
        if self.warnings < _RETRACE_MAX_WARNINGS and len(self.calls_per_trace) >= _RETRACE_THRESHOLD:
            self.warnings += 1
            from tfcompat.ops.misc_ops import get_logger
            get_logger().warning(
                f"{len(self.calls_per_trace)} out of the last {self.count} calls to {function} triggered "
                "tf.function retracing. Tracing is expensive and the excessive number of tracings could be due to "
                "(1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
                "passing Python objects instead of tensors. For (1), please define your @tf.function outside of "
                "the loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary "
                "retracing. For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing "
                "and https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


def _retrace_detector(python_function):
    """The detector of `python_function`'s code (TF's key: through `__wrapped__` and bound methods)."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", python_function)
    try:
        detector = _retrace_detectors.get(key)
        if detector is None:
            detector = _retrace_detectors[key] = _RetraceDetector()
    except TypeError:         # not weakly referenceable: a detector of its own
        detector = _RetraceDetector()
    return detector


@tf_export("config.run_functions_eagerly")
def run_functions_eagerly(run_eagerly):
    """Makes every `tf.function` run its Python body on each call (no tracing), as TF's debug mode."""
    _run_eagerly[0] = bool(run_eagerly)


@tf_export("config.functions_run_eagerly")
def functions_run_eagerly():
    """Whether `tf.config.run_functions_eagerly(True)` is in effect."""
    return _run_eagerly[0]


def _key(t):
    return (t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), t.stride(), t.dtype, t.device)


class GuardFailed(Exception):
    """Raised by a replay whose recorded Python-visible tensor values differ: the body must run again."""


def _equal(a, b):
    return a.shape == b.shape and bool(torch.equal(a, b))


_RANDOM_WORDS = ("rand", "normal", "uniform", "bernoulli", "dropout", "multinomial", "exponential", "poisson",
                 "cauchy", "geometric", "log_normal")


class _Ref:
    __slots__ = ("name", "dynamic", "label", "shape")

    def __init__(self, name, dynamic, label, shape=None):
        self.name = name
        self.dynamic = dynamic
        self.label = label
        self.shape = shape          # the traced input's (possibly generalized) TensorShape


_SINGLETON = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
              "tf.Variable is only created once or created outside tf.function. See "
              "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


class _Recorder(TorchDispatchMode):
    """Records the aten ops of one trace and resolves their inputs (see module doc)."""

    def __init__(self):
        super().__init__()
        self.lines = []           # generated source lines
        self.consts = []          # captured objects, referenced as C[i]
        self.funcs = []           # op overloads and callbacks, referenced as F[i]
        self.values = {}          # storage key -> _Ref
        self.keep = []            # keeps every seen tensor alive so storage keys stay unique
        self.vars = []            # variables read, referenced as V[i]
        self.var_index = {}       # id(variable) -> index in self.vars
        self.var_keys = {}        # storage key -> variable (values at trace start, or new variables)
        self.start = {}           # id(variable) -> storage at trace start
        self.labels = {}
        self.counter = itertools.count()
        self.paused = 0
        self.new_vars = []        # (variable, initial storage) created during the trace
        self.forbid = False       # variable creation raises TF's singleton ValueError
        self.cb_log = []          # host callback outputs, in call order
        self.cb_replay = None     # outputs to reuse instead of running the callbacks again

    def restore(self):
        """Puts every variable back to its value before the trace (new ones to their initial value)."""
        for vid, t0 in self.start.items():
            v = _live_vars.get(vid)
            if v is not None and t0 is not None:
                v._t = t0
        for v, t in self.new_vars:
            v._t = t

    # -- names -----------------------------------------------------------------------------------------------------
    def _label(self, base):
        n = self.labels.get(base, 0)
        self.labels[base] = n + 1
        return f"{base}:0" if n == 0 else f"{base}_{n}:0"

    def bind(self, t, name, dynamic=True, label=None, shape=None):
        self.keep.append(t)
        ref = _Ref(name, dynamic, label, shape)
        self.values[_key(t)] = ref
        return ref

    def created(self, v):
        if self.paused:
            return
        if self.forbid:
            raise ValueError(_SINGLETON)
        self.start.setdefault(id(v), None)
        t = v._t
        self.new_vars.append((v, t))
        if isinstance(t, torch.Tensor):
            self.keep.append(t)
            self.var_keys[_key(t)] = v
            self.values.pop(_key(t), None)

    def var_ref(self, v):
        i = self.var_index.get(id(v))
        if i is None:
            i = self.var_index[id(v)] = len(self.vars)
            self.vars.append(v)
        return f"r{i}"

    def ref(self, t):
        """The expression that yields tensor `t` when replayed."""
        k = _key(t)
        r = self.values.get(k)
        if r is not None:
            return r
        v = self.var_keys.get(k)
        if v is not None:
            return self.bind(t, self.var_ref(v), True, v.name)
        i = len(self.consts)
        self.consts.append(t)
        return self.bind(t, f"C[{i}]", False)

    def const(self, obj):
        i = len(self.consts)
        self.consts.append(obj)
        return f"C[{i}]"

    def expr(self, a, dyn):
        """Argument `a` as a program term (see `_src`): refs to values, constants, lists, Python literals."""
        if isinstance(a, torch.Tensor):
            r = self.ref(a)
            if r.dynamic:
                dyn.append(True)
            return {"ref": r.name}
        if isinstance(a, (list, tuple)):
            return {"tuple" if isinstance(a, tuple) else "list": [self.expr(x, dyn) for x in a]}
        if a is None or isinstance(a, (bool, int, str)) or (isinstance(a, float) and np.isfinite(a)):
            return a
        return {"ref": self.const(a)}

    # -- recording ----------------------------------------------------------------------------------------------------
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if self.paused:
            return out
        dyn = []
        step = {"f": len(self.funcs), "args": [self.expr(x, dyn) for x in args],
                "kwargs": {k: self.expr(v, dyn) for k, v in kwargs.items()}}
        name = func.__name__
        self.funcs.append(func)
        if not isinstance(out, (torch.Tensor, list, tuple)) and dyn:
            # a traced value read as a Python scalar: the replay is valid while it reads the same
            step.update(op="guard", value=self.const(out))
            self.lines.append(step)
            return out
        dynamic = bool(dyn) or any(w in name for w in _RANDOM_WORDS)
        step.update(op="call", out=f"o{next(self.counter)}")
        self.lines.append(step)
        self._bind_out(out, step["out"], dynamic, name.split(".")[0])
        return out

    def guard_array(self, t):
        """Python code read traced tensor `t` as an array: the replay is valid while it has the same value."""
        self.lines.append({"op": "guard_array", "x": self.expr(t, []), "value": self.const(t.detach().clone())})

    def _bind_out(self, out, res, dynamic, base):
        if isinstance(out, torch.Tensor):
            self.bind(out, res, dynamic, self._label(base))
        elif isinstance(out, (list, tuple)):
            for i, o in enumerate(out):
                if isinstance(o, torch.Tensor):
                    self.bind(o, f"{res}[{i}]", dynamic, self._label(base))

    def callback(self, fn, flat_inputs, flat_outputs):
        """Records a host callback `fn(list_of_storages) -> list_of_storages` run at this point."""
        step = {"op": "call", "f": len(self.funcs), "args": [self.expr(list(flat_inputs), [])], "kwargs": {},
                "out": f"o{next(self.counter)}", "host": True}
        self.funcs.append(fn)
        self.lines.append(step)
        self._bind_out(list(flat_outputs), step["out"], True, "PyFunc")

    def is_dynamic(self, t):
        r = self.values.get(_key(t))
        if r is not None:
            return r.dynamic
        return _key(t) in self.var_keys

    def symbol(self, t):
        """TF's graph name of traced storage `t` and its static shape (None: the real shape)."""
        r = self.values.get(_key(t))
        if r is None:
            v = self.var_keys.get(_key(t))
            return (v.name if v is not None else None), None
        if r.label is None:
            r.label = self._label("Const")
        return r.label, r.shape


def _src(term):
    """Python source of a program term: {"ref": name}, {"list": [...]}, {"tuple": [...]} or a literal."""
    if isinstance(term, dict):
        if "ref" in term:
            return term["ref"]
        inner = ", ".join(_src(x) for x in term.get("list", term.get("tuple", ())))
        if "tuple" in term:
            return f"({inner},)" if term["tuple"] else "()"
        return f"[{inner}]"
    return repr(term)


def _step_src(step):
    """One Python line of the replay program for a recorded step."""
    if step["op"] == "guard_array":
        return f"if not _equal({_src(step['x'])}, {step['value']}): raise GuardFailed()"
    a = ", ".join([_src(x) for x in step["args"]] + [f"{k}={_src(v)}" for k, v in step["kwargs"].items()])
    if step["op"] == "guard":
        return f"if F[{step['f']}]({a}) != {step['value']}: raise GuardFailed()"
    return f"{step['out']} = F[{step['f']}]({a})"


def program_source(name, n_vars, steps, out_terms, write_terms, funcs=None):
    """The straight-line replay program `program(I, V, C, F) -> (outputs, new variable values)`.

    With `funcs` (the recorded ops: the torch.compile form) it is `program(I, R, C, F) -> (outputs, new values,
    failed)` over the variables' read values `R`; its guards on scalars read from traced values
    (`aten._local_scalar_dense`: `.item()`, `bool(tensor)`) become tensor comparisons folded into `failed`, a
    boolean tensor (or None) the caller checks after the run, so they do not split the compiled graph."""
    if funcs is None:
        body = ["def program(I, V, C, F):"] + [f"    r{i} = V[{i}]._read()" for i in range(n_vars)]
    else:
        body = ["def program(I, R, C, F):"] + [f"    r{i} = R[{i}]" for i in range(n_vars)]
    deferred = []
    for step in steps:
        if funcs is not None and step["op"] == "guard" and funcs[step["f"]] is _ITEM:
            deferred.append(f"g{len(deferred)}")
            body.append(f"    {deferred[-1]} = _ne({_src(step['args'][0])}, {step['value']}).reshape(())")
        else:
            body.append("    " + _step_src(step))
    outs = ", ".join(_src(e) if e is not None else "None" for e in out_terms)
    result = f"[{outs}], [{', '.join(_src(e) for e in write_terms)}]"
    if funcs is not None:
        result += f", _any([{', '.join(deferred)}])" if deferred else ", None"
    body.append(f"    return {result}")
    return "\n".join(body)


_ITEM = torch.ops.aten._local_scalar_dense.default


def _any_failed(flags):
    return torch.stack(flags).any() if len(flags) > 1 else flags[0]


def compile_program(source, name):
    scope = {"GuardFailed": GuardFailed, "_equal": _equal, "_ne": torch.ne, "_any": _any_failed}
    exec(compile(source, f"<tf.function {name}>", "exec"), scope)  # noqa: S102 generated code
    return scope["program"]


def current_recorder():
    """The recorder of the trace running in this thread, or None."""
    return getattr(_tls, "recorder", None)


def host_call(fn, flat_inputs):
    """Runs host callback `fn` on tensor storages; inside a trace it is recorded to run on every call."""
    rec = getattr(_tls, "recorder", None)
    if rec is None or rec.paused:
        with _loud():
            return fn(flat_inputs)
    rec.paused += 1
    try:
        if rec.cb_replay:
            out = rec.cb_replay.pop(0)
        else:
            with _loud():
                out = fn(flat_inputs)
    finally:
        rec.paused -= 1
    rec.cb_log.append(out)
    rec.callback(fn, flat_inputs, out)
    return out


class _Quiet:
    """Python's stdout while the body runs again outside a trace: TF prints from the body only when tracing."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


@contextlib.contextmanager
def _quiet():
    saved, _tls.stdout = getattr(_tls, "stdout", None), sys.stdout
    sys.stdout = _Quiet()
    try:
        yield
    finally:
        sys.stdout, _tls.stdout = _tls.stdout, saved


@contextlib.contextmanager
def _loud():
    """Host callbacks (tf.print, py_function) run with the real stdout."""
    real = getattr(_tls, "stdout", None)
    if real is None or sys.stdout is real:
        yield
        return
    quiet, sys.stdout = sys.stdout, real
    try:
        yield
    finally:
        sys.stdout = quiet


class _InitScope:
    """`tf.init_scope()` inside a trace: ops run once now, unrecorded; variable changes are kept, not replayed."""

    def __enter__(self):
        rec = getattr(_tls, "recorder", None)
        self._rec = rec
        if rec is not None:
            rec.paused += 1
            self._before = {vid: v._t for vid, v in list(_live_vars.items())}
        return None

    def __exit__(self, *exc):
        rec = self._rec
        if rec is not None:
            rec.paused -= 1
            for vid, v in list(_live_vars.items()):
                if self._before.get(vid) is not v._t and isinstance(v._t, torch.Tensor):
                    rec.start[vid] = v._t
                    rec.keep.append(v._t)
                    rec.var_keys[_key(v._t)] = v
        return False


def init_scope_context():
    """The context `tf.init_scope()` should return: lifts code out of a tf.function trace (see `_InitScope`)."""
    return _InitScope()


# -- trace-time views of tensors (TF's symbolic text; data-dependence detection) --------------------------------------
_orig = {}


def _patched_numpy(self, *a, **k):
    rec = getattr(_tls, "recorder", None)
    if rec is not None and not rec.paused and rec.is_dynamic(self):
        rec.paused += 1
        try:
            rec.guard_array(self)
        finally:
            rec.paused -= 1
    return _orig["numpy"](self, *a, **k)


def _patched_tolist(self):
    rec = getattr(_tls, "recorder", None)
    if rec is not None and not rec.paused and rec.is_dynamic(self):
        rec.paused += 1
        try:
            rec.guard_array(self)
        finally:
            rec.paused -= 1
    return _orig["tolist"](self)


def _symbolic(self):
    rec = getattr(_tls, "recorder", None)
    t = self._t
    symbols = getattr(_tls, "symbols", None)
    if symbols and id(self) in symbols:
        label, shape = symbols[id(self)]
        return f'Tensor("{label}", shape={shape if shape is not None else self.shape}, dtype={self.dtype.name})'
    if rec is not None and not rec.paused and isinstance(t, torch.Tensor) and rec.is_dynamic(t):
        label, shape = rec.symbol(t)
        return f'Tensor("{label}", shape={shape if shape is not None else self.shape}, dtype={self.dtype.name})'
    return None


def _patched_str(self):
    return _symbolic(self) or _orig["str"](self)


def _patched_repr(self):
    return _symbolic(self) or _orig["repr"](self)


def _patched_format(self, spec):
    s = _symbolic(self)
    return format(s, spec) if s is not None else _orig["format"](self, spec)


def _patched_bool(self):
    rec = getattr(_tls, "recorder", None)
    if rec is not None and not rec.paused and isinstance(self._t, torch.Tensor) and rec.is_dynamic(self._t) \
            and not _tls.autograph:
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the following "
            "resolutions to the problem: If you are running in Graph mode, use Eager execution mode or decorate "
            "this function with @tf.function. If you are using AutoGraph, you can try decorating this function "
            "with @tf.function. If that does not work, then you may be using an unsupported feature or your source "
            "code may not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/"
            "tensorflow/python/autograph/g3doc/reference/limitations.md#access-to-source-code for more "
            "information.")
    return _orig["bool"](self)


def _patched_next(self):
    """`next()` on a tf.data iterator inside a trace: recorded to fetch the next element on every call."""
    rec = getattr(_tls, "recorder", None)
    if rec is None or rec.paused:
        return _orig["next"](self)
    flat = host_call(lambda _: [x._t for x in nest.flatten(_orig["next"](self))], [])
    return nest.pack_sequence_as(self.element_spec, [_wrap(t) for t in flat])


_PATCHES = ((torch.Tensor, "numpy", _patched_numpy), (torch.Tensor, "tolist", _patched_tolist),
            (Tensor, "__str__", _patched_str, "str"), (Tensor, "__repr__", _patched_repr, "repr"),
            (Tensor, "__format__", _patched_format, "format"), (Tensor, "__bool__", _patched_bool, "bool"))
_patch_depth = [0]
_patch_lock = threading.Lock()


def _patches():
    data = sys.modules.get("tfcompat.data.dataset")      # no tf.data iterator can exist before it is imported
    return _PATCHES + ((data.OwnedIterator, "__next__", _patched_next, "next"),) if data is not None else _PATCHES


def _patch(on):
    with _patch_lock:
        _patch_depth[0] += 1 if on else -1
        if _patch_depth[0] != (1 if on else 0):
            return
        if on:
            _orig["patches"] = _patches()
        for cls, attr, fn, *alias in _orig["patches"]:
            name = alias[0] if alias else attr
            if on:
                _orig[name] = getattr(cls, attr)
                _orig["own:" + name] = attr in cls.__dict__
                setattr(cls, attr, fn)
            elif _orig["own:" + name]:
                setattr(cls, attr, _orig[name])
            else:
                delattr(cls, attr)


# -- signatures -------------------------------------------------------------------------------------------------------
class _VarSpec:
    """The trace type of a variable argument: dtype and shape."""
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype

    def __eq__(self, o):
        return type(o) is _VarSpec and o.dtype == self.dtype and o.shape == self.shape

    def __hash__(self):
        return hash((self.dtype, self.shape))


def _leaf_key(x):
    """The trace type of one argument leaf: a tensor's (dtype, shape), else the Python value."""
    if isinstance(x, Tensor):
        return ("T", x._t.dtype, tuple(x._t.shape))
    if isinstance(x, Variable):
        return ("V", x._t.dtype, tuple(x._t.shape))
    if isinstance(x, np.ndarray):
        return ("T", x.dtype, x.shape)
    tracing_type = getattr(x, "__tf_tracing_type__", None)
    if tracing_type is not None:
        return tracing_type(None)
    try:
        hash(x)
        return x
    except TypeError:
        return ("id", id(x))


def _spec_of(x, name=None):
    from tfcompat.ops.misc_ops import TensorSpec
    if isinstance(x, (Tensor, np.ndarray)):
        x = convert_to_tensor(x)
        return TensorSpec(x.shape, x.dtype, name)
    if isinstance(x, Variable):
        return TensorSpec(x.shape, x.dtype, name)
    if hasattr(x, "__tf_tracing_type__"):
        return x.__tf_tracing_type__(None)
    return x


def _is_spec(x):
    from tfcompat.ops.misc_ops import TensorSpec
    return isinstance(x, TensorSpec)


def _compatible(spec, x):
    if isinstance(spec, TraceType):
        return _eq(spec, _leaf_key(x))
    if not _is_spec(spec):
        return not isinstance(x, (Tensor, Variable)) and _eq(spec, x)
    if not isinstance(x, (Tensor, Variable)):
        return False
    return spec.dtype == x.dtype and spec.shape.is_compatible_with(x.shape)


def _eq(a, b):
    try:
        return bool(a == b)
    except Exception:
        return a is b


def _generalize(spec, x):
    """The most specific spec covering `spec` and value `x`, or None if they differ in kind or dtype."""
    from tfcompat.ops.misc_ops import TensorSpec
    if not _is_spec(spec):
        return spec if _compatible(spec, x) else None
    if not isinstance(x, (Tensor, Variable)) or spec.dtype != x.dtype:
        return None
    return TensorSpec(spec.shape.most_specific_compatible_shape(x.shape), spec.dtype, spec.name)


@tf_export("types.experimental.TraceType")
class TraceType:
    """TF's tracing protocol: an object's `__tf_tracing_type__(context)` returns a TraceType; calls whose
    arguments have equal (hashable) TraceTypes share a trace."""

    def is_subtype_of(self, other):
        raise NotImplementedError("TraceType.is_subtype_of must be implemented by subclasses")

    def most_specific_common_supertype(self, others):
        raise NotImplementedError("TraceType.most_specific_common_supertype must be implemented by subclasses")

    def placeholder_value(self, placeholder_context=None):
        raise NotImplementedError("TraceType.placeholder_value must be implemented by subclasses")

    def __eq__(self, other):
        raise NotImplementedError("TraceType.__eq__ must be implemented by subclasses")

    def __hash__(self):
        raise NotImplementedError("TraceType.__hash__ must be implemented by subclasses")


# -- concrete functions -----------------------------------------------------------------------------------------------
def _type_text(x):
    """TF's FunctionType text of one input or output type."""
    if _is_spec(x):
        return repr(_plain(x))
    if isinstance(x, TraceType):
        return repr(x)
    if isinstance(x, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {_type_text(x[k])}]" for k in sorted(x)) + "]"
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return ("Tuple[" if isinstance(x, tuple) else "List[") + ", ".join(_type_text(v) for v in x) + "]"
    return f"Literal[{x!r}]"


class FunctionType:
    """The parameters and output type of a ConcreteFunction (TF's `function_type`)."""

    def __init__(self, cf):
        self._cf = cf

    def parameters(self):
        """[(name, kind, type)] in call order."""
        cf = self._cf
        fn = cf._function
        arg_specs, kwarg_specs = cf.structured_input_signature
        names = fn._arg_names
        out = []
        for i, spec in enumerate(arg_specs):
            name = names[i] if i < len(names) else f"args_{i - len(names)}"
            out.append((name, fn._param_kinds.get(name, "POSITIONAL_ONLY"), spec))
        order = {n: i for i, n in enumerate(names)}
        for k in sorted(kwarg_specs, key=lambda k: (order.get(k, len(order)), k)):
            out.append((k, fn._param_kinds.get(k, "KEYWORD_ONLY"), kwarg_specs[k]))
        return out

    def output_text(self):
        return _type_text(self._cf.structured_outputs)

    def __str__(self):
        parts, kinds = [], []
        for name, kind, spec in self.parameters():
            if kind == "KEYWORD_ONLY" and "KEYWORD_ONLY" not in kinds:
                parts.append("*")
            if kinds and kinds[-1] == "POSITIONAL_ONLY" and kind != "POSITIONAL_ONLY":
                parts.append("/")
            kinds.append(kind)
            parts.append(f"{name}: {_type_text(spec)}")
        if kinds and kinds[-1] == "POSITIONAL_ONLY":
            parts.append("/")
        return f"({', '.join(parts)}) -> {self.output_text()}"

    def __repr__(self):
        lines = ["Input Parameters:"] + [f"  {n} ({k}): {_type_text(s)}" for n, k, s in self.parameters()]
        lines += ["Output Type:", f"  {self.output_text()}", "Captures:"]
        captures = self._cf.captured_variables
        lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)" for v in captures] or ["  None"]
        return "\n".join(lines)


class _FuncGraph:
    """What tfcompat can show of a ConcreteFunction's graph: its name and captured variables."""

    def __init__(self, cf):
        self.name = cf.name
        self._cf = cf

    @property
    def variables(self):
        return list(self._cf.variables)

    def as_graph_def(self, *args, **kwargs):
        raise NotImplementedError("ConcreteFunction.graph.as_graph_def: tfcompat records torch (aten) ops, not a "
                                  "TensorFlow GraphDef")

    def get_operations(self):
        raise NotImplementedError("ConcreteFunction.graph.get_operations: tfcompat records torch (aten) ops, not "
                                  "TensorFlow graph operations")

    def __repr__(self):
        return f"FuncGraph(name={self.name}, id={id(self)})"


class AtomicFunction:
    """A ConcreteFunction called with its flat tensor inputs (TF's `inference_fn`)."""

    def __init__(self, cf):
        self._cf = cf
        self.name = cf._inference_name

    def __call__(self, *args):
        return self._cf._function._call_flat(self._cf, args, {})

    def __repr__(self):
        return f"<AtomicFunction> {self.name}{self._cf.function_type}"


_inference_ids = itertools.count(1)


class _Program:
    """One recorded, compiled replay of the body for one concrete input signature."""

    __slots__ = ("run", "vars", "argvars", "tensor_pos", "writes", "is_tensor", "out_static", "structure", "source",
                 "steps", "consts", "funcs", "out_terms", "write_terms")


@tf_export("types.experimental.ConcreteFunction", partial="graph, inputs/outputs as symbolic tensors")
class ConcreteFunction:
    """One trace of a `tf.function` for one input signature: callable with matching arguments."""

    def __init__(self, function, arg_specs, kwarg_specs):
        self._function = function
        self._inference_name = f"__inference_{function.__name__}_{next(_inference_ids)}"
        self.structured_input_signature = (arg_specs, kwarg_specs)
        self._programs = {}
        self._eager = False          # body re-runs on each call (data-dependent Python control flow)
        self.structured_outputs = None

    @property
    def name(self):
        return self._function.__name__

    @property
    def function_type(self):
        return FunctionType(self)

    @property
    def graph(self):
        return _FuncGraph(self)

    @property
    def inference_fn(self):
        return AtomicFunction(self)

    @property
    def variables(self):
        """The variables the recorded program reads or writes (TF's captured variables)."""
        seen = {}
        for p in self._programs.values():
            for v in list(p.vars) + [w for w in p.writes if not isinstance(w, int)]:
                seen.setdefault(id(v), v)
        return tuple(seen.values())

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def captured_variables(self):
        args = {id(x) for x in nest.flatten(self.structured_input_signature)}
        return [v for v in self.variables if id(v) not in args]

    def __call__(self, *args, **kwargs):
        return self._function._call_concrete(self, args, kwargs)

    def __repr__(self):
        return f"<ConcreteFunction {self.function_type} at 0x{id(self):X}>"

    def __str__(self):
        return "ConcreteFunction " + repr(self.function_type)

    def pretty_printed_signature(self, verbose=True):
        """TF's text of this signature: parameters, output type and captures (`verbose`), else one line."""
        return repr(self.function_type) if verbose else str(self.function_type)


def _plain(spec):
    from tfcompat.ops.misc_ops import TensorSpec
    return TensorSpec(spec.shape, spec.dtype) if _is_spec(spec) else spec


@tf_export("types.experimental.PolymorphicFunction", "types.experimental.GenericFunction")
class Function:
    """A `tf.function`: a Python callable traced per input signature and replayed (see module doc)."""

    def __init__(self, python_function, name, input_signature=None, autograph=True, jit_compile=None,
                 reduce_retracing=False):
        self._python_function = python_function
        self.__name__ = name
        self.__doc__ = getattr(python_function, "__doc__", None)
        self.__wrapped__ = python_function
        self._autograph = autograph
        self._jit_compile = jit_compile
        self._jit_warned = False        # a torch.compile failure was reported (see `_Jit`)
        self._reduce_retracing = reduce_retracing
        self._arg_names = _arg_names(python_function)
        self._param_kinds = _param_kinds(python_function)
        if input_signature is not None:
            input_signature = tuple(input_signature)
            for s in nest.flatten(input_signature):
                if not _is_spec(s):
                    raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec objects, "
                                    f"got invalid args {s!r} with type {type(s)}.")
        self._input_signature = input_signature
        self._exact = {}            # exact call key -> ConcreteFunction
        self._concrete = []         # every ConcreteFunction, in trace order
        self._general = False       # some concrete function has non-exact specs
        self._tracing_count = 0
        self._retrace = _retrace_detector(python_function)
        self._created_variables = None     # whether the first trace created variables (None: not traced yet)
        self._descriptor_cache = weakref.WeakKeyDictionary()
        self._bound_instance = None

    # -- public attributes ------------------------------------------------------------------------------------------
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def function_spec(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        return self._tracing_count

    def pretty_printed_concrete_signatures(self, verbose=True):
        """The signatures of every traced ConcreteFunction, separated by blank lines."""
        return "\n\n".join(cf.pretty_printed_signature(verbose) for cf in self._concrete)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            bound = self._descriptor_cache.get(instance)
        except TypeError:
            bound = None
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self.__name__, self._input_signature,
                             self._autograph, self._jit_compile, self._reduce_retracing)
            bound._arg_names = self._arg_names[1:]
            bound._bound_instance = weakref.ref(instance)
            try:
                self._descriptor_cache[instance] = bound
            except TypeError:
                pass
        return bound

    # -- calls ------------------------------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _run_eagerly[0]:
            return self._python_function(*args, **kwargs)
        if self._input_signature is not None:
            args = self._bind_signature(args, kwargs)
            kwargs = {}
        flat = nest.flatten((args, kwargs))
        try:
            key = (_structure_key((args, kwargs)), tuple(_leaf_key(x) for x in flat))
            cf = self._exact.get(key)
        except TypeError:
            key, cf = None, None
        if cf is None:
            cf = self._lookup(args, kwargs, flat) if self._general else None
            if cf is None:
                outer = getattr(_tls, "recorder", None)
                cf = self._trace(args, kwargs, flat)
                if outer is None:             # TF counts eager calls only, not calls inside another trace
                    self._retrace.traced(self._python_function)
                return cf._first_result
            if key is not None:
                self._exact[key] = cf
        self._retrace.untraced += 1
        return self._run(cf, args, kwargs, flat)

    def _call_concrete(self, cf, args, kwargs):
        """Calls `cf` with TF's binding: its structured signature (Python values default to the traced ones),
        else its flat signature of tensors."""
        try:
            bound_args, bound_kwargs = self._bind_structured(cf, args, kwargs)
        except (TypeError, ValueError) as e:
            reason = e.args[0] if e.args else str(e)
            try:
                return self._call_flat(cf, args, kwargs)
            except TypeError as flat_error:
                raise TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {args!r} "
                                f"and kwargs: {kwargs!r} for signature: {cf.function_type}.\nFallback to flat "
                                f"signature also failed due to: {flat_error}") from None
        flat = nest.flatten((bound_args, bound_kwargs))
        return self._run(cf, bound_args, bound_kwargs, flat)

    def _bind_structured(self, cf, args, kwargs):
        params = cf.function_type.parameters()
        positional = [i for i, (_, kind, _) in enumerate(params) if kind != "KEYWORD_ONLY"]
        if len(args) > len(positional):
            raise TypeError("too many positional arguments")
        values = dict(zip(positional, args))
        index = {n: i for i, (n, _, _) in enumerate(params)}
        for k, a in kwargs.items():
            if k not in index:
                raise TypeError(f"got an unexpected keyword argument '{k}'")
            if index[k] in values:
                raise TypeError(f"multiple values for argument '{k}'")
            values[index[k]] = a
        bound = [self._cast(s, values[i]) if i in values else self._default(s, n) for i, (n, _, s) in
                 enumerate(params)]
        n = len(cf.structured_input_signature[0])
        return tuple(bound[:n]), {name: v for (name, _, _), v in zip(params[n:], bound[n:])}

    @staticmethod
    def _default(spec, name):
        if nest.is_nested(spec) or _is_spec(spec):
            if any(_is_spec(s) for s in nest.flatten(spec)):
                raise TypeError(f"missing a required argument: '{name}'")
        return spec

    @staticmethod
    def _cast(spec, value):
        if nest.is_nested(spec):
            try:
                leaves = nest.flatten_up_to(spec, value, check_types=False)
            except (TypeError, ValueError):
                raise TypeError(f"Can not cast {value!r} to {_type_text(spec)}") from None
            return nest.pack_sequence_as(spec, [Function._cast(s, v) for s, v in zip(nest.flatten(spec), leaves)])
        if not _is_spec(spec):
            if not _compatible(spec, value):
                raise ValueError(f"Can not cast {value!r} to {_type_text(spec)}")
            return value
        if not isinstance(value, (Tensor, Variable)):
            try:
                value = convert_to_tensor(value, spec.dtype)
            except (TypeError, ValueError):
                raise TypeError(f"Can not cast {value!r} to {_type_text(spec)}") from None
        if not _compatible(spec, value):
            raise TypeError(f"Can not cast {_type_text(_spec_of(value))} to {_type_text(spec)}")
        return value

    def _call_flat(self, cf, args, kwargs):
        """TF's flat call: the tensor inputs by position; a dtype mismatch is the kernel's InvalidArgumentError."""
        params = [(n, s) for n, _, s in cf.function_type.parameters()]
        tensor_params = [(n, s) for n, s in params if _is_spec(s)]
        signature = f"{self.__name__}({', '.join(n for n, _ in tensor_params)})"
        if kwargs:
            raise TypeError(f"{signature} got unexpected keyword arguments: {', '.join(kwargs)}.")
        if len(args) != len(tensor_params):
            raise TypeError(f"{signature} takes {len(tensor_params)} positional arguments, got {len(args)}.")
        values = []
        for i, ((_, spec), a) in enumerate(zip(tensor_params, args)):
            if not isinstance(a, (Tensor, Variable)):
                a = convert_to_tensor(a, spec.dtype)
            if a.dtype != spec.dtype:
                raise errors.op_error(errors.InvalidArgumentError, f"cannot compute {cf._inference_name} as input "
                                      f"#{i}(zero-based) was expected to be a {_dtype_word(spec.dtype)} tensor "
                                      f"but is a {_dtype_word(a.dtype)} tensor", cf._inference_name, None)
            values.append(a)
        it = iter(values)
        flat = [next(it) if _is_spec(s) else s for _, s in params]
        n = len(cf.structured_input_signature[0])
        bound_args, bound_kwargs = tuple(flat[:n]), dict(zip([p for p, _ in params[n:]], flat[n:]))
        return self._run(cf, bound_args, bound_kwargs, nest.flatten((bound_args, bound_kwargs)))

    def _bind_signature(self, args, kwargs):
        """Binds a call to `input_signature`, with TF's TypeError texts."""
        sig = self._input_signature
        names = self._arg_names

        def fail(reason):
            params = ", ".join(f"{names[i] if i < len(names) else 'arg' + str(i)}: {s!r}" for i, s in enumerate(sig))
            raise TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {args!r} and "
                            f"kwargs: {kwargs!r} for signature: ({params}).")

        values = list(args)
        for k, v in kwargs.items():
            if k not in names[:len(sig)]:
                fail(f"got an unexpected keyword argument '{k}'")
            i = names.index(k)
            if i < len(values):
                fail(f"multiple values for argument '{k}'")
            values += [None] * (i + 1 - len(values))
            values[i] = v
        if len(values) > len(sig):
            fail("too many positional arguments")
        if len(values) < len(sig):
            fail(f"missing a required argument: '{names[len(values)] if len(values) < len(names) else len(values)}'")
        out = []
        for spec, value in zip(sig, values):
            if nest.is_nested(spec):
                try:
                    leaves = nest.flatten_up_to(spec, value, check_types=False)
                except (TypeError, ValueError):
                    fail(f"Can not cast {value!r} to {spec!r}")
            else:
                leaves = [value]
            flat_v = []
            for s, x in zip(nest.flatten(spec), leaves):
                if not isinstance(x, (Tensor, Variable)):
                    try:
                        x = convert_to_tensor(x, s.dtype)
                    except (TypeError, ValueError):
                        fail(f"Can not cast {x!r} to {s!r}")
                if not _compatible(s, x):
                    fail(f"Can not cast {_spec_of(x)!r} to {s!r}")
                flat_v.append(x)
            out.append(nest.pack_sequence_as(spec, flat_v) if nest.is_nested(spec) else flat_v[0])
        return tuple(out)

    def _lookup(self, args, kwargs, flat):
        structure = _structure_key((args, kwargs))
        for cf in reversed(self._concrete):
            if cf._structure == structure:
                specs = nest.flatten(cf.structured_input_signature)
                if len(specs) == len(flat) and all(_compatible(s, x) for s, x in zip(specs, flat)):
                    return cf
        return None

    def _specs_for(self, args, kwargs, flat):
        if self._input_signature is not None:
            specs = nest.flatten(self._input_signature)
            names = self._arg_names
            named = []
            for i, s in enumerate(self._input_signature):
                for leaf in nest.flatten(s):
                    named.append(leaf.__class__(leaf.shape, leaf.dtype, leaf.name or (names[i] if i < len(names)
                                                                                      else f"arg{i}")))
            return named
        specs = [_spec_of(x) for x in flat]
        if self._reduce_retracing:
            structure = _structure_key((args, kwargs))
            for cf in reversed(self._concrete):
                if cf._structure != structure:
                    continue
                old = nest.flatten(cf.structured_input_signature)
                if len(old) != len(flat):
                    continue
                merged = [_generalize(s, x) for s, x in zip(old, flat)]
                if all(m is not None for m in merged):
                    return merged
        return specs

    # -- tracing ----------------------------------------------------------------------------------------------------
    def _trace(self, args, kwargs, flat, run=True):
        specs = self._specs_for(args, kwargs, flat)
        names = self._arg_names
        named = []
        for i, s in enumerate(specs):
            if _is_spec(s) and s.name is None:
                s = s.__class__(s.shape, s.dtype, names[i] if i < len(names) and i < len(args) else None)
            named.append(s)
        arg_specs, kwarg_specs = nest.pack_sequence_as((args, kwargs), named)
        cf = ConcreteFunction(self, tuple(arg_specs), dict(kwarg_specs))
        cf._structure = _structure_key((args, kwargs))
        self._tracing_count += 1
        self._concrete.append(cf)
        if any(_is_spec(s) and not s.shape.is_fully_defined() for s in named):
            self._general = True
        else:
            try:
                self._exact[(cf._structure, tuple(_leaf_key(x) for x in flat))] = cf
            except TypeError:
                pass
        if run:
            cf._first_result = self._record(cf, args, kwargs, flat)
        return cf

    def _record(self, cf, args, kwargs, flat):
        """Traces the body (TF's variable-creation rules) and returns the call's result."""
        if any(isinstance(x, Tensor) and isinstance(x._t, np.ndarray) for x in flat) or \
                getattr(_tls, "recorder", None) is not None:
            cf._eager = cf._eager or getattr(_tls, "recorder", None) is None
            result = _outputs(self._run_symbolic(cf, args, kwargs, flat) if cf._eager else
                              self._python_function(*args, **kwargs))
            cf.structured_outputs = _output_specs(result)
            return result
        first = self._created_variables is None
        rec, result = self._record_once(cf, args, kwargs, flat, forbid=self._created_variables is True)
        if first:
            self._created_variables = bool(rec.new_vars)
            if rec.new_vars:
                # TF traces a function that made variables again, now forbidding new ones; that trace is run
                rec.restore()
                self._tracing_count += 1
                rec, result = self._record_once(cf, args, kwargs, flat, forbid=True, replay=rec.cb_log)
        elif rec.new_vars:
            rec.restore()
            raise ValueError("Creating variables on a non-first call to a function decorated with tf.function.")
        prog = cf._programs.get(_exact_key(flat))
        if state.recording and prog is not None:
            new_values = [(v, v._t) for v in list(_live_vars.values())]
            rec.restore()       # run the recording now so that the outer tape sees the ops
            try:
                return self._replay(prog, flat, rec.cb_log)
            except GuardFailed:
                for v, t in new_values:
                    v._t = t
        return result

    def _record_once(self, cf, args, kwargs, flat, forbid, replay=None):
        """Runs the body once under a recorder; stores the replay program for these exact shapes."""
        rec = _Recorder()
        rec.forbid = forbid
        rec.cb_replay = list(replay) if replay else None
        for v in list(_live_vars.values()):
            t = v._t
            if isinstance(t, torch.Tensor):
                rec.start[id(v)] = t
                rec.var_keys[_key(t)] = v
                rec.keep.append(t)
        specs = nest.flatten(cf.structured_input_signature)
        if len(specs) != len(flat):
            specs = [None] * len(flat)
        call_flat = []
        tensor_pos, argvar_pos = [], []
        for i, (x, label, spec) in enumerate(zip(flat, self._leaf_names(args, kwargs), specs)):
            if isinstance(x, Tensor):
                t = x._t.detach() if x._t.requires_grad else x._t
                label = spec.name if _is_spec(spec) and spec.name else label
                rec.bind(t, f"I[{len(tensor_pos)}]", True, rec._label(label), spec.shape if _is_spec(spec) else None)
                tensor_pos.append(i)
                call_flat.append(_wrap(t))
            else:
                if isinstance(x, Variable):
                    rec.var_ref(x)
                    argvar_pos.append((rec.var_index[id(x)], i))
                call_flat.append(x)
        call_args, call_kwargs = nest.pack_sequence_as((args, kwargs), call_flat)
        saved_tapes, saved_recording = state.tapes, state.recording
        state.tapes, state.recording = [], 0
        _tls.recorder, _tls.autograph = rec, self._autograph
        _patch(True)
        try:
            with rec:
                result = self._python_function(*call_args, **call_kwargs)
                result = _outputs(result)
                out_flat = nest.flatten(result)
                out_exprs = [rec.expr(o._t, []) if isinstance(o, Tensor) and isinstance(o._t, torch.Tensor) else None
                             for o in out_flat]
                writes = []
                for vid, t0 in list(rec.start.items()):
                    v = _live_vars.get(vid)
                    if v is None or v._t is t0 or not isinstance(v._t, torch.Tensor):
                        continue
                    target = dict(argvar_pos).get(rec.var_index.get(vid), v)
                    writes.append((target, rec.expr(v._t, [])))
            eager = any(isinstance(o, Tensor) and e is None for o, e in zip(out_flat, out_exprs))
            prog = None if eager else self._compile(rec, tensor_pos, argvar_pos, out_flat, out_exprs, writes, result)
        except BaseException:
            rec.restore()       # a failed trace (or compile) changes no variable, as in TF
            raise
        finally:
            _patch(False)
            _tls.recorder = None
            state.tapes, state.recording = saved_tapes, saved_recording
        cf.structured_outputs = _output_specs(result, rec)
        if eager:
            cf._eager = True
        else:
            cf._programs[_exact_key(flat)] = prog
        return rec, result

    def _run_symbolic(self, cf, args, kwargs, flat):
        """Runs the body unrecorded, its tensor arguments printing as TF's symbolic placeholders."""
        specs = nest.flatten(cf.structured_input_signature)
        if len(specs) != len(flat):
            specs = [None] * len(flat)
        symbols, seen = {}, {}
        for x, name, spec in zip(flat, self._leaf_names(args, kwargs), specs):
            if isinstance(x, Tensor):
                n = seen[name] = seen.get(name, -1) + 1
                symbols[id(x)] = (f"{name}:0" if n == 0 else f"{name}_{n}:0", spec.shape if _is_spec(spec) else None)
        _tls.symbols = symbols
        _patch(True)
        try:
            return self._python_function(*args, **kwargs)
        finally:
            _patch(False)
            _tls.symbols = None

    def _leaf_names(self, args, kwargs):
        """TF's placeholder name of each flat argument leaf: the parameter name (`args_<i>` for `*args`)."""
        names = self._arg_names
        out = []
        for i, a in enumerate(args):
            out += [names[i] if i < len(names) else f"args_{i - len(names)}"] * len(nest.flatten(a))
        for k in sorted(kwargs):
            out += [k] * len(nest.flatten(kwargs[k]))
        return out

    def _compile(self, rec, tensor_pos, argvar_pos, out_flat, out_exprs, writes, result):
        source = program_source(self.__name__, len(rec.vars), rec.lines, out_exprs, [e for _, e in writes])
        program = compile_program(source, self.__name__)
        if self._jit_compile:
            jit_source = program_source(self.__name__, len(rec.vars), rec.lines, out_exprs, [e for _, e in writes],
                                        rec.funcs)
            program = _Jit(self, compile_program(jit_source, self.__name__), program)
        p = _Program()
        funcs = list(rec.funcs)
        for step in rec.lines:
            if step.get("host"):
                funcs[step["f"]] = functools.partial(_logged_callback, funcs[step["f"]])
        p.run = functools.partial(_run_program, program, rec.consts, funcs)
        p.vars = rec.vars
        p.argvars = argvar_pos
        p.tensor_pos = tensor_pos
        p.writes = [t for t, _ in writes]
        p.is_tensor = [e is not None for e in out_exprs]
        p.out_static = out_flat
        p.structure = result
        p.source = source
        p.steps, p.consts, p.funcs = rec.lines, rec.consts, rec.funcs
        p.out_terms = out_exprs
        p.write_terms = [e for _, e in writes]
        return p

    def _run(self, cf, args, kwargs, flat):
        if cf._eager:
            with _quiet():
                return _outputs(self._python_function(*args, **kwargs))
        prog = cf._programs.get(_exact_key(flat))
        if prog is None:
            with _quiet():
                return self._record(cf, args, kwargs, flat)
        _tls.callbacks_done = done = []
        try:
            return self._replay(prog, flat)
        except GuardFailed:
            # the Python body must run again; host callbacks that already ran are not run twice
            with _quiet():
                return self._record_once(cf, args, kwargs, flat, self._created_variables is True, done)[1]
        finally:
            _tls.callbacks_done = None

    def _replay(self, prog, flat, callback_outputs=None):
        """Runs a recorded program; `callback_outputs` stand in for its host callbacks (already run)."""
        recording = state.recording
        ins = []
        for i in prog.tensor_pos:
            t = flat[i]._t
            if t.requires_grad and not recording:
                t = t.detach()
            ins.append(t)
        vs = prog.vars
        if prog.argvars:
            vs = list(vs)
            for j, i in prog.argvars:
                vs[j] = flat[i]
        if callback_outputs is None:
            outs, new = prog.run(ins, vs)
        else:
            funcs = list(prog.funcs)
            done = iter(callback_outputs)
            for step in prog.steps:
                if step.get("host"):
                    funcs[step["f"]] = functools.partial(_constant_result, next(done))
            outs, new = _run_program(prog.run.args[0], prog.consts, funcs, ins, vs)
        for v, t in zip(prog.writes, new):
            (flat[v] if type(v) is int else v)._t = t
        return nest.pack_sequence_as(prog.structure, [
            _wrap(t) if is_t else o for t, is_t, o in zip(outs, prog.is_tensor, prog.out_static)])

    # -- concrete functions ------------------------------------------------------------------------------------------
    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments or TensorSpecs (traced now if new)."""
        if not args and not kwargs and self._input_signature is not None:
            args = self._input_signature
        flat = nest.flatten((args, kwargs))
        if any(_is_spec(x) for x in flat):
            structure = _structure_key((args, kwargs))
            for cf in self._concrete:
                if cf._structure == structure and [_plain(s) if _is_spec(s) else s for s in
                                                   nest.flatten(cf.structured_input_signature)] == \
                        [_plain(s) if _is_spec(s) else s for s in flat]:
                    return cf
            dummies = [_dummy(x) if _is_spec(x) else x for x in flat]
            d_args, d_kwargs = nest.pack_sequence_as((args, kwargs), dummies)
            named = [x.__class__(x.shape, x.dtype, x.name) if _is_spec(x) else x for x in flat]
            saved = self._input_signature, self._reduce_retracing
            self._input_signature = None
            try:
                cf = self._trace(d_args, d_kwargs, dummies, run=False)
            finally:
                self._input_signature = saved[0]
            specs = [s if not _is_spec(s) else s.__class__(
                n.shape, n.dtype, n.name or s.name) for s, n in zip(nest.flatten(cf.structured_input_signature), named)]
            a, k = nest.pack_sequence_as((args, kwargs), specs)
            cf.structured_input_signature = (tuple(a), dict(k))
            if any(_is_spec(s) and not s.shape.is_fully_defined() for s in specs):
                self._general = True
                self._exact = {k2: c for k2, c in self._exact.items() if c is not cf}
            self._record(cf, d_args, d_kwargs, dummies)
            return cf
        self(*args, **kwargs)
        if self._input_signature is not None:
            args = self._bind_signature(args, kwargs)
            kwargs = {}
        return self._lookup(args, kwargs, nest.flatten((args, kwargs)))

    def experimental_get_compiler_ir(self, *args, **kwargs):
        raise NotImplementedError("tf.function.experimental_get_compiler_ir: tfcompat has no XLA compiler IR")


def _dtype_word(dtype):
    """TF's kernel name of a dtype (`float`, `int32`, `string`)."""
    from tfcompat.framework.op_def import type_name
    return type_name(dtype._torch) if dtype._torch is not None else dtype.name


class _Jit:
    """The `jit_compile=True` form of a replay program, called as `(I, V, C, F)` like the plain one.

    Variables are read outside the compiled graph; the deferred guards (see `program_source`) are checked after it.
    If `torch.compile` itself raises, the trace fails. If the compiled run raises, the plain program runs instead:
    its error (or GuardFailed) is the call's; if it succeeds, the compiler failed, so this program warns once per
    function and stays uncompiled."""

    __slots__ = ("function", "compiled", "plain")

    def __init__(self, function, program, plain):
        self.function = function
        self.plain = plain
        with warnings.catch_warnings():
            # torch.compile's first call imports torch.utils.mkldnn, whose ScriptModules make torch warn that
            # `torch.jit.script_method` is deprecated (a DeprecationWarning, a FutureWarning from torch 2.14 on):
            # torch's own use, not the user's, so it is not shown
            warnings.filterwarnings("ignore", message="`torch.jit.script_method` is ")
            self.compiled = torch.compile(program, dynamic=False)      # raising here fails the trace (no effects)

    def __call__(self, I, V, C, F):
        compiled = self.compiled
        if compiled is None:
            return self.plain(I, V, C, F)
        try:
            outs, new, failed = compiled(I, [v._read() for v in V], C, F)
        except GuardFailed:
            raise
        except Exception as e:
            result = self.plain(I, V, C, F)
            self.compiled = None
            self._warn(e)
            return result
        if failed is not None and failed:
            raise GuardFailed()
        return outs, new

    def _warn(self, error):
        f = self.function
        if not f._jit_warned:
            f._jit_warned = True
            warnings.warn(f"tf.function {f.__name__!r} (jit_compile=True): torch.compile failed, running the recorded "
                          f"program uncompiled: {type(error).__name__}: {error}", RuntimeWarning, stacklevel=2)


def _logged_callback(fn, inputs):
    out = fn(inputs)
    done = getattr(_tls, "callbacks_done", None)
    if done is not None:
        done.append(out)
    return out


def _constant_result(value, _inputs):
    return value


def _run_program(program, consts, funcs, ins, vars_):
    return program(ins, vars_, consts, funcs)


def _dummy(spec):
    shape = [1 if d is None else d for d in (spec.shape.as_list() if spec.shape.rank is not None else [])]
    t = torch.zeros(shape, dtype=spec.dtype._torch) if spec.dtype._torch is not None else None
    if t is None:
        raise NotImplementedError(f"tf.function.get_concrete_function with a {spec.dtype.name} TensorSpec")
    return _wrap(t)


def _exact_key(flat):
    return tuple((x._t.dtype, tuple(x._t.shape)) for x in flat if isinstance(x, Tensor))


def _structure_key(structure):
    """The nesting of `structure` (not its leaves), as a hashable value."""
    if isinstance(structure, (list, tuple)):
        return (type(structure), tuple(_structure_key(x) for x in structure))
    if isinstance(structure, dict):
        return (dict, tuple((k, _structure_key(structure[k])) for k in sorted(structure)))
    return None


def _outputs(result):
    """TF's outputs: Python numbers and strings returned from a tf.function become tensors."""
    def conv(x):
        if isinstance(x, (bool, int, float, str, bytes, np.generic)) and not isinstance(x, Tensor):
            return convert_to_tensor(x)
        if isinstance(x, Variable):
            return x.read_value()
        return x
    return nest.map_structure(conv, result) if result is not None else None


def _output_specs(result, rec=None):
    from tfcompat.ops.misc_ops import TensorSpec
    return nest.map_structure(lambda x: TensorSpec(x.shape, x.dtype) if isinstance(x, (Tensor, Variable)) else x,
                              result) if result is not None else None


def _param_kinds(fn):
    try:
        return {p.name: p.kind.name for p in inspect.signature(fn).parameters.values()}
    except (TypeError, ValueError):
        return {}


def _arg_names(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


_UNSUPPORTED = ("experimental_implements", "experimental_attributes")


@tf_export("function", partial="experimental_implements/experimental_attributes")
def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None):
    """Compiles `func` into a callable traced per input signature and replayed (TF's `tf.function`)."""
    if experimental_implements is not None or experimental_attributes is not None:
        raise NotImplementedError("tf.function(experimental_implements=/experimental_attributes=) is not supported "
                                  "by tfcompat")
    if experimental_relax_shapes:
        reduce_retracing = True
    if experimental_compile is not None and jit_compile is None:
        jit_compile = experimental_compile

    def decorate(fn):
        f = Function(fn, getattr(fn, "__name__", type(fn).__name__), input_signature, autograph, jit_compile,
                     reduce_retracing)
        functools.update_wrapper(f, fn, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())
        return f

    return decorate if func is None else decorate(func)


# -- tf.autograph ---------------------------------------------------------------------------------------------------
@tf_export("autograph.to_code")
def to_code(entity, recursive=True, experimental_optional_features=None):
    """Not available: tfcompat runs Python control flow directly and generates no AutoGraph code."""
    raise NotImplementedError("tf.autograph.to_code: tfcompat does not convert Python code with AutoGraph "
                              "(tf.function runs the Python body directly; see tfcompat.eager.function)")


@tf_export("autograph.to_graph")
def to_graph(entity, recursive=True, experimental_optional_features=None):
    """Not available: tfcompat has no AutoGraph conversion."""
    raise NotImplementedError("tf.autograph.to_graph: tfcompat does not convert Python code with AutoGraph")


_verbosity = [0]


@tf_export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
    """Sets AutoGraph's log verbosity (kept; tfcompat logs nothing from AutoGraph)."""
    _verbosity[0] = int(level)


@tf_export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
    """Marks `func` as not to be converted by AutoGraph: returns it unchanged."""
    return (lambda f: f) if func is None else func


def _export_tanh():
    """`tf.tanh`: TF's top-level alias of `tf.math.tanh` (defined in math_ops)."""
    from tfcompat.ops import math_ops
    tf_export("tanh")(math_ops.tanh)


_export_tanh()
