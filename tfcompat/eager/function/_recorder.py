"""Trace recording: a `TorchDispatchMode` that records each aten op of one trace and resolves its inputs."""
import itertools
import weakref

import numpy as np
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from tfcompat.eager.function._state import live_vars
from tfcompat.framework.tensor import storage

_RANDOM_WORDS = ("rand", "normal", "uniform", "bernoulli", "dropout", "multinomial", "exponential", "poisson",
                 "cauchy", "geometric", "log_normal")

# torch's switch for `__torch_function__` handling, modes included: the recorder's own reads of tensor metadata would
# otherwise each pass through the trace's `HostReads` mode (~5 us each, 6 per value resolved)
_NO_TORCH_FUNCTION = torch._C.DisableTorchFunction

_SINGLETON = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
              "tf.Variable is only created once or created outside tf.function. See "
              "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


def storage_key(t):
    """What identifies a torch tensor's value during a trace: its storage, offset, shape, strides, dtype, device."""
    return (t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), t.stride(), t.dtype, t.device)


class _Ref:
    __slots__ = ("name", "dynamic", "label", "shape", "alive")

    def __init__(self, name, dynamic, label, shape=None):
        self.name = name
        self.dynamic = dynamic
        self.label = label
        self.shape = shape          # the traced input's (possibly generalized) TensorShape
        self.alive = True           # False once the storage is freed: its address (key) may then be reused


def _storage_freed(ref):
    ref.alive = False


class Recorder(TorchDispatchMode):
    """Records the aten ops of one trace as program steps (see the package doc).

    Each op input resolves to a function input (`I[i]`), a variable read (`r<i>`), an earlier op's output (`o<n>`)
    or a captured constant (`C[i]`); a step is dynamic when an input is (or the op is random). A Python scalar
    read from a dynamic value (`aten._local_scalar_dense`) becomes a guard step."""

    def __init__(self):
        super().__init__()
        self.lines = []           # recorded steps (dicts; see `_program.program_source`)
        self.consts = []          # captured objects, referenced as C[i]
        self.funcs = []           # op overloads and callbacks, referenced as F[i]
        # storage key -> _Ref of the value bound to it; a binding dies with its storage (a weakref callback), so
        # the trace frees intermediates as eager code does and a reused address is never taken for an old value
        self.values = {}
        self.keep = []            # the variables' watched storages, alive for the trace (their keys stay unique)
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
        self.grad_depth = 0       # > 0 while a custom gradient function is being recorded (see `custom`)
        self.unreplayable = False  # the trace cannot be replayed: the body runs on every call
        self.owned = {}           # output name of a `private_copy` clone -> its claim (not a constant: never saved)

    def restore(self):
        """Puts every variable back to its value before the trace (new ones to their initial value)."""
        for vid, t0 in self.start.items():
            v = live_vars.get(vid)
            if v is not None and t0 is not None:
                v._set_storage(t0)
        for v, t in self.new_vars:
            v._set_storage(t)

    # -- names -----------------------------------------------------------------------------------------------------
    def label(self, base):
        """TF's next graph name for an op named `base` (`base:0`, `base_1:0`, ...)."""
        n = self.labels.get(base, 0)
        self.labels[base] = n + 1
        return f"{base}:0" if n == 0 else f"{base}_{n}:0"

    def bind(self, t, name, dynamic=True, label=None, shape=None):
        ref = _Ref(name, dynamic, label, shape)
        self.values[storage_key(t)] = ref
        weakref.finalize(t.untyped_storage(), _storage_freed, ref)
        return ref

    def _bound(self, key):
        """The live binding of storage key `key`, or None."""
        r = self.values.get(key)
        if r is not None and not r.alive:
            del self.values[key]
            return None
        return r

    def watch_variable(self, v, t):
        """Resolves storage `t` to a read of variable `v` (a value it holds at the start of the trace)."""
        self.keep.append(t)
        self.var_keys[storage_key(t)] = v

    def created(self, v):
        if self.paused:
            return
        if self.forbid:
            raise ValueError(_SINGLETON)
        self.start.setdefault(id(v), None)
        t = storage(v)
        self.new_vars.append((v, t))
        if isinstance(t, torch.Tensor):
            with _NO_TORCH_FUNCTION():
                self.watch_variable(v, t)
                self.values.pop(storage_key(t), None)

    def var_ref(self, v):
        i = self.var_index.get(id(v))
        if i is None:
            i = self.var_index[id(v)] = len(self.vars)
            self.vars.append(v)
        return f"r{i}"

    def ref(self, t):
        """The expression that yields tensor `t` when replayed."""
        k = storage_key(t)
        r = self._bound(k)
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
        """Argument `a` as a program term (see `_program`): refs to values, constants, lists, Python literals."""
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
        with _NO_TORCH_FUNCTION():         # the op and the recorder's own tensor reads are no host reads (`HostReads`)
            out = func(*args, **kwargs)
            return out if self.paused else self._record(func, args, kwargs, out)

    def _record(self, func, args, kwargs, out):
        dyn = []
        step = {"f": len(self.funcs), "args": [self.expr(x, dyn) for x in args],
                "kwargs": {k: self.expr(v, dyn) for k, v in kwargs.items()}}
        name = func.__name__
        self.funcs.append(func)
        if out is not None and not isinstance(out, (torch.Tensor, list, tuple)) and dyn:
            # a traced value read as a Python scalar: the replay is valid while it reads the same
            step.update(op="guard", value=self.const(out))
            self.lines.append(step)
            return out
        dynamic = bool(dyn) or any(w in name for w in _RANDOM_WORDS)
        step.update(op="call", out=f"o{next(self.counter)}")
        self.lines.append(step)
        self._bind_out(out, step["out"], dynamic, name.split(".")[0])
        return out

    def private_copy(self, t, claim):
        """A copy of variable storage `t`, recorded as `aten.clone`, that the no-tape replay may skip: there it calls
        `claim(t)`, which returns `t` itself when its owner (an optimizer's slot) holds it privately, to be updated in
        place, or a copy the owner now holds (see `_program.fast_source`)."""
        n = len(self.lines)
        out = t.clone()
        if len(self.lines) == n + 1:
            self.owned[self.lines[-1]["out"]] = claim
        return out

    def guard_array(self, t):
        """Python code read traced tensor `t` as an array: the replay is valid while it has the same value."""
        self.lines.append({"op": "guard_array", "x": self.expr(t, []), "value": self.const(t.detach().clone())})

    def _bind_out(self, out, res, dynamic, base):
        if isinstance(out, torch.Tensor):
            self.bind(out, res, dynamic, self.label(base))
        elif isinstance(out, (list, tuple)):
            for i, o in enumerate(out):
                if isinstance(o, torch.Tensor):
                    self.bind(o, f"{res}[{i}]", dynamic, self.label(base))

    def callback(self, fn, flat_inputs, flat_outputs):
        """Records a host callback `fn(list_of_storages) -> list_of_storages` run at this point."""
        step = {"op": "call", "f": len(self.funcs), "args": [self.expr(list(flat_inputs), [])], "kwargs": {},
                "out": f"o{next(self.counter)}", "host": True}
        self.funcs.append(fn)
        self.lines.append(step)
        self._bind_out(list(flat_outputs), step["out"], True, "PyFunc")

    def custom(self, apply, inputs, outputs, backward):
        """Records a `tf.custom_gradient` call whose forward ops were just recorded: `backward(dys)` (the call's
        gradient function, on storages) is recorded now as a nested program of the dys, and the step
        `apply(program, inputs, outputs)` gives a replay's outputs an autograd node that runs it (TF traces the
        gradient function into the graph). A gradient function that reads tensor values on the host, calls host
        callbacks or raises makes the trace unreplayable (the body then runs on every call)."""
        saved_lines, saved_values = self.lines, dict(self.values)
        self.lines = sub = []
        self.paused += 1
        dys = [torch.ones_like(o) for o in outputs]
        self.paused -= 1
        for i, d in enumerate(dys):
            self.bind(d, f"D[{i}]")
        self.grad_depth += 1
        try:
            grads = backward(dys)
            grad_terms = [self.expr(g, []) if isinstance(g, torch.Tensor) else None for g in grads]
        except Exception:  # noqa: BLE001 - it raises again when the body runs eagerly and the gradient is taken
            grads = None
        finally:
            self.grad_depth -= 1
            self.lines, self.values = saved_lines, saved_values
        if grads is None or any(s["op"] != "call" or s.get("host") for s in sub):
            self.unreplayable = True
            return
        n = next(self.counter)
        step = {"op": "custom", "f": len(self.funcs), "grad": sub, "grad_out": grad_terms, "out": f"o{n}",
                "args": [{"ref": f"g{n}"}, self.expr(list(inputs), []), self.expr(list(outputs), [])], "kwargs": {}}
        self.funcs.append(apply)
        self.lines.append(step)
        self._bind_out(list(outputs), step["out"], True, "IdentityN")

    def is_dynamic(self, t):
        r = self._bound(storage_key(t))
        if r is not None:
            return r.dynamic
        return storage_key(t) in self.var_keys

    def symbol(self, t):
        """TF's graph name of traced storage `t` and its static shape (None: the real shape)."""
        r = self._bound(storage_key(t))
        if r is None:
            v = self.var_keys.get(storage_key(t))
            return (v.name if v is not None else None), None
        if r.label is None:
            r.label = self.label("Const")
        return r.label, r.shape


# TorchDispatchMode wraps a subclass's `__torch_dispatch__` in `torch._dynamo.disable`, which imports torch._dynamo
# on the first op a trace records: seconds (6 s on a loaded 2-core machine, 4x `import tfcompat`) paid by every
# process's first tf.function or `fit`. A recording never runs under torch.compile (a `jit_compile` program is
# compiled from the recorded steps after the trace), so the method runs unwrapped.
Recorder.__torch_dispatch__ = getattr(Recorder.__torch_dispatch__, "__wrapped__", Recorder.__torch_dispatch__)
