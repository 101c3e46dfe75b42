"""Reading tfcompat SavedModels (the format is described in `tfcompat.saved_model`).

Nothing read from the directory runs before all of it is checked: JSON types, names, shapes and dtypes here, the
recorded programs by `_validate` (ops from the fixed table only, arguments against each op's schema, references,
a shape-only run bounding allocations), `constants.npz` members against their declared sizes. A failure is a
`DataLossError` or `InvalidArgumentError` naming the file and the entry.
"""
import json
import os
import re
import zipfile

import numpy as np
import torch

from tfcompat.eager import function as fn_mod
from tfcompat.eager.custom_gradient import _replay_custom
from tfcompat.eager.function import _placeholders
from tfcompat.eager.function._signatures import bind_signature
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.saved_model import FORMAT, MARKER, _keras_rebuild, _op_table, _signature
from tfcompat.saved_model._signature import Signature
from tfcompat.saved_model._signature_map import _SignatureMap
from tfcompat.saved_model._validate import (TORCH_DTYPES, Invalid, ProgramChecker, bad, constant, dry_run, expect,
                                            refused, shape)
from tfcompat.train.checkpoint import is_trackable
from tfcompat.train.data_structures import ListWrapper, _DictWrapper
from tfcompat.util import nest

_ARRAY_NAME = re.compile(r"^(c|var)\d{1,9}$")
_TF_DTYPES = frozenset(("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                        "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string"))
_MAX_DEPTH = 64
_NUMPY_DTYPES = frozenset(("<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "|b1", "<c8",
                           "<c16"))


def _reject_constant(name):
    raise ValueError(f"non-finite number {name} in JSON")


def _read_json(path):
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read().decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise bad("JSON", f"{type(e).__name__}: {str(e)[:200]}") from None


def _read_arrays(path):
    """The arrays of constants.npz: stored (uncompressed) .npy members whose headers match their sizes, so that
    nothing is allocated beyond the bytes the file holds."""
    arrays = {}
    try:
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                name = info.filename[:-4] if info.filename.endswith(".npy") else None
                where = f"constants.npz[{info.filename!r}]"
                if name is None or not _ARRAY_NAME.match(name) or name in arrays:
                    raise bad(where, "unexpected member")
                if info.compress_type != zipfile.ZIP_STORED or info.compress_size != info.file_size:
                    raise bad(where, "compressed member (tfcompat stores constants uncompressed)")
                with z.open(info) as fh:
                    version = np.lib.format.read_magic(fh)
                    if version == (1, 0):
                        dims, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
                    elif version == (2, 0):
                        dims, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
                    else:
                        raise bad(where, f"unsupported .npy version {version}")
                    if dtype.str not in _NUMPY_DTYPES:
                        raise bad(where, f"unsupported dtype {dtype}")
                    count = int(np.prod(dims, dtype=object)) if dims else 1
                    if count * dtype.itemsize != info.file_size - fh.tell():
                        raise bad(where, f"header declares {dims} {dtype} but the member holds "
                                         f"{info.file_size - fh.tell()} bytes")
                    data = fh.read(count * dtype.itemsize)
                arrays[name] = np.frombuffer(data, dtype).reshape(dims, order="F" if fortran else "C").copy()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise bad("constants.npz", f"{type(e).__name__}: {e}") from None
    return arrays



def _name(x, where):
    """An attribute name a restored object may get."""
    if not isinstance(x, str) or not 0 < len(x) <= 256 or (x.startswith("__") and x != "__call__") or \
            (x in _RESERVED and x != "__call__"):
        raise refused(where, f"attribute name {x!r} is not allowed")
    return x


def decode_spec(x, where, depth=0):
    """An input signature nest: TensorSpecs, dicts, tuples, lists and JSON literals."""
    from tfcompat.ops.misc_ops import TensorSpec
    if depth > _MAX_DEPTH or not isinstance(x, dict) or len(x) != 1:
        raise bad(where, f"bad signature entry {str(x)[:80]}")
    (k, v), = x.items()
    if k == "spec":
        if not isinstance(v, list) or len(v) != 3 or v[1] not in _TF_DTYPES or not (v[2] is None or
                                                                                 isinstance(v[2], str)):
            raise bad(where, f"bad TensorSpec {str(v)[:80]}")
        return TensorSpec(None if v[0] is None else shape(v[0], where, allow_none=True), dtypes.as_dtype(v[1]), v[2])
    if k == "dict":
        return {expect(n, str, where, "key"): decode_spec(e, where, depth + 1)
                for n, e in expect(v, dict, where, "dict").items()}
    if k in ("tuple", "list"):
        items = [decode_spec(e, where, depth + 1) for e in expect(v, list, where, k)]
        return tuple(items) if k == "tuple" else items
    if k == "literal" and (v is None or isinstance(v, (bool, int, float, str))):
        return v
    raise bad(where, f"bad signature entry {str(x)[:80]}")


def _check_output(x, n_outputs, where, depth=0):
    """Validates an output structure (see `_decode_output`) against the program's number of outputs."""
    if depth > _MAX_DEPTH or not isinstance(x, dict) or len(x) != 1:
        raise bad(where, f"bad output entry {str(x)[:80]}")
    (k, v), = x.items()
    if k == "output":
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n_outputs:
            raise bad(where, f"output index {v!r} out of range")
    elif k == "dict":
        for e in expect(v, dict, where, "dict").values():
            _check_output(e, n_outputs, where, depth + 1)
    elif k in ("tuple", "list"):
        for e in expect(v, list, where, k):
            _check_output(e, n_outputs, where, depth + 1)
    else:
        decode_spec(x, where, depth)


def _decode_output(x, outs):
    if "output" in x:
        return outs[x["output"]]
    if "dict" in x:
        return {k: _decode_output(v, outs) for k, v in x["dict"].items()}
    if "tuple" in x:
        return tuple(_decode_output(v, outs) for v in x["tuple"])
    if "list" in x:
        return [_decode_output(v, outs) for v in x["list"]]
    return convert_to_tensor(x["literal"]) if "literal" in x and x["literal"] is not None else decode_spec(x, "")


_PROGRAM_KEYS = {"shapes", "dtypes", "steps", "ops", "consts", "vars", "argvars", "tensor_pos", "outputs", "writes",
                 "write_terms", "output_structure"}


class _LoadedProgram:
    """One recorded program, checked (see module doc) and compiled; `n_flat` is the number of call values."""

    def __init__(self, d, variables, arrays, name, n_flat, where):
        if not isinstance(d, dict) or set(d) != _PROGRAM_KEYS:
            raise bad(where, "bad program keys")
        dts = expect(d["dtypes"], list, where, "dtypes")
        shapes = expect(d["shapes"], list, where, "shapes")
        if len(dts) != len(shapes) or any(dt not in TORCH_DTYPES for dt in dts):
            raise bad(where, "bad input dtypes")
        inputs = [(TORCH_DTYPES[dt], tuple(shape(s, where))) for dt, s in zip(dts, shapes)]
        self.key = tuple(inputs)
        pos = expect(d["tensor_pos"], list, where, "tensor_pos")
        if len(pos) != len(inputs) or len(set(pos)) != len(pos) or \
                not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n_flat for i in pos):
            raise bad(where, "bad tensor positions")
        if d["argvars"] != [] or any(not (isinstance(w, list) and len(w) == 2 and w[0] is None) for w in
                                     expect(d["writes"], list, where, "writes")):
            raise refused(where, "functions taking variables as arguments are not saved by tfcompat")
        self.vars = [variables[_index(i, len(variables), where, "variable")] for i in
                     expect(d["vars"], list, where, "vars")]
        self.writes = [variables[_index(i, len(variables), where, "variable")] for _, i in d["writes"]]
        op_names = expect(d["ops"], list, where, "ops")
        funcs = []
        for i, n in enumerate(op_names):
            op = _replay_custom if n == _op_table.CUSTOM_GRADIENT else _op_table.ops().get(n) if isinstance(n, str) \
                else None
            if op is None:
                raise refused(f"{where}.ops[{i}]", f"op {str(n)[:100]!r} is not in tfcompat's SavedModel op table")
            funcs.append(op)
        self.consts = [constant(c, arrays, f"{where}.consts[{i}]")
                       for i, c in enumerate(expect(d["consts"], list, where, "consts"))]
        checker = ProgramChecker(where, len(inputs), len(self.vars), self.consts)
        steps = [checker.step(s, op_names, funcs, f"{where}.steps[{i}]")
                 for i, s in enumerate(expect(d["steps"], list, where, "steps"))]
        outputs = []
        for t in expect(d["outputs"], list, where, "outputs"):
            if t is not None:
                t, kind = checker.term(t, f"{where}.outputs")
                if kind != "T":
                    raise bad(f"{where}.outputs", f"output {t!r} is not a tensor")
            outputs.append(t)
        write_terms = []
        for t in expect(d["write_terms"], list, where, "write_terms"):
            t, kind = checker.term(t, f"{where}.write_terms")
            if kind != "T":
                raise bad(f"{where}.write_terms", f"variable write {t!r} is not a tensor")
            write_terms.append(t)
        if len(write_terms) != len(self.writes):
            raise bad(where, "writes and write_terms differ in length")
        _check_output(d["output_structure"], len(outputs), f"{where}.output_structure")
        dry_run(where, steps, op_names, funcs, inputs, [storage(v) for v in self.vars], self.consts)
        source = fn_mod.program_source(name, len(self.vars), steps, outputs, write_terms)
        self.program = fn_mod.compile_program(source, name)
        self.funcs = [_op_table.RUNTIME.get(n, f) for n, f in zip(op_names, funcs)]
        self.tensor_pos = pos
        self.structure = d["output_structure"]
        self.name = name

    def __call__(self, flat):
        ins = [storage(flat[i]) for i in self.tensor_pos]
        try:
            outs, new = fn_mod._run_program(self.program, self.consts, self.funcs, ins, list(self.vars))
        except fn_mod.GuardFailed:
            raise NotImplementedError(
                f"a tf.function loaded from a tfcompat SavedModel ({self.name}) read a traced value in Python when it "
                "was traced, and that value differs for these inputs: the loaded function has no Python body to run "
                "again") from None
        except (RuntimeError, IndexError) as e:
            raise errors.InvalidArgumentError(None, None, f"{self.name}: {str(e).splitlines()[0] if str(e) else e!r}") \
                from None
        for v, t in zip(self.writes, new):
            v._set_storage(t)
        return _decode_output(self.structure, [_wrap(t) if t is not None else None for t in outs])


def _index(i, n, where, what):
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
        raise bad(where, f"{what} index {i!r} out of range")
    return i


class _LoadedConcrete:
    """One restored concrete function: its signature and its recorded programs by input shapes."""

    def __init__(self, d, variables, arrays, where, fallback=None):
        self.fallback = fallback        # runs the rebuilt Keras model for shapes no program was traced for
        if not isinstance(d, dict) or set(d) - {"input_signature", "general", "unsaved"} != {
                "name", "arg_names", "inputs", "programs"}:
            raise bad(where, "bad concrete function keys")
        # the tf.function's input_signature (version 2), with which a call that does not bind fails as in TF
        self.input_signature = None if d.get("input_signature") is None else \
            decode_spec(d["input_signature"], f"{where}.input_signature")
        if self.input_signature is not None and not (isinstance(self.input_signature, tuple) and all(
                fn_mod._is_spec(s) for s in nest.flatten(self.input_signature))):
            raise bad(f"{where}.input_signature", "an input signature is a tuple of TensorSpecs")
        self.name = expect(d["name"], str, where, "name")
        self.arg_names = [expect(n, str, where, "argument name") for n in expect(d["arg_names"], list, where,
                                                                                  "arg_names")]
        sig = decode_spec(d["inputs"], f"{where}.inputs")
        if not (isinstance(sig, tuple) and len(sig) == 2 and isinstance(sig[0], tuple) and isinstance(sig[1], dict)):
            raise bad(f"{where}.inputs", "the input signature must be (args tuple, kwargs dict)")
        self.structured_input_signature = sig
        n_flat = len(nest.flatten(sig))
        self.programs = {}
        self._order = {id(v): i for i, v in enumerate(variables)}      # the SavedModel's variable order
        raw = expect(d["programs"], list, where, "programs")
        for i, p in enumerate(raw):
            prog = _LoadedProgram(p, variables, arrays, self.name, n_flat, f"{where}.programs[{i}]")
            self.programs[prog.key] = prog
        self.unsaved = None if d.get("unsaved") is None else expect(d["unsaved"], str, where, "unsaved")[:300]
        self._general = None if d.get("general") is None else \
            _General(d["general"], raw, list(self.programs.values()), (variables, arrays, self.name, n_flat),
                     f"{where}.general")

    def bind(self, args, kwargs):
        """The flat call values if (args, kwargs) match this signature, else None."""
        arg_specs, kwarg_specs = self.structured_input_signature
        args = list(args)
        kwargs = dict(kwargs)
        for i in range(len(args), len(arg_specs)):
            name = self.arg_names[i] if i < len(self.arg_names) else None
            if name in kwargs:
                args.append(kwargs.pop(name))
            elif not any(fn_mod._is_spec(s) for s in nest.flatten(arg_specs[i])):
                args.append(arg_specs[i])
            else:
                return None
        for k, s in kwarg_specs.items():
            if k not in kwargs and not any(fn_mod._is_spec(x) for x in nest.flatten(s)):
                kwargs[k] = s
        if len(args) != len(arg_specs) or set(kwargs) != set(kwarg_specs):
            return None
        try:
            nest.assert_same_structure((tuple(arg_specs), kwarg_specs), (tuple(args), kwargs), check_types=False)
        except (TypeError, ValueError):
            return None
        flat = []
        for spec, x in zip(nest.flatten((tuple(arg_specs), kwarg_specs)), nest.flatten((tuple(args), kwargs))):
            if fn_mod._is_spec(spec) and not isinstance(x, (Tensor, Variable)):
                try:
                    x = convert_to_tensor(x, spec.dtype)
                except (TypeError, ValueError):
                    return None
            if not fn_mod._compatible(spec, x):
                return None
            flat.append(x)
        return flat

    @property
    def variables(self):
        """TF's ConcreteFunction.variables: the variables its programs read, in the SavedModel's order."""
        found = {}
        for prog in self.programs.values():
            for v in prog.vars:
                found.setdefault(id(v), v)
        return tuple(sorted(found.values(), key=lambda v: self._order.get(id(v), len(self._order))))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def _replace_variables(self, mapping):
        """Its programs read and write `mapping[id(v)]` instead of each variable `v` it maps (a `TFSMLayer`'s own
        Keras variables). The rebuilt Keras model's fallback, which holds the old ones, is dropped: shapes without a
        program then raise instead of running on stale weights."""
        if not any(id(v) in mapping for prog in self.programs.values() for v in prog.vars):
            return
        for prog in self.programs.values():
            prog.vars = [mapping.get(id(v), v) for v in prog.vars]
            prog.writes = [mapping.get(id(v), v) for v in prog.writes]
        self._order = {(id(mapping[vid]) if vid in mapping else vid): i for vid, i in self._order.items()}
        self.fallback = None
        if self._general is not None:       # programs it makes for new sizes read the same variables
            variables, arrays, name, n_flat = self._general.context
            self._general.context = ([mapping.get(id(v), v) for v in variables], arrays, name, n_flat)

    def pack_outputs(self, flat):
        """`flat` (one value per output) in the structure of this function's outputs; None when it has no program."""
        prog = next(iter(self.programs.values()), None)
        return None if prog is None else _decode_output(prog.structure, flat)

    def run(self, flat):
        """The outputs of the program traced for these shapes (or made for them from the general program), or
        `NO_PROGRAM`."""
        key = fn_mod._exact_key(flat)
        prog = self.programs.get(key)
        if prog is None and self._general is not None:
            prog = self._general.program(key)
            if prog is not None and len(self.programs) < _MAX_PROGRAMS:
                self.programs[key] = prog
        if prog is None:
            return NO_PROGRAM
        return prog(flat)

    def call(self, args, kwargs):
        return RestoredFunction(self.name, [self])(*args, **kwargs)


NO_PROGRAM = object()        # no recorded program for the call's shapes
_MAX_PROGRAMS = 64           # programs made for new shapes are kept up to this many per concrete function


class _General:
    """The program of a concrete function for other sizes of its `None` dims: a saved program whose literals follow
    forms of those sizes (see `eager.function._placeholders`). The program made for a call's sizes is checked as
    every saved program is (`_LoadedProgram`) before it runs."""

    def __init__(self, g, raw, loaded, context, where):
        if not isinstance(g, dict) or set(g) != {"program", "forms", "dims"}:
            raise bad(where, "bad general program keys")
        i = _index(g["program"], len(raw), where, "program")
        self.raw, self.base, self.context = raw[i], loaded[i], context
        ranks = [len(s) for _, s in self.base.key]
        self.dims = []
        for d in expect(g["dims"], list, where, "dims"):
            if not (isinstance(d, list) and len(d) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                for x in d)):
                raise bad(where, f"bad dimension {str(d)[:80]}")
            j = _index(d[0], len(ranks), where, "input")
            self.dims.append((j, _index(d[1], ranks[j], where, "axis")))
        self.forms = []
        for f in expect(g["forms"], list, where, "forms"):
            ok = isinstance(f, list) and len(f) == 5 and isinstance(f[0], list) and 0 < len(f[0]) <= 16 and \
                all(isinstance(p, (str, int)) and not isinstance(p, bool) for p in f[0]) and f[1] in ("mul", "div") \
                and isinstance(f[2], (int, float)) and not isinstance(f[2], bool) and isinstance(f[3], int) and \
                not isinstance(f[3], bool) and isinstance(f[4], list) and \
                all(isinstance(j, int) and not isinstance(j, bool) and 0 <= j < len(self.dims) for j in f[4])
            if not ok:
                raise bad(where, f"bad literal form {str(f)[:80]}")
            self.forms.append(f)
        base_sizes = [self.base.key[j][1][a] for j, a in self.dims]
        self.arrays = context[1]
        try:        # the forms must give the saved program's own literals at its sizes
            same = _placeholders.instantiate(self._structure(), self.forms, base_sizes) == self._structure() and \
                self._arrays(base_sizes) is not None
        except (KeyError, IndexError, TypeError, ValueError):
            same = False
        if not same:
            raise bad(where, "the literal forms do not reproduce the saved program")

    def _arrays(self, sizes, check=True):
        """The constants' arrays with the elements the forms set for `sizes` (None: at the saved sizes, an element
        differs from the saved one)."""
        arrays = self.arrays
        for i, elems in _placeholders.constant_forms(self.forms).items():
            c = self.raw["consts"][i]
            key = c["tensor"] if isinstance(c, dict) and isinstance(c.get("tensor"), str) else None
            if key not in self.arrays or self.arrays[key].dtype.kind != "i":
                raise ValueError("not an integer constant")
            a = self.arrays[key].copy().reshape(-1)
            for e, form in elems:
                value = _placeholders.literal(form, sizes)
                if check and a[e] != value:
                    return None
                a[e] = value
            if arrays is self.arrays:
                arrays = dict(self.arrays)
            arrays[key] = a.reshape(self.arrays[key].shape)
        return arrays

    def _structure(self):
        return [self.raw["steps"], self.raw["outputs"], self.raw["write_terms"]]

    def program(self, key):
        """A `_LoadedProgram` for input shapes `key` ((dtype, shape) per input), or None when they differ from the
        saved program's in dtype, rank or a dimension that is not general."""
        if len(key) != len(self.base.key):
            return None
        varied = set(self.dims)
        for j, ((dt, shape_), (bdt, bshape)) in enumerate(zip(key, self.base.key)):
            if dt != bdt or len(shape_) != len(bshape) or any(
                    n != b for a, (n, b) in enumerate(zip(shape_, bshape)) if (j, a) not in varied):
                return None
        sizes = [key[j][1][a] for j, a in self.dims]
        steps, outs, write_terms = _placeholders.instantiate(self._structure(), self.forms, sizes)
        d = dict(self.raw, steps=steps, outputs=outs, write_terms=write_terms,
                 shapes=[list(s) for _, s in key])
        variables, _, name, n_flat = self.context
        return _LoadedProgram(d, variables, self._arrays(sizes, check=False), name, n_flat,
                              f"program for shapes {[list(s) for _, s in key]}")


class RestoredFunction:
    """A tf.function restored from a SavedModel: calls that match a saved trace replay its recorded program."""

    def __init__(self, name, concretes):
        self.__name__ = name
        self._concretes = concretes

    def __repr__(self):
        return f"<tensorflow.python.saved_model.function_deserialization.RestoredFunction object at {id(self):#x}>"

    @property
    def concrete_functions(self):
        """The restored concrete functions (each with its `variables` and `trainable_variables`)."""
        return list(self._concretes)

    def __call__(self, *args, **kwargs):
        bound = False
        first = self._concretes[0] if self._concretes else None
        if first is not None and first.input_signature is not None:      # TF's TypeError when the call does not bind
            bind_signature(first.input_signature, first.arg_names, args, kwargs)
        for cf in self._concretes:
            flat = cf.bind(args, kwargs)
            if flat is not None:
                out = cf.run(flat)
                if out is NO_PROGRAM and cf.fallback is not None:
                    arg_specs, kwarg_specs = cf.structured_input_signature
                    a, k = nest.pack_sequence_as((tuple(arg_specs), kwarg_specs), flat)
                    return cf.fallback(a, k)
                if out is not NO_PROGRAM:
                    return out
                if cf.unsaved is not None:
                    raise NotImplementedError(f"{self.__name__} loaded from a tfcompat SavedModel: the concrete "
                                              f"function these inputs match was saved without a program ({cf.unsaved})")
                bound = True
        if bound:
            raise NotImplementedError(
                f"{self.__name__} loaded from a tfcompat SavedModel: these inputs match a saved input signature, but "
                "tfcompat replays only the input shapes traced before saving, and other sizes of the `None` "
                "dimensions its placeholder trace could vary (a dimension the body needed at one size keeps it; "
                "call the function with this shape before tf.saved_model.save)")
        raise ValueError(f"Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
                         f"  Positional arguments ({len(args)} total):\n" +
                         "".join(f"    * {a!r}\n" for a in args) +
                         f"  Keyword arguments: {kwargs!r}\n\n tfcompat replays only the input signatures and "
                         f"shapes traced before saving ({len(self._concretes)} option(s)).")


class _UserObject:
    """A restored object: its attribute tree, variables and functions (TF's `_UserObject`, an AutoTrackable: not a
    `tf.Module`, so no `variables`/`trainable_variables` properties unless they were saved as attributes)."""

    def __init__(self):
        self.signatures = _SignatureMap({})

    def __repr__(self):         # TF's class is local to its loader method
        return f"<tensorflow.python.saved_model.load.Loader._recreate_base_user_object.<locals>._UserObject object at " \
               f"{id(self):#x}>"

    def __call__(self, *args, **kwargs):
        fn = self.__dict__.get("__call__")
        if fn is None:
            raise TypeError("'_UserObject' object is not callable")
        return fn(*args, **kwargs)

    def _checkpoint_children(self):
        """Its attributes as checkpoint dependencies, less `signatures` (which TF does not save as an attribute)."""
        return [(k, v) for k, v in vars(self).items() if k != "signatures" and is_trackable(v)]


_RESERVED = frozenset(dir(_UserObject))


def _node(root, path, where):
    o = root
    for name in path:
        child = o.__dict__.get(_name(name, where))
        if child is None:
            child = _UserObject()
            setattr(o, name, child)
        elif not isinstance(child, _UserObject):
            raise bad(where, f"path {path!r} goes through a variable or function")
        o = child
    return o


_META_KEYS = {1: {"format", "version", "tree", "variables", "functions", "signatures"}}
_META_KEYS[2] = _META_KEYS[1] | {"containers"}      # version 2: which tree nodes are lists and dicts
_META_KEYS[3] = _META_KEYS[2] | {"aliases", "keras"}   # version 3: signatures name their inputs and output specs,
                                                       # objects reached by several paths are saved once, and a Keras
                                                       # model that saved functions call is rebuilt from its config
_SIGNATURE_KEYS = {1: {"function", "output_keys"}, 2: {"function", "output_keys"},
                   3: {"function", "output_keys", "inputs", "outputs"}}
_VAR_KEYS = {"path", "key", "name", "trainable", "dtype"}


def load(export_dir):
    """Checks the whole SavedModel (see module doc), then builds the restored object."""
    marker = os.path.join(export_dir, MARKER)
    try:
        return _load(export_dir)
    except Invalid as e:
        raise e.cls(None, None, f"tfcompat SavedModel {marker}: {e.where}: {e.message}") from None


def _load(export_dir):
    from tfcompat.train import checkpoint as ckpt_mod
    meta = _read_json(os.path.join(export_dir, MARKER))
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("version") not in (1, 2, 3) or \
            set(meta) != _META_KEYS[meta["version"]]:
        raise bad("format", "not a version-1, -2 or -3 tfcompat SavedModel")
    arrays = _read_arrays(os.path.join(export_dir, "constants.npz"))
    entries = expect(meta["variables"], list, "variables", "variables")
    reader = None
    values = []
    for i, e in enumerate(entries):
        where = f"variables[{i}]"
        if not isinstance(e, dict) or set(e) != _VAR_KEYS or not isinstance(e["trainable"], bool) or \
                not isinstance(e["name"], str) or e["dtype"] not in _TF_DTYPES:
            raise bad(where, "bad variable entry")
        if e["key"] is None:
            if e["path"] is not None or f"var{i}" not in arrays:
                raise bad(where, "a variable outside the object tree needs its value in constants.npz")
            value = torch.from_numpy(arrays[f"var{i}"])
        else:
            if reader is None:
                reader = ckpt_mod.open_reader(os.path.join(export_dir, "variables", "variables"))
            if not isinstance(e["key"], str) or e["key"] not in reader.entries:
                raise bad(where, f"checkpoint key {str(e['key'])[:100]!r} not in the variables checkpoint")
            value = reader.read(e["key"])
            if not isinstance(e["path"], list) or not e["path"]:
                raise bad(where, "a checkpointed variable needs its attribute path")
        if not isinstance(value, torch.Tensor) or dtypes.as_dtype(e["dtype"])._torch != value.dtype:
            raise bad(where, f"value does not have the declared dtype {e['dtype']}")
        values.append(value)
    tree = expect(meta["tree"], list, "tree", "tree")
    for path in tree:
        for n in expect(path, list, "tree", "path"):
            _name(n, "tree")
    variables = [Variable(_wrap(value), trainable=e["trainable"], name=e["name"][:-2] if e["name"].endswith(":0")
                          else e["name"]) for value, e in zip(values, entries)]
    keras_calls = {}
    if meta.get("keras") is not None:
        model, names = _keras_rebuild.rebuild(meta["keras"], variables)

        def fallback(args, kwargs):
            return model(*args, **kwargs, training=False)
        keras_calls = dict.fromkeys(names, fallback)
    functions = {}
    for dotted, concretes in expect(meta["functions"], dict, "functions", "functions").items():
        where = f"functions[{dotted[:100]!r}]"
        path = [_name(n, where) for n in dotted.split(".")]
        functions[dotted] = (path, [_LoadedConcrete(d, variables, arrays, f"{where}[{i}]", keras_calls.get(dotted))
                                    for i, d in enumerate(expect(concretes, list, where, "functions"))])
    signatures = {}
    for name, sig in expect(meta["signatures"], dict, "signatures", "signatures").items():
        signatures[name] = _signature_entry(name, sig, meta["version"], variables, arrays,
                                            keras_calls.get("signature:" + name))
    root = _UserObject()
    for path in sorted(tree, key=len):
        _node(root, path, "tree")
    for i, (v, e) in enumerate(zip(variables, entries)):
        if e["path"]:
            where = f"variables[{i}].path"
            owner = _node(root, e["path"][:-1], where)
            if _name(e["path"][-1], where) in owner.__dict__:
                raise bad(where, "two entries at one attribute path")
            setattr(owner, e["path"][-1], v)
    for dotted, (path, concretes) in functions.items():
        owner = _node(root, path[:-1], f"functions[{dotted[:100]!r}]")
        owner.__dict__[path[-1]] = RestoredFunction(path[-1], concretes)
    aliases = _aliases(meta.get("aliases", []), tree, entries)
    for path, target in aliases:
        owner = _node(root, path[:-1], "aliases")
        if _name(path[-1], "aliases") in owner.__dict__:
            raise bad("aliases", f"{str(path)[:100]} is already an attribute")
        owner.__dict__[path[-1]] = _resolve(root, target)
    _restore_containers(root, meta.get("containers", {"list": [], "dict": []}), tree)
    for path, target in aliases:        # again, now that lists and dicts are wrappers
        owner = _resolve(root, path[:-1])
        value = _resolve(root, target)
        if isinstance(owner, _UserObject):
            owner.__dict__[path[-1]] = value
        else:
            owner[int(path[-1]) if isinstance(owner, list) else path[-1]] = value
    root.signatures = _SignatureMap(signatures)
    return root


def _aliases(entries, tree, variables):
    """[(path, target path)] of the saved aliases, each target a tree node, a variable or the root."""
    known = {(): True} | {tuple(p): True for p in tree} | {tuple(e["path"]): True for e in variables if e["path"]}
    out = []
    for entry in expect(entries, list, "aliases", "aliases"):
        if not isinstance(entry, list) or len(entry) != 2 or not all(isinstance(p, list) for p in entry) or \
                not entry[0] or tuple(entry[1]) not in known or tuple(entry[0]) in known:
            raise bad("aliases", f"bad alias entry {str(entry)[:100]}")
        for n in entry[0] + entry[1]:
            _name(n, "aliases")
        out.append((entry[0], entry[1]))
    return out


def _resolve(root, path):
    o = root
    for name in path:
        o = o.__dict__[name] if isinstance(o, _UserObject) else o[int(name) if isinstance(o, list) else name]
    return o


def _signature_entry(name, sig, version, variables, arrays, fallback=None):
    """A `Signature` from its JSON entry (before version 3: inputs named by the function's parameters)."""
    where = f"signatures[{name[:100]!r}]"
    if not isinstance(sig, dict) or set(sig) != _SIGNATURE_KEYS[version] or \
            not all(isinstance(k, str) for k in expect(sig["output_keys"], list, where, "output_keys")):
        raise bad(where, "bad signature entry")
    cf = _LoadedConcrete(sig["function"], variables, arrays, where, fallback)
    keys = sig["output_keys"]
    if version < 3:
        return Signature(name, cf, _signature.input_names(cf), {k: None for k in keys})
    inputs = []
    for entry in expect(sig["inputs"], list, where, "inputs"):
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
            raise bad(where, "bad signature input")
        inputs.append((entry[0], decode_spec(entry[1], f"{where}.inputs")))
    specs = [decode_spec(e, f"{where}.outputs") for e in expect(sig["outputs"], list, where, "outputs")]
    if len(specs) != len(keys) or not all(fn_mod._is_spec(s) for s in specs + [s for _, s in inputs]) or \
            len(inputs) != sum(fn_mod._is_spec(s) for s in nest.flatten(cf.structured_input_signature)):
        raise bad(where, "signature inputs or outputs do not match its function")
    return Signature(name, cf, inputs, {k: s.__class__(s.shape, s.dtype, k) for k, s in zip(keys, specs)})


_OWN = frozenset(vars(_UserObject()))      # what a node holds before the loader adds its children


def _restore_containers(root, containers, tree):
    """Turns the tree nodes saved as lists and dicts into TF's `ListWrapper` / `_DictWrapper`, deepest first."""
    if not isinstance(containers, dict) or set(containers) != {"list", "dict"}:
        raise bad("containers", "bad container entry")
    kinds = {}       # path -> None for a list, the keys in order for a dict
    entries = [(p, None) for p in expect(containers["list"], list, "containers", "list")]
    for entry in expect(containers["dict"], list, "containers", "dict"):
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], list) or \
                not all(isinstance(k, str) for k in entry[1]):
            raise bad("containers", "bad dict entry")
        entries.append(tuple(entry))
    for path, keys in entries:
        if path not in tree or tuple(path) in kinds:
            raise bad("containers", f"{str(path)[:100]} is not one tree node")
        kinds[tuple(path)] = keys
    for path in sorted(kinds, key=len, reverse=True):
        node = _node(root, path, "containers")
        children = {k: v for k, v in vars(node).items() if k not in _OWN}
        keys = kinds[path]
        if keys is None:
            keys = [str(i) for i in range(len(children))]
        if sorted(children) != sorted(keys) or len(set(keys)) != len(keys):
            raise bad("containers", f"{list(path)[:10]}: its children are not the saved keys or indices")
        container = ListWrapper(children[k] for k in keys) if kinds[path] is None else \
            _DictWrapper((k, children[k]) for k in keys)
        parent = _node(root, path[:-1], "containers")
        setattr(parent, path[-1], container)
