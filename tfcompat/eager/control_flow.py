"""Control flow in eager mode: `tf.cond`, `case`, `switch_case`, `while_loop`, `map_fn`, `vectorized_map`,
`scan`, `foldl`/`foldr`, `tf.TensorArray`, `tf.print`, `tf.py_function`, `tf.numpy_function`.

Eager semantics are TF's: branches and loop bodies are plain Python calls. Inside a `tf.function`
trace, a branch on a traced tensor is data-dependent Python control flow (see
`tfcompat.eager.function`); `tf.print`, `py_function` and `numpy_function` are host callbacks that
run on every call of the traced function.
"""
import collections
import pprint
import sys
import traceback

import numpy as np
import torch

from tfcompat.eager.function import host_call
from tfcompat.eager.function._state import tls
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops import debugging_ops, extension_type
from tfcompat.ops.extension_type import ExtensionType
from tfcompat.ops.io_ops._common import data_dependent
from tfcompat.ops.ragged_spec import RaggedTensorSpec
from tfcompat.util import nest


def _tf():
    import tfcompat
    return tfcompat


def _as_bool(pred):
    if isinstance(pred, (Tensor, Variable)):
        return bool(pred)
    return bool(pred)


# -- conditionals ---------------------------------------------------------------------------------------------------
@tf_export("cond")
def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` else `false_fn()`."""
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    return true_fn() if _as_bool(pred) else false_fn()


def _case_error(preds, text):
    values = ", ".join(str(bool(p)) for p in preds)
    raise errors.InvalidArgumentError(
        None, None, f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
        f"b'Input error: {text}'\n{values}")


@tf_export("case")
def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The fn of the first true predicate (all checked if `exclusive`), else `default` (else the last fn)."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    for p in pairs:
        if not (isinstance(p, tuple) and len(p) == 2):
            raise TypeError("Each entry in pred_fn_pairs must be a 2-tuple")
        if not callable(p[1]):
            raise TypeError("fn for pred %s must be callable." % p[0])
    preds = [_as_bool(p) for p, _ in pairs]
    if exclusive and sum(preds) > 1:
        n = sum(preds)
        _case_error([p for p, _ in pairs], "exclusive=True: more than 1 conditions (" + ", ".join(["?"] * n)
                    + ") evaluated as True:")
    for taken, (_, fn) in zip(preds, pairs):
        if taken:
            return fn()
    if default is not None:
        return default()
    if not pairs:
        raise ValueError("pred_fn_pairs must not be empty when default is None")
    return pairs[-1][1]()


@tf_export("switch_case")
def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`branch_fns[branch_index]()`; out-of-range indices run `default` (else the last branch)."""
    if not isinstance(branch_index, (Tensor, Variable)):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if isinstance(branch_fns, dict):
        fns = sorted(branch_fns.items())
    elif branch_fns and isinstance(branch_fns[0], tuple):
        fns = sorted(branch_fns)
    else:
        fns = list(enumerate(branch_fns))
    keys = [k for k, _ in fns]
    if keys != list(range(len(fns))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(fns)}) but found {keys}.")
    i = int(branch_index)
    if 0 <= i < len(fns):
        return fns[i][1]()
    return default() if default is not None else fns[-1][1]()


# -- loops ----------------------------------------------------------------------------------------------------------
def _tensorize(x):
    if isinstance(x, (Tensor, Variable, TensorArray)) or x is None or not _is_convertible(x):
        return x
    return convert_to_tensor(x)


def _is_convertible(x):
    return isinstance(x, (bool, int, float, complex, np.ndarray, np.generic, list, tuple))


@tf_export("while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """Repeats `loop_vars = body(*loop_vars)` while `cond(*loop_vars)` (at most `maximum_iterations` times)."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if loop_vars is None or (isinstance(loop_vars, (list, tuple)) and not loop_vars) or \
            (not isinstance(loop_vars, (Tensor, Variable)) and not nest.is_nested(loop_vars) and not loop_vars):
        raise ValueError("'loop_vars' must be provided.")
    single = not isinstance(loop_vars, (list, tuple))
    lv = nest.map_structure(_tensorize, loop_vars)
    limit = None if maximum_iterations is None else int(maximum_iterations)
    n = 0
    while limit is None or n < limit:
        if not _as_bool(cond(lv) if single else cond(*lv)):
            break
        out = body(lv) if single else body(*lv)
        if not single and not isinstance(out, (list, tuple)):
            out = [out]
        nest.assert_same_structure(lv, out, check_types=False)
        lv = nest.map_structure(_tensorize, out)
        if not single and type(out) is not type(loop_vars) and isinstance(loop_vars, (list, tuple)) \
                and not hasattr(loop_vars, "_fields"):
            lv = type(loop_vars)(lv)
        n += 1
    if not back_prop:
        lv = nest.map_structure(lambda x: _tf().stop_gradient(x) if isinstance(x, Tensor) else x, lv)
    return lv


def _elems_rows(elems):
    flat = [e if isinstance(e, (Tensor, RaggedTensor)) else convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. Got [], which does not "
                         "contain any Tensors.")
    for t in flat:
        if t.shape.rank == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    n = flat[0].nrows_int() if isinstance(flat[0], RaggedTensor) else flat[0].shape[0]
    return flat, n


def _row(flat, elems, i):
    return nest.pack_sequence_as(elems, [t[i] for t in flat])


def _all_rows(flat, elems):
    """Every row of `elems`, each tensor unstacked once: taking `t[i]` row by row made each row's gradient a
    full-size zero tensor in the backward (quadratic in the number of rows)."""
    tf = _tf()
    columns = [[t[i] for i in range(t.nrows_int())] if isinstance(t, RaggedTensor) else tf.unstack(t) for t in flat]
    return [nest.pack_sequence_as(elems, list(row)) for row in zip(*columns)]


def _check_dtype(value, spec):
    dtype = spec.dtype if hasattr(spec, "dtype") and not isinstance(spec, dtypes.DType) else dtypes.as_dtype(spec)
    if value.dtype != dtype:
        raise errors.InvalidArgumentError(
            None, None, f"TensorArray dtype is {dtype.name} but Op is trying to write dtype {value.dtype.name} ")
    return dtype


def _map_ragged_rows(fn, elems):
    """map_fn over a RaggedTensor's rows without an output signature: TF's default stacks them as ragged rows."""
    rows = [_tensorize(fn(elems[i])) for i in range(elems.nrows_int())]
    if rows and rows[0].shape.rank == 0:
        return _tf().stack(rows)
    values = _tf().concat(rows, 0) if rows else elems.flat_values[:0]
    return RaggedTensor.from_row_lengths(values, [r.shape[0] for r in rows], validate=False)


@tf_export("map_fn")
def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """Stacks `fn(row)` over the rows (dimension 0) of `elems` (a tensor or nested structure of tensors)."""
    tf = _tf()
    if fn_output_signature is None:
        fn_output_signature = dtype
    if isinstance(elems, ExtensionType):
        return _map_extension_rows(fn, elems)
    if type(elems) is RaggedTensor and fn_output_signature is None:
        return _map_ragged_rows(fn, elems)
    flat, n = _elems_rows(elems)
    outs = []
    for row in _all_rows(flat, elems):
        r = fn(row)
        r = nest.map_structure(_tensorize, r)
        outs.append(nest.flatten(r))
    sig = fn_output_signature if fn_output_signature is not None else \
        nest.map_structure(lambda t: t.dtype, elems)
    sig_flat = nest.flatten(sig)
    if not outs:
        from tfcompat.ops.misc_ops import TensorSpec
        results = []
        for s, t in zip(sig_flat, flat if fn_output_signature is None else sig_flat):
            shape = list(s.shape) if isinstance(s, TensorSpec) else (list(t.shape[1:]) if isinstance(t, Tensor) else [])
            results.append(tf.zeros([0] + shape, dtype=s.dtype if isinstance(s, TensorSpec) else s))
        return nest.pack_sequence_as(sig, results)
    if len(outs[0]) != len(sig_flat):
        raise ValueError("The two structures don't have the same nested structure.")
    for row in outs:
        for v, s in zip(row, sig_flat):
            _check_dtype(v, s)
    stacked = [(tf.ragged.stack if isinstance(s, RaggedTensorSpec) else tf.stack)([row[j] for row in outs])
               for j, s in enumerate(sig_flat)]
    result = nest.pack_sequence_as(sig if fn_output_signature is not None else r, stacked)
    if not back_prop:
        result = nest.map_structure(tf.stop_gradient, result)
    return result


def _map_extension_rows(fn, elems):
    """`map_fn` over the rows of a BatchableExtensionType: each result stacked (ExtensionType results by field)."""
    outs = [fn(row) for row in extension_type.unstack_rows(elems)]
    if outs and all(isinstance(o, ExtensionType) for o in outs):
        return extension_type.stack_values(outs)
    if outs and all(isinstance(o, Tensor) for o in outs):
        return _tf().stack(outs)
    raise NotImplementedError("tf.map_fn over an ExtensionType: only ExtensionType or Tensor results are supported by "
                              "tfcompat")


@tf_export("vectorized_map")
def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`map_fn` computed in one batch with `torch.vmap`; falls back to a loop where vmap does not apply."""
    flat, n = _elems_rows(elems)
    storages = [storage(t) for t in flat]
    if all(isinstance(s, torch.Tensor) for s in storages) and n > 0:
        def per_example(*ts):
            out = fn(nest.pack_sequence_as(elems, [_wrap(t) for t in ts]))
            return tuple(storage(o) for o in nest.flatten(nest.map_structure(_tensorize, out))), out
        try:
            res = torch.vmap(lambda *ts: per_example(*ts)[0])(*storages)
            template = fn(_row(flat, elems, 0))
            return nest.pack_sequence_as(template, [_wrap(t) for t in res])
        except Exception:
            if not fallback_to_while_loop:
                raise
    if n == 0:
        return map_fn(fn, elems)
    # TF's fallback is a while loop: the results may be structured unlike `elems` (per-example gradients)
    template = nest.map_structure(_tensorize, fn(_row(flat, elems, 0)))
    return map_fn(fn, elems, fn_output_signature=nest.map_structure(lambda t: t.dtype, template))


@tf_export("scan")
def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """Stacks the successive accumulators `a = fn(a, row)` over the rows of `elems` (reversed if `reverse`)."""
    tf = _tf()
    flat, n = _elems_rows(elems)
    rows = _all_rows(flat, elems)
    order = rows[::-1] if reverse else rows
    if initializer is None:
        if not order:
            raise ValueError("elems must not be empty when initializer is None")
        acc = order[0]
        order = order[1:]
        results = [acc]
    else:
        acc = nest.map_structure(_tensorize, initializer)
        results = []
    for row in order:
        acc = nest.map_structure(_tensorize, fn(acc, row))
        results.append(acc)
    if reverse:
        results = results[::-1]
    rows = [nest.flatten(r) for r in results]
    stacked = [tf.stack([row[j] for row in rows]) for j in range(len(rows[0]))]
    return nest.pack_sequence_as(results[0], stacked)


def _fold(fn, elems, initializer, rev):
    flat, n = _elems_rows(elems)
    rows = _all_rows(flat, elems)
    order = rows[::-1] if rev else rows
    if initializer is None:
        acc = order[0]
        order = order[1:]
    else:
        acc = nest.map_structure(_tensorize, initializer)
    for row in order:
        acc = nest.map_structure(_tensorize, fn(acc, row))
    return acc


@tf_export("foldl")
def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`fn(...fn(fn(init, e0), e1)..., en)` over the rows of `elems`."""
    return _fold(fn, elems, initializer, False)


@tf_export("foldr")
def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """Like `foldl`, from the last row to the first."""
    return _fold(fn, elems, initializer, True)


# -- TensorArray ------------------------------------------------------------------------------------------------------
@tf_export("TensorArray", unsupported=("handle", "flow"), partial="`handle` and `grad` (graph-mode only)")
class TensorArray:
    """A list of same-dtype tensors indexed by position, with TF's eager semantics and errors."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        if size is None:
            raise ValueError("Size must be provided if handle is not provided")
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._items = [None] * int(size)
        self._cleared = set()

    dtype = property(lambda self: self._dtype)
    dynamic_size = property(lambda self: self._dynamic_size)

    @property
    def element_shape(self):
        return self._element_shape

    @property
    def handle(self):
        raise NotImplementedError("TensorArray.handle: tfcompat TensorArrays have no resource handle")

    flow = property(lambda self: None)

    def size(self, name=None):
        return convert_to_tensor(len(self._items), dtypes.int32)

    def _value(self, value):
        v = value if isinstance(value, Tensor) else convert_to_tensor(
            value, self._dtype if not isinstance(value, (Variable,)) else None)
        if isinstance(value, Variable):
            v = value.read_value()
        if v.dtype != self._dtype:
            raise errors.InvalidArgumentError(
                None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                f"{v.dtype.name} ")
        if self._infer_shape and not self._element_shape.is_compatible_with(v.shape):
            raise ValueError(f"Incompatible shape for value ({v.shape}), expected ({self._element_shape})")
        return v

    def write(self, index, value, name=None):
        """Writes `value` at `index`; returns this array (eager TensorArrays are updated in place)."""
        i = int(index)
        v = self._value(value)
        if i < 0:       # TF's eager TensorArray (a Python list) checks the index itself
            raise errors.OutOfRangeError(None, None, f"Writing to negative indices (index {i}) is not allowed.")
        if i >= len(self._items):
            if not self._dynamic_size:
                raise errors.OutOfRangeError(None, None, f"Tried to write to index {i} but array is not resizeable "
                                             f"and size is: {len(self._items)} ")
            self._items.extend([None] * (i + 1 - len(self._items)))
        if self._infer_shape:
            self._element_shape = self._element_shape.merge_with(v.shape)
        self._items[i] = v
        return self

    def read(self, index, name=None):
        i = int(index)
        if i < 0:
            raise errors.OutOfRangeError(None, None, f"Reading from negative indices (index {i}) is not allowed.")
        if i >= len(self._items):
            raise errors.OutOfRangeError(None, None, f"Tried to read from index {i} but array size is: "
                                         f"{len(self._items)} ")
        if i in self._cleared:
            raise errors.InvalidArgumentError(
                None, None, f"Could not read index {i} twice because it was cleared after a previous read "
                "(perhaps try setting clear_after_read = false?)")
        v = self._items[i]
        if v is None:
            v = self._zeros()
        elif self._clear_after_read:
            self._cleared.add(i)
        return v

    def _zeros(self):
        if not self._element_shape.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {self._element_shape} to a Tensor.")
        return _tf().zeros(self._element_shape.as_list(), self._dtype)

    def _all(self):
        return [v if v is not None else self._zeros() for v in self._items]

    def stack(self, name=None):
        """All elements stacked on a new dimension 0."""
        if not self._items:
            shape = self._element_shape.as_list() if self._element_shape.rank is not None else []
            return _tf().zeros([0] + [d or 0 for d in shape], self._dtype)
        return _tf().stack(self._all())

    def gather(self, indices, name=None):
        items = self._all()
        return _tf().stack([items[int(i)] for i in np.asarray(indices).reshape(-1)])

    def concat(self, name=None):
        items = self._all()
        for j, v in enumerate(items):
            if v.shape.rank == 0:
                raise errors.InvalidArgumentError(
                    None, None, f"Concat saw a scalar shape at index {j} but requires at least vectors.")
        if not items:
            return _tf().zeros([0], self._dtype)
        return _tf().concat(items, 0)

    def unstack(self, value, name=None):
        value = self._as_tensor(value)
        n = value.shape[0]
        if not self._dynamic_size and self._items and n > len(self._items):
            raise ValueError(f"Cannot unstack {n} tensors into a TensorArray of static size {len(self._items)} ")
        return self.scatter(list(range(n)), value)

    def scatter(self, indices, value, name=None):
        value = self._as_tensor(value)
        for j, i in enumerate(np.asarray(indices).reshape(-1)):
            self.write(int(i), value[j])
        return self

    def split(self, value, lengths, name=None):
        value = self._as_tensor(value)
        start, infer = 0, self._infer_shape
        self._infer_shape = False          # pieces differ in their first dimension
        try:
            for i, n in enumerate(np.asarray(lengths).reshape(-1)):
                self.write(i, value[start:start + int(n)])
                start += int(n)
        finally:
            self._infer_shape = infer
        return self

    def _as_tensor(self, value):
        v = convert_to_tensor(value, self._dtype) if not isinstance(value, Tensor) else value
        if v.dtype != self._dtype:
            raise errors.InvalidArgumentError(
                None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                f"{v.dtype.name} ")
        return v

    def identity(self):
        return self

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError("TensorArray.grad: use tf.GradientTape on the stacked tensors")

    def close(self, name=None):
        self._items = []


# -- tf.print ---------------------------------------------------------------------------------------------------------
def _scalar_text(x):
    if isinstance(x, (bytes, np.bytes_)):
        return '"' + x.decode("utf-8", "backslashreplace") + '"'
    if isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if isinstance(x, (np.floating, float)):
        if isinstance(x, np.float64) or type(x) is float:
            digits = (15, 17)
        else:
            digits = (6, 9)
        v = float(x)
        if np.isnan(v):
            return "nan" if not np.signbit(v) else "-nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        s = f"%.{digits[0]}g" % v
        if type(x)(float(s)) != x:
            s = f"%.{digits[1]}g" % v
        return s
    if isinstance(x, (np.complexfloating, complex)):
        return f"({_scalar_text(np.float64(x.real))},{_scalar_text(np.float64(x.imag))})"
    return str(x)


def _format_array(a, summarize, indent=0):
    if a.ndim == 0:
        return _scalar_text(a[()])
    n = a.shape[0]
    idx = list(range(n)) if summarize < 0 or n <= 2 * summarize else \
        list(range(summarize)) + [None] + list(range(n - summarize, n))
    if a.ndim == 1:
        return "[" + " ".join("..." if i is None else _scalar_text(a[i]) for i in idx) + "]"
    sep = "\n" * (a.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join("..." if i is None else _format_array(a[i], summarize, indent + 1) for i in idx) + "]"


def _with_leaves(x, fn):
    """`x` with `fn` applied to the leaves of its lists, tuples (named ones too) and dicts (keys sorted, as TF's nest)."""
    if isinstance(x, dict):
        items = [(k, _with_leaves(x[k], fn)) for k in sorted(x)]
        return collections.OrderedDict(items) if isinstance(x, collections.OrderedDict) else dict(items)
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[_with_leaves(v, fn) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_with_leaves(v, fn) for v in x)
    return fn(x)


def _text(values, summarize, sep):
    """TF's tf.print text: each input's `pprint.pformat` with a placeholder for each tensor (a string input is its
    own text), the placeholders then replaced by the tensors' summarized values."""
    if len(values) == 1 and isinstance(values[0], Tensor) and values[0].dtype == dtypes.string and \
            values[0].shape.rank == 0:
        return values[0]._array()[()].decode("utf-8", "backslashreplace")     # a lone string scalar, unquoted
    free = " ".join(pprint.pformat(_with_leaves(v, lambda x: "" if isinstance(x, Tensor) else x)) for v in values)
    placeholder = "{}"
    while placeholder in free:
        placeholder += "0"
    tensors = []

    def mark(x):
        if isinstance(x, Tensor):
            tensors.append(x)
            return placeholder
        return x
    template = sep.join(v if isinstance(v, str) else pprint.pformat(_with_leaves(v, mark)) for v in values)
    pieces = template.replace(repr(placeholder), placeholder).split(placeholder)
    out = [pieces[0]]
    for t, piece in zip(tensors, pieces[1:]):
        out += [_format_array(np.asarray(t._array()), summarize), piece]
    return "".join(out)


class _Text:
    """A value tf.print shows as its text, unquoted (`pprint.pformat` uses the repr)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _ragged_text(rt, summarize):
    """TF prints a RaggedTensor as its ragged_to_string text, unquoted."""
    from tfcompat.ops.ragged_dispatch_ops import ragged_to_string
    return _Text(ragged_to_string(rt, summarize))


@tf_export("print")
def print_v2(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """Prints `inputs` (tensors in TF's summarized format) to `output_stream` (default: stderr)."""
    if summarize is None:
        summarize = 3
    stream = output_stream
    if stream is not None and not (hasattr(stream, "write") or (isinstance(stream, str)
                                                                 and stream.startswith("file://"))):
        raise NotImplementedError(f"tf.print(output_stream={stream!r}): tfcompat supports sys.stdout, sys.stderr, "
                                  "file objects and 'file://' paths")
    inputs = nest.map_structure(lambda x: x.read_value() if isinstance(x, Variable) else
                                _ragged_text(x, summarize) if isinstance(x, RaggedTensor) else x, list(inputs))
    leaves = nest.flatten(inputs)
    positions = [i for i, x in enumerate(leaves) if isinstance(x, Tensor) and isinstance(storage(x), torch.Tensor)]

    def emit(storages):
        flat = list(leaves)
        for i, t in zip(positions, storages):
            flat[i] = _wrap(t)
        text = _text(nest.pack_sequence_as(inputs, flat), summarize, sep) + end
        if isinstance(stream, str):
            with open(stream[len("file://"):], "a", encoding="utf-8") as f:
                f.write(text)
        else:
            target = stream if stream is not None else sys.stderr
            target.write(text)
            if hasattr(target, "flush"):
                target.flush()
        return []

    if (not tls.shape_only or tls.recorder is not None) and not debugging_ops.debug_stripped():
        # (a trace records the print for its replays)
        host_call(emit, [storage(leaves[i]) for i in positions])


# -- Python callbacks -------------------------------------------------------------------------------------------------
def _py_call(func, inp, Tout, to_numpy, check):
    inp = list(inp) if isinstance(inp, (list, tuple)) else [inp]
    inp = [x.read_value() if isinstance(x, Variable) else (x if isinstance(x, Tensor) else convert_to_tensor(x))
           for x in inp]
    single = not isinstance(Tout, (list, tuple))
    touts = [Tout] if single else list(Tout)

    def run(storages):
        args = [_wrap(t) for t in storages]
        if to_numpy:
            args = [a.numpy() for a in args]
            res = func(*args)
        else:
            try:
                res = func(*args)
            except Exception as e:  # noqa: BLE001 - EagerPyFunc turns every Python error into a TF error
                raise _py_func_error(e) from e
        res = [res] if single or not isinstance(res, (list, tuple)) else list(res)
        out = []
        for r, d in zip(res, touts):
            d = dtypes.as_dtype(d) if d is not None else None
            if check:
                t = r if isinstance(r, Tensor) else convert_to_tensor(r, d)
                if d is not None and t.dtype != d:
                    raise errors.InvalidArgumentError(
                        None, None, f"0-th value returned by pyfunc_0 is {t.dtype.name}, but expects {d.name}")
            else:
                t = convert_to_tensor(r)
            out.append(storage(t))
        return out

    out = host_call(run, [storage(x) for x in inp])
    outs = [data_dependent(_wrap(t), None) for t in out]     # TF: shapes unknown (a tf.data spec probe notes it)
    return outs[0] if single else outs


# Python exception -> the TF error class EagerPyFunc reports it as (any other, TF's own errors too: UnknownError)
_PY_FUNC_ERRORS = ((ValueError, errors.InvalidArgumentError), (TypeError, errors.InvalidArgumentError),
                   (StopIteration, errors.OutOfRangeError), (MemoryError, errors.ResourceExhaustedError),
                   (NotImplementedError, errors.UnimplementedError))


def _py_func_error(e):
    """TF's error for exception `e` raised by a `tf.py_function` body: its class by TF's table, the Python error
    and traceback as its message."""
    cls = next((tf_cls for py_cls, tf_cls in _PY_FUNC_ERRORS
                if isinstance(e, py_cls) and not isinstance(e, errors.OpError)), errors.UnknownError)
    name = type(e).__name__ if type(e).__module__ == "builtins" else f"{type(e).__module__}.{type(e).__name__}"
    trace = "".join(traceback.format_tb(e.__traceback__))
    return cls(None, None, f"{name}: {e}\nTraceback (most recent call last):\n\n{trace}\n{name}: {e}\n\n\n "
                           "[Op:EagerPyFunc]")


@tf_export("py_function")
def py_function(func=None, inp=None, Tout=None, name=None):
    """Calls the Python function `func` on eager tensors (on every call of an enclosing tf.function)."""
    if func is None:
        return lambda f: (lambda *a: py_function(f, a, Tout, name))
    return _py_call(func, inp or [], Tout, False, True)


@tf_export("numpy_function")
def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Calls `func` on NumPy arrays; its results become tensors (on every call of an enclosing tf.function)."""
    if func is None:
        return lambda f: (lambda *a: numpy_function(f, a, Tout, stateful, name))
    return _py_call(func, inp or [], Tout, True, False)
