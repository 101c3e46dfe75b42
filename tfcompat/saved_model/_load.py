"""Reading tfcompat SavedModels (the format is described in `tfcompat.saved_model`)."""
import json
import os
import re

import numpy as np
import torch

from tfcompat.eager import function as fn_mod
from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor, _wrap
from tfcompat.framework.variables import Variable
from tfcompat.module import Module
from tfcompat.saved_model import FORMAT, MARKER
from tfcompat.util import nest

_REF = re.compile(r"^(I\[\d+\]|r\d+|o\d+(\[\d+\])?|C\[\d+\])$")
_OUT = re.compile(r"^o\d+$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_OP = re.compile(r"^aten::([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?$")


def _check_term(t):
    if isinstance(t, dict):
        if "ref" in t:
            if not isinstance(t["ref"], str) or not _REF.match(t["ref"]):
                raise ValueError(f"corrupt tfcompat SavedModel: bad reference {t['ref']!r}")
            return
        items = t.get("list", t.get("tuple"))
        if not isinstance(items, list):
            raise ValueError(f"corrupt tfcompat SavedModel: bad term {t!r}")
        for x in items:
            _check_term(x)
    elif not (t is None or isinstance(t, (bool, int, float, str))):
        raise ValueError(f"corrupt tfcompat SavedModel: bad literal {t!r}")


def _check_step(step):
    op = step.get("op")
    if op == "guard_array":
        _check_term(step["x"])
    elif op in ("call", "guard"):
        for a in step["args"]:
            _check_term(a)
        for k, v in step["kwargs"].items():
            if not _IDENT.match(k):
                raise ValueError(f"corrupt tfcompat SavedModel: bad keyword {k!r}")
            _check_term(v)
        if not isinstance(step["f"], int) or (op == "call" and not _OUT.match(step["out"])):
            raise ValueError("corrupt tfcompat SavedModel: bad step")
    else:
        raise ValueError(f"corrupt tfcompat SavedModel: unknown step {op!r}")
    if "value" in step and not (isinstance(step["value"], str) and _REF.match(step["value"])):
        raise ValueError("corrupt tfcompat SavedModel: bad guard")


def _op(name):
    m = _OP.match(name)
    if m is None:
        raise ValueError(f"corrupt tfcompat SavedModel: unsupported op {name!r}")
    packet = getattr(torch.ops.aten, m.group(1))
    return getattr(packet, m.group(2) or "default")


def _const(c, arrays):
    if "tensor" in c:
        t = torch.from_numpy(np.array(arrays[c["tensor"]]))
        return t.to(getattr(torch, c["dtype"])) if str(t.dtype) != "torch." + c["dtype"] else t
    if "torch_dtype" in c:
        return _torch_attr(c["torch_dtype"], torch.dtype)
    if "torch" in c:
        return _torch_attr(c["torch"], (torch.memory_format, torch.layout))
    if "device" in c:
        return torch.device(c["device"])
    if "value" in c:
        return c["value"]
    return float(c["float"])


def _torch_attr(name, kind):
    value = getattr(torch, name, None) if _IDENT.match(name) else None
    if not isinstance(value, kind):
        raise ValueError(f"corrupt tfcompat SavedModel: bad torch constant {name!r}")
    return value


def decode_spec(x):
    from tfcompat.ops.misc_ops import TensorSpec
    if "spec" in x:
        shape, dtype, name = x["spec"]
        return TensorSpec(shape, dtypes.as_dtype(dtype), name)
    if "dict" in x:
        return {k: decode_spec(v) for k, v in x["dict"].items()}
    if "tuple" in x:
        return tuple(decode_spec(v) for v in x["tuple"])
    if "list" in x:
        return [decode_spec(v) for v in x["list"]]
    return x["literal"]


def _decode_output(x, outs):
    if "output" in x:
        return outs[x["output"]]
    if "dict" in x:
        return {k: _decode_output(v, outs) for k, v in x["dict"].items()}
    if "tuple" in x:
        return tuple(_decode_output(v, outs) for v in x["tuple"])
    if "list" in x:
        return [_decode_output(v, outs) for v in x["list"]]
    return convert_to_tensor(x["literal"]) if "literal" in x and x["literal"] is not None else decode_spec(x)


class _LoadedProgram:
    def __init__(self, d, variables, arrays, name):
        for step in d["steps"]:
            _check_step(step)
        for t in d["outputs"] + d["write_terms"]:
            if t is not None:
                _check_term(t)
        source = fn_mod.program_source(name, len(d["vars"]), d["steps"], d["outputs"], d["write_terms"])
        self.program = fn_mod.compile_program(source, name)
        self.funcs = [_op(n) for n in d["ops"]]
        self.consts = [_const(c, arrays) for c in d["consts"]]
        self.vars = [variables[i] for i in d["vars"]]
        self.argvars = [tuple(a) for a in d["argvars"]]
        self.tensor_pos = d["tensor_pos"]
        self.writes = [w if w is not None else variables[i] for w, i in d["writes"]]
        self.key = tuple((getattr(torch, dt), tuple(s)) for dt, s in zip(d["dtypes"], d["shapes"]))
        self.structure = d["output_structure"]

    def __call__(self, flat):
        ins = [flat[i]._t for i in self.tensor_pos]
        vs = list(self.vars)
        for j, i in self.argvars:
            vs[j] = flat[i]
        outs, new = fn_mod._run_program(self.program, self.consts, self.funcs, ins, vs)
        for v, t in zip(self.writes, new):
            (flat[v] if isinstance(v, int) else v)._t = t
        return _decode_output(self.structure, [_wrap(t) if t is not None else None for t in outs])


class _LoadedConcrete:
    """One restored concrete function: its signature and its recorded programs by input shapes."""

    def __init__(self, d, variables, arrays):
        self.name = d["name"]
        self.arg_names = d["arg_names"]
        self.structured_input_signature = decode_spec(d["inputs"])
        self.programs = {}
        for p in d["programs"]:
            prog = _LoadedProgram(p, variables, arrays, self.name)
            self.programs[prog.key] = prog

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

    def run(self, flat):
        prog = self.programs.get(fn_mod._exact_key(flat))
        if prog is None:
            return None
        return prog(flat)


class RestoredFunction:
    """A tf.function restored from a SavedModel: calls that match a saved trace replay its recorded program."""

    def __init__(self, name, concretes):
        self.__name__ = name
        self._concretes = concretes

    def __call__(self, *args, **kwargs):
        for cf in self._concretes:
            flat = cf.bind(args, kwargs)
            if flat is not None:
                out = cf.run(flat)
                if out is not None:
                    return out
        raise ValueError(f"Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
                         f"  Positional arguments ({len(args)} total):\n" +
                         "".join(f"    * {a!r}\n" for a in args) +
                         f"  Keyword arguments: {kwargs!r}\n\n tfcompat replays only the input signatures and "
                         f"shapes traced before saving ({len(self._concretes)} option(s)).")


class _Signature:
    """A serving signature: keyword tensors in, a dict of named output tensors out."""

    def __init__(self, cf, output_keys):
        self._cf = cf
        self._keys = output_keys

    def __call__(self, *args, **kwargs):
        if args:
            raise TypeError("signature functions take keyword arguments only: "
                            f"{', '.join(self._cf.arg_names)}")
        out = RestoredFunction(self._cf.name, [self._cf])(**kwargs)
        if isinstance(out, dict):
            return out
        return dict(zip(self._keys, nest.flatten(out)))

    @property
    def structured_input_signature(self):
        return self._cf.structured_input_signature


class _UserObject(Module):
    """A restored object: its attribute tree, variables and functions."""

    def __init__(self):
        super().__init__(name=None)
        self.signatures = {}

    def __call__(self, *args, **kwargs):
        fn = self.__dict__.get("__call__")
        if fn is None:
            raise TypeError("'_UserObject' object is not callable")
        return fn(*args, **kwargs)


def _node(root, path):
    o = root
    for name in path:
        child = o.__dict__.get(name)
        if child is None:
            child = _UserObject()
            setattr(o, name, child)
        o = child
    return o


def load(export_dir):
    from tfcompat.train import checkpoint as ckpt_mod
    with open(os.path.join(export_dir, MARKER)) as fh:
        meta = json.load(fh)
    if meta.get("format") != FORMAT or meta.get("version") != 1:
        raise ValueError(f"{export_dir} is not a version-1 tfcompat SavedModel")
    with np.load(os.path.join(export_dir, "constants.npz"), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    reader = ckpt_mod.open_reader(os.path.join(export_dir, "variables", "variables"))
    root = _UserObject()
    for path in sorted(meta["tree"], key=len):
        _node(root, path)
    variables = []
    for i, e in enumerate(meta["variables"]):
        value = reader.read(e["key"]) if e["key"] is not None else torch.from_numpy(np.array(arrays[f"var{i}"]))
        name = e["name"][:-2] if e["name"].endswith(":0") else e["name"]
        v = Variable(_wrap(value), trainable=e["trainable"], name=name)
        variables.append(v)
        if e["path"]:
            setattr(_node(root, e["path"][:-1]), e["path"][-1], v)
    for dotted, concretes in meta["functions"].items():
        path = dotted.split(".")
        owner = _node(root, path[:-1])
        owner.__dict__[path[-1]] = RestoredFunction(path[-1], [_LoadedConcrete(d, variables, arrays)
                                                              for d in concretes])
    root.signatures = {name: _Signature(_LoadedConcrete(s["function"], variables, arrays), s["output_keys"])
                       for name, s in meta["signatures"].items()}
    return root
