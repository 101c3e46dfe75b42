"""What tf.data's modules share: cardinality constants, argument conversion, TF's iterator errors, user calls."""
import inspect
import os
from concurrent.futures import ThreadPoolExecutor

import torch

from tfcompat.data import structure as st
from tfcompat.framework import errors
from tfcompat.framework.tensor import EagerTensor, Tensor, wrap
from tfcompat.ops import _philox
from tfcompat.ops.deprecation import traces_graph
from tfcompat.ops.random_ops import draw_seed, op_seeds

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2
INT64 = torch.int64


def to_int(value):
    """A Python int from an int or a scalar tensor argument."""
    return int(value._array()) if isinstance(value, Tensor) else int(value)


def scalar64(value):
    """`value` as an int64 scalar tensor."""
    return wrap(torch.tensor(value, dtype=INT64))


def dataset_seeds(seed):
    """A random dataset's seed pair as one int (`seed << 32 | seed2`: iterator states save ints): TF's
    `get_seed(seed)` when the dataset is made, and for (0, 0) (no global or op seed) two fresh draws, as TF's
    `RandomSeeds` does."""
    seeds = op_seeds(None if seed is None else to_int(seed))
    if seeds is None or seeds == (0, 0):
        seeds = draw_seed(), draw_seed()
    return (seeds[0] << 32) | seeds[1]


def pass_seeds(packed, epoch=None):
    """The Philox seeds of one pass over a random dataset: the pair itself (TF's `FixedSeedGenerator`), or for pass
    `epoch` of a dataset that draws anew each iteration (`RandomSeedGenerator`) two successive 32-bit words of
    `PhiloxRandom(seed, seed2)`."""
    seed, seed2 = packed >> 32, packed & 0xFFFFFFFF
    if epoch is None:
        return seed, seed2
    block = _philox._bits(epoch // 2 + 1, _philox.Stateful(seed, seed2, 0))[epoch // 2]
    return int(block[2 * (epoch % 2)]), int(block[2 * (epoch % 2) + 1])


def philox_words(seed, seed2, blocks=256):
    """The 32-bit words of `PhiloxRandom(seed, seed2)` in order (TF's `SingleSampleAdapter`), `blocks` Philox blocks
    at a time."""
    offset = 0
    while True:
        yield from _philox._bits(blocks, _philox.Stateful(seed, seed2, offset)).reshape(-1).tolist()
        offset += blocks


def end_of_sequence():
    """TF's OutOfRangeError at the end of an iterator."""
    return errors.op_error(errors.OutOfRangeError, "End of sequence", "IteratorGetNext")


def dataset_op_error(cls, message, op, attrs=""):
    """TF's error from an eager dataset op's kernel (`op`, e.g. "BatchDatasetV2"): the op runs as a wrapped function,
    so the message starts with its `{{function_node __wrapped__<op><attrs>_device_...}}` and ends with `[Op:<op>]`;
    `attrs` is the op's list-attribute part of that name (`_output_types_2`, `_Targuments_0`)."""
    return errors.op_error(cls, f"{{{{function_node __wrapped__{op}{attrs}_device_/job:localhost/replica:0/task:0/"
                                f"device:CPU:0}}}} {message}", op)


def get_next_error(cls, message):
    """An error of class `cls` raised while producing an element (op `IteratorGetNext`)."""
    return errors.op_error(cls, message, "IteratorGetNext")


@traces_graph
def call(fn, element):
    """Calls a user function with an element: a plain tuple is unpacked into positional args (TF's rule)."""
    if type(element) is tuple:
        return fn(*element)
    return fn(element)


@traces_graph
def call_args(fn, *args):
    """Calls a user function with positional arguments (`scan`'s and `reduce`'s state and element)."""
    return fn(*args)


def check_arity(fn, spec):
    """TF traces a dataset function when the dataset is built, so one that cannot take the element's components
    raises Python's TypeError there, not at the first element (checked when the input's `spec` is known)."""
    if spec is None:
        return
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return
    given = len(spec) if type(spec) is tuple else 1
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p.name for p in positional if p.default is p.empty]
    name = getattr(fn, "__qualname__", type(fn).__name__)
    if given > len(positional):
        k = len(positional)
        takes = f"{k} positional argument{'s' if k != 1 else ''}" if len(required) == k else \
            f"from {len(required)} to {k} positional arguments"
        raise TypeError(f"{name}() takes {takes} but {given} {'was' if given == 1 else 'were'} given")
    missing = [f"'{n}'" for n in required[given:]]
    if missing:
        names = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])}{',' if len(missing) > 2 else ''} " \
            f"and {missing[-1]}"
        raise TypeError(f"{name}() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}"
                        f": {names}")


def fn_output(value):
    """A function's return value as an element (a top-level list becomes a tuple, leaves become tensors)."""
    t = type(value)
    if t is EagerTensor or (t is tuple and value and all(type(c) is EagerTensor for c in value)):
        return value
    if isinstance(value, list):
        value = tuple(value)
    if value is None or (st.is_nested(value) and not st.flatten(value)):
        raise errors.InvalidArgumentError(
            None, None, "Length for attr 'output_types' of 0 must be at least minimum 1")
    return st.normalize(value)


def cpu_count():
    """The CPUs this process may run on (AUTOTUNE's parallelism)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def parallel_cycle_length(num_parallel_calls):
    """TF's cycle length of a parallel `interleave` whose `cycle_length` is AUTOTUNE: `num_parallel_calls` capped at
    the CPU count, or for AUTOTUNE parallelism ceil(CPUs / 3) (each cycle element has two prefetched successors)."""
    if num_parallel_calls == AUTOTUNE:
        return -(-cpu_count() // 3)
    return min(num_parallel_calls, cpu_count())


def round_robin(sources, cycle, block=1):
    """TF's interleave order over the element iterators `sources` yields: `cycle` slots visited in turn, `block`
    elements from each; a slot found exhausted is refilled from `sources` (lazily) when its turn comes."""
    sources = iter(sources)
    slots = [None] * cycle
    open_count, index, taken, end_of_input = 0, 0, 0, False
    while not end_of_input or open_count:
        it = slots[index]
        if it is not None:
            try:
                element = next(it)
            except StopIteration:
                slots[index] = None
                open_count -= 1
            else:
                taken += 1
                if taken == block:
                    index, taken = (index + 1) % cycle, 0
                yield element
                continue
        elif not end_of_input:
            try:
                slots[index] = next(sources)
            except StopIteration:
                end_of_input = True
            else:
                open_count += 1
            continue
        index, taken = (index + 1) % cycle, 0


_POOL = []


def pool():
    """The thread pool of parallel `map` (created on first use)."""
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max(cpu_count(), 2), thread_name_prefix="tfcompat-data"))
    return _POOL[0]


class StepIterator:
    """Base of tf.data's explicit iterators (`__next__` per element): unlike a generator, one that raised stays
    usable, so `ignore_errors` can go on after a failed element."""

    __slots__ = ()

    def __iter__(self):
        return self
