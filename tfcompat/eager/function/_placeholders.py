"""Tracing an input signature with unknown dimensions on placeholder values, and the program valid for other sizes.

TF traces `None` dimensions symbolically; tfcompat runs the body on values. `trace` picks the values' sizes: distinct
probe sizes above 1 per unknown dimension (size 1 broadcasts, squeezes away and collides with real sizes); when the
body fails on those (a feature dimension that must match a weight), one dimension at a time takes a size of the live
variables or of the tensors and arrays in the body's globals and closure, and the last resort is size 1 for every
unknown dimension (a program specific to it).

When a SavedModel is written (`ensure_template`), the body is traced again, quietly, at two other sizes of the
probed dims and once more at the first sizes (a first trace can make constants differently); when the programs differ
only in integer or float literals, or elements of small integer constants (`tf.shape`), that each follow one form
`k * prod(dims) + e` or `k / prod(dims)` of those dims, the concrete function keeps a template (`cf._template`): the
first program, the forms and the dims they vary. A dim the body needed at one size (a candidate size) varies too when
the body also traces with that size moved to a varied dim (`reshape(x, [-1, 784])` of a `[None] * 4` input). A
function with `None` dims traced only on real calls gets its template from its first program's sizes.
`instantiate` gives the program's steps for other sizes (a loaded SavedModel has no Python body to trace again);
programs that differ otherwise (ops, other constants, host callbacks) keep no template.
"""
import contextlib
import copy
import itertools

import numpy as np
import torch

from tfcompat.eager.function._host import quiet
from tfcompat.eager.function._signatures import exact_key, is_spec
from tfcompat.eager.function._state import live_vars
from tfcompat.framework import errors
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.util import nest

# probe sizes per unknown dimension (in order of the flat signature's unknown dims): three distinct sets
_PROBES = ((5, 7, 11, 13, 17, 19, 23, 29), (3, 11, 7, 19, 13, 29, 17, 31), (4, 6, 9, 10, 14, 15, 21, 22))
_MAX_TRIALS = 24                # traces tried with candidate sizes before size 1
_MAX_ELEMENTS = 1 << 24         # a placeholder larger than this is not tried
_SHAPE_ERRORS = (errors.InvalidArgumentError, ValueError, RuntimeError, IndexError)


class _NotGeneral(Exception):
    pass


def unknown_dims(flat):
    """[(flat position, axis)] of the `None` dims of the TensorSpecs in `flat` (None when a rank is unknown)."""
    out = []
    for i, x in enumerate(flat):
        if is_spec(x):
            if x.shape.rank is None:
                return None
            out += [(i, a) for a, d in enumerate(x.shape.as_list()) if d is None]
    return out


def placeholders(flat, sizes):
    """`flat` with each TensorSpec replaced by a zero tensor, its unknown dims given by `sizes` {(position, axis): n}."""
    out = []
    for i, x in enumerate(flat):
        if not is_spec(x):
            out.append(x)
            continue
        dims = x.shape.as_list() if x.shape.rank is not None else []
        shape = [sizes.get((i, a), 1) if d is None else d for a, d in enumerate(dims)]
        out.append(_wrap(torch.zeros(shape, dtype=x.dtype._torch)))
    return out


def _too_big(flat, sizes):
    for i, x in enumerate(flat):
        if is_spec(x) and x.shape.rank is not None:
            n = 1
            for a, d in enumerate(x.shape.as_list()):
                n *= sizes.get((i, a), 1) if d is None else d
            if n > _MAX_ELEMENTS:
                return True
    return False


def _candidate_sizes(function):
    """Sizes above 1 of the variables alive and of the tensors in the body's globals and closure, most recent first."""
    seen = []

    def add(shape):
        for d in shape:
            if isinstance(d, int) and d > 1 and d not in seen:
                seen.append(d)
    for v in reversed(list(live_vars.values())):
        t = storage(v)
        if isinstance(t, torch.Tensor):
            add(list(t.shape))
    fn = getattr(function._python_function, "__func__", function._python_function)
    scopes = [getattr(fn, "__globals__", {})]
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            scopes.append({"": cell.cell_contents})
        except ValueError:
            pass
    for scope in scopes:
        for value in list(scope.values()):
            if isinstance(value, Tensor) and isinstance(storage(value), torch.Tensor):
                add(list(storage(value).shape))
            elif isinstance(value, np.ndarray) and value.dtype != object:
                add(list(value.shape))
    return seen


def _assignments(function, dims):
    """Size assignments {(position, axis): n} to try: the probe sizes, then one dim at a time (last first) set to a
    candidate size. Yields (sizes, the dims kept at the probe sizes)."""
    yield {d: _PROBES[0][k % 8] for k, d in enumerate(dims)}, list(dims)
    candidates = _candidate_sizes(function)
    n = 0
    for j in range(len(dims) - 1, -1, -1):
        for c in candidates:
            n += 1
            if n > _MAX_TRIALS:
                return
            sizes = {d: _PROBES[0][k % 8] for k, d in enumerate(dims)}
            sizes[dims[j]] = c
            yield sizes, [d for d in dims if d != dims[j]]


def trace(function, cf, args, kwargs, flat, record):
    """Records `cf` (its specs in `flat`) on placeholder values; returns the flat placeholder values traced. `record` is
    `_trace.record`. Raises what the size-1 trace raises when no assignment traces."""
    dims = unknown_dims(flat)
    if dims:
        first = True
        for sizes, probed in _assignments(function, dims):
            if _too_big(flat, sizes):
                continue
            values = placeholders(flat, sizes)
            a, k = nest.pack_sequence_as((args, kwargs), values)
            try:
                if first:
                    record(function, cf, a, k, values)
                else:
                    with quiet():
                        record(function, cf, a, k, values)
            except Exception as e:  # noqa: BLE001 - another size is tried; the size-1 trace raises the error
                first = False
                if isinstance(e, _SHAPE_ERRORS) and not isinstance(e, NotImplementedError):
                    continue
                break
            # the template's traces run when a SavedModel needs it (`ensure_template`): TF traces once
            cf._template_pending = (function, args, kwargs, flat, sizes, probed, values, record)
            return values
    values = placeholders(flat, {})
    a, k = nest.pack_sequence_as((args, kwargs), values)
    with quiet() if dims else contextlib.nullcontext():
        record(function, cf, a, k, values)
    return values


def trace_strings(function, cf, args, kwargs, flat, record):
    """A signature with string TensorSpecs: the body runs (unrecorded: string tensors are not in programs) on empty
    strings and zeros at two sizes of the unknown dims (the second quietly), only for the output specs; a body that
    fails on such values (a file name read) leaves them unknown until a real call. Variables keep their values."""
    dims = unknown_dims(flat) or []
    before = [(v, storage(v)) for v in list(live_vars.values())]
    try:
        for n, probes in enumerate(_PROBES[:2]):
            sizes = {d: probes[k % 8] for k, d in enumerate(dims)}
            values = [_string_value(x, sizes, i) if is_spec(x) and x.dtype._torch is None else v
                      for i, (x, v) in enumerate(zip(flat, placeholders(
                          [x if not (is_spec(x) and x.dtype._torch is None) else None for x in flat], sizes)))]
            a, k = nest.pack_sequence_as((args, kwargs), values)
            with quiet() if n else contextlib.nullcontext():
                record(function, cf, a, k, values)
            if not dims:
                break
    except Exception:  # noqa: BLE001 - the output specs stay unknown until a real call
        cf.structured_outputs = None
    finally:
        for v, t in before:
            if storage(v) is not t:
                v._set_storage(t)


def _string_value(spec, sizes, i):
    from tfcompat.framework.convert import convert_to_tensor
    shape = [sizes.get((i, a), 1) if d is None else d for a, d in enumerate(spec.shape.as_list())] \
        if spec.shape.rank is not None else []
    return convert_to_tensor(np.full(shape, b"", dtype=object), spec.dtype)


def ensure_template(cf):
    """Makes the template of `cf` (see module doc) if its placeholder trace left one to make: the body is traced again
    (quietly) at other sizes; variables keep their values."""
    pending = getattr(cf, "_template_pending", None)
    if pending is None and cf._template is None and not cf._eager and cf._programs:
        pending = _from_calls(cf)
    if pending is None:
        return
    cf._template_pending = None
    before = [(v, storage(v)) for v in list(live_vars.values())]
    programs = dict(cf._programs)
    try:
        _fit(pending[0], cf, *pending[1:])
    finally:
        for v, t in before:         # TF traces without running: the placeholder inputs change no variable
            if storage(v) is not t:
                v._set_storage(t)
        if cf._template is None:
            cf._programs = programs


def _from_calls(cf):
    """What `_fit` needs for a concrete function with `None` dims traced on real calls only (called before it is
    saved): its first program's sizes, zero values of them, every unknown dim probed (None: nothing to fit, or a
    program that reads traced values)."""
    from tfcompat.eager.function._trace import record
    args, kwargs = cf.structured_input_signature
    args = tuple(args)
    flat = nest.flatten((args, kwargs))
    dims = unknown_dims(flat)
    if not dims:
        return None
    key, prog = next(iter(cf._programs.items()))
    if any(s["op"] in ("guard", "guard_array", "custom") or s.get("host") for s in prog.steps):
        return None
    shapes = {i: key[j][1] for j, i in enumerate(prog.tensor_pos)}
    if any(i not in shapes or len(shapes[i]) != flat[i].shape.rank for i, _ in dims):
        return None
    sizes = {(i, a): shapes[i][a] for i, a in dims}
    values = placeholders(flat, sizes)
    if exact_key(values) != key:
        return None
    return (cf._function, args, kwargs, flat, sizes, list(dims), values, record)


def _fit(function, cf, args, kwargs, flat, sizes, probed, values, record):
    """Records `cf` again at other sizes and keeps the template when the programs agree (see module doc): every probed
    dim varied first, then all but one (a dim that must keep its size: the body fails at other sizes). A dim kept at
    its size (a candidate size) then varies too when the body also traces with that size moved to a varied dim (a
    reshape to `[-1, 784]` of a `[None, None, None, None]` input accepts 784 in any of them)."""
    key = exact_key(values)
    prog = cf._programs.get(key)
    if prog is None or not probed or cf._eager or any(s.get("host") for s in prog.steps):
        return
    pos = {i: j for j, i in enumerate(prog.tensor_pos)}
    if any(d[0] not in pos for d in sizes):
        return
    tries = [list(probed)] + ([[d for d in probed if d != fixed] for fixed in reversed(probed)]
                              if len(probed) > 1 else [])
    for varied in tries:
        traces = []
        for n in range(2):
            other = dict(sizes)
            for k, d in enumerate(varied):      # two sizes per dim, other than the first trace's
                other[d] = [v for v in (_PROBES[1][k % 8], _PROBES[2][k % 8], 8) if v != sizes[d]][n]
            traces.append(_record_at(function, cf, args, kwargs, flat, other, key, record))
        if None in traces:
            continue
        # the first trace can differ from later ones in how it makes constants (caches filled): recorded again
        before = cf._programs.get(key)
        try:
            with quiet():
                record(function, cf, *nest.pack_sequence_as((args, kwargs), values), values)
        except Exception:  # noqa: BLE001 - no template
            return
        if cf._programs.get(key) is None or cf._programs.get(key) is before:
            return
        traces.insert(0, (cf._programs[key], sizes))
        try:
            forms = _forms(traces, varied)
        except _NotGeneral:
            continue
        for f in [d for d in sizes if d not in varied]:
            for g in reversed(varied):
                extra = []
                for _, s in traces:
                    if s[f] == s[g]:
                        break
                    swapped = dict(s)
                    swapped[f], swapped[g] = s[g], s[f]
                    extra.append(_record_at(function, cf, args, kwargs, flat, swapped, key, record))
                    if extra[-1] is None:
                        break
                if len(extra) != len(traces) or None in extra:
                    continue
                try:
                    forms = _forms(traces + extra, varied + [f])
                except _NotGeneral:
                    continue
                traces, varied = traces + extra, varied + [f]
                break
        cf._template = {"key": key, "forms": forms, "dims": [[pos[i], a] for i, a in varied]}
        return


def _record_at(function, cf, args, kwargs, flat, sizes, key, record):
    """(program, sizes) of a quiet trace of `cf` at `sizes` (its program is not kept), or None when the body fails."""
    if _too_big(flat, sizes):
        return None
    vals = placeholders(flat, sizes)
    if exact_key(vals) == key:
        return None
    a, kw = nest.pack_sequence_as((args, kwargs), vals)
    try:
        with quiet():
            record(function, cf, a, kw, vals)
    except Exception:  # noqa: BLE001 - a body that fails at these sizes
        return None
    prog = cf._programs.pop(exact_key(vals), None)
    return None if prog is None else (prog, sizes)


def _forms(traces, probed):
    """The literal forms of the programs of `traces` [(Program, sizes)]: [[path, kind, k, e, dims]] (see `_fit_one`)."""
    progs = [p for p, _ in traces]
    base = progs[0]
    for p in progs[1:]:
        if p.funcs != base.funcs or p.tensor_pos != base.tensor_pos or p.argvars != base.argvars or \
                len(p.vars) != len(base.vars) or any(a is not b for a, b in zip(p.vars, base.vars)) or \
                len(p.writes) != len(base.writes) or any(a is not b for a, b in zip(p.writes, base.writes)) or \
                p.is_tensor != base.is_tensor or len(p.consts) != len(base.consts):
            raise _NotGeneral
    found = []
    for i, a in enumerate(base.consts):
        others = [p.consts[i] for p in progs[1:]]
        if not isinstance(a, torch.Tensor):
            if any(isinstance(b, torch.Tensor) or type(b) is not type(a) or b != a for b in others):
                raise _NotGeneral
            continue
        if any(not isinstance(b, torch.Tensor) or b.dtype != a.dtype or b.shape != a.shape for b in others):
            raise _NotGeneral
        if all(torch.equal(a, b) for b in others):
            continue
        # a small integer constant made from the sizes (`tf.shape(x)`): its elements follow forms too
        if a.dtype not in (torch.int32, torch.int64) or a.numel() > 64:
            raise _NotGeneral
        values = [t.reshape(-1).tolist() for t in [a] + others]
        for e in range(a.numel()):
            if any(v[e] != values[0][e] for v in values[1:]):
                found.append((["C", i, e], [v[e] for v in values]))
    _diff([[p.steps, p.out_terms, p.write_terms] for p in progs], [], found)
    forms = []
    for path, literals in found:
        forms.append([path] + _fit_one(literals, [[s[d] for d in probed] for _, s in traces]))
    return forms


def _diff(items, path, found):
    """Appends (path, [literal per trace]) for each int or float that differs among the structures `items`."""
    a = items[0]
    if any(type(b) is not type(a) for b in items[1:]):
        raise _NotGeneral
    if isinstance(a, dict):
        if any(b.keys() != a.keys() for b in items[1:]):
            raise _NotGeneral
        for k in a:
            _diff([b[k] for b in items], path + [k], found)
    elif isinstance(a, (list, tuple)):
        if any(len(b) != len(a) for b in items[1:]):
            raise _NotGeneral
        for k in range(len(a)):
            _diff([b[k] for b in items], path + [k], found)
    elif all(b == a for b in items[1:]) if not isinstance(a, (np.ndarray, torch.Tensor)) else \
            all(np.array_equal(np.asarray(b), np.asarray(a)) for b in items[1:]):
        return
    elif type(a) in (int, float):
        found.append((path, list(items)))
    else:
        raise _NotGeneral


def _fit_one(literals, dim_values):
    """[kind, k, e, dims] with literal == k * prod(dims) + e ("mul") or k / prod(dims) ("div") at every trace (dims
    are indices into the probed dims), trying the fewest dims first."""
    n = len(dim_values[0])
    is_int = type(literals[0]) is int
    for r in range(1, n + 1):
        for subset in itertools.combinations(range(n), r):
            m = [int(np.prod([v[j] for j in subset])) for v in dim_values]
            if is_int:
                i = next((i for i in range(1, len(m)) if m[i] != m[0]), None)
                if i is None:
                    continue
                k, rest = divmod(literals[0] - literals[i], m[0] - m[i])     # an integer slope, or none
                e = literals[0] - k * m[0]
                if rest == 0 and all(k * mi + e == lit for mi, lit in zip(m, literals)):
                    return ["mul", k, e, list(subset)]
            else:
                for kind, k in (("mul", literals[0] / m[0]), ("div", literals[0] * m[0])):
                    vals = [k * mi if kind == "mul" else k / mi for mi in m]
                    if all(abs(v - lit) <= 1e-12 * max(1.0, abs(lit)) for v, lit in zip(vals, literals)):
                        return [kind, k, 0, list(subset)]
    raise _NotGeneral


def literal(form, sizes):
    """The literal of `form` [path, kind, k, e, dims] for the probed dims' sizes `sizes`."""
    _, kind, k, e, dims = form
    m = 1
    for j in dims:
        m *= sizes[j]
    if kind == "mul":
        return k * m + e
    return k / m if m else float("inf")


def instantiate(structure, forms, sizes):
    """A deep copy of `structure` ([steps, outputs, write terms]) with each form's literal set for `sizes`."""
    out = copy.deepcopy(structure)
    for form in forms:
        path = form[0]
        if path[0] == "C":          # a constant's element (see `constant_forms`)
            continue
        node = out
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = literal(form, sizes)
    return out


def constant_forms(forms):
    """{constant index: [(flat element index, form)]} of the forms that set elements of constants."""
    out = {}
    for form in forms:
        if form[0][0] == "C":
            out.setdefault(form[0][1], []).append((form[0][2], form))
    return out
