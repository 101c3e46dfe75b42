"""`keras.ops` core: control flow (`switch`, `while_loop`, `fori_loop`, `scan`, `associative_scan`, `map`,
`vectorized_map`), `custom_gradient` and einops-style `rearrange`, as Keras's TF backend runs them eagerly."""
import re

import torch

from tfcompat.framework.tensor import _wrap
from tfcompat.keras.ops._common import _st
from tfcompat.util import nest


def switch(index, branches, *operands):
    """`branches[index](*operands)`, the index clipped to the branches' range."""
    i = int(_st(index).to(torch.int32))
    i = min(max(i, 0), len(branches) - 1)
    return branches[i](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """`loop_vars = body(*loop_vars)` while `cond(*loop_vars)` (a single non-sequence loop var is passed alone)."""
    from tfcompat.eager.control_flow import while_loop as _tf_while_loop
    is_tuple = isinstance(loop_vars, (tuple, list))
    loop_vars = tuple(loop_vars) if is_tuple else (loop_vars,)

    def _body(*args):
        out = body(*args)
        return tuple(out) if is_tuple else (out,)
    out = _tf_while_loop(cond, _body, loop_vars, maximum_iterations=maximum_iterations)
    return out if is_tuple else out[0]


def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for `i` in `[lower, upper)`."""
    from tfcompat.eager.control_flow import while_loop as _tf_while_loop
    return _tf_while_loop(lambda i, val: i < upper, lambda i, val: (i + 1, body_fun(i, val)), (lower, init_val))[1]


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """(final carry, stacked outputs) of `carry, y = f(carry, x)` over the leading axis of `xs` (JAX's `lax.scan`)."""
    if not callable(f):
        raise TypeError(f"`f` should be a callable. Received: f={f}")
    if not isinstance(unroll, bool) and (not isinstance(unroll, int) or unroll < 1):
        raise ValueError(f"`unroll` must be an positive integer or boolean. Received: unroll={unroll}")
    if xs is None and length is None:
        raise ValueError("Got no `xs` to scan over and `length` not provided.")
    xs_flat = [] if xs is None else [_st(x) for x in nest.flatten(xs)]
    n = int(length) if length is not None else xs_flat[0].shape[0]
    in_seq = nest.is_nested(xs)
    out_seq = nest.is_nested(init)
    carry_flat = [_st(c) for c in nest.flatten(init)]
    ys = [None] * n
    xs_rows = [t.unbind(0) for t in xs_flat]       # one unbind per input (t[i] per step: quadratic backward)
    for i in (range(n - 1, -1, -1) if reverse else range(n)):
        x = None
        if xs_flat:
            parts = [_wrap(rows[i]) for rows in xs_rows]
            x = nest.pack_sequence_as(xs, parts) if in_seq else parts[0]
        carry_in = [_wrap(c) for c in carry_flat]
        carry, y = f(nest.pack_sequence_as(init, carry_in) if out_seq else carry_in[0], x)
        if y is not None:
            ys[i] = [_st(v) for v in nest.flatten(y)]
        if carry is not None:
            carry_flat = [_st(v) for v in nest.flatten(carry)]
    if ys and all(y is not None for y in ys):
        ys_flat = [torch.stack([y[j] for y in ys]) for j in range(len(ys[0]))]
    else:
        ys_flat = [torch.zeros((n,) + tuple(c.shape), dtype=c.dtype, device=c.device) for c in carry_flat]
    carry_out = [_wrap(c) for c in carry_flat]
    ys_out = [_wrap(y) for y in ys_flat]
    pack = (lambda v: nest.pack_sequence_as(init, v)) if out_seq else (lambda v: v[0])
    return pack(carry_out), pack(ys_out)


def associative_scan(f, elems, reverse=False, axis=0):
    """The inclusive scan of the associative `f` along `axis` (`f` sees slices that keep the axis)."""
    if not callable(f):
        raise TypeError(f"`f` should be a callable. Received: f={f}")
    flat = [_st(e) for e in nest.flatten(elems)]
    sizes = {t.shape[axis] for t in flat}
    if len(sizes) != 1:
        raise ValueError("Array inputs to associative_scan must have the same first dimension. (saw: "
                         f"{[tuple(t.shape) for t in flat]})")
    if reverse:
        flat = [torch.flip(t, (axis,)) for t in flat]
    n = sizes.pop()
    outs = [[t.narrow(axis, 0, 1)] for t in flat] if n else [[] for _ in flat]
    for i in range(1, n):
        a = nest.pack_sequence_as(elems, [_wrap(o[-1]) for o in outs])
        b = nest.pack_sequence_as(elems, [_wrap(t.narrow(axis, i, 1)) for t in flat])
        c = [_st(v) for v in nest.flatten(f(a, b))]
        for o, v in zip(outs, c):
            o.append(v)
    result = [torch.cat(o, dim=axis) if o else t for o, t in zip(outs, flat)]
    if reverse:
        result = [torch.flip(t, (axis,)) for t in result]
    return nest.pack_sequence_as(elems, [_wrap(t) for t in result])


def map(f, xs):  # noqa: A001
    """`f` applied to each slice along the leading axis of `xs` (a structure), the outputs stacked."""
    flat = [_st(x) for x in nest.flatten(xs)]
    n = flat[0].shape[0]
    outs = []
    for i in range(n):
        part = nest.pack_sequence_as(xs, [_wrap(t[i]) for t in flat]) if nest.is_nested(xs) else _wrap(flat[0][i])
        outs.append(f(part))
    if not outs:
        raise ValueError("keras.ops.map over an empty leading axis: the output structure is unknown")
    leaves = [nest.flatten(o) for o in outs]
    stacked = [_wrap(torch.stack([_st(leaf[j]) for leaf in leaves])) for j in range(len(leaves[0]))]
    return nest.pack_sequence_as(outs[0], stacked)


def vectorized_map(function, elements):
    """`function` mapped over the leading axis of `elements` (`tf.vectorized_map`)."""
    from tfcompat.eager.control_flow import vectorized_map as _tf_vectorized_map
    return _tf_vectorized_map(function, elements)


def custom_gradient(f):
    """A function whose gradient is the one `f` returns beside its value (`tf.custom_gradient`)."""
    from tfcompat.eager.custom_gradient import custom_gradient as _tf_custom_gradient
    return _tf_custom_gradient(f)


_AXES = re.compile(r"\w+|\(.*?\)")


def _groups(axes):
    out = []
    for axis in axes:
        inner = re.match(r"\(([\w\s]+)\)", axis)
        out.append(inner.group(1).split() if inner else [axis])
    return out


def rearrange(tensor, pattern, **axes_lengths):
    """einops-style reshaping and transposition: `"b (h h1) w c -> b h (w h1) c"` with `h1=2`."""
    t = _st(tensor)
    try:
        left, right = re.split(r"\s*->\s*", pattern)
    except ValueError:
        raise ValueError(f"Invalid pattern: {pattern!r}; expected one '->'") from None
    in_groups = _groups(_AXES.findall(left))
    out_groups = _groups(_AXES.findall(right))
    if len(in_groups) != t.ndim:
        raise ValueError(f"The pattern {left!r} has {len(in_groups)} axes but the tensor has rank {t.ndim}")
    sizes = dict(axes_lengths)
    for group, dim in zip(in_groups, t.shape):
        if len(group) == 1:
            sizes[group[0]] = dim
            continue
        unknown = [a for a in group if a not in sizes]
        known = 1
        for a in group:
            if a in sizes:
                known *= sizes[a]
        if unknown:
            sizes[unknown[0]] = dim // known
    flat_in = [a for g in in_groups for a in g]
    flat_out = [a for g in out_groups for a in g]
    missing = [a for a in flat_out if a not in flat_in]
    if missing:
        raise ValueError(f"Unknown axes {missing} in the output of pattern {pattern!r}")
    t = t.reshape([sizes[a] for a in flat_in])
    t = t.permute([flat_in.index(a) for a in flat_out])
    out_shape = []
    for g in out_groups:
        size = 1
        for a in g:
            size *= sizes[a]
        out_shape.append(size)
    return _wrap(t.reshape(out_shape))


def _core_dims(signature):
    """The core dimension names of each input of a gufunc signature `"(m,n),(n)->(m)"`."""
    inputs = signature.split("->")[0]
    return [tuple(d for d in group.split(",") if d.strip()) for group in re.findall(r"\(([^)]*)\)", inputs)]


def vectorize(pyfunc, *, excluded=None, signature=None):
    """NumPy's `vectorize` as Keras's TF backend runs it: `pyfunc` is called once on the inputs with their size-1
    loop axes dropped; a loop axis longer than 1 needs a vmap the TF backend refuses (its ValueError)."""
    def wrapped(*args):
        core = _core_dims(signature) if signature is not None else [()] * len(args)
        ts = [_st(a) for a in args]
        loop_shapes = [t.shape[:t.ndim - len(c)] for t, c in zip(ts, core)]
        rank = max((len(s) for s in loop_shapes), default=0)
        if any(d != 1 for s in loop_shapes for d in s):
            raise ValueError("Not supported with `vectorize()` with the TensorFlow backend.")
        squeezed = [_wrap(t.reshape(t.shape[len(s):])) for t, s in zip(ts, loop_shapes)]
        result = pyfunc(*squeezed)
        if rank == 0:
            return result

        def expand(r):
            r = _st(r)
            return _wrap(r.reshape((1,) * rank + tuple(r.shape)))
        return tuple(expand(r) for r in result) if isinstance(result, tuple) else expand(result)
    return wrapped
