"""Checks a tfcompat SavedModel's recorded programs before anything in them runs (the loader's only gate).

Every step must call an op of the fixed table (`_op_table`), by its index into the program's op names; each argument
is bound to the op's schema and must be of the kind the schema declares (tensors referenced by index, ints, floats,
bools, int lists, dtypes, the strided layout, memory formats, cpu/cuda/mps devices, `None` generators; strings only
where the table lists the fixed values an argument may take); only the program's own intermediate values and its
variables' reads may be written in place; every reference points at an input, variable, constant or earlier output
that exists. A shape-only run on the meta device then bounds what each step allocates. A failure raises
`DataLossError` (malformed content) or `InvalidArgumentError` (content outside what tfcompat replays), naming the file
and the entry.
"""
import math
import re

import torch

from tfcompat.framework import errors
from tfcompat.saved_model import _op_table

TORCH_DTYPES = {
    "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
    "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64, "uint8": torch.uint8,
    "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64, "bool": torch.bool,
    "complex64": torch.complex64, "complex128": torch.complex128}
_LAYOUTS = {"strided": torch.strided}
_MEMORY_FORMATS = {"contiguous_format": torch.contiguous_format, "channels_last": torch.channels_last,
                   "channels_last_3d": torch.channels_last_3d, "preserve_format": torch.preserve_format}
_DEVICE = re.compile(r"^(cpu|cuda|mps)(:\d{1,3})?$")
_REF = re.compile(r"^(?:I\[(\d{1,9})\]|r(\d{1,9})|(o\d{1,9})(?:\[(\d{1,9})\])?|C\[(\d{1,9})\]|D\[(\d{1,9})\])$")
_OUT = re.compile(r"^o\d{1,9}$")
_FLOAT = re.compile(r"^-?(?:nan|inf|\d{1,20}(?:\.\d{1,20})?(?:e[-+]?\d{1,3})?)$")
MAX_DIM = 1 << 40
MIN_STEP_BYTES = 1 << 30        # a step may always allocate this much; more only in proportion to the data given
STEP_FACTOR = 64                # ... up to this many times the largest input, variable or constant


class Invalid(Exception):
    """A check failed: `(error class, entry, message)`; the loader adds the file name."""

    def __init__(self, cls, where, message):
        message = message if len(message) <= 600 else message[:600] + "..."
        super().__init__(message)
        self.cls, self.where, self.message = cls, where, message


def bad(where, message):
    """Malformed content (DataLossError)."""
    return Invalid(errors.DataLossError, where, message)


def refused(where, message):
    """Content tfcompat does not replay (InvalidArgumentError)."""
    return Invalid(errors.InvalidArgumentError, where, message)


def expect(value, kind, where, what):
    """`value` if it is an instance of `kind` (bools are not ints here), else a DataLossError."""
    if isinstance(value, kind) and not (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple)
                                                                                   else (kind,))):
        return value
    raise bad(where, f"{what} must be {getattr(kind, '__name__', kind)}, got {type(value).__name__}")


def shape(value, where, allow_none=False):
    """A list of non-negative dims (each < 2**40; `None` allowed with `allow_none`)."""
    expect(value, list, where, "shape")
    for d in value:
        if d is None and allow_none:
            continue
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < MAX_DIM:
            raise bad(where, f"bad dimension {d!r} in shape")
    return value


def constant(c, arrays, where):
    """The value of a recorded constant entry: a tensor from constants.npz, a dtype, layout, memory format, device,
    int, bool or float."""
    expect(c, dict, where, "constant")
    if len(c) == 2 and "tensor" in c:
        key, dtype = c["tensor"], TORCH_DTYPES.get(c.get("dtype"))
        if not isinstance(key, str) or key not in arrays or dtype is None:
            raise bad(where, f"bad tensor constant {c!r}")
        t = torch.from_numpy(arrays[key])
        if t.dtype != dtype:
            if not (dtype == torch.bfloat16 and t.dtype == torch.float32):
                raise bad(where, f"tensor constant {key} is {t.dtype}, declared {dtype}")
            t = t.to(dtype)
        return t
    if len(c) != 1:
        raise bad(where, f"bad constant {c!r}")
    (kind, v), = c.items()
    if kind == "torch_dtype" and v in TORCH_DTYPES:
        return TORCH_DTYPES[v]
    if kind == "torch" and isinstance(v, str) and (v in _LAYOUTS or v in _MEMORY_FORMATS):
        return _LAYOUTS.get(v, _MEMORY_FORMATS.get(v))
    if kind == "device" and isinstance(v, str) and _DEVICE.match(v):
        return torch.device(v)
    if kind == "value" and isinstance(v, int):
        return v
    if kind == "float" and isinstance(v, str) and _FLOAT.match(v):
        return float(v)
    raise refused(where, f"constant {c!r} is not one tfcompat replays")


def _const_kind(c):
    if isinstance(c, torch.Tensor):
        return "T"
    if isinstance(c, torch.dtype):
        return "dtype"
    if isinstance(c, torch.layout):
        return "layout"
    if isinstance(c, torch.memory_format):
        return "memfmt"
    if isinstance(c, torch.device):
        return "device"
    return type(c).__name__         # bool, int, float


class ProgramChecker:
    """Checks one recorded program (see module doc); `step()` gives each step's canonical form for `program_source`.

    Values that are inputs or constants, or views of them (an op whose schema says its result aliases an argument),
    may not be written in place: a program changes only its own values and its variables."""

    def __init__(self, where, n_inputs, n_vars, consts):
        self.where = where
        self.n_inputs, self.n_vars, self.consts = n_inputs, n_vars, consts
        self.const_kinds = [_const_kind(c) for c in consts]
        self.defined = {}               # "o<n>" -> "T" | ("list", count or None) | None (no tensor result)
        self.origins = {}               # "o<n>" -> the inputs ("I") and constants ("C") it is a view of
        self._aliased = set()
        self.n_dys = 0                  # inside a custom step's gradient program: its upstream gradients D[i]

    # -- terms ------------------------------------------------------------------------------------------------------
    def term(self, t, where, depth=0):
        """(canonical term, kind): kinds are "T", "None", "bool", "int", "float", "str", a constant kind, or
        ("list", [kinds])."""
        if isinstance(t, int) and not isinstance(t, bool) and not -(1 << 63) <= t < (1 << 63):
            raise bad(where, "integer literal out of the int64 range")
        if t is None or isinstance(t, (bool, int, str)):
            return t, type(t).__name__ if t is not None else "None"
        if isinstance(t, float):
            if not math.isfinite(t):
                raise bad(where, "non-finite float literal")
            return t, "float"
        if not isinstance(t, dict) or len(t) != 1 or depth > 8:
            raise bad(where, f"bad term {str(t)[:100]}")
        (k, v), = t.items()
        if k in ("list", "tuple"):
            items = [self.term(x, where, depth + 1) for x in expect(v, list, where, k)]
            return {k: [x for x, _ in items]}, ("list", [kind for _, kind in items])
        if k != "ref" or not isinstance(v, str):
            raise bad(where, f"bad term {t!r}")
        return t, self.ref_kind(v, where)

    def ref_kind(self, ref, where):
        m = _REF.match(ref)
        if m is None:
            raise bad(where, f"bad reference {ref!r}")
        i, r, o, k, c, d = m.groups()
        if i is not None and int(i) < self.n_inputs or r is not None and int(r) < self.n_vars or \
                d is not None and int(d) < self.n_dys:
            return "T"
        if c is not None and int(c) < len(self.consts):
            return self.const_kinds[int(c)]
        if o is not None and o in self.defined:
            out = self.defined[o]
            if k is None and out == "T":
                return "T"
            if k is not None and isinstance(out, tuple) and (out[1] is None or int(k) < out[1]):
                return "T"
        raise bad(where, f"reference {ref!r} points at nothing")

    # -- steps ------------------------------------------------------------------------------------------------------
    def step(self, s, op_names, funcs, where):
        """The canonical form of recorded step `s`."""
        expect(s, dict, where, "step")
        kind = s.get("op")
        if kind == "guard_array":
            if set(s) != {"op", "x", "value"}:
                raise bad(where, "bad guard_array step")
            x, k = self.term(s["x"], where)
            if k != "T" or self._const_ref(s["value"], where) != "T":
                raise bad(where, "guard_array compares tensors")
            return {"op": kind, "x": x, "value": s["value"]}
        if kind == "custom":
            return self._custom(s, op_names, funcs, where)
        if kind not in ("call", "guard") or set(s) != ({"op", "f", "args", "kwargs"} | {"out" if kind == "call"
                                                                                          else "value"}):
            raise refused(where, f"step kind {kind!r} with keys {sorted(s)} is not one tfcompat replays")
        f = s["f"]
        if not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < len(funcs):
            raise bad(where, f"op index {f!r} out of range")
        name, op = op_names[f], funcs[f]
        if name == _op_table.CUSTOM_GRADIENT:
            raise refused(where, f"{name} is only the op of a custom step")
        self._aliased = set()
        args, kwargs = self.bind(name, op, expect(s["args"], list, where, "args"),
                                 expect(s["kwargs"], dict, where, "kwargs"), where)
        returns = [str(r.real_type) for r in op._schema.returns]
        if kind == "guard":
            if any("Tensor" in r for r in returns) or self._const_ref(s["value"], where) == "T":
                raise bad(where, f"guard on {name}, which returns tensors")
            return {"op": kind, "f": f, "args": args, "kwargs": kwargs, "value": s["value"]}
        out = s["out"]
        if not isinstance(out, str) or not _OUT.match(out) or out in self.defined:
            raise bad(where, f"bad or repeated output name {out!r}")
        self.origins[out] = frozenset(self._aliased) if any(r.alias_info is not None for r in op._schema.returns) \
            else frozenset()
        if returns == ["Tensor"]:
            self.defined[out] = "T"
        elif returns == ["List[Tensor]"]:
            self.defined[out] = ("list", None)
        elif returns and all(r == "Tensor" for r in returns):
            self.defined[out] = ("list", len(returns))
        else:
            self.defined[out] = None
        return {"op": kind, "f": f, "args": args, "kwargs": kwargs, "out": out}

    def _custom(self, s, op_names, funcs, where):
        """A custom-gradient step: `F[f](g<n>, [inputs], [outputs])` with `g<n>` its gradient program (plain calls over
        the upstream gradients `D[i]` and the program's values, in a scope of its own) returning one gradient term
        (or None) per input."""
        if set(s) != {"op", "f", "grad", "grad_out", "out", "args", "kwargs"} or self.n_dys:
            raise bad(where, "bad custom step (or one inside a gradient program)")
        f, out, args = s["f"], s["out"], expect(s["args"], list, where, "args")
        if not isinstance(f, int) or isinstance(f, bool) or not 0 <= f < len(funcs) or \
                op_names[f] != _op_table.CUSTOM_GRADIENT:
            raise refused(where, "a custom step calls tfcompat::custom_gradient")
        if not isinstance(out, str) or not _OUT.match(out) or out in self.defined:
            raise bad(where, f"bad or repeated output name {out!r}")
        if len(args) != 3 or args[0] != {"ref": "g" + out[1:]} or s["kwargs"] != {}:
            raise bad(where, "bad custom step arguments")
        (inputs, in_kind), (outputs, out_kind) = self.term(args[1], where), self.term(args[2], where)
        if not (isinstance(in_kind, tuple) and isinstance(out_kind, tuple) and "list" in inputs and "list" in outputs
                and outputs["list"] and all(k == "T" for k in in_kind[1] + out_kind[1])):
            raise bad(where, "a custom step's inputs and outputs are lists of tensors")
        saved = dict(self.defined), dict(self.origins)
        self.n_dys = len(outputs["list"])
        try:
            grad = [self.step(g, op_names, funcs, f"{where}.grad[{i}]")
                    for i, g in enumerate(expect(s["grad"], list, where, "grad"))]
            if any(g["op"] != "call" for g in grad):
                raise refused(where, "a gradient program holds only op calls")
            grad_out = [None if t is None else self.term(t, f"{where}.grad_out") for t in
                        expect(s["grad_out"], list, where, "grad_out")]
        finally:
            self.n_dys = 0
            self.defined, self.origins = saved
        if len(grad_out) != len(inputs["list"]) or any(g is not None and g[1] != "T" for g in grad_out):
            raise bad(where, "a gradient program returns a tensor or None per input")
        self.defined[out] = ("list", len(outputs["list"]))
        self.origins[out] = frozenset(o for ref in _refs(outputs) for o in self._origin(ref))
        return {"op": "custom", "f": f, "grad": grad, "grad_out": [g and g[0] for g in grad_out], "out": out,
                "args": [args[0], inputs, outputs], "kwargs": {}}

    def _origin(self, ref):
        m = _REF.match(ref)
        return {"I"} if m.group(1) else {"C"} if m.group(5) else self.origins.get(m.group(3), set())

    def _const_ref(self, ref, where):
        m = _REF.match(ref) if isinstance(ref, str) else None
        if m is None or m.group(5) is None or int(m.group(5)) >= len(self.consts):
            raise bad(where, f"guard value {ref!r} must reference a constant")
        return self.const_kinds[int(m.group(5))]

    def bind(self, name, op, args, kwargs, where):
        """Checks positional and keyword arguments against the op's schema; returns their canonical terms."""
        params = op._schema.arguments
        positional = [p for p in params if not p.kwarg_only]
        if len(args) > len(positional):
            raise bad(where, f"{name} takes {len(positional)} positional arguments, got {len(args)}")
        by_name = {p.name: p for p in params}
        bound = {}
        out_args = []
        for p, a in zip(positional, args):
            out_args.append(self.argument(name, p, a, where))
            bound[p.name] = True
        out_kwargs = {}
        for k, a in kwargs.items():
            p = by_name.get(k)
            if p is None or k in bound:
                raise bad(where, f"{name} has no argument {k!r} (or it is given twice)")
            out_kwargs[k] = self.argument(name, p, a, where)
            bound[k] = True
        missing = [p.name for p in params if p.name not in bound and not p.has_default_value()]
        if missing:
            raise bad(where, f"{name} is missing arguments {missing}")
        return out_args, out_kwargs

    def argument(self, name, p, a, where):
        term, kind = self.term(a, where)
        rtype = str(p.real_type)
        if not _accepts(rtype, kind, name, p.name, term):
            raise refused(where, f"argument {p.name!r} of {name} ({rtype}) cannot be {_describe(term, kind)}")
        if p.alias_info is not None:
            for ref in _refs(term):
                origin = self._origin(ref)
                if origin and p.alias_info.is_write:
                    raise refused(where, f"{name} writes in place to {ref}, an input or constant of the program (or a "
                                         "view of one): only the program's own values and variables may be written")
                self._aliased |= origin
        return term


def _refs(term):
    if isinstance(term, dict):
        if "ref" in term:
            return [term["ref"]]
        return [r for x in next(iter(term.values())) for r in _refs(x)]
    return []


def _describe(term, kind):
    return f"{term!r}" if not isinstance(kind, tuple) else f"a list {term!r}"


_SCALAR_KINDS = {"int": {"int"}, "bool": {"bool"}, "float": {"int", "float", "bool"},
                 "number": {"int", "float", "bool"},
                 "ScalarType": {"dtype"}, "Layout": {"layout"}, "MemoryFormat": {"memfmt"}, "Device": {"device"},
                 "Tensor": {"T", "int", "float", "bool"}, "Generator": set()}   # torch wraps numbers as tensors


def _accepts(rtype, kind, op_name, arg_name, term):
    """Whether a term of `kind` may be passed for a schema argument of real type `rtype`."""
    if rtype.startswith("Optional["):
        return kind == "None" or _accepts(rtype[9:-1], kind, op_name, arg_name, term)
    if rtype.startswith("List["):
        inner = rtype[5:-1]
        if inner == "int" and kind == "int":
            return True             # torch's int[N] arguments take a single int
        return isinstance(kind, tuple) and all(_accepts(inner, k, op_name, arg_name, None) for k in kind[1])
    if isinstance(kind, tuple):
        return False
    if rtype == "str":
        return kind == "str" and term in _op_table.STRINGS.get((op_name, arg_name), ())
    if rtype == "int" and kind == "bool":
        return True
    return kind in _SCALAR_KINDS.get(rtype, ())


# -- shape-only run ---------------------------------------------------------------------------------------------------
def _meta(t):
    return torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta") if isinstance(t, torch.Tensor) else t


def _nbytes(x):
    if isinstance(x, torch.Tensor):
        return x.numel() * x.element_size()
    if isinstance(x, (list, tuple)):
        return max((_nbytes(e) for e in x), default=0)
    return 0


def dry_run(where, steps, op_names, funcs, inputs, var_values, consts):
    """Runs the canonical `steps` on meta tensors (shapes and dtypes only; `inputs` are (dtype, shape) pairs) and
    refuses a step whose result would exceed the allocation bound (see `MIN_STEP_BYTES`)."""
    meta_in = []
    for dtype, dims in inputs:
        meta_in.append(torch.empty(dims, dtype=dtype, device="meta"))
    env_r = [_meta(v) for v in var_values]
    env_c = [torch.device("meta") if isinstance(c, torch.device) else _meta(c) for c in consts]
    known = {}                  # "o<n>" -> real value, for copies and views of constants
    limit = max(MIN_STEP_BYTES, STEP_FACTOR * max(map(_nbytes, meta_in + env_r + env_c), default=0))
    env = {}
    dys = []                    # a gradient program's upstream gradients (shaped as the custom step's outputs)

    def value(t):
        if isinstance(t, dict):
            if "ref" not in t:
                return [value(x) for x in next(iter(t.values()))]
            m = _REF.match(t["ref"])
            i, r, o, k, c, d = m.groups()
            if i is not None:
                return meta_in[int(i)]
            if r is not None:
                return env_r[int(r)]
            if c is not None:
                return env_c[int(c)]
            if d is not None:
                return dys[int(d)]
            return env[o] if k is None else env[o][int(k)]
        return t

    _run_steps(where, steps, op_names, funcs, consts, known, limit, env, value, dys)


def _run_steps(where, steps, op_names, funcs, consts, known, limit, env, value, dys):
    """`dry_run`'s loop over `steps` (a custom step's gradient program runs too, on its outputs' shapes)."""
    for n, s in enumerate(steps):
        if s["op"] == "custom":
            outs = value(s["args"][2])
            env[s["out"]] = outs
            dys[:] = outs
            _run_steps(f"{where}.steps[{n}].grad", s["grad"], op_names, funcs, consts, known, limit, env, value, dys)
            dys[:] = []
            continue
        if s["op"] != "call":
            continue                # guards read values, which a shape-only run does not have
        name, op = op_names[s["f"]], funcs[s["f"]]
        if not any("Tensor" in str(r.real_type) for r in op._schema.returns):
            env[s["out"]] = None
            continue
        args = [value(a) for a in s["args"]]
        kwargs = {k: value(v) for k, v in s["kwargs"].items()}
        if any(p.name == "device" for p in op._schema.arguments):
            kwargs["device"] = torch.device("meta")
        if name == "aten::repeat_interleave.Tensor" and kwargs.get("output_size") is None:
            repeats = _known(s["args"][0], consts, known)
            size = None if repeats is None else int(repeats.sum())
            if size is None:
                raise refused(f"{where}.steps[{n}]", "repeat_interleave with repeats computed when run (its size "
                                                     "cannot be bounded at load)")
            kwargs["output_size"] = size
        try:
            out = _op_table.DATA_DEPENDENT.get(name, _SHAPE_ONLY.get(name, op))(*args, **kwargs)
        except Exception as e:      # noqa: BLE001 - any failure of a checked step is the file's fault
            raise bad(f"{where}.steps[{n}]", f"{name} fails on the recorded shapes: "
                                            f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from None
        if _nbytes(out) > limit:
            raise refused(f"{where}.steps[{n}]", f"{name} would allocate {_nbytes(out)} bytes (more than {limit}, "
                                                 "the bound for this program's inputs, variables and constants)")
        env[s["out"]] = out
        if name in _VALUE_OPS:
            x = _known(s["args"][0], consts, known)
            if x is not None:           # a constant passed on unchanged: its values stay known
                if "device" in kwargs:
                    kwargs["device"] = torch.device("cpu")
                known[s["out"]] = op(x, *args[1:], **kwargs)


# ops whose shape-only run ignores strides: meta kernels do not always give the strides the CPU kernels give (a
# channels_last convolution), and only the shapes matter here (the real run still checks the view)
_SHAPE_ONLY = {"aten::view": torch.ops.aten.reshape.default, "aten::_unsafe_view": torch.ops.aten.reshape.default}
_VALUE_OPS = frozenset(("aten::lift_fresh", "aten::_to_copy", "aten::detach", "aten::alias", "aten::clone",
                        "aten::view", "aten::_unsafe_view"))


def _known(term, consts, known):
    """The real value of a term that is a constant tensor, or a copy or view of one (see `dry_run`), else None."""
    m = _REF.match(term["ref"]) if isinstance(term, dict) and "ref" in term else None
    if m is None:
        return None
    if m.group(5) is not None:
        c = consts[int(m.group(5))]
        return c if isinstance(c, torch.Tensor) else None
    return known.get(m.group(3)) if m.group(4) is None else None
