"""Tracing: runs a Function's Python body once under the recorder (TF's variable-creation rules) for a program."""
import numpy as np
import torch

from tfcompat.eager.function._guards import GuardFailed, HostReads
from tfcompat.eager.function._host import install_iterator_hook, quiet
from tfcompat.eager.function._leaks import eager_tensors, mark_leaks
from tfcompat.eager.function._program import build_program, replay
from tfcompat.eager.function._recorder import _NO_TORCH_FUNCTION, Recorder
from tfcompat.eager.function._signatures import exact_key, is_spec, leaf_labels
from tfcompat.eager.function._state import live_vars, tls
from tfcompat.framework.context import state
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops.misc_ops import TensorSpec
from tfcompat.util import nest


def record(function, cf, args, kwargs, flat):
    """Traces the body (TF's variable-creation rules) and returns the call's result."""
    if any(isinstance(x, Tensor) and isinstance(storage(x), np.ndarray) for x in flat) or tls.recorder is not None:
        cf._eager = cf._eager or tls.recorder is None
        result = outputs(run_symbolic(function, cf, args, kwargs, flat) if cf._eager else
                         function._python_function(*args, **kwargs))
        cf.structured_outputs = merged_outputs(cf.structured_outputs, output_specs(result))
        return result
    first = function._created_variables is None
    rec, result = record_once(function, cf, args, kwargs, flat, forbid=function._created_variables is True,
                              discard_created=True)
    if first:
        function._created_variables = bool(rec.new_vars)
        if rec.new_vars:
            # TF traces a function that made variables again, now forbidding new ones; that trace is run
            rec.restore()
            function._tracing_count += 1
            rec, result = record_once(function, cf, args, kwargs, flat, forbid=True, replay_callbacks=rec.cb_log)
    elif rec.new_vars:
        rec.restore()
        raise ValueError("Creating variables on a non-first call to a function decorated with tf.function.")
    return for_tapes(rec, cf, flat, result, lambda: function._python_function(*args, **kwargs))


def rerun(function, cf, args, kwargs, flat, callbacks_done):
    """A call whose replay failed a guard: the body runs again (host callbacks that ran are not run twice)."""
    rec, result = record_once(function, cf, args, kwargs, flat, function._created_variables is True, callbacks_done)
    return for_tapes(rec, cf, flat, result, lambda: function._python_function(*args, **kwargs))


def for_tapes(rec, cf, flat, result, body):
    """The result of a body just run under recorder `rec` (tapes hidden): while a tape outside records, the new
    recording is replayed instead, from the variables' values before the run, so that the tape sees its ops. If
    that replay reads other values (random draws deciding Python branches), `body()` runs once more under the tape
    (quietly; host callbacks run again)."""
    prog = cf._programs.get(exact_key(flat))
    if state.recording and prog is not None:
        rec.restore()
        try:
            return replay(prog, flat, rec.cb_log)
        except GuardFailed:
            with quiet():
                return outputs(body())
    return result


def record_once(function, cf, args, kwargs, flat, forbid, replay_callbacks=None, discard_created=False):
    """Runs the body once under a recorder; stores the replay program for these exact shapes (none with
    `discard_created` when the body created variables: the caller restores them, and traces again or raises).

    The recorder (aten ops) and `HostReads` (numpy/tolist reads) are torch modes of this thread only; the tapes
    outside the function are hidden while the body runs. Returns (recorder, result)."""
    rec = Recorder()
    rec.forbid = forbid
    rec.cb_replay = list(replay_callbacks) if replay_callbacks else None
    for v in list(live_vars.values()):
        t = storage(v)
        if isinstance(t, torch.Tensor):
            rec.start[id(v)] = t
            rec.watch_variable(v, t)
    specs = nest.flatten(cf.structured_input_signature)
    if len(specs) != len(flat):
        specs = [None] * len(flat)
    call_flat = []
    tensor_pos, argvar_pos = [], []
    for i, (x, label, spec) in enumerate(zip(flat, leaf_names(function, args, kwargs, specs), specs)):
        if isinstance(x, Tensor):
            t = storage(x)
            t = t.detach() if t.requires_grad else t
            rec.bind(t, f"I[{len(tensor_pos)}]", True, rec.label(label), spec.shape if is_spec(spec) else None)
            tensor_pos.append(i)
            call_flat.append(_wrap(t))
        else:
            if isinstance(x, Variable):
                rec.var_ref(x)
                argvar_pos.append((rec.var_index[id(x)], i))
            call_flat.append(x)
    call_args, call_kwargs = nest.pack_sequence_as((args, kwargs), call_flat)
    install_iterator_hook()
    before = eager_tensors(function._python_function)
    saved_tapes, saved_recording = state.tapes, state.recording
    saved_recorder, saved_autograph = tls.recorder, tls.autograph
    state.tapes, state.recording = [], 0
    tls.recorder, tls.autograph = rec, function._autograph
    try:
        with rec, HostReads(rec):
            result = function._python_function(*call_args, **call_kwargs)
            result = outputs(result)
            out_flat = nest.flatten(result)
            out_exprs, writes = _results(rec, out_flat, argvar_pos)
        # composite values (RaggedTensor, SparseTensor, ExtensionTypes) are not program inputs or outputs
        eager = rec.unreplayable or any(isinstance(o, Tensor) and e is None for o, e in zip(out_flat, out_exprs)) \
            or any(nest.is_composite(x) for x in flat) or any(nest.is_composite(o) for o in out_flat)
        discarded = eager or (discard_created and rec.new_vars)
        prog = None if discarded else build_program(function, rec, tensor_pos, argvar_pos, out_flat, out_exprs,
                                                    writes, result)
    except BaseException:
        rec.restore()       # a failed trace (or compile) changes no variable, as in TF
        raise
    finally:
        tls.recorder, tls.autograph = saved_recorder, saved_autograph
        state.tapes, state.recording = saved_tapes, saved_recording
    flat_result = nest.flatten(result)
    kept = mark_leaks(function._python_function, before, lambda t: _leak_symbol(rec, t), flat_result)
    if kept is not flat_result:
        result = nest.pack_sequence_as(result, kept)
    first = not cf._programs      # the first program of `cf` (a trace that created variables kept none)
    cf.structured_outputs = merged_outputs(cf.structured_outputs, output_specs(result, rec))
    if eager:
        cf._eager = True
    elif prog is not None:
        cf._programs[exact_key(flat)] = prog
        if first and not function._jit_compile and not all(s.shape.is_fully_defined() for s in specs if is_spec(s)):
            cf.structured_outputs = general_outputs(cf.structured_outputs, prog, flat, specs)
    return rec, result


def _results(rec, out_flat, argvar_pos):
    """The program terms of a trace's outputs (None: not a tensor), and its writes: (variable or argument position,
    term of its new value) for each variable whose storage changed (resolving them reads no traced value)."""
    with torch._C.DisableTorchFunction():
        out_exprs = [rec.expr(storage(o), []) if isinstance(o, Tensor) and isinstance(storage(o), torch.Tensor)
                     else None for o in out_flat]
        writes = []
        for vid, t0 in list(rec.start.items()):
            v = live_vars.get(vid)
            if v is None:
                continue
            t = storage(v)
            if t is t0 or not isinstance(t, torch.Tensor):
                continue
            target = dict(argvar_pos).get(rec.var_index.get(vid), v)
            writes.append((target, rec.expr(t, [])))
    return out_exprs, writes


def merged_outputs(old, new):
    """A ConcreteFunction's output specs after another run of its body: the dims that differ become `None`."""
    if old is None:
        return new
    try:
        nest.assert_same_structure(old, new)
    except (TypeError, ValueError):
        return old

    def merge(a, b):
        if not (is_spec(a) and is_spec(b)) or a.shape.rank != b.shape.rank or a.shape.rank is None:
            return a
        return TensorSpec([d if d == e else None for d, e in zip(a.shape.as_list(), b.shape.as_list())], a.dtype)
    return nest.map_structure(merge, old, new)


def general_outputs(out_specs, prog, flat, specs):
    """The output specs of a trace under input specs with `None` dims: each output dim that changes when the
    recording is replayed (writes discarded) with one of those input dims one larger (an unknown rank: one more dim)
    becomes `None` (a rank that changes: unknown); a dim whose larger size the recording refuses (it must match a
    weight) changes nothing. A recording that calls host callbacks keeps the traced shapes (not run for
    `jit_compile`)."""
    if any(step.get("host") for step in prog.steps):
        return out_specs
    variants = []       # one per unknown dim: [(position, new size)]
    for i, (x, spec) in enumerate(zip(flat, specs)):
        if isinstance(x, Tensor) and is_spec(spec):
            t = storage(x)
            if spec.shape.rank is None:         # an unknown rank: one more dimension
                variants.append((i, list(t.shape) + [2]))
            else:
                for a, d in enumerate(spec.shape.as_list()):
                    if d is None:
                        size = list(t.shape)
                        size[a] += 1
                        variants.append((i, size))
    variables = list(prog.vars)
    for j, i in prog.argvars:
        variables[j] = flat[i]
    flat_specs = nest.flatten(out_specs)
    for i, size in variants:
        t = storage(flat[i])
        alt = list(flat)
        alt[i] = _wrap(torch.zeros(size, dtype=t.dtype, device=t.device))
        try:
            with torch.no_grad():
                outs, _ = prog.run([storage(alt[k]) for k in prog.tensor_pos], variables)
        except Exception:  # noqa: BLE001 - a recording specific to the traced size of this dim
            continue
        general = iter(outs)
        merged = []
        for spec, is_t in zip(flat_specs, prog.is_tensor):
            o = next(general) if is_t else None
            if is_t and is_spec(spec) and isinstance(o, torch.Tensor) and spec.shape.rank is not None:
                dims = [d if d == n else None for d, n in zip(spec.shape.as_list(), o.shape)]
                spec = TensorSpec(dims if o.dim() == spec.shape.rank else None, spec.dtype)
            merged.append(spec)
        flat_specs = merged
    return nest.pack_sequence_as(out_specs, flat_specs)


def run_symbolic(function, cf, args, kwargs, flat):
    """Runs the body unrecorded, its tensor arguments printing as TF's symbolic placeholders."""
    specs = nest.flatten(cf.structured_input_signature)
    if len(specs) != len(flat):
        specs = [None] * len(flat)
    symbols, seen = {}, {}
    for x, name, spec in zip(flat, leaf_names(function, args, kwargs, specs), specs):
        if isinstance(x, Tensor):
            n = seen[name] = seen.get(name, -1) + 1
            symbols[id(x)] = (f"{name}:0" if n == 0 else f"{name}_{n}:0", spec.shape if is_spec(spec) else None)
    tls.symbols = symbols
    try:
        return function._python_function(*args, **kwargs)
    finally:
        tls.symbols = None


def leaf_names(function, args, kwargs, specs):
    """TF's placeholder name of each flat argument leaf: its spec's name when the user gave one, else the parameter
    name (`args_<i>` for `*args`)."""
    return [spec.name if is_spec(spec) and spec.name and spec.name != auto else param
            for (param, auto), spec in zip(leaf_labels(function._arg_names, function._param_kinds, args, kwargs), specs)]


def _leak_symbol(rec, x):
    """(TF's graph name, static shape) of tensor `x` when the trace `rec` made its value, else None."""
    t = storage(x)
    if not isinstance(t, torch.Tensor):
        return None
    with _NO_TORCH_FUNCTION():
        return rec.symbol(t) if rec.is_dynamic(t) else None


def outputs(result):
    """TF's outputs: Python numbers and strings returned from a tf.function become tensors."""
    def conv(x):
        if isinstance(x, (bool, int, float, str, bytes, np.generic)) and not isinstance(x, Tensor):
            return convert_to_tensor(x)
        if isinstance(x, Variable):
            return x.read_value()
        return x
    return nest.map_structure(conv, result) if result is not None else None


def output_specs(result, rec=None):
    """The structured outputs of a trace: TensorSpecs for tensors and variables, other values as they are."""
    return nest.map_structure(lambda x: TensorSpec(x.shape, x.dtype) if isinstance(x, (Tensor, Variable)) else x,
                              result) if result is not None else None
