"""`tf.function`: the `Function` class (a Python callable traced per input signature, then replayed) and decorator."""
import functools
import weakref

import numpy as np

from tfcompat.eager.function import _placeholders
from tfcompat.eager.function._concrete import ConcreteFunction
from tfcompat.eager.function._guards import GuardFailed
from tfcompat.eager.function._host import quiet
from tfcompat.eager.function._program import replay
from tfcompat.eager.function._retrace import retrace_detector
from tfcompat.eager.function._signatures import (COMPOSITE_SPECS, Canonical, arg_names, bind_signature, compatible, dummy, exact_key,
                                                  generalize, is_spec, leaf_key, leaf_labels, param_defaults, param_kinds, plain,
                                                  positional_name, positional_structure, spec_of, structure_key, value_paths)
from tfcompat.eager.function._state import _run_eagerly, live_vars, tls
from tfcompat.eager.function._trace import outputs, record, rerun
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import EagerTensor, storage
from tfcompat.ops.extension_type import ExtensionTypeSpec
from tfcompat.ops.misc_ops import SparseTensorSpec
from tfcompat.ops.ragged_spec import RaggedTensorSpec
from tfcompat.util import nest


@tf_export("types.experimental.PolymorphicFunction", "types.experimental.GenericFunction")
class Function:
    """A `tf.function`: a Python callable traced per input signature and replayed (see the package doc)."""

    def __init__(self, python_function, name, input_signature=None, autograph=True, jit_compile=None,
                 reduce_retracing=False):
        self._python_function = python_function
        self.__name__ = name
        self.__doc__ = getattr(python_function, "__doc__", None)
        self.__wrapped__ = python_function
        self._autograph = autograph
        self._jit_compile = jit_compile
        self._jit_warned = False        # a torch.compile failure was reported (see `_jit.Jit`)
        self._reduce_retracing = reduce_retracing
        self._arg_names = arg_names(python_function)
        self._param_kinds = param_kinds(python_function)
        self._defaults = param_defaults(python_function)
        self._canonical = Canonical(python_function)
        if input_signature is not None:
            input_signature = tuple(input_signature)
            for s in nest.flatten(input_signature):
                if not is_spec(s) and not isinstance(s, COMPOSITE_SPECS):
                    raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec objects, "
                                    f"got invalid args {s!r} with type {type(s)}.")
        self._input_signature = input_signature
        self._exact = {}            # exact call key -> ConcreteFunction
        self._concrete = []         # every ConcreteFunction, in trace order
        self._general = False       # some concrete function has non-exact specs
        self._tracing_count = 0
        self._retrace = retrace_detector(python_function)
        self._created_variables = None     # whether the first trace created variables (None: not traced yet)
        self._descriptor_cache = weakref.WeakKeyDictionary()
        self._bound_instance = None

    # -- public attributes ------------------------------------------------------------------------------------------
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def function_spec(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        return self._tracing_count

    def pretty_printed_concrete_signatures(self, verbose=True):
        """The signatures of every traced ConcreteFunction, separated by blank lines."""
        return "\n\n".join(cf.pretty_printed_signature(verbose) for cf in self._concrete)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            bound = self._descriptor_cache.get(instance)
        except TypeError:
            bound = None
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self.__name__, self._input_signature,
                             self._autograph, self._jit_compile, self._reduce_retracing)
            bound._arg_names = self._arg_names[1:]
            bound._bound_instance = weakref.ref(instance)
            try:
                self._descriptor_cache[instance] = bound
            except TypeError:
                pass
        return bound

    # -- calls ------------------------------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs)

    def _call_for_effects(self, *args):
        """`self(*args)` for a caller that discards the result (Keras's `fit` without batch logs): a replay then
        skips the pure ops that only compute the outputs and returns None (a trace returns them as usual)."""
        return self._call(args, {}, False)

    def _call(self, args, kwargs, wanted=True):
        if _run_eagerly[0]:
            return self._python_function(*args, **kwargs)
        if not kwargs and self._input_signature is None:
            # the common call, eager tensors passed positionally: the trace keys without walking the structure
            # (a torch.Size hashes and compares as the tuple the keys hold)
            leaves, shapes = [], []
            for a in args:
                if type(a) is not EagerTensor:
                    break
                t = storage(a)
                shape = t.shape
                leaves.append(("T", t.dtype, shape))
                shapes.append((t.dtype, shape))
            else:
                cf = self._exact.get((positional_structure(len(args)), tuple(leaves)))
                if cf is not None and not self._canonical.needed(args, kwargs):
                    self._retrace.untraced += 1
                    return self._run(cf, args, kwargs, list(args), wanted, tuple(shapes))
        if self._input_signature is not None:
            args = bind_signature(self._input_signature, self._arg_names, args, kwargs, self._param_kinds)
            kwargs = {}
        elif self._canonical.needed(args, kwargs):
            args, kwargs = self._canonical(args, kwargs)
        flat = nest.flatten((args, kwargs))
        for x in flat:
            if isinstance(x, np.ndarray):       # TF passes NumPy arrays as tensors
                flat = [convert_to_tensor(y) if isinstance(y, np.ndarray) else y for y in flat]
                args, kwargs = nest.pack_sequence_as((args, kwargs), flat)
                break
        try:
            key = (structure_key((args, kwargs)), tuple(leaf_key(x) for x in flat))
            cf = self._exact.get(key)
        except TypeError:
            key, cf = None, None
        if cf is None:
            cf = self._lookup(args, kwargs, flat) if self._general else None
            if cf is None:
                outer = tls.recorder
                cf = self._trace(args, kwargs, flat)
                if outer is None:             # TF counts eager calls only, not calls inside another trace
                    self._retrace.traced(self._python_function)
                return cf._first_result
            if key is not None:
                self._exact[key] = cf
        self._retrace.untraced += 1
        return self._run(cf, args, kwargs, flat, wanted)

    def _lookup(self, args, kwargs, flat):
        structure = structure_key((args, kwargs))
        for cf in reversed(self._concrete):
            if cf._structure == structure:
                specs = nest.flatten(cf.structured_input_signature)
                if len(specs) == len(flat) and all(compatible(s, x) for s, x in zip(specs, flat)):
                    return cf
        return None

    def _specs_for(self, args, kwargs, flat):
        if self._input_signature is not None:
            named = []
            for i, s in enumerate(self._input_signature):
                param = positional_name(self._arg_names, self._param_kinds, i)
                for leaf, auto in zip(nest.flatten(s), value_paths(s, param)):
                    if isinstance(leaf, COMPOSITE_SPECS):
                        named.append(leaf)
                        continue
                    named.append(leaf.__class__(leaf.shape, leaf.dtype, leaf.name or auto))
            return named
        specs = [spec_of(x) for x in flat]
        if self._reduce_retracing:
            structure = structure_key((args, kwargs))
            for cf in reversed(self._concrete):
                if cf._structure != structure:
                    continue
                old = nest.flatten(cf.structured_input_signature)
                if len(old) != len(flat):
                    continue
                merged = [generalize(s, x) for s, x in zip(old, flat)]
                if all(m is not None for m in merged):
                    return merged
        return specs

    def _trace(self, args, kwargs, flat, run=True):
        specs = self._specs_for(args, kwargs, flat)
        named = []
        for s, (_, auto) in zip(specs, leaf_labels(self._arg_names, self._param_kinds, args, kwargs)):
            if is_spec(s) and s.name is None:
                s = s.__class__(s.shape, s.dtype, auto)
            named.append(s)
        arg_specs, kwarg_specs = nest.pack_sequence_as((args, kwargs), named)
        cf = ConcreteFunction(self, tuple(arg_specs), dict(kwarg_specs))
        cf._structure = structure_key((args, kwargs))
        self._tracing_count += 1
        self._concrete.append(cf)
        if any(_arg_spec(s) and not s.shape.is_fully_defined() for s in named):
            self._general = True
        else:
            try:
                self._exact[(cf._structure, tuple(leaf_key(x) for x in flat))] = cf
            except TypeError:
                pass
        if run:
            cf._first_result = record(self, cf, args, kwargs, flat)
            if any(nest.is_composite(x) for x in flat + nest.flatten(cf._first_result)):
                cf._eager = True    # composite values (ExtensionTypes) are not in replay programs: the body re-runs
        return cf

    def _run(self, cf, args, kwargs, flat, wanted=True, program_key=None):
        """A call of traced `cf`: its replay program (without the outputs' own ops unless `wanted`), or the
        Python body when there is none for these shapes. `program_key`: `exact_key(flat)`, when the caller has it."""
        if cf._eager:
            with quiet():
                return outputs(self._python_function(*args, **kwargs))
        prog = cf._programs.get(exact_key(flat) if program_key is None else program_key)
        if prog is None:
            with quiet():
                return record(self, cf, args, kwargs, flat)
        tls.callbacks_done = done = []
        try:
            return replay(prog, flat, outputs=wanted)
        except GuardFailed:
            # the Python body must run again; host callbacks that already ran are not run twice
            with quiet():
                return rerun(self, cf, args, kwargs, flat, done)
        except IndexError:
            # a gather kernel refused an index (no variable was written): the body, run again, raises TF's error
            with quiet():
                return rerun(self, cf, args, kwargs, flat, done)
        finally:
            tls.callbacks_done = None

    # -- concrete functions ------------------------------------------------------------------------------------------
    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments or TensorSpecs (traced now if new)."""
        if not args and not kwargs and self._input_signature is not None:
            args = self._input_signature
        elif self._input_signature is None and self._canonical.needed(args, kwargs):
            args, kwargs = self._canonical(args, kwargs)
        flat = nest.flatten((args, kwargs))
        if any(isinstance(x, ExtensionTypeSpec) for x in flat):    # traced with a placeholder value
            args, kwargs = nest.pack_sequence_as((args, kwargs), [dummy(x) if isinstance(x, ExtensionTypeSpec) else x
                                                                  for x in flat])
            flat = nest.flatten((args, kwargs))
        if any(_arg_spec(x) for x in flat):
            structure = structure_key((args, kwargs))
            for cf in self._concrete:
                if cf._structure == structure and [plain(s) if is_spec(s) else s for s in
                                                   nest.flatten(cf.structured_input_signature)] == \
                        [plain(s) if is_spec(s) else s for s in flat]:
                    return cf
            for cf in self._concrete:           # TF's lookup then takes a trace whose specs are supertypes
                if cf._structure == structure and _supertypes(nest.flatten(cf.structured_input_signature), flat):
                    return cf
            dummies = [_string_placeholder(x) if _string_spec(x) else dummy(x) if _arg_spec(x) else x for x in flat]
            d_args, d_kwargs = nest.pack_sequence_as((args, kwargs), dummies)
            named = [x.__class__(x.shape, x.dtype, x.name) if is_spec(x) else x for x in flat]
            saved = self._input_signature
            self._input_signature = None
            try:
                cf = self._trace(d_args, d_kwargs, dummies, run=False)
            finally:
                self._input_signature = saved
            specs = [n if _arg_spec(n) and not is_spec(n) else s if not is_spec(s) else s.__class__(
                n.shape, n.dtype, (n.name if is_spec(n) else None) or s.name)
                for s, n in zip(nest.flatten(cf.structured_input_signature), named)]
            a, k = nest.pack_sequence_as((args, kwargs), specs)
            cf.structured_input_signature = (tuple(a), dict(k))
            if any(_arg_spec(s) and not s.shape.is_fully_defined() for s in specs):
                self._general = True
                self._exact = {k2: c for k2, c in self._exact.items() if c is not cf}
            if any(_string_spec(x) for x in flat):
                # string tensors are not in replay programs: the body runs on every call; it runs now on empty
                # strings only for the output specs (see `_placeholders.trace_strings`)
                cf._eager = True
                _placeholders.trace_strings(self, cf, args, kwargs, flat, record)
                return cf
            before = [(v, storage(v)) for v in list(live_vars.values())]
            try:
                _placeholders.trace(self, cf, args, kwargs, [x if is_spec(x) or not _arg_spec(x) else d
                                                             for x, d in zip(flat, dummies)], record)
            except BaseException as e:
                self._concrete.remove(cf)       # a failed trace leaves no concrete function behind
                self._exact = {k: c for k, c in self._exact.items() if c is not cf}
                if isinstance(e, errors.InvalidArgumentError) and any(
                        _arg_spec(s) and not s.shape.is_fully_defined() for s in specs):
                    raise NotImplementedError(
                        f"tf.function {self.__name__}: tfcompat traces the unknown dimensions of an input signature "
                        f"on placeholder values (TF traces them symbolically), and the body fails on every size tried "
                        f"(distinct probe sizes, sizes of the variables and tensors it can see, then size 1: "
                        f"{type(e).__name__}: {e}); call the function on real inputs first, so that "
                        "get_concrete_function and tf.saved_model.save find that trace") from e
                raise
            finally:
                for v, t in before:         # TF traces without running: the dummy inputs change no variable
                    if storage(v) is not t:
                        v._set_storage(t)
            return cf
        self(*args, **kwargs)
        if self._input_signature is not None:
            args = bind_signature(self._input_signature, self._arg_names, args, kwargs, self._param_kinds)
            kwargs = {}
        return self._lookup(args, kwargs, nest.flatten((args, kwargs)))

    def experimental_get_compiler_ir(self, *args, **kwargs):
        raise NotImplementedError("tf.function.experimental_get_compiler_ir: tfcompat has no XLA compiler IR")


def _string_spec(x):
    return is_spec(x) and x.dtype == dtypes.string


def _string_placeholder(spec):
    """An empty-string tensor of `spec`'s shape (`None` dims as 1): only the call key of a string signature."""
    dims = [1 if d is None else d for d in spec.shape.as_list()] if spec.shape.rank is not None else []
    return convert_to_tensor(np.full(dims, b"", dtype=object), dtypes.string)


def _arg_spec(x):
    """Whether `x` is a TensorSpec or a RaggedTensorSpec/SparseTensorSpec (a spec with a shape)."""
    return is_spec(x) or isinstance(x, (RaggedTensorSpec, SparseTensorSpec))


def _supertypes(specs, wanted):
    """Whether each traced spec accepts every value of the wanted spec (same dtype; unknown rank or dimensions)."""
    if len(specs) != len(wanted):
        return False
    for s, w in zip(specs, wanted):
        if not (is_spec(s) and is_spec(w)):
            if plain(s) != plain(w):
                return False
            continue
        if type(s) is not type(w) or s.dtype != w.dtype:
            return False
        if s.shape.rank is not None and (w.shape.rank != s.shape.rank or any(
                a is not None and a != b for a, b in zip(s.shape.as_list(), w.shape.as_list()))):
            return False
    return True


@tf_export("function", partial="experimental_implements/experimental_attributes")
def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None):
    """Compiles `func` into a callable traced per input signature and replayed (TF's `tf.function`)."""
    if experimental_implements is not None or experimental_attributes is not None:
        raise NotImplementedError("tf.function(experimental_implements=/experimental_attributes=) is not supported "
                                  "by tfcompat")
    if experimental_relax_shapes:
        reduce_retracing = True
    if experimental_compile is not None and jit_compile is None:
        jit_compile = experimental_compile

    def decorate(fn):
        f = Function(fn, getattr(fn, "__name__", type(fn).__name__), input_signature, autograph, jit_compile,
                     reduce_retracing)
        functools.update_wrapper(f, fn, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())
        return f

    return decorate if func is None else decorate(func)
