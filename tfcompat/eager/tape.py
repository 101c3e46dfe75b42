"""`tf.GradientTape` on torch autograd, with TF's recording semantics.

Each recording tape hands out its own autograd handle for every variable it
watches (a fresh leaf, or a view of an outer tape's handle), and replaces a
watched tensor's storage by such a handle. So a tape differentiates exactly the
ops it recorded: a tensor computed before the tape, or by another tape, is a
constant to it, as in TF; and nested tapes compose for higher derivatives.
"""
import enum
import weakref

import numpy as np
import torch

from tfcompat.framework import dtypes, variables
from tfcompat.framework.context import state
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import EagerTensor, Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.util import nest


class _TFLogger:
    """TF's "tensorflow" logger, set up on first use (warnings print as `WARNING:tensorflow:...`)."""

    def __getattr__(self, name):
        from tfcompat.ops.misc_ops import get_logger
        return getattr(get_logger(), name)


_log = _TFLogger()


@tf_export("UnconnectedGradients")
class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for sources the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


_UNCONNECTED_NONE = UnconnectedGradients.NONE     # the default, compared on every gradient (an enum's class
                                                  # attribute costs ~60 ns a read)


def _unconnected(value):
    """`unconnected_gradients` as the enum (TF also takes its value, "none" or "zero")."""
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


def _new_handle(t):
    """A new autograd handle of value `t`: a view of an outer tape's handle, else a fresh leaf."""
    return t.view_as(t) if t.requires_grad else t.detach().requires_grad_(True)


def read_variable(var):
    """The storage `var` reads as inside the active tapes (outermost first).

    A documented fast path: it runs on every variable read while a tape is active, so it reads `var._t`
    directly (no call) and compares the storage's identity to see whether `var` was assigned since this
    tape's last read.
    """
    t = var._t
    for tape in state.tapes:
        if not tape._recording:
            if tape._accessed is not None:      # a VariableWatcher or ForwardAccumulator
                t = tape._on_read(var, t)
            continue
        entry = tape._vars.get(id(var))
        if entry is not None and entry[0] is var._t:
            t = entry[2]
            continue
        if entry is None and not (tape._watch_accessed and var._trainable) and id(var) not in tape._watched_ids:
            continue
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            if entry is None:            # TF's tape watches it too (watched_variables), its gradient is None
                tape._vars[id(var)] = [var._t, var, t, []]
                tape._var_order.append(var)
            continue
        h = _new_handle(t)
        if entry is None:
            tape._vars[id(var)] = [var._t, var, h, [h]]
            tape._var_order.append(var)
        else:                          # the variable was assigned since the last read: a new read op
            entry[0] = var._t
            entry[2] = h
            entry[3].append(h)
        t = h
    return t


variables._tape_read = read_variable


try:   # torch's backward entry without torch.autograd.grad's argument checks (our arguments are built here)
    from torch.autograd.graph import _engine_run_backward
except ImportError:   # pragma: no cover - other torch versions
    _engine_run_backward = None


def _backward(outputs, grad_outputs, inputs, retain_graph, create_graph):
    """Vector-Jacobian products d(sum <outputs, grad_outputs>)/d(inputs); None for unconnected inputs."""
    if _engine_run_backward is None:
        return torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph=retain_graph,
                                   create_graph=create_graph, allow_unused=True)
    return _engine_run_backward(tuple(outputs), tuple(grad_outputs), retain_graph, create_graph, tuple(inputs),
                                True, False)


_ONES = {}


def _ones_like(t):
    """Ones shaped like `t` (a cached 0-d one for scalars: the backward pass only reads it)."""
    if t.ndim:
        return torch.ones_like(t)
    key = (t.dtype, t.device)
    one = _ONES.get(key)
    if one is None:
        one = _ONES[key] = torch.ones((), dtype=t.dtype, device=t.device)
    return one


def _flat(structure):
    """`nest.flatten`, with fast paths for one tensor/variable and flat lists of them."""
    if isinstance(structure, (Tensor, Variable)):
        return [structure]
    if type(structure) in (list, tuple) and all(isinstance(x, (Tensor, Variable)) for x in structure):
        return list(structure)
    return nest.flatten(structure)


def _pack(structure, flat):
    if isinstance(structure, (Tensor, Variable)):
        return flat[0]
    if type(structure) is list and all(isinstance(x, (Tensor, Variable)) for x in structure):
        return flat
    return nest.pack_sequence_as(structure, flat)


def _as_storage(value, like):
    """An output gradient as a torch tensor shaped like the target storage `like`."""
    if isinstance(value, (Tensor, Variable)):
        g = storage(value)
    else:
        g = torch.as_tensor(np.asarray(value), dtype=like.dtype, device=like.device)
    return g.expand_as(like) if g.shape != like.shape else g


def _is_float(t):
    return t.dtype.is_floating_point or t.dtype.is_complex


def _pfor_call():
    """What TF's vectorized Jacobians leave behind: eagerly, each `pfor` call traces a new `tf.function` of one
    Python function, `pfor.<locals>.f`, so TF's frequent-retracing warning fires on the fifth."""
    from tfcompat.eager.function import current_recorder
    if current_recorder() is not None:
        return
    from tfcompat.eager.function._retrace import retrace_detector
    f = pfor()
    retrace_detector(f).traced(f)


def _check_loop_persistent(tape, what):
    """TF's eager Jacobian without pfor runs a loop of gradients: it needs a persistent tape."""
    from tfcompat.eager.function import current_recorder
    if not tape._persistent and current_recorder() is None:
        raise RuntimeError(f"GradientTape must be created with persistent=True to compute the {what} with eager "
                           f"execution enabled and {'with  ' if what == 'jacobian' else ' with '}experimental_use_pfor "
                           "set to False.")


def pfor():
    """A new `pfor.<locals>.f` (what TF's `pfor` wraps in a tf.function eagerly; named as TF's warning shows it)."""
    def f():
        pass
    return f


@tf_export("GradientTape", "autodiff.GradientTape")
class GradientTape:
    """Records operations for automatic differentiation (TF's `tf.GradientTape`)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._recording = False
        self._active = False
        self._used = False
        self._vars = {}          # id(var) -> [storage read, var, current handle, all handles]
        self._var_order = []
        self._watched_ids = set()
        self._tensors = {}       # id(tensor) -> (tensor, handle)

    _accessed = None
    _peers = None            # a WeakSet of tapes that recorded at the same time (they may share graph nodes), made
                             # only when there is one: a lone tape, the common case, pays nothing for it
    _entered = False         # TF's tape exists once the context was entered: before, gradient() and
                             # stop_recording() raise its RuntimeErrors

    # -- context ------------------------------------------------------------------
    def __enter__(self):
        if self._active:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active tape.")
        self._push()
        return self

    def __exit__(self, typ, value, traceback):
        if self._active:
            self._pop()

    def _push(self):
        for other in state.tapes:
            if isinstance(other, GradientTape):
                other._add_peer(self)
                self._add_peer(other)
        state.tapes.append(self)
        self._active = True
        self._entered = True
        self._recording = True
        state.recording += 1

    def _pop(self):
        if self._recording:
            state.recording -= 1
            self._recording = False
        try:
            state.tapes.remove(self)
        except ValueError:
            pass
        self._active = False

    def _add_peer(self, other):
        if self._peers is None:
            self._peers = weakref.WeakSet()
        self._peers.add(other)

    def stop_recording(self):
        """Context manager: ops inside it are not recorded by this tape."""
        return _StopRecording(self)

    def reset(self):
        """Forgets everything recorded so far (the tape keeps recording if it was)."""
        self._vars.clear()
        self._var_order = []
        self._watched_ids.clear()
        self._tensors.clear()
        self._used = False

    # -- watching -------------------------------------------------------------------
    def watch(self, tensor):
        """Ensures `tensor` (a tensor, variable or nested structure of them) is traced by this tape."""
        for t in nest.flatten(tensor):
            if isinstance(t, Variable) and type(t).__module__.startswith("tfcompat.keras"):
                # in TF a Keras 3 variable is no tf.Variable: the tape refuses it (watch its `.value`)
                raise ValueError(f"Passed in object {t} of type {type(t).__name__!r}, not tf.Tensor or tf.Variable "
                                 "or ExtensionType.")
            if isinstance(t, Variable):
                var = t._parent if isinstance(t, variables._UnreadVariable) else t
                self._watched_ids.add(id(var))
                if self._recording:
                    read_variable(var)
            elif isinstance(t, Tensor):
                self._watch_tensor(t)
            else:
                raise ValueError(f"Passed in object {t} of type {type(t).__name__!r}, not tf.Tensor or "
                                 f"tf.Variable or ExtensionType.")

    def _watch_tensor(self, x):
        s = storage(x)
        if not isinstance(s, torch.Tensor) or not _is_float(s):
            dt = dtypes.FROM_STORAGE[s.dtype]
            _log.warning("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r", dt)
            return
        others = state.recording - (1 if self._recording else 0)
        h = s.view_as(s) if (s.requires_grad and others > 0) else s.detach().requires_grad_(True)
        x._set_storage(h)
        self._tensors[id(x)] = (x, h)

    def watched_variables(self):
        return tuple(self._var_order)

    def _peer_needs_graph(self):
        """Whether a peer that recorded alongside this tape (the GAN step's two tapes over one forward pass) can
        still take gradients through the graph, so a backward pass must keep it (callers test `_peers` first:
        the common single tape pays no call)."""
        for peer in self._peers:
            if (peer._vars or peer._tensors) and (peer._persistent or not peer._used):
                return True
        return False

    # -- gradients ------------------------------------------------------------------
    def _check_usable(self):
        if not self._entered or (self._used and not self._persistent):
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        if self._recording:
            if not self._persistent:
                self._pop()
            else:
                _log.warning("Calling GradientTape.gradient on a persistent tape inside its context is "
                             "significantly less efficient than calling it outside the context (it causes "
                             "the gradient ops to be recorded on the tape, leading to increased CPU and "
                             "memory usage). Only call GradientTape.gradient inside the context if you "
                             "actually want to trace the gradient in order to compute higher order "
                             "derivatives.")

    def _source_handles(self, source):
        """The autograd tensors standing for `source` in this tape (empty: unconnected)."""
        if isinstance(source, Variable):
            var = source._parent if isinstance(source, variables._UnreadVariable) else source
            entry = self._vars.get(id(var))
            return entry[3] if entry is not None else []
        if isinstance(source, Tensor):
            entry = self._tensors.get(id(source))
            if entry is not None:
                return [entry[1]]
            s = storage(source)
            if isinstance(s, torch.Tensor) and s.requires_grad:
                return [s]
            return []
        if hasattr(source, "_dense"):            # IndexedSlices
            return self._source_handles(source._dense())
        if source is None or isinstance(source, str) or not hasattr(source, "dtype"):
            raise _not_differentiable(source)
        raise ValueError(f"Unsupported source type {type(source).__name__!r}; expected tf.Tensor or tf.Variable")

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Gradients of `target` (summed if several or non-scalar) w.r.t. `sources`, in their structure."""
        self._check_usable()
        if unconnected_gradients is not _UNCONNECTED_NONE:
            unconnected_gradients = _unconnected(unconnected_gradients)
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, Variables or "
                            "CompositeTensors to be differentiated, but received None.")
        if output_gradients is None and type(target) is EagerTensor:
            fast = self._variables_gradient(target, sources)
            if fast is not None:
                return fast
        flat_sources = _flat(sources)
        flat_targets = _flat(target)
        if output_gradients is not None:
            flat_out_grads = _flat(output_gradients)
            if len(flat_out_grads) != len(flat_targets):
                raise ValueError("Length of output_gradients must match the number of targets")
        else:
            flat_out_grads = None
        outs, out_grads = [], []
        identity = {}            # variable targets: d(variable)/d(itself) is one, as TF reads their handle
        for k, tgt in enumerate(flat_targets):
            og = flat_out_grads[k] if flat_out_grads is not None else None
            if isinstance(tgt, Variable):
                var = tgt._parent if isinstance(tgt, variables._UnreadVariable) else tgt
                g = torch.ones_like(storage(var)) if og is None else _as_storage(og, storage(var))
                identity[id(var)] = g if id(var) not in identity else identity[id(var)] + g
                continue
            if tgt is None or isinstance(tgt, str) or not hasattr(tgt, "dtype"):
                raise _not_differentiable(tgt)
            s = storage(tgt) if isinstance(tgt, Tensor) else None
            if s is None:
                raise ValueError(f"Unsupported target type {type(tgt).__name__!r}")
            if type(s) is not torch.Tensor or not _is_float(s):
                _log.log(1, "The dtype of the target tensor must be floating (e.g. tf.float32) when calling "
                         "GradientTape.gradient, got %r", dtypes.FROM_STORAGE[s.dtype])     # TF's vlog(1)
                continue
            if not s.requires_grad:
                continue
            outs.append(s)
            out_grads.append(torch.ones_like(s) if og is None else _as_storage(og, s))
        handles, owners = [], []
        for i, src in enumerate(flat_sources):
            if isinstance(src, (Tensor, Variable)):
                st = storage(src)
                if type(st) is torch.Tensor and not _is_float(st):
                    _log.log(1, "The dtype of the source tensor must be floating (e.g. tf.float32) when "
                             "calling GradientTape.gradient, got %r", dtypes.FROM_STORAGE[st.dtype])    # TF's vlog(1)
                    continue
            for h in self._source_handles(src):
                handles.append(h)
                owners.append(i)
        results = [None] * len(flat_sources)
        if outs and handles:
            create_graph = state.recording > 0
            retain = self._persistent or create_graph or (self._peers is not None and self._peer_needs_graph())
            grads = _backward(outs, out_grads, handles, retain, create_graph)
            for i, g in zip(owners, grads):
                if g is not None:
                    results[i] = g if results[i] is None else results[i] + g
        if identity:
            for i, src in enumerate(flat_sources):
                if isinstance(src, Variable):
                    var = src._parent if isinstance(src, variables._UnreadVariable) else src
                    g = identity.get(id(var))
                    if g is not None:
                        results[i] = g if results[i] is None else results[i] + g
        if not self._persistent:
            self._used = True
            self._release()
        out = []
        for src, g in zip(flat_sources, results):
            if g is None:
                if unconnected_gradients == UnconnectedGradients.ZERO and isinstance(src, (Tensor, Variable)):
                    out.append(_wrap(torch.zeros_like(storage(src))))
                else:
                    out.append(None)
            else:
                out.append(_wrap(g))
        return _pack(sources, out)

    def _variables_gradient(self, target, sources):
        """The common case (one float target; a variable or a list of variables, each read once): its
        gradients without the general bookkeeping; None when the case does not apply."""
        s = storage(target)
        if type(s) is not torch.Tensor or not s.requires_grad or not s.dtype.is_floating_point:
            return None
        single = isinstance(sources, Variable)
        srcs = (sources,) if single else sources
        if not single and type(sources) is not list:
            return None
        handles = []
        for v in srcs:
            entry = self._vars.get(id(v)) if isinstance(v, Variable) else None
            if entry is None or len(entry[3]) != 1 or entry[1] is not v:
                return None
            handles.append(entry[2])
        create_graph = state.recording > 0
        retain = self._persistent or create_graph or (self._peers is not None and self._peer_needs_graph())
        grads = _backward((s,), (_ones_like(s),), handles, retain, create_graph)
        if not self._persistent:
            self._used = True
            self._release()
        out = [None if g is None else _wrap(g) for g in grads]
        return out[0] if single else out

    def _release(self):
        self._vars = {}
        self._tensors = {}

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """The Jacobian of `target` w.r.t. each source: shape `target.shape + source.shape`."""
        self._check_usable()
        unconnected_gradients = _unconnected(unconnected_gradients)
        if experimental_use_pfor:
            _pfor_call()
        else:
            _check_loop_persistent(self, "jacobian")
        flat_sources = nest.flatten(sources)
        tgt = storage(target) if isinstance(target, Tensor) else target._read()
        create_graph = state.recording > 0
        out = []
        handles_per_src = [self._source_handles(s) for s in flat_sources]
        for src, handles in zip(flat_sources, handles_per_src):
            s = storage(src)
            src_shape = tuple(s.shape)
            if not handles or not tgt.requires_grad:
                if unconnected_gradients == UnconnectedGradients.ZERO:
                    out.append(_wrap(torch.zeros(tuple(tgt.shape) + src_shape, dtype=s.dtype, device=s.device)))
                else:
                    out.append(None)
                continue
            flat = tgt.reshape(-1)
            n = flat.numel()
            rows = []
            connected = n == 0
            for k in range(n):
                gs = torch.autograd.grad(flat[k], handles, retain_graph=True, create_graph=create_graph,
                                         allow_unused=True)
                g = None
                for gi in gs:
                    if gi is not None:
                        g = gi if g is None else g + gi
                connected = connected or g is not None
                rows.append(g if g is not None else torch.zeros(src_shape, dtype=s.dtype, device=s.device))
            if not connected and unconnected_gradients != UnconnectedGradients.ZERO:
                out.append(None)        # TF: the gradient of every row is None, so is the Jacobian
                continue
            jac = torch.stack(rows).reshape(tuple(tgt.shape) + src_shape) if rows else \
                torch.zeros(tuple(tgt.shape) + src_shape, dtype=s.dtype, device=s.device)
            out.append(_wrap(jac))
        if not self._persistent:
            self._used = True
            self._release()
        return nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians: `target[i]` w.r.t. `source[i]`, shape `[batch] + target.shape[1:] + source.shape[1:]`."""
        self._check_usable()
        tgt = storage(target)
        src = storage(source)
        handles = self._source_handles(source)
        if tgt.dim() == 0 or src.dim() == 0:
            raise IndexError("list index out of range")      # TF indexes the shapes' dims
        if tgt.shape[0] != src.shape[0]:
            raise ValueError(f"Need first dimension of target shape ({tuple(tgt.shape)}) and source shape "
                             f"({tuple(src.shape)}) to match.")
        if experimental_use_pfor:
            _pfor_call()
        else:
            _check_loop_persistent(self, "batch_jacobian")
        create_graph = state.recording > 0
        b = tgt.shape[0]
        src_rest = tuple(src.shape[1:])
        if not handles or not tgt.requires_grad:
            if not self._persistent:
                self._used = True
                self._release()
            # TF returns zeros of the target's dtype whatever `unconnected_gradients` says (kept for compatibility)
            return _wrap(torch.zeros((b,) + tuple(tgt.shape[1:]) + src_rest, dtype=tgt.dtype, device=tgt.device))
        flat = tgt.reshape(b, -1)
        cols = []
        for k in range(flat.shape[1]):
            gs = torch.autograd.grad(flat[:, k].sum(), handles, retain_graph=True, create_graph=create_graph,
                                     allow_unused=True)
            g = None
            for gi in gs:
                if gi is not None:
                    g = gi if g is None else g + gi
            cols.append(g if g is not None else torch.zeros_like(src))
        jac = torch.stack(cols, dim=1).reshape((b,) + tuple(tgt.shape[1:]) + src_rest)
        if not self._persistent:
            self._used = True
            self._release()
        return _wrap(jac)

    def __del__(self):
        try:
            if self._active:
                self._pop()
        except Exception:  # noqa: BLE001 - __del__ must not raise (interpreter shutdown)
            pass


def _not_differentiable(x):
    """TF's error for a gradient target or source that is not a tensor: its dtype check's (`as_dtype` of a string or
    None, else the missing `dtype` attribute)."""
    if x is None or isinstance(x, str):
        return TypeError(f"Cannot convert the argument `type_value`: {x!r} to a TensorFlow DType.")
    return AttributeError(f"{type(x).__name__!r} object has no attribute 'dtype'")


class VariableWatcher:
    """Records the variables read inside it (what `tf.custom_gradient` passes as `variables=`)."""

    _recording = False

    def __init__(self):
        self._accessed = []
        self._seen = set()

    def _on_read(self, var, t):
        if id(var) not in self._seen and var._trainable:
            self._seen.add(id(var))
            self._accessed.append(var)
        return t

    def __enter__(self):
        state.tapes.append(self)
        return self

    def __exit__(self, *exc):
        state.tapes.remove(self)

    def watched_variables(self):
        return tuple(self._accessed)


class pause_recording:
    """Context manager: no tape of this thread records inside it (TF's `record.stop_recording`)."""

    def __enter__(self):
        self._paused = [t for t in state.tapes if t._recording]
        for t in self._paused:
            t._recording = False
        state.recording -= len(self._paused)

    def __exit__(self, *exc):
        for t in self._paused:
            t._recording = True
        state.recording += len(self._paused)


class _StopRecording:
    def __init__(self, tape):
        self._tape = tape

    def __enter__(self):
        tape = self._tape
        if not tape._entered:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        if not tape._recording:
            raise ValueError("Tape is not recording.")
        tape._recording = False
        state.recording -= 1

    def __exit__(self, *exc):
        tape = self._tape
        if tape._active:
            tape._recording = True
            state.recording += 1


@tf_export("gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
    raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.")
