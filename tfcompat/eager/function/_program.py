"""Replay: a recording compiled to a straight-line Python program, and running it for a call."""
import collections
import functools

import torch

from tfcompat.eager.function._guards import GuardFailed, equal
from tfcompat.eager.function._host import constant_result, logged_callback
from tfcompat.eager.function._jit import Jit
from tfcompat.framework.context import state
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.util import nest

_ITEM = torch.ops.aten._local_scalar_dense.default
_DETACH = torch.ops.aten.detach.default


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
    if step["op"] == "custom":      # a custom gradient: its recorded gradient program, a closure over the values
        grad = [f"def {step['args'][0]['ref']}(D):"] + ["    " + _step_src(s) for s in step["grad"]]
        outs = ", ".join(_src(e) if e is not None else "None" for e in step["grad_out"])
        return "\n    ".join(grad + [f"    return [{outs}]", f"{step['out']} = F[{step['f']}]({a})"])
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


def _any_failed(flags):
    return torch.stack(flags).any() if len(flags) > 1 else flags[0]


def compile_program(source, name, entry="program"):
    """The function `entry` defined by `source` (`program` from `program_source`, `make` from `fast_source`)."""
    scope = {"GuardFailed": GuardFailed, "_equal": equal, "_ne": torch.ne, "_any": _any_failed}
    exec(compile(source, f"<tf.function {name}>", "exec"), scope)  # noqa: S102 generated code
    return scope[entry]


def run_program(program, consts, funcs, ins, vars_):
    return program(ins, vars_, consts, funcs)


def _fast_ref(term):
    """`_src` of a term with inputs and constants as the closure's locals (`I[2]` -> `i2`, `C[0]` -> `c0`)."""
    if isinstance(term, dict):
        if "ref" in term:
            ref = term["ref"]
            return ref[0].lower() + ref[2:-1] if ref[:2] in ("I[", "C[") else ref
        inner = ", ".join(_fast_ref(x) for x in term.get("list", term.get("tuple", ())))
        if "tuple" in term:
            return f"({inner},)" if term["tuple"] else "()"
        return f"[{inner}]"
    return repr(term)


def _refs(term, out):
    """Appends the names `term` refers to (an output `o3[1]` as `o3`) to `out`."""
    if isinstance(term, dict):
        if "ref" in term:
            out.append(term["ref"].split("[")[0] if term["ref"][0] == "o" else term["ref"])
        for x in term.get("list", term.get("tuple", ())):
            _refs(x, out)
    return out


def _step_refs(step):
    out = []
    for x in list(step["args"]) + list(step["kwargs"].values()):
        _refs(x, out)
    return out


def _step_names(steps):
    """The names each step reads (`_refs` of its arguments; a guard_array's compared value)."""
    return [_refs(s["x"], []) if s["op"] == "guard_array" else _step_refs(s) for s in steps]


def _foldable(step, funcs):
    """Whether a step is a pure aten op (no mutation, no randomness) whose value can be computed once."""
    f = funcs[step["f"]]
    return (step["op"] == "call" and not step.get("host") and isinstance(f, torch._ops.OpOverload)
            and not f._schema.is_mutable and torch.Tag.nondeterministic_seeded not in f.tags)


def folded_steps(steps, funcs, out_terms, write_terms, step_names=None):
    """The indices of the steps computed once, when the program is built: pure ops of constants only.

    None are when the program writes to such a value or a view of one, or returns or assigns one (a later
    in-place update, e.g. of an optimizer's slot variable, would change it for every replay)."""
    step_names = step_names or _step_names(steps)
    static, views, fold = set(), {}, []
    for i, step in enumerate(steps):
        if step["op"] == "guard_array":
            continue
        names = step_names[i]
        f = funcs[step["f"]]
        if isinstance(f, torch._ops.OpOverload):
            schema = f._schema
            written = [a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write]
            if written:
                terms = dict(zip([a.name for a in schema.arguments], step["args"])) | step["kwargs"]
                for name in _refs({"list": [terms[w] for w in written if w in terms]}, []):
                    if name in static or name.startswith("C[") or views.get(name):
                        return []
            if "out" in step and any(r.alias_info is not None for r in schema.returns):
                views[step["out"]] = any(n in static or n.startswith("C[") or views.get(n) for n in names)
        if "out" in step and _foldable(step, funcs) and all(n in static or n.startswith("C[") for n in names):
            static.add(step["out"])
            fold.append(i)
    results = _refs({"list": [t for t in list(out_terms) + list(write_terms) if t is not None]}, [])
    if any(n in static or views.get(n) for n in results):
        return []
    return fold


def claimed_copies(steps, owned, out_terms, write_terms, step_names=None):
    """{step index: claim index} of the `Recorder.private_copy` clones (`owned`: output name -> index of its claim)
    that the no-tape replay replaces by their owner's claim (the variable's own storage, updated in place, as the
    eager step does): none when a guard, host callback or custom gradient follows the first (a replay stopping there
    must leave every variable as it was), and not one whose variable read is used elsewhere too (that use would see
    the update)."""
    if not owned:
        return {}
    at = {i: owned[s["out"]] for i, s in enumerate(steps) if s["op"] == "call" and s["out"] in owned}
    if any(s["op"] != "call" or s.get("host") for s in steps[min(at):]):
        return {}
    uses = collections.Counter(_refs({"list": [t for t in list(out_terms) + list(write_terms) if t is not None]}, []))
    for names in step_names or _step_names(steps):
        uses.update(names)
    return {i: k for i, k in at.items()
            if len(steps[i]["args"]) == 1 and not steps[i]["kwargs"] and uses[steps[i]["args"][0].get("ref")] == 1}


def _frees(steps, step_names, fold, out_terms, write_terms):
    """{step index: the op results last read there (or never read), deleted after it}: a replay frees each value
    when the eager step would, so that its memory is reused within the step (holding every value to the end made
    each replay of a convnet step touch fresh pages: ~1,100 page faults per step)."""
    kept = set(_refs({"list": [t for t in list(out_terms) + list(write_terms) if t is not None]}, []))
    kept.update(steps[i]["out"] for i in fold)          # computed once, in `make`
    last = {}
    for i, step in enumerate(steps):
        if i in fold:
            continue
        out = step.get("out")
        if out is not None:
            last[out] = i
        for name in step_names[i]:
            if name[0] == "o":
                last[name] = i
    frees = {}
    for name, i in last.items():
        if name not in kept:
            frees.setdefault(i, []).append(name)
    return frees


def _output_only(steps, funcs, step_names, write_terms, fold):
    """The indices of the pure steps whose values reach only the outputs (a caller discarding them skips them)."""
    needed = set(_refs({"list": list(write_terms)}, []))
    only = set()
    for i in range(len(steps) - 1, -1, -1):
        if i in fold:
            continue
        if steps[i]["op"] == "call" and _foldable(steps[i], funcs) and steps[i]["out"] not in needed:
            only.add(i)
        else:
            needed.update(step_names[i])
    return only


def fast_source(n_inputs, n_vars, steps, out_terms, write_terms, funcs, n_consts, owned=None):
    """The replay program run when no tape is active: `make(C, F, X)` returns `program(I, V, W=True) -> (outputs, new
    values)`; with `W=False` (the caller discards the outputs) it skips the pure ops that only compute outputs and
    returns None for them. `X` are the claims of `owned` (output name -> index in `X`).

    The same steps as `program_source`, with its per-op costs removed: inputs, constants and op callables are the
    closure's locals, ops are called through their C++ entry (`OpOverload._op`, what `OpOverload.__call__` calls),
    `aten.detach` is an alias (no tape is active, so no value requires grad: detaching changes nothing), the
    pure ops of constants (`folded_steps`) run once in `make`, an optimizer's copies of its slots (`owned`, from
    `Recorder.private_copy`) become its claims (`claimed_copies`), and each value is deleted after its last use."""
    head = ["def make(C, F, X=()):"] + [f"    c{i} = C[{i}]" for i in range(n_consts)]
    used = sorted({s["f"] for s in steps if s["op"] != "guard_array" and funcs[s["f"]] is not _DETACH})
    head += [f"    f{i} = F[{i}]" for i in used]
    body = ["    def program(I, V, W=True):"] + [f"        i{i} = I[{i}]" for i in range(n_inputs)]
    body += [f"        r{i} = V[{i}]._read()" for i in range(n_vars)]
    step_names = _step_names(steps)
    fold = set(folded_steps(steps, funcs, out_terms, write_terms, step_names))
    claims = claimed_copies(steps, owned, out_terms, write_terms, step_names)
    head += [f"    x{k} = X[{k}]" for k in sorted(set(claims.values()))]
    frees = _frees(steps, step_names, fold, out_terms, write_terms)
    only = _output_only(steps, funcs, step_names, write_terms, fold)
    optional = {steps[i]["out"] for i in only}
    for i, step in enumerate(steps):
        if i in claims:
            line = f"{step['out']} = x{claims[i]}({_fast_ref(step['args'][0])})"
        elif step["op"] == "guard_array":
            line = f"if not _equal({_fast_ref(step['x'])}, {_fast_ref({'ref': step['value']})}): raise GuardFailed()"
        elif funcs[step["f"]] is _DETACH:
            line = f"{step['out']} = {_fast_ref(step['args'][0])}"
        else:
            a = ", ".join([_fast_ref(x) for x in step["args"]] +
                          [f"{k}={_fast_ref(v)}" for k, v in step["kwargs"].items()])
            if step["op"] == "guard":
                line = f"if f{step['f']}({a}) != {_fast_ref({'ref': step['value']})}: raise GuardFailed()"
            else:
                line = f"{step['out']} = f{step['f']}({a})"
        if i in fold:
            head.append("    " + line)
            continue
        body.append(("        if W: " if i in only else "        ") + line)
        names = frees.get(i, ())
        always = [n for n in names if n not in optional]
        if always:
            body.append(f"        del {', '.join(always)}")
        if len(always) < len(names):
            body.append(f"        if W: del {', '.join(n for n in names if n in optional)}")
    outs = ", ".join(_fast_ref(e) if e is not None else "None" for e in out_terms)
    body.append(f"        return ([{outs}] if W else None), [{', '.join(_fast_ref(e) for e in write_terms)}]")
    return "\n".join(head + body + ["    return program"])


def _fast_program(rec, n_inputs, out_exprs, write_terms, funcs, name):
    """The no-tape replay closure of recording `rec` (see `fast_source`), or None for a recording with custom
    gradients (their nested gradient programs run only through `program_source`'s form)."""
    if any(step["op"] == "custom" for step in rec.lines):
        return None
    source = fast_source(n_inputs, len(rec.vars), rec.lines, out_exprs, write_terms, funcs, len(rec.consts),
                         {out: k for k, out in enumerate(rec.owned)})
    ops = [f._op if isinstance(f, torch._ops.OpOverload) else f for f in funcs]
    return compile_program(source, name, "make")(rec.consts, ops, list(rec.owned.values()))


class Program:
    """One recorded, compiled replay of the body for one concrete input signature.

    `fast` is the no-tape replay (`fast_source`); `run`, the plain one (`program_source`: under tapes, with host
    callbacks already run, for other shapes), is compiled on its first use, which a `fit` never makes."""

    __slots__ = ("_run", "fast", "vars", "argvars", "tensor_pos", "writes", "is_tensor", "out_static", "structure",
                 "steps", "consts", "funcs", "out_terms", "write_terms", "name")

    @property
    def source(self):
        return program_source(self.name, len(self.vars), self.steps, self.out_terms, self.write_terms)

    @property
    def run(self):
        """`run(ins, vars) -> (outputs, new variable values)`: a partial of `run_program` over the plain program."""
        if self._run is None:
            self._run = functools.partial(run_program, compile_program(self.source, self.name), self.consts,
                                          _logged(self.steps, self.funcs))
        return self._run


def _logged(steps, funcs):
    """The program's callables, its host callbacks logging their outputs (see `_host.logged_callback`)."""
    funcs = list(funcs)
    for step in steps:
        if step.get("host"):
            funcs[step["f"]] = functools.partial(logged_callback, funcs[step["f"]])
    return funcs


def build_program(function, rec, tensor_pos, argvar_pos, out_flat, out_exprs, writes, result):
    """The replay `Program` of recording `rec` (a `Jit` one when `function` has `jit_compile=True`)."""
    p = Program()
    p.name = name = function.__name__
    p.write_terms = write_terms = [e for _, e in writes]
    p.steps, p.consts, p.funcs = rec.lines, rec.consts, rec.funcs
    p.vars = rec.vars
    p.out_terms = out_exprs
    p._run = None
    if function._jit_compile:
        jit_source = program_source(name, len(rec.vars), rec.lines, out_exprs, write_terms, rec.funcs)
        plain = p.run
        p._run = functools.partial(run_program, Jit(function, compile_program(jit_source, name), plain.args[0]),
                                   *plain.args[1:])
        p.fast = None
    else:
        p.fast = _fast_program(rec, len(tensor_pos), out_exprs, write_terms, _logged(rec.lines, rec.funcs), name)
    p.argvars = argvar_pos
    p.tensor_pos = tensor_pos
    p.writes = [t for t, _ in writes]
    p.is_tensor = [e is not None for e in out_exprs]
    p.out_static = out_flat
    p.structure = result
    return p


def replay(prog, flat, callback_outputs=None, outputs=True):
    """Runs a recorded program on a call's flat arguments; `callback_outputs` stand in for its host callbacks
    (already run); with `outputs=False` the no-tape replay skips the ops that only compute outputs and returns None.
    Raises GuardFailed when a guard fails (no variable is written then)."""
    recording = state.recording
    ins = []
    for i in prog.tensor_pos:
        t = storage(flat[i])
        if t.requires_grad and not recording:
            t = t.detach()
        ins.append(t)
    vs = prog.vars
    if prog.argvars:
        vs = list(vs)
        for j, i in prog.argvars:
            vs[j] = flat[i]
    if callback_outputs is None:
        if prog.fast is not None and not state.tapes:
            outs, new = prog.fast(ins, vs, outputs)
        else:
            outs, new = prog.run(ins, vs)
    else:
        funcs = list(prog.funcs)
        done = iter(callback_outputs)
        for step in prog.steps:
            if step.get("host"):
                funcs[step["f"]] = functools.partial(constant_result, next(done))
        outs, new = run_program(prog.run.args[0], prog.consts, funcs, ins, vs)
    for v, t in zip(prog.writes, new):
        (flat[v] if type(v) is int else v)._set_storage(t)
    if outs is None:
        return None
    return nest.pack_sequence_as(prog.structure, [
        _wrap(t) if is_t else o for t, is_t, o in zip(outs, prog.is_tensor, prog.out_static)])
