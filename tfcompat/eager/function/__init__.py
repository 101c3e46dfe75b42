"""`tf.function`: traced once per input signature, then replayed without re-running the Python body.

Modules (one part each):
  `_function`   the `Function` class and the `tf.function` decorator: call keys, lookup, tracing, running
  `_signatures` trace keys of arguments, TensorSpec matching and generalization, binding to `input_signature`
  `_trace`      runs the Python body once under the recorder (TF's variable-creation rules)
  `_recorder`   the `TorchDispatchMode` that records each aten op of a trace and resolves its inputs
  `_guards`     host reads of traced values (guards), TF's symbolic tensor text while tracing
  `_host`       host callbacks (`tf.print`, `py_function`, `next(iterator)`), `tf.init_scope`, quiet re-runs
  `_program`    the replay program: source generation, compilation, running it for a call
  `_jit`        the compiled path (`jit_compile=True`, `torch.compile`)
  `_concrete`   `ConcreteFunction` (one trace), its FunctionType text, flat and structured calls
  `_retrace`    TF's frequent-retracing warning
  `_state`      the per-thread trace state, live variables, `tf.config.run_functions_eagerly`
  `_autograph`  `tf.autograph` (no conversion: the Python body runs as written)
  `_shape_checks` an op's failed static shape check while tracing on known shapes: TF's graph-build ValueError
  `_leaks`      tensors a trace leaves in the body's globals or closure become TF's out-of-scope SymbolicTensors
  `_placeholders` placeholder sizes for `None` dims of a signature, and the program general over them (SavedModel)

Recording:
- Calls are keyed by TF's input signature: tensors by dtype and shape, variables by dtype and shape,
  other Python values by value (`2` and `2.0` share a trace, as in TF). A new key is a new trace
  (`experimental_get_tracing_count()`); with `reduce_retracing=True` or an `input_signature`, shapes
  generalize to `None` dims as TF does, and any trace whose specs are compatible is reused.
- A trace runs the Python body once on the real inputs (so `print`, `list.append` happen then, and
  `tf.print` prints) under a `TorchDispatchMode` (`_recorder.Recorder`) that records every aten op the body
  runs, including the backward ops of `GradientTape`s used inside the body. Op inputs are resolved to function
  inputs, to reads of `tf.Variable`s (any variable alive or created during the trace), to values of earlier
  ops, or to captured constants; variables whose value changed are recorded as writes. `tf.print`,
  `tf.py_function`, `tf.numpy_function` and `next()` on a tf.data iterator are recorded as host callbacks
  that run on every call.
- Python reads of traced values become guards: a scalar read (`.item()`, `bool()`, `int()`) reaches the
  recorder as `aten._local_scalar_dense`; an array read (`torch.Tensor.numpy`, `.tolist`, `__array__`, so
  also `tf.Tensor.numpy()`) is seen by a `TorchFunctionMode` (`_guards.HostReads`).

Nothing changes for other threads or after the trace: both modes are torch's per-thread mode stacks, entered
only around the body; the trace state (`_state.tls`) is thread-local; torch's methods are never replaced.
`tf.Tensor`'s text and `__bool__` (and a tf.data iterator's `__next__`, once tf.data is imported) carry, from
import (first trace) on, a wrapper that reads this thread's trace state and otherwise calls the original.

Replay:
- The recording is compiled to straight-line Python (one call per aten op: no tfcompat wrappers,
  dtype checks or conversion) and replayed for later calls with the same signature; a failed guard raises
  `GuardFailed` before any variable is written and the Python body runs again. Without tapes, an optimizer's
  slot copies (`Recorder.private_copy`) are its claims: the replay updates the slots in place, as the eager step
  does. A trace that creates variables (traced again, as in TF) builds no program. With `jit_compile=True` the
  replay program runs through `torch.compile`, its scalar guards (`bool(t)`, `.item()`: e.g. the label range
  check of sparse cross-entropy) computed inside the graph and checked after it, and a failing compiled run
  falls back to the plain program (see `_jit.Jit`).
- Replays are differentiable by an outer `GradientTape`: tapes outside the function are hidden while
  tracing, and the replay reads variables through the tapes. A `tf.custom_gradient` call is recorded with its
  gradient function as a nested program (traced on stand-in upstream gradients), which the replay attaches as the
  outputs' autograd node; a body run again after a failed guard is replayed for such a tape.
- Checkpoint restores run under `tf.init_scope`: a restore deferred until variables are created inside a trace
  gives them their initial value, as TF does.
- A ConcreteFunction's output specs under `None` input dims come from the recording replayed at other sizes (dims
  that change are `None`); shapes TF infers as unknown from values (`tf.boolean_mask`) stay concrete.

Documented divergences from TF:
- A body whose Python control flow depends on tensor values (`if x > 0:`, `int(x)`, `x.numpy()` on
  values computed from the inputs) cannot be replayed: tfcompat then runs the Python body on every
  call for that signature (values stay right; Python side effects repeat). With `autograph=False`,
  a tensor used as a Python `bool` raises TF's `OperatorNotAllowedInGraphError` instead.
- Recorded programs are shape-specific: under a generalized signature (`None` dims), the first call
  with a new concrete shape runs the Python body again (it does not count as a trace).
- `get_concrete_function` of specs with `None` dims (so `tf.saved_model.save` of an `input_signature`) traces on
  placeholder values, where TF traces symbolically (`_placeholders`): distinct probe sizes above 1 per unknown dim,
  then one dim at a time at a size of the variables and tensors the body can see (features that must match a
  weight), then size 1; a body that fails on all of them raises NotImplementedError. When a SavedModel is written,
  the body is traced again (quietly: Python side effects repeat) at other sizes, and a program whose literals follow
  the sizes is saved as general: a loaded function runs any size of those dims (a dim that had to keep its traced
  size keeps it). `get_concrete_function` of a string TensorSpec does not run the body: the first real call does
  (its output specs are unknown until then), and such a function is saved without a program.
- Grappler's `debug_stripper` option is honoured: inside function bodies failing asserts, CheckNumerics and
  `tf.print` do nothing (a trace that strips one re-runs its body on each call, reading the option then).
- While tracing, `str()`/`repr()` of a traced tensor give TF's symbolic text (`Tensor("x:0", ...)`),
  and the body otherwise sees real values (`executing_eagerly()` is True).
- String tensors, and composite values (RaggedTensor, SparseTensor, ExtensionTypes) as inputs or outputs, make
  the function run its Python body on every call (values right; Python side effects repeat).
- ConcreteFunction.structured_outputs are TensorSpecs, not TF's symbolic graph tensors.
"""
from tfcompat.eager.function._autograph import do_not_convert, set_verbosity, to_code, to_graph  # noqa: F401
from tfcompat.eager.function._concrete import AtomicFunction, ConcreteFunction, FunctionType  # noqa: F401
from tfcompat.eager.function._function import Function, function  # noqa: F401
from tfcompat.eager.function._guards import GuardFailed  # noqa: F401
from tfcompat.eager.function._host import host_call, init_scope_context  # noqa: F401
from tfcompat.eager.function._program import compile_program, program_source, run_program  # noqa: F401
from tfcompat.eager.function import _shape_checks  # noqa: F401  (static shape errors while tracing)
from tfcompat.eager.function._signatures import TraceType, compatible, exact_key, is_spec  # noqa: F401
from tfcompat.eager.function._state import current_recorder, functions_run_eagerly, run_functions_eagerly  # noqa: F401
from tfcompat.framework.export import tf_export

# the names `saved_model/_load.py` uses (from before the package split)
_run_program, _is_spec, _compatible, _exact_key = run_program, is_spec, compatible, exact_key


def _export_tanh():
    """`tf.tanh`: TF's top-level alias of `tf.math.tanh` (defined in math_ops)."""
    from tfcompat.ops import math_ops
    tf_export("tanh")(math_ops.tanh)


_export_tanh()
