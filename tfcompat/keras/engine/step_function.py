"""Keras's step functions: a model's train/test/predict step run as a `tf.function` (Keras's `run_eagerly=False`).

As Keras 3 on TF: `fit`/`evaluate` trace their step once on the data's spec (batch dimension unknown unless every
batch has the same size), so the last partial batch uses the same trace (tfcompat records a program for its
shape by running the body again with stdout silenced, as tf.function does for a new shape under a generalized
signature); `*_on_batch` and `predict` trace on their first batch's shapes with
`reduce_retracing=True` (a batch of another size traces once more, on a generalized shape). A trace that creates
variables (an unbuilt model, the optimizer's slots, metric state) is traced again, as TF does. Python side effects
of the step (a `print` in `call()`) therefore happen while tracing only.

Data holding string tensors or SparseTensors is traced as TF does (once, on the spec: a SparseTensorSpec with an
unknown batch dimension in `fit`/`evaluate`): tfcompat's tf.function runs the body of such a trace again, quietly,
on every call (its replay programs hold torch tensors only), so prints happen at trace time only, as in TF.

A step that cannot be replayed honestly (its Python code reads tensor values that change between steps, so
its body would run again on every step; or tracing fails where the eager step works) runs eagerly from then on,
after one warning naming the cause; an error the eager step raises too is raised as it is.
"""
import warnings

from tfcompat.eager.function import function, functions_run_eagerly
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import EagerTensor
from tfcompat.ops.misc_ops import SparseTensorSpec, TensorSpec
from tfcompat.util import nest

_SPECS = {EagerTensor: TensorSpec, SparseTensor: SparseTensorSpec}    # the spec of a data leaf traced on its spec


def _structure(data):
    """A hashable form of the data's nesting (the common flat tuple of tensors costs a `len`)."""
    if type(data) is tuple and not any(nest.is_nested(d) for d in data):
        return len(data)
    return repr(nest.map_structure(lambda _: 0, data))


def _leaf_key(x, dims=slice(None)):
    """What a trace depends on of one leaf of the data: a tensor's dtype and (some of its) dimensions."""
    if x is None:
        return None
    shape = getattr(x, "shape", None)
    return (type(x), getattr(x, "dtype", None), tuple(shape)[dims] if shape is not None and shape.rank is not None
            else None)


def _runs_body(tensors):
    """Whether a tf.function runs its body (quietly) on every call for these inputs by design: string tensors or
    composite values (SparseTensor, RaggedTensor) are not in replay programs."""
    return any(type(x) is not EagerTensor or x.dtype.name == "string" for x in tensors)


class _Body:
    """The Python body of a step's tf.function: rebuilds the data from its tensors and runs the step (a callable
    object rather than a closure, so TF's retracing warning counts each model's traces apart)."""

    __name__ = "one_step_on_data"

    def __init__(self, owner, template, present):
        self._owner = owner
        self._template = template
        self._present = present

    def __call__(self, *args):
        owner = self._owner
        owner._body_runs += 1
        it = iter(args)
        return owner._step(nest.pack_sequence_as(self._template, [next(it) if p else None for p in self._present]))


class StepFunction:
    """`step(data)` run as a `tf.function`; `on_spec=True` traces on the data's spec (batch dimension
    `spec_batch_size`, None: unknown), else on the first call's shapes with `reduce_retracing`."""

    def __init__(self, step, entry, on_spec=False):
        self._step = step
        self._entry = entry                 # the Keras method whose step this is, for the warning
        self._on_spec = on_spec
        self.spec_batch_size = None         # the batch dimension of the data's spec (set by `fit`/`evaluate`)
        self._functions = {}                # spec key -> (tf.function, the batch dimension it was traced on)
        self._seen = set()                  # exact keys replayed at least once
        self._body_runs = 0
        self._eager = False

    @property
    def functions(self):
        """The `tf.function`s traced so far (one per data structure and spec)."""
        return [fn for fn, _ in self._functions.values()]

    def without_outputs(self, data):
        """`self(data)` for a caller that discards its logs (`fit` when no callback reads batch logs): a replay skips
        the ops that only compute them (the metrics' results) and returns None; the trace is the same."""
        return self(data, False)

    def __call__(self, data, outputs=True):
        if self._eager or functions_run_eagerly():
            return self._step(data)
        flat = nest.flatten(data)
        tensors = [x for x in flat if x is not None]
        exact = (_structure(data), tuple(_leaf_key(x) for x in flat))
        fn = self._function_for(data, flat, tensors, exact[0])
        if fn is None:
            fn = self._new_function(data, flat, tensors, exact[0])
            self._seen.discard(exact)
        before = self._body_runs
        try:
            out = fn(*tensors) if outputs else fn._call_for_effects(*tensors)
        except Exception as e:          # noqa: BLE001 - the eager step decides whether the error is the user's
            out = self._step(data)      # raises the same error when the step itself is wrong
            self._fall_back(f"tracing it failed ({type(e).__name__}: {e})")
            return out
        if self._body_runs != before and exact in self._seen and not _runs_body(tensors):
            self._fall_back("its Python code ran again on a replay: it reads tensor values that changed since the "
                            "trace (`.numpy()`, `.item()`, `int()`/`bool()` of a tensor)")
        self._seen.add(exact)
        return out

    def _key(self, flat, structure):
        return structure, tuple(_leaf_key(x, slice(1, None) if self._on_spec else slice(0, 0)) for x in flat)

    def _function_for(self, data, flat, tensors, structure):
        """The tf.function for this data structure (and, tracing on the spec, its non-batch dimensions), or None
        when there is none yet or its trace's batch dimension does not fit the spec."""
        entry = self._functions.get(self._key(flat, structure))
        if entry is not None and (entry[1] is None or entry[1] == self.spec_batch_size):
            return entry[0]
        return None

    def _new_function(self, data, flat, tensors, structure):
        """A new tf.function for this data; one replacing a trace on another batch dimension traces on an unknown
        one, as TF's `reduce_retracing` generalizes the spec."""
        key = self._key(flat, structure)
        batch = None if key in self._functions else self.spec_batch_size
        body = _Body(self, nest.map_structure(lambda _: 0, data), [x is not None for x in flat])
        signature = None
        if self._on_spec and all(type(x) in _SPECS for x in tensors):
            signature = [_SPECS[type(x)]((batch,) + tuple(x.shape)[1:] if x.shape.rank else x.shape, x.dtype)
                         for x in tensors]
        fn = function(body, input_signature=signature, reduce_retracing=True)
        self._functions[key] = (fn, batch if signature is not None else None)
        return fn

    def _fall_back(self, cause):
        self._eager = True
        warnings.warn(f"`{self._entry}` cannot run its step as a tf.function: {cause}; it runs the step eagerly "
                      "from now on.", stacklevel=4)
