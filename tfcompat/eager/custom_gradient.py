"""`tf.custom_gradient`, `tf.recompute_grad` and forward-mode `tf.autodiff.ForwardAccumulator`.

`custom_gradient(f)`: `f(*args)` returns `(result, grad_fn)`. As in TF, `f`'s
own ops are not recorded; the result is connected to the inputs (all flat
args, converted to tensors, plus the trainable variables `f` read) by one
autograd node whose backward calls `grad_fn`.
"""
import functools
import inspect
import sys
import warnings

import torch

from tfcompat.framework.context import state
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.eager.function._host import quiet
from tfcompat.eager.function._state import current_recorder
from tfcompat.eager.tape import VariableWatcher, pause_recording, read_variable
from tfcompat.util import nest


def _differentiable(s):
    return isinstance(s, torch.Tensor) and (s.dtype.is_floating_point or s.is_complex())


def _storage_for_input(x):
    if isinstance(x, Variable):
        return x._read()
    return storage(x)


class _CustomGradientNode(torch.autograd.Function):
    @staticmethod
    def forward(ctx, call, *inputs):
        ctx.call = call
        return tuple(o.view_as(o) for o in call.outputs)

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + ctx.call.backward(grads)


class _Call:
    """One call of a custom-gradient function: its outputs and how to run its grad_fn."""

    def __init__(self, outputs, grad_fn, n_args, variables, arg_storages):
        self.outputs = outputs
        self.grad_fn = grad_fn
        self.n_args = n_args
        self.variables = variables
        self.arg_storages = arg_storages

    def backward(self, grads):
        dys = [_wrap(g if g is not None else torch.zeros_like(o)) for g, o in zip(grads, self.outputs)]
        if self.variables:
            out = self.grad_fn(*dys, variables=list(self.variables))
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise ValueError("If using @custom_gradient with a function that uses variables, the gradient "
                                 "function must return a pair: (input gradients, variable gradients).")
            input_grads, var_grads = out
        else:
            input_grads, var_grads = self.grad_fn(*dys), []
        input_grads = nest.flatten(input_grads) if isinstance(input_grads, (list, tuple)) else [input_grads]
        if len(input_grads) != self.n_args:
            raise ValueError(f"custom_gradient function expected to return {self.n_args} gradients, but "
                             f"returned {len(input_grads)} instead.")
        var_grads = list(var_grads or [])
        if len(var_grads) != len(self.variables):
            raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        out = []
        for g, s in zip(input_grads + var_grads, self.arg_storages):
            if g is None or not isinstance(s, torch.Tensor) or not (s.dtype.is_floating_point or s.is_complex()):
                out.append(None)
                continue
            g = storage(g) if isinstance(g, Tensor) else (g._read() if isinstance(g, Variable) else
                                                          storage(convert_to_tensor(g)))
            if hasattr(g, "_dense"):
                g = storage(g._dense())
            out.append(g.to(s.dtype).expand_as(s) if g.shape != s.shape else g.to(s.dtype))
        return tuple(out)


class _Replayed:
    """A custom-gradient call in a tf.function replay: its outputs and its recorded gradient program."""

    __slots__ = ("outputs", "program")

    def __init__(self, outputs, program):
        self.outputs = outputs
        self.program = program

    def backward(self, grads):
        return tuple(self.program(list(grads)))


def _replay_custom(program, inputs, outputs):
    """The replay step of a traced custom-gradient call: `outputs` get a node running the recorded gradient (a
    replay inside another function's trace records the step again there)."""
    rec = current_recorder()
    if rec is not None and not rec.paused:
        rec.custom(_replay_custom, inputs, outputs, program)
    if not torch.is_grad_enabled() or not any(isinstance(s, torch.Tensor) and s.requires_grad for s in inputs):
        return outputs
    return _CustomGradientNode.apply(_Replayed(outputs, program), *inputs)


def _call_custom(f, args, kwargs):
    with VariableWatcher() as watcher, pause_recording():
        result, grad_fn = f(*args, **kwargs)
    flat_args = [convert_to_tensor(a) if not isinstance(a, (Tensor, Variable)) else a for a in nest.flatten(args)]
    # TF passes as `variables=` the trainable variables read that are not themselves arguments
    variables = [v for v in watcher.watched_variables() if not any(v is a for a in flat_args)]
    if variables and "variables" not in inspect.signature(grad_fn).parameters and not any(
            p.kind == p.VAR_KEYWORD for p in inspect.signature(grad_fn).parameters.values()):
        raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                        f"uses variables: {variables}")
    rec = current_recorder()
    if not state.recording and (rec is None or rec.paused):
        return result
    arg_storages = [_storage_for_input(a) for a in flat_args] + [read_variable(v) for v in variables]
    flat_out = nest.flatten(result)
    positions = [i for i, o in enumerate(flat_out) if isinstance(o, Tensor) and _differentiable(storage(o))]
    if rec is not None and not rec.paused and positions:
        # inside a tf.function trace: replays (under a tape outside the function) use grad_fn too
        traced = _Call([storage(flat_out[i]) for i in positions], grad_fn, len(flat_args), variables, arg_storages)
        with quiet():
            rec.custom(_replay_custom, arg_storages, traced.outputs, traced.backward)
    if not state.recording or not any(isinstance(s, torch.Tensor) and s.requires_grad for s in arg_storages):
        return result
    call = _Call([storage(flat_out[i]) for i in positions], grad_fn, len(flat_args), variables, arg_storages)
    outs = _CustomGradientNode.apply(call, *arg_storages)
    for i, o in zip(positions, outs):
        flat_out[i] = _wrap(o)
    return nest.pack_sequence_as(result, flat_out)


@tf_export("custom_gradient")
def custom_gradient(f=None):
    """Decorator: `f` returns `(y, grad_fn)`; tapes use `grad_fn(dy)` (and `variables=`) as its gradient."""
    if f is None:
        return custom_gradient
    return _CustomGradient(f)


class _CustomGradient:
    """What `@tf.custom_gradient` returns. A descriptor, as TF's (`Bind`): on a method, `self` is bound and is not
    one of the differentiated arguments."""

    def __init__(self, f):
        self._f = f
        functools.update_wrapper(self, f)

    def __call__(self, *args, **kwargs):
        return _call_custom(self._f, args, kwargs)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _CustomGradient(self._f.__get__(instance, owner))


@tf_export("recompute_grad", partial="values and gradients as TF; activations are kept, not recomputed")
def recompute_grad(f):
    """TF's gradient checkpointing decorator: same values and gradients as `f`."""
    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapped


@tf_export("autodiff.ForwardAccumulator")
class ForwardAccumulator:
    """Forward-mode autodiff: Jacobian-vector products of the ops run inside it (torch forward AD)."""

    _recording = False

    def __init__(self, primals, tangents):
        self._primals = nest.flatten(primals)
        self._tangents = nest.flatten(tangents)
        if len(self._primals) != len(self._tangents):
            raise ValueError("primals and tangents must have the same structure")
        self._accessed = []
        self._duals = {}
        self._restore = []
        self._level = None

    def _on_read(self, var, t):
        d = self._duals.get(id(var))
        return d if d is not None else t

    def __enter__(self):
        import torch.autograd.forward_ad as fwad
        _close_lingering_level()
        fwad.enter_dual_level()
        if "torch._decomp.decompositions_for_jvp" not in sys.modules:
            with warnings.catch_warnings():
                # torch's first `make_dual` scripts its forward-AD decompositions, and torch warns that
                # `torch.jit.script` is deprecated (a FutureWarning from torch 2.14 on): torch's own use, not shown
                warnings.filterwarnings("ignore", message="`torch.jit.script` is ")
                fwad.make_dual(torch.zeros(()), torch.zeros(()))
        for p, tan in zip(self._primals, self._tangents):
            tt = storage(tan) if isinstance(tan, Tensor) else storage(convert_to_tensor(tan))
            s = storage(p)
            if isinstance(p, Variable):
                self._duals[id(p)] = fwad.make_dual(s, tt.to(s.dtype))
            else:
                self._restore.append((p, s))
                p._set_storage(fwad.make_dual(s, tt.to(s.dtype)))
        state.tapes.append(self)
        return self

    def __exit__(self, *exc):
        state.tapes.remove(self)
        for p, t in self._restore:
            p._set_storage(t)
        self._duals.clear()
        # torch drops tangents when the dual level closes; TF's `jvp` works after the block, so the
        # level stays open until the next accumulator starts (torch supports one level at a time)
        _LINGERING.append(True)

    def jvp(self, primals, unconnected_gradients="none"):
        import torch.autograd.forward_ad as fwad

        def one(x):
            s = x._read() if isinstance(x, Variable) else storage(x)
            tangent = fwad.unpack_dual(s).tangent
            if tangent is None:
                return _wrap(torch.zeros_like(s)) if unconnected_gradients == "zero" else None
            return _wrap(tangent.clone())
        return nest.map_structure(one, primals)


_LINGERING = []


def _close_lingering_level():
    if _LINGERING:
        import torch.autograd.forward_ad as fwad
        _LINGERING.clear()
        fwad.exit_dual_level()
