"""Concrete functions: one trace of a tf.function for one input signature, what TF shows of it, and calling it."""
import itertools

from tfcompat.eager.function._signatures import compatible, is_spec, spec_of, type_text
from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import type_name
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.util import nest

_inference_ids = itertools.count(1)


class FunctionType:
    """The parameters and output type of a ConcreteFunction (TF's `function_type`)."""

    def __init__(self, cf):
        self._cf = cf

    def parameters(self):
        """[(name, kind, type)] in call order."""
        cf = self._cf
        fn = cf._function
        arg_specs, kwarg_specs = cf.structured_input_signature
        names = fn._arg_names
        out = []
        for i, spec in enumerate(arg_specs):
            name = names[i] if i < len(names) else f"args_{i - len(names)}"
            out.append((name, fn._param_kinds.get(name, "POSITIONAL_ONLY"), spec))
        order = {n: i for i, n in enumerate(names)}
        for k in sorted(kwarg_specs, key=lambda k: (order.get(k, len(order)), k)):
            out.append((k, fn._param_kinds.get(k, "KEYWORD_ONLY"), kwarg_specs[k]))
        return out

    def output_text(self):
        return type_text(self._cf.structured_outputs)

    def __str__(self):
        parts, kinds = [], []
        for name, kind, spec in self.parameters():
            if kinds and kinds[-1] == "POSITIONAL_ONLY" and kind != "POSITIONAL_ONLY":
                parts.append("/")
            if kind == "KEYWORD_ONLY" and "KEYWORD_ONLY" not in kinds:
                parts.append("*")
            kinds.append(kind)
            parts.append(f"{name}: {type_text(spec)}")
        if kinds and kinds[-1] == "POSITIONAL_ONLY":
            parts.append("/")
        return f"({', '.join(parts)}) -> {self.output_text()}"

    def __repr__(self):
        lines = ["Input Parameters:"] + [f"  {n} ({k}): {type_text(s)}" for n, k, s in self.parameters()]
        lines += ["Output Type:", f"  {self.output_text()}", "Captures:"]
        captures = self._cf.captured_variables
        lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)" for v in captures] or ["  None"]
        return "\n".join(lines)


def _no_graph(what):
    return NotImplementedError(f"ConcreteFunction.graph.{what}: tfcompat records torch (aten) ops, not TensorFlow "
                               f"graph operations, and has no symbolic graph tensors")


class _FuncGraph:
    """What tfcompat can show of a ConcreteFunction's graph: its name and captured variables (TF's operations,
    GraphDef and symbolic tensors do not exist in a trace of aten ops: those raise NotImplementedError)."""

    def __init__(self, cf):
        self.name = cf.name
        self._cf = cf

    @property
    def variables(self):
        return list(self._cf.variables)

    @property
    def inputs(self):
        raise _no_graph("inputs")

    @property
    def outputs(self):
        raise _no_graph("outputs")

    def as_graph_def(self, *args, **kwargs):
        raise _no_graph("as_graph_def")

    def get_operations(self):
        raise _no_graph("get_operations")

    def get_operation_by_name(self, name):
        raise _no_graph("get_operation_by_name")

    def get_tensor_by_name(self, name):
        raise _no_graph("get_tensor_by_name")

    def __repr__(self):
        return f"FuncGraph(name={self.name}, id={id(self)})"


class AtomicFunction:
    """A ConcreteFunction called with its flat tensor inputs (TF's `inference_fn`)."""

    def __init__(self, cf):
        self._cf = cf
        self.name = cf._inference_name

    def __call__(self, *args):
        return call_flat(self._cf, args, {})

    def __repr__(self):
        return f"<AtomicFunction> {self.name}{self._cf.function_type}"


@tf_export("types.experimental.ConcreteFunction", partial="graph, inputs/outputs as symbolic tensors")
class ConcreteFunction:
    """One trace of a `tf.function` for one input signature: callable with matching arguments."""

    def __init__(self, function, arg_specs, kwarg_specs):
        self._function = function
        self._inference_name = f"__inference_{function.__name__}_{next(_inference_ids)}"
        self.structured_input_signature = (arg_specs, kwarg_specs)
        self._programs = {}          # exact key (see `_signatures.exact_key`) -> `_program.Program`
        self._eager = False          # body re-runs on each call (data-dependent Python control flow)
        self._template = None        # the program for other sizes of `None` dims (see `_placeholders`)
        self._template_pending = None   # what `_placeholders.ensure_template` needs to make it
        self.structured_outputs = None

    @property
    def name(self):
        return self._function.__name__

    @property
    def function_type(self):
        return FunctionType(self)

    @property
    def graph(self):
        return _FuncGraph(self)

    @property
    def inference_fn(self):
        return AtomicFunction(self)

    @property
    def inputs(self):
        """TF: the graph's placeholder tensors (not available: see `_FuncGraph`)."""
        raise NotImplementedError("ConcreteFunction.inputs: tfcompat's traces have no symbolic graph tensors")

    @property
    def outputs(self):
        """TF: the graph's output tensors (not available: see `_FuncGraph`)."""
        raise NotImplementedError("ConcreteFunction.outputs: tfcompat's traces have no symbolic graph tensors")

    @property
    def output_shapes(self):
        """The TensorShape of each tensor output, in the structure of the outputs."""
        return nest.map_structure(lambda s: s.shape if is_spec(s) else s, self.structured_outputs)

    @property
    def output_dtypes(self):
        """The DType of each tensor output, in the structure of the outputs."""
        return nest.map_structure(lambda s: s.dtype if is_spec(s) else s, self.structured_outputs)

    @property
    def variables(self):
        """The variables the recorded program reads or writes (TF's captured variables)."""
        seen = {}
        for p in self._programs.values():
            for v in list(p.vars) + [w for w in p.writes if not isinstance(w, int)]:
                seen.setdefault(id(v), v)
        return tuple(seen.values())

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def captured_variables(self):
        args = {id(x) for x in nest.flatten(self.structured_input_signature)}
        return [v for v in self.variables if id(v) not in args]

    def __call__(self, *args, **kwargs):
        """Calls this trace with TF's binding: its structured signature (Python values default to the traced
        ones), else its flat signature of tensors."""
        try:
            bound_args, bound_kwargs = _bind_structured(self, args, kwargs)
        except (TypeError, ValueError) as e:
            reason = e.args[0] if e.args else str(e)
            try:
                return call_flat(self, args, kwargs)
            except TypeError as flat_error:
                raise TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {args!r} "
                                f"and kwargs: {kwargs!r} for signature: {self.function_type}.\nFallback to flat "
                                f"signature also failed due to: {flat_error}") from None
        flat = nest.flatten((bound_args, bound_kwargs))
        return self._function._run(self, bound_args, bound_kwargs, flat)

    def __repr__(self):
        return f"<ConcreteFunction {self.function_type} at 0x{id(self):X}>"

    def __str__(self):
        return "ConcreteFunction " + repr(self.function_type)

    def pretty_printed_signature(self, verbose=True):
        """TF's text of this signature: parameters, output type and captures (`verbose`), else one line."""
        return repr(self.function_type) if verbose else str(self.function_type)


# -- binding calls ----------------------------------------------------------------------------------------------------
def _bind_structured(cf, args, kwargs):
    params = cf.function_type.parameters()
    positional = [i for i, (_, kind, _) in enumerate(params) if kind != "KEYWORD_ONLY"]
    if len(args) > len(positional):
        raise TypeError("too many positional arguments")
    values = dict(zip(positional, args))
    for i, (n, _, s) in enumerate(params):      # Python's binding order: by parameter, then unknown keywords
        if n in kwargs:
            if i in values:
                raise TypeError(f"multiple values for argument '{n}'")
            values[i] = kwargs[n]
        elif i not in values and not _optional(cf._function, n, s):
            raise TypeError(f"missing a required argument: '{n}'")
    names = {n for n, _, _ in params}
    for k in kwargs:
        if k not in names:
            raise TypeError(f"got an unexpected keyword argument '{k}'")
    bound = [_cast(s, values[i]) if i in values else s for i, (n, _, s) in enumerate(params)]
    n = len(cf.structured_input_signature[0])
    return tuple(bound[:n]), {name: v for (name, _, _), v in zip(params[n:], bound[n:])}


def _optional(fn, name, spec):
    """Whether a call may omit parameter `name` traced as `spec` (TF: a Python value whose parameter has a default,
    the traced value standing in; a nested one only if it equals the default; none once the function has `*args`)."""
    defaults = fn._defaults
    if name not in defaults or any(is_spec(s) for s in nest.flatten(spec)) or \
            "VAR_POSITIONAL" in fn._param_kinds.values():
        return False
    return not nest.is_nested(spec) or defaults[name] == spec


def _cast(spec, value):
    if nest.is_nested(spec):
        try:
            leaves = nest.flatten_up_to(spec, value, check_types=False)
        except (TypeError, ValueError):
            raise TypeError(f"Can not cast {value!r} to {type_text(spec)}") from None
        return nest.pack_sequence_as(spec, [_cast(s, v) for s, v in zip(nest.flatten(spec), leaves)])
    if not is_spec(spec):
        if not compatible(spec, value):
            raise ValueError(f"Can not cast {value!r} to {type_text(spec)}")
        return value
    if not isinstance(value, (Tensor, Variable)):
        try:
            value = convert_to_tensor(value, spec.dtype)
        except (TypeError, ValueError):
            raise TypeError(f"Can not cast {value!r} to {type_text(spec)}") from None
    if not compatible(spec, value):
        raise TypeError(f"Can not cast {type_text(spec_of(value))} to {type_text(spec)}")
    return value


def call_flat(cf, args, kwargs):
    """TF's flat call: the tensor inputs by position; a dtype mismatch is the kernel's InvalidArgumentError."""
    params = [(n, s) for n, _, s in cf.function_type.parameters()]
    tensor_params = [(n, s) for n, s in params if is_spec(s)]
    signature = f"{cf._function.__name__}({', '.join(n for n, _ in tensor_params)})"
    if kwargs:
        names = [n for n, _ in tensor_params]
        missing = [n for n in names[len(args):] if n not in kwargs]
        if missing:
            raise TypeError(f"{signature} missing required arguments: {', '.join(missing)}.")
        unexpected = [k for k in kwargs if k not in names[len(args):]]
        if unexpected:
            raise TypeError(f"{signature} got unexpected keyword arguments: {', '.join(unexpected)}.")
        args = tuple(args) + tuple(kwargs[n] for n in names[len(args):])
    if len(args) != len(tensor_params):
        raise TypeError(f"{signature} takes {len(tensor_params)} positional arguments, got {len(args)}.")
    values = []
    for i, ((_, spec), a) in enumerate(zip(tensor_params, args)):
        if not isinstance(a, (Tensor, Variable)):
            a = convert_to_tensor(a, spec.dtype)
        if a.dtype != spec.dtype:
            raise errors.op_error(errors.InvalidArgumentError, f"cannot compute {cf._inference_name} as input "
                                  f"#{i}(zero-based) was expected to be a {_dtype_word(spec.dtype)} tensor "
                                  f"but is a {_dtype_word(a.dtype)} tensor", cf._inference_name, None)
        values.append(a)
    it = iter(values)
    flat = [next(it) if is_spec(s) else s for _, s in params]
    n = len(cf.structured_input_signature[0])
    bound_args, bound_kwargs = tuple(flat[:n]), dict(zip([p for p, _ in params[n:]], flat[n:]))
    return cf._function._run(cf, bound_args, bound_kwargs, nest.flatten((bound_args, bound_kwargs)))


def _dtype_word(dtype):
    """TF's kernel name of a dtype (`float`, `int32`, `string`)."""
    return type_name(dtype._torch) if dtype._torch is not None else dtype.name
