"""Writing tfcompat SavedModels (the format is described in `tfcompat.saved_model`)."""
import json
import math
import os

import numpy as np
import torch

from tfcompat.eager.custom_gradient import _replay_custom
from tfcompat.eager.function import ConcreteFunction, Function, is_spec
from tfcompat.eager.function import _placeholders
from tfcompat.eager.function._signatures import dummy
from tfcompat.eager.function._state import live_vars
from tfcompat.eager.function._trace import record
from tfcompat.framework import dtypes
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.saved_model import FORMAT, MARKER, _atomic_dir, _keras, _op_table, _signature
from tfcompat.util import nest


def encode_spec(x):
    """A nest of TensorSpecs and Python literals as JSON."""
    from tfcompat.ops.misc_ops import TensorSpec
    if isinstance(x, TensorSpec):
        return {"spec": [x.shape.as_list() if x.shape.rank is not None else None, x.dtype.name, x.name]}
    if isinstance(x, dict):
        return {"dict": {str(k): encode_spec(v) for k, v in x.items()}}
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return {"tuple" if isinstance(x, tuple) else "list": [encode_spec(v) for v in x]}
    if x is None or isinstance(x, (bool, int, str)) or (isinstance(x, float) and math.isfinite(x)):
        return {"literal": x}
    raise NotImplementedError(f"tf.saved_model.save: a tf.function argument or output {x!r} of type "
                              f"{type(x).__name__} cannot be saved by tfcompat")


class _Writer:
    def __init__(self, var_ids):
        self.var_ids = var_ids          # id(variable) -> index in the saved variables
        self.arrays = {}
        self.extra_vars = []            # variables read by functions but not reachable from the root

    def var_index(self, v):
        i = self.var_ids.get(id(v))
        if i is None:
            i = self.var_ids[id(v)] = len(self.var_ids)
            self.extra_vars.append(v)
        return i

    def const(self, c):
        if isinstance(c, torch.Tensor):
            key = f"c{len(self.arrays)}"
            t = c.detach().cpu()
            entry = {"tensor": key, "dtype": str(t.dtype).replace("torch.", "")}
            if t.dtype == torch.bfloat16:
                t = t.float()
            self.arrays[key] = t.numpy()
            return entry
        if isinstance(c, torch.dtype):
            return {"torch_dtype": str(c).replace("torch.", "")}
        if isinstance(c, torch.device):
            return {"device": str(c)}
        if isinstance(c, (torch.memory_format, torch.layout)):
            return {"torch": str(c).replace("torch.", "")}
        if isinstance(c, (bool, int)):
            return {"value": c}
        if isinstance(c, float):
            return {"float": repr(c)}
        raise NotImplementedError(f"tf.saved_model.save: a recorded constant of type {type(c).__name__} cannot be "
                                  "saved by tfcompat")

    def program(self, key, p):
        ops = []
        for step in p.steps:
            if step.get("host"):
                raise NotImplementedError("tf.saved_model.save: a tf.function that calls Python (tf.print, "
                                          "tf.py_function, tf.numpy_function) cannot be saved by tfcompat")
        for f in p.funcs:
            if f is _replay_custom:
                ops.append(_op_table.CUSTOM_GRADIENT)
                continue
            if not isinstance(f, torch._ops.OpOverload):
                raise NotImplementedError(f"tf.saved_model.save: recorded callable {f!r} is not a torch op")
            if f.name() not in _op_table.NAMES:
                raise NotImplementedError(f"tf.saved_model.save: the tf.function records {f.name()}, which is not "
                                          "in tfcompat's SavedModel op table (tfcompat/saved_model/_op_table.py)")
            ops.append(f.name())
        return {"shapes": [list(s) for _, s in key], "dtypes": [str(d).replace("torch.", "") for d, _ in key],
                "steps": p.steps, "ops": ops, "consts": [self.const(c) for c in p.consts],
                "vars": [self.var_index(v) for v in p.vars], "argvars": [list(a) for a in p.argvars],
                "tensor_pos": list(p.tensor_pos), "outputs": p.out_terms,
                "writes": [[w, None] if isinstance(w, int) else [None, self.var_index(w)] for w in p.writes],
                "write_terms": p.write_terms,
                "output_structure": encode_output(p.structure)}

    def concrete(self, cf, signature=False):
        _placeholders.ensure_template(cf)       # before its programs are listed: it records the first one again
        if cf._eager and signature:
            raise NotImplementedError(f"tf.saved_model.save: tf.function {cf.name} could not be recorded (its "
                                      "Python control flow depends on tensor values, or it takes or returns string "
                                      "tensors)")
        if cf._eager:
            # saved without a program: the loaded function raises NotImplementedError for calls matching it
            sig = cf._function.input_signature
            return {"name": cf.name, "arg_names": list(cf._function._arg_names),
                    "input_signature": None if sig is None else encode_spec(tuple(sig)),
                    "inputs": encode_spec(cf.structured_input_signature), "programs": [],
                    "unsaved": "its Python control flow depends on tensor values, or it takes or returns string "
                               "tensors, so tfcompat could not record it"}
        sig = cf._function.input_signature
        out = {"name": cf.name, "arg_names": list(cf._function._arg_names),
               "input_signature": None if sig is None else encode_spec(tuple(sig)),
               "inputs": encode_spec(cf.structured_input_signature),
               "programs": [self.program(k, p) for k, p in cf._programs.items()]}
        template = cf._template
        if template is not None and template["key"] in cf._programs and all(
                isinstance(f[2], int) or math.isfinite(f[2]) for f in template["forms"]):
            # the program for other sizes of the `None` dims (see `eager.function._placeholders`)
            out["general"] = {"program": list(cf._programs).index(template["key"]), "forms": template["forms"],
                              "dims": template["dims"]}
        return out


def encode_output(x):
    """The output nest: tensors as {"output": i} in flat order, Python values as literals."""
    counter = iter(range(1 << 30))

    def enc(v):
        if isinstance(v, (Tensor, Variable)):
            return {"output": next(counter)}
        if isinstance(v, dict):
            return {"dict": {str(k): enc(v[k]) for k in sorted(v)}}
        if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
            return {"tuple" if isinstance(v, tuple) else "list": [enc(e) for e in v]}
        return encode_spec(v)
    return enc(x)


def _functions(obj):
    """[(attribute, Function)] of `obj`: tf.function methods and attributes."""
    from tfcompat.saved_model._load import RestoredFunction
    out = {}
    for name in dir(type(obj)):
        if isinstance(getattr(type(obj), name, None), Function):
            out[name] = getattr(obj, name)
    for name, value in getattr(obj, "__dict__", {}).items():
        if isinstance(value, Function):
            out[name] = value
        elif isinstance(value, RestoredFunction):
            raise NotImplementedError(f"tf.saved_model.save: re-saving {name}, a function loaded from a SavedModel, is "
                                      "not supported by tfcompat")
    return sorted(out.items())


def _signature_functions(obj, signatures):
    """{signature name: (ConcreteFunction, output specs or None)}: explicit, else a Keras model's `serving_default`
    (Keras 3's default save signature), else the single tf.function with an input_signature."""
    outputs = None
    if signatures is None:
        keras_default = _keras.default_signature(obj)
        if keras_default is not None:
            signatures, outputs = keras_default
        else:
            found = [f.get_concrete_function() for _, f in _functions(obj) if f.input_signature is not None]
            found = [cf for cf in found if _non_tensor_output(cf) is None and nest.flatten(
                cf.structured_input_signature)]       # TF's `_valid_signature`: tensors in and out
            signatures = found[0] if len(found) == 1 else {}
    if not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    out = {}
    for name, f in signatures.items():
        if isinstance(f, Function):
            f = f.get_concrete_function()
        if not isinstance(f, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a signature, but got {f!r}. Only "
                             "`tf.functions` with an input signature or concrete functions can be used as a signature.")
        bad = _non_tensor_output(f)
        if bad is not None:
            raise ValueError(f"Got a non-Tensor value {bad[1]!r} for key {bad[0]!r} in the output of the function "
                             f"{f.name} used to generate the SavedModel signature {name!r}. Outputs for functions "
                             "used as signatures must be a single Tensor, a sequence of Tensors, or a dictionary "
                             "from string to Tensor.")
        out[name] = (f, outputs)
    return out


def _non_tensor_output(cf):
    """(key, value) of the first output of `cf` that is not a tensor (TF names outputs as signatures do), or None."""
    outs = cf.structured_outputs
    items = sorted(outs.items()) if isinstance(outs, dict) else \
        [(f"output_{i}", v) for i, v in enumerate(nest.flatten(outs) if outs is not None else [None])]
    for key, value in items:
        if not is_spec(value):
            return key, value
    return None


def _retrace_for_save(f):
    """TF, when it saves a tf.function without an input_signature, gets a concrete function for each traced signature
    from its named specs (`x` as the argument's name), which traces again (the body runs: `print` prints) unless
    those specs were traced already: once per signature, at the first save that lists it. The new trace is saved
    beside the earlier ones."""
    if f.input_signature is not None:
        return
    done = f.__dict__.setdefault("_saved_signature_keys", set())
    for cf in list(f._concrete):
        key = repr(cf.structured_input_signature)
        if key in done or cf._eager:
            continue
        done.add(key)
        args, kwargs = cf.structured_input_signature
        flat = nest.flatten((tuple(args), kwargs))
        dummies = [dummy(x) if is_spec(x) else x for x in flat]
        d_args, d_kwargs = nest.pack_sequence_as((tuple(args), kwargs), dummies)
        new = f._trace(d_args, d_kwargs, dummies, run=False)
        new.structured_input_signature = cf.structured_input_signature
        if any(is_spec(s) and not s.shape.is_fully_defined() for s in flat):
            f._general = True
            f._exact = {k: c for k, c in f._exact.items() if c is not new}
        before = [(v, storage(v)) for v in list(live_vars.values())]
        try:
            _placeholders.trace(f, new, tuple(args), kwargs, flat, record)
        finally:
            for v, t in before:             # tracing runs nothing in TF: the dummy inputs change no variable
                if storage(v) is not t:
                    v._set_storage(t)


def _output_specs(cf, outputs):
    """The signature's output TensorSpecs in key order: `outputs` (a Keras model's), else the traced outputs' (with
    `None` where a dimension follows an unknown input dimension, as the trace's output specs say)."""
    from tfcompat.ops.misc_ops import TensorSpec
    if outputs is None:
        outputs = getattr(cf, "_output_specs", None)        # set by keras.export for a tracked model's call
    structure = outputs if outputs is not None else cf.structured_outputs
    leaves = nest.flatten(structure) if not isinstance(structure, dict) else [structure[k] for k in sorted(structure)]
    return [encode_spec(TensorSpec(s.shape, s.dtype)) for s in leaves]


def save(obj, export_dir, signatures):
    from tfcompat.train import checkpoint as ckpt_mod
    export_dir = os.fspath(export_dir)
    sig_fns = _signature_functions(obj, signatures)
    ckpt = ckpt_mod.Checkpoint(root=obj)
    nodes, objects, paths = ckpt_mod.build_graph(ckpt)
    tree, var_entries, var_ids, containers = [], [], {}, {"list": [], "dict": []}
    objects[0] = obj            # Checkpoint(root=obj) lists obj's children as its own
    for node, o, path in zip(nodes, objects, paths):
        if isinstance(o, Variable):
            var_ids[id(o)] = len(var_entries)
            var_entries.append({"path": list(path), "key": node.attributes[0][2], "name": o.name,
                                "trainable": o.trainable, "dtype": dtypes.as_dtype(o.dtype).name})
        elif path:
            tree.append(list(path))
            if isinstance(o, dict):
                containers["dict"].append([list(path), [k for k, _ in ckpt_mod.children(o)]])
            elif isinstance(o, (list, tuple)):
                containers["list"].append(list(path))
    # an object reached again by another attribute path (TF's SavedObjectGraph holds it once, referenced twice)
    aliases = [[list(paths[i] + (name,)), list(paths[cid])] for i, node in enumerate(nodes)
               for cid, name in node.children if paths[cid] != paths[i] + (name,)]
    w = _Writer(var_ids)
    functions, function_objects = {}, []
    for path, o in zip(paths, objects):
        if not isinstance(o, (Variable, list, tuple, dict)):
            for name, f in _functions(o):
                if f.input_signature is not None and not f._concrete:
                    f.get_concrete_function()       # TF traces every function with a signature when it saves
                _retrace_for_save(f)
                functions[".".join(list(path) + [name])] = [w.concrete(cf) for cf in f._concrete]
                function_objects.append((".".join(list(path) + [name]), f))
    sigs = {}
    for name, (cf, outputs) in sig_fns.items():
        sigs[name] = {"function": w.concrete(cf, signature=True), "output_keys": _signature.output_keys(cf.structured_outputs),
                      "inputs": [[n, encode_spec(s)] for n, s in _signature.input_names(cf)],
                      "outputs": _output_specs(cf, outputs)}
    keras = _keras.rebuild_entry(function_objects, [(n, cf) for n, (cf, _) in sig_fns.items()], var_ids)
    for v in w.extra_vars:
        w.arrays[f"var{var_ids[id(v)]}"] = storage(v).detach().cpu().numpy()
        var_entries.append({"path": None, "key": None, "name": v.name, "trainable": v.trainable,
                            "dtype": dtypes.as_dtype(v.dtype).name})
    meta = {"format": FORMAT, "version": 3, "tree": tree, "containers": containers, "variables": var_entries,
            "functions": functions, "signatures": sigs, "aliases": aliases, "keras": keras}

    def write(directory):
        os.makedirs(os.path.join(directory, "variables"))
        os.makedirs(os.path.join(directory, "assets"))
        ckpt.write(os.path.join(directory, "variables", "variables"))
        with open(os.path.join(directory, "constants.npz"), "wb") as fh:
            np.savez(fh, **w.arrays)
        with open(os.path.join(directory, MARKER), "w") as fh:
            json.dump(meta, fh)
    _atomic_dir.replace_directory(export_dir, write)
