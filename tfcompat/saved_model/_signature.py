"""A restored serving signature: TF's flat function of named tensors that returns a dict of named tensors.

Its inputs are the function's flat tensor arguments named as TF names graph placeholders (the TensorSpec's name, else
the parameter's, made unique with `_1`, `_2`, ...); its outputs are the function's dict keys, or `output_0`, ...
Keyword calls bind by name; positional calls take tensors in order (TF's flat-signature fallback)."""
from tfcompat.eager.function import is_spec as _is_spec
from tfcompat.eager.function._concrete import _dtype_word
from tfcompat.eager.function._signatures import value_paths
from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.util import nest


def input_names(cf):
    """[(name, spec)] of a concrete function's flat tensor inputs, named as TF names a signature's inputs."""
    arg_specs, kwarg_specs = cf.structured_input_signature
    names = list(cf._function._arg_names) if hasattr(cf, "_function") else list(cf.arg_names)
    out, seen = [], {}
    parts = [(names[i] if i < len(names) else f"args_{i}", s) for i, s in enumerate(arg_specs)]
    parts += sorted(kwarg_specs.items())
    for param, spec in parts:
        for leaf, auto in zip(nest.flatten(spec), value_paths(spec, param)):
            if not _is_spec(leaf):
                continue
            base = leaf.name if leaf.name and leaf.name != auto else param     # a name the user gave
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.append((base if n == 0 else f"{base}_{n}", leaf))
    return out


def output_keys(outputs):
    """TF's signature output names: a dict's keys (sorted), else `output_<i>` over the flat outputs."""
    if isinstance(outputs, dict):
        return sorted(outputs)
    return [f"output_{i}" for i in range(len(nest.flatten(outputs)))]


class Signature:
    """`loaded.signatures[name]`: call with tensors by input name (or in order); returns {output name: tensor}."""

    def __init__(self, name, cf, inputs, outputs):
        self._name = name
        self._cf = cf                      # the restored concrete function the signature calls
        self._inputs = inputs              # [(name, TensorSpec)]
        self.structured_outputs = outputs  # {name: TensorSpec(name=name)}

    @property
    def structured_input_signature(self):
        return (), {n: s.__class__(s.shape, s.dtype, n) for n, s in self._inputs}

    @property
    def variables(self):
        """The variables the signature's function reads (TF's ConcreteFunction.variables)."""
        return self._cf.variables

    @property
    def trainable_variables(self):
        return self._cf.trainable_variables

    @property
    def _concrete_functions(self):
        """The restored concrete function it calls (for `TFSMLayer`, which rebinds its variables)."""
        return [self._cf]

    @property
    def inputs(self):
        return [s.__class__(s.shape, s.dtype, n) for n, s in self._inputs]

    def _text(self):
        ins = ", ".join(f"{n}: {s.__class__(s.shape, s.dtype, n)!r}" for n, s in self._inputs)
        outs = ", ".join(f"[{k!r}, {v!r}]" for k, v in self.structured_outputs.items())
        return f"(*, {ins}) -> Dict[{outs}]"

    def __repr__(self):
        return f"<ConcreteFunction {self._text()} at 0x{id(self):X}>"

    def __call__(self, *args, **kwargs):
        names = [n for n, _ in self._inputs]
        if args:
            flat_name = f"signature_wrapper_{self._name}({', '.join(names)})"
            if len(args) + len(kwargs) > len(names) or len(args) > len(names):
                raise TypeError(f"Binding inputs to tf.function failed due to `too many positional arguments`. "
                                f"Received args: {args!r} and kwargs: {kwargs!r} for signature: {self._text()}.\n"
                                f"Fallback to flat signature also failed due to: {flat_name} takes {len(names)} "
                                f"positional arguments, got {len(args)}.")
            for i, a in enumerate(args):
                if not isinstance(a, (Tensor, Variable)):
                    raise TypeError(f"Binding inputs to tf.function failed due to `too many positional arguments`. "
                                    f"Received args: {args!r} and kwargs: {kwargs!r} for signature: {self._text()}."
                                    f"\nFallback to flat signature also failed due to: {flat_name}: expected "
                                    f"argument #{i}(zero-based) to be a Tensor; got {type(a).__name__} ({a}).")
            kwargs = {**dict(zip(names, args)), **kwargs}
        unknown = [k for k in kwargs if k not in names]
        missing = [n for n in names if n not in kwargs]
        if unknown or missing:
            reason = f"got an unexpected keyword argument '{unknown[0]}'" if unknown else \
                f"missing a required argument: '{missing[0]}'"
            raise TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {args!r} and "
                            f"kwargs: {kwargs!r} for signature: {self._text()}.")
        return self._call_flat([kwargs[n] for n in names])

    def _call_flat(self, values):
        cf = self._cf
        for i, ((_, spec), v) in enumerate(zip(self._inputs, values)):
            if not isinstance(v, (Tensor, Variable)):
                values[i] = v = convert_to_tensor(v, spec.dtype)
            if v.dtype != spec.dtype:
                raise errors.op_error(errors.InvalidArgumentError, f"cannot compute {self._op} as input "
                                      f"#{i}(zero-based) was expected to be a {_dtype_word(spec.dtype)} tensor but "
                                      f"is a {_dtype_word(v.dtype)} tensor", self._op, None)
            if not spec.shape.is_compatible_with(v.shape):
                raise errors.op_error(errors.InvalidArgumentError, f"{self._op}: input #{i}(zero-based) {v.shape} "
                                      f"is not compatible with the signature's {spec.shape}", self._op, None)
        it = iter(values)
        args, kwargs = nest.map_structure(lambda s: next(it) if _is_spec(s) else s,
                                          (tuple(cf.structured_input_signature[0]), cf.structured_input_signature[1]))
        out = cf.call(args, kwargs)
        if isinstance(out, dict):
            return dict(out)
        return dict(zip(self.structured_outputs, nest.flatten(out)))

    @property
    def _op(self):
        return f"__inference_signature_wrapper_{self._name}"
