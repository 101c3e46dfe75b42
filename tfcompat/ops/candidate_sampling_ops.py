"""`tf.random.*_candidate_sampler` and `tf.nn.compute_accidental_hits`: TF's range samplers.

Each sampler draws `num_sampled` classes from [0, range_max) (distinct ones when `unique`) and returns TF's expected
counts: `p * num_sampled` when every draw was kept, else `-expm1(num_tries * log1p(-p))` with `num_tries` the number
of draws made (TF's `ExpectedCountHelper`). The draws come from tfcompat's seeded streams (TF's seed rules, not TF's
bits); the probabilities and expected counts are TF's.
"""
import collections
import math

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.ops._nn_common import _op_error
from tfcompat.ops.random_ops import _Seeds, generator_for

_FIELDS = ["sampled_candidates", "true_expected_count", "sampled_expected_count"]
LogUniformCandidateSampler = collections.namedtuple("LogUniformCandidateSampler", _FIELDS)
UniformCandidateSampler = collections.namedtuple("UniformCandidateSampler", _FIELDS)
FixedUnigramCandidateSampler = collections.namedtuple("FixedUnigramCandidateSampler", _FIELDS)
LearnedUnigramCandidateSampler = collections.namedtuple("LearnedUnigramCandidateSampler", _FIELDS)
AllCandidateSampler = collections.namedtuple("AllCandidateSampler", _FIELDS)
ComputeAccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])

_SIGNATURE = ("true_classes:int64 -> sampled_candidates:int64, true_expected_count:float, "
              "sampled_expected_count:float; attr=num_true:int,min=1; attr=num_sampled:int,min=1; attr=unique:bool; "
              "{range}attr=seed:int,default=0; attr=seed2:int,default=0; is_stateful=true")
_RANGE_ATTR = "attr=range_max:int,min=1; "
_FIXED_ATTRS = ("attr=range_max:int,min=1; attr=vocab_file:string,default=\"\"; attr=distortion:float,default=1; "
                "attr=num_reserved_ids:int,default=0; attr=num_shards:int,default=1,min=1; "
                "attr=shard:int,default=0,min=0; attr=unigrams:list(float),default=[]; ")


def _attr_min(op, attr, value, minimum, attrs):
    if value < minimum:
        raise _op_error(f"Value for attr '{attr}' of {value} must be at least minimum {minimum}\n\t; NodeDef: "
                        f"{{{{node {op}}}}}; Op<name={op}; signature={_SIGNATURE.format(range=attrs)}>", op)


def _true_classes(true_classes, num_true, num_sampled, op, attrs=_RANGE_ATTR, range_max=1):
    """The [batch, num_true] int64 storage, after TF's attr and shape checks."""
    _attr_min(op, "num_true", int(num_true), 1, attrs)
    _attr_min(op, "num_sampled", int(num_sampled), 1, attrs)
    if attrs:
        _attr_min(op, "range_max", int(range_max), 1, attrs)
    t = input_storage(true_classes, dtypes.int64)
    if t.dtype is not torch.int64:
        raise _op_error(f"cannot compute {op} as input #0(zero-based) was expected to be a int64 tensor but is a "
                        f"{type_name(t.dtype)} tensor", op)
    if t.ndim != 2:
        raise _kernel(op, "true_classes must be a matrix")
    if t.shape[1] != int(num_true):
        raise _kernel(op, f"true_classes must have num_true columns, expected: {t.shape[1]} was: {int(num_true)}")
    return t


def _kernel(op, message):
    from tfcompat.framework.errors import InvalidArgumentError, kernel_error
    return kernel_error(InvalidArgumentError, message, op)


def _check_range(values, range_max, op):
    if values.numel():
        bad = (values < 0) | (values >= range_max)
        if bool(bad.any()):
            raise _kernel(op, f"`true_candidate` out of range [0, {range_max}), received {int(values[bad][0])}")


def _expected(p, num_sampled, num_tries):
    """TF's ExpectedCountHelper, in float32 as TF's kernel."""
    p = np.asarray(p, dtype=np.float32)
    if num_tries == num_sampled:
        return p * np.float32(num_sampled)
    return -np.expm1(np.float32(num_tries) * np.log1p(-p))


def _sample(draw, num_sampled, unique, range_max, op):
    """`num_sampled` draws (distinct if `unique`) and the number of tries; `draw(n)` returns n int64 candidates."""
    if not unique:
        return draw(num_sampled), num_sampled
    if num_sampled > range_max:
        raise _kernel(op, "Sampler's range is too small.")
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:
        chunk = draw(max(2 * (num_sampled - len(picked)), 16)).tolist()
        for v in chunk:
            tries += 1
            if v not in seen:
                seen.add(v)
                picked.append(v)
                if len(picked) == num_sampled:
                    break
    return np.asarray(picked, dtype=np.int64), tries


def _run(tuple_cls, op, true, num_sampled, unique, range_max, probability, draw, learn=None):
    """Samples (a host callback: inside a tf.function it runs again on every call, drawing anew)."""
    num_sampled = int(num_sampled)

    def sample(inputs):
        t = inputs[0]
        _check_range(t, range_max, op)
        p, d = (probability, draw) if learn is None else learn(None)
        sampled, tries = _sample(d, num_sampled, bool(unique), range_max, op)
        if learn is not None:
            learn(t)
        return [torch.from_numpy(np.ascontiguousarray(sampled, dtype=np.int64)),
                torch.from_numpy(_expected(p(t.cpu().numpy()), num_sampled, tries)),
                torch.from_numpy(_expected(p(sampled), num_sampled, tries))]
    return tuple_cls(*(wrap(o) for o in _host[0](sample, [true])))


# set by tf.function (eager/function/_host.py): `fn(callback, storages) -> storages`, a host callback in a trace
_host = [lambda fn, inputs: fn(inputs)]


def register_host_call(fn):
    _host[0] = fn


def _uniform01(seed, n):
    """`n` float64 uniforms in [0, 1) from the stream of op seed `seed`."""
    return torch.rand(n, dtype=torch.float64, generator=generator_for(seed, "cpu"), device="cpu").numpy()


@tf_export("random.log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Zipfian sampling: P(k) = (log(k + 2) - log(k + 1)) / log(range_max + 1)."""
    op = "LogUniformCandidateSampler"
    true = _true_classes(true_classes, num_true, num_sampled, op, range_max=range_max)
    range_max = int(range_max)
    log_range = math.log1p(range_max)

    def draw(n):
        return (np.exp(_uniform01(seed, n) * log_range).astype(np.int64) - 1) % range_max

    def probability(k):
        k = np.asarray(k, dtype=np.float64)
        return np.log((k + 2.0) / (k + 1.0)) / log_range
    return _run(LogUniformCandidateSampler, op, true, num_sampled, unique, range_max, probability, draw)


@tf_export("random.uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Uniform sampling over [0, range_max): P(k) = 1 / range_max."""
    op = "UniformCandidateSampler"
    true = _true_classes(true_classes, num_true, num_sampled, op, range_max=range_max)
    range_max = int(range_max)

    def draw(n):
        return np.minimum((_uniform01(seed, n) * range_max).astype(np.int64), range_max - 1)

    def probability(k):
        return np.full(np.shape(k), 1.0 / range_max)
    return _run(UniformCandidateSampler, op, true, num_sampled, unique, range_max, probability, draw)


def _weighted(weights, seed):
    """A draw function over classes with probabilities proportional to `weights` (float64)."""
    cdf = np.cumsum(weights)
    total = cdf[-1]

    def draw(n):
        return np.minimum(np.searchsorted(cdf, _uniform01(seed, n) * total, side="right"), len(weights) - 1)
    return draw


@tf_export("random.fixed_unigram_candidate_sampler", "nn.fixed_unigram_candidate_sampler")
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(), seed=None,
                                    name=None):
    """Sampling by unigram weights (from `unigrams`, or the last comma-separated field of each line of `vocab_file`)
    raised to `distortion`, after `num_reserved_ids` classes of weight 0; with `num_shards`, only the ids of `shard`."""
    op = "FixedUnigramCandidateSampler"
    true = _true_classes(true_classes, num_true, num_sampled, op, _FIXED_ATTRS, range_max)
    range_max = int(range_max)
    w = _unigram_weights(op, vocab_file, list(unigrams), float(distortion), int(num_reserved_ids), int(num_shards),
                         int(shard))
    if w.size != range_max:
        from tfcompat.framework.errors import InvalidArgumentError, kernel_error
        raise kernel_error(InvalidArgumentError, f"range is {range_max} must be equal to weights size  {w.size}", op,
                           name=None)
    total = np.float32(w.sum(dtype=np.float32))
    return _run(FixedUnigramCandidateSampler, op, true, num_sampled, unique, range_max,
                lambda k: w[np.asarray(k, dtype=np.int64)] / total, _weighted(w, seed))


def _unigram_weights(op, vocab_file, unigrams, distortion, num_reserved, num_shards, shard):
    """TF's FixedUnigramSampler weights (float32): the reserved ids of this shard (0), then the shard's words, the
    word ids counted from the number of weights already held (as TF's kernel counts them)."""
    if vocab_file and unigrams:
        raise _kernel(op, "Must only provide one of vocab_file and unigrams.")
    weights = [0.0] * sum(1 for i in range(num_reserved) if i % num_shards == shard)
    values = _vocab_weights(op, vocab_file) if vocab_file else [float(u) for u in unigrams]
    word_id = len(weights)
    for value in values:
        if word_id % num_shards == shard:
            weights.append(float(np.power(np.float32(value), np.float32(distortion))))
        word_id += 1
    return np.asarray(weights, dtype=np.float32)


def _vocab_weights(op, path):
    """The last comma-separated field of each non-empty line of the CSV-like `path` as a float."""
    from tfcompat.framework.errors import NotFoundError, kernel_error
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise kernel_error(NotFoundError, f"{path}; No such file or directory", op) from None
    out = []
    for line in lines:
        if not line:
            continue
        try:
            out.append(float(line.split(",")[-1]))
        except ValueError:
            raise _kernel(op, f"Wrong vocabulary format at line: {line}") from None
    return out


class _LearnedState:
    """TF's kernel cache: an op with the same attributes reuses its sampler, whose class counts (starting at 1)
    learn each call's true classes after it has sampled; `tf.random.set_seed` clears the cache (TF's context does)."""
    counts = {}
    epoch = None        # the seed streams of `random_ops._Seeds` the counts belong to (set_seed makes new ones)


@tf_export("random.learned_unigram_candidate_sampler", "nn.learned_unigram_candidate_sampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Sampling by the counts of the true classes seen so far by this op (each class starts at count 1)."""
    op = "LearnedUnigramCandidateSampler"
    true = _true_classes(true_classes, num_true, num_sampled, op, range_max=range_max)
    range_max = int(range_max)
    if _LearnedState.epoch is not _Seeds.streams:
        _LearnedState.counts, _LearnedState.epoch = {}, _Seeds.streams
    if seed is None and _Seeds.global_seed is not None:      # TF draws a fresh op seed: a new kernel each call
        counts = np.ones(range_max)
    else:
        key = (int(num_true), int(num_sampled), bool(unique), range_max, _Seeds.global_seed, seed)
        counts = _LearnedState.counts.setdefault(key, np.ones(range_max))

    def learn(t):
        """Before sampling (t None): the distribution of the counts so far; after: counts the true classes `t`."""
        if t is not None:
            np.add.at(counts, t.reshape(-1).cpu().numpy(), 1.0)
            return None
        snapshot = counts.copy()
        total = snapshot.sum()
        return (lambda k: snapshot[np.asarray(k, dtype=np.int64)] / total), _weighted(snapshot, seed)
    return _run(LearnedUnigramCandidateSampler, op, true, num_sampled, unique, range_max, None, None, learn)


@tf_export("random.all_candidate_sampler", "nn.all_candidate_sampler")
def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """All classes [0, num_sampled), each with expected count 1 (for tests and small vocabularies)."""
    op = "AllCandidateSampler"
    true = _true_classes(true_classes, num_true, num_sampled, op, "")
    n = int(num_sampled)
    _check_range(true, n, op)
    return AllCandidateSampler(wrap(torch.arange(n, dtype=torch.int64)),
                               wrap(torch.ones(tuple(true.shape), dtype=torch.float32)),
                               wrap(torch.ones(n, dtype=torch.float32)))


@tf_export("nn.compute_accidental_hits")
def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(row, position in `sampled_candidates`, -FLT_MAX) for each true class of a row that was also sampled.

    As TF's kernel, a class sampled more than once is reported at its last position only.
    """
    op = "ComputeAccidentalHits"
    true = input_storage(true_classes, dtypes.int64)
    sampled = input_storage(sampled_candidates, dtypes.int64)
    for i, t in enumerate((true, sampled)):
        if t.dtype is not torch.int64:
            raise _op_error(f"cannot compute {op} as input #{i}(zero-based) was expected to be a int64 tensor but is "
                            f"a {type_name(t.dtype)} tensor", op)
    if true.ndim != 2 or true.shape[1] != int(num_true):
        raise _kernel(op, "true_candidates must be a batch_size * num_true matrix")
    if sampled.ndim != 1:
        raise _kernel(op, "sampled_candidates must be a vector, which is typically an output from CandidateSampler")

    def hits(inputs):
        t, s = inputs
        position = {v: j for j, v in enumerate(s.tolist())}
        rows, ids = [], []
        for i, row in enumerate(t.tolist()):
            for v in row:
                j = position.get(v)
                if j is not None:
                    rows.append(i)
                    ids.append(j)
        return [torch.tensor(rows, dtype=torch.int32), torch.tensor(ids, dtype=torch.int64),
                torch.full((len(rows),), -torch.finfo(torch.float32).max)]
    return ComputeAccidentalHits(*(wrap(o) for o in _host[0](hits, [true, sampled])))
