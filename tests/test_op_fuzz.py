"""Differential op fuzz: tfcompat replays op calls whose outcomes were recorded from TensorFlow 2.21.

The cases (seed 17, tools/op_fuzz/cases.py) and TF's outcomes are in tests/fixtures/op_fuzz/cases.json.gz,
recorded with `/root/tfvenv/bin/python tools/op_fuzz/record.py`. Every CI run replays a fixed sample
(`replay.SAMPLE` cases); `OP_FUZZ_ALL=1 python -m pytest tests/test_op_fuzz.py` replays the whole set, as does
`python -m tools.op_fuzz.replay --all -v` (which also prints agreement per namespace and failure class).

Every replayed case must agree with TF (same exception class, or same dtype, shape and values within the
dtype's tolerance) unless its op is listed in tools/op_fuzz/known.py with the reason it still differs (those are
compat_matrix.md's known divergences). The list only shrinks: an op whose cases all agree must leave it
(test_known_list_is_current), and the committed divergences.json must be what the whole set gives today.
"""
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the repository's tools/
from tools.op_fuzz import cases as C  # noqa: E402
from tools.op_fuzz import compare, replay  # noqa: E402
from tools.op_fuzz.known import KNOWN  # noqa: E402


FLOOR = 0.985    # agreement of the replayed cases (99.2% of the whole set); raise it as KNOWN shrinks
SILENT_CEILING = 0.005      # silent acceptance where TF raises, each case listed in compat_matrix.md


@pytest.fixture(scope="module")
def data():
    return replay.load()


@pytest.fixture(scope="module")
def results(data):
    cases = data["cases"] if os.environ.get("OP_FUZZ_ALL") else replay.sample(data["cases"])
    return replay.replay(cases)


def test_fixture_is_what_the_generator_draws(data):
    assert data["generator_version"] == C.VERSION
    drawn = C.generate(data["seed"], 200)
    key = [json.dumps([c["op"], c["a"], c["k"]]) for c in data["cases"][:200]]    # JSON text: NaN equals NaN
    assert [json.dumps([c["op"], c["a"], c["k"]]) for c in drawn] == key


def test_every_case_agrees_or_is_known(results):
    unknown = [f"#{case['id']} {case['op']}: {failure}" for case, _, failure in results
               if failure and case["op"] not in KNOWN]
    assert not unknown, "\n".join(unknown[:40])


def test_agreement_floor(results):
    agree = sum(failure is None for _, _, failure in results)
    assert agree / len(results) >= FLOOR, replay.report(results)


def test_no_internal_exception_escapes_outside_known(results):
    leaks = [f"#{case['id']} {case['op']}: {got['c']}" for case, got, failure in results
             if failure == compare.INTERNAL and case["op"] not in KNOWN]
    assert not leaks, leaks


def test_silent_acceptance_is_rare_and_listed(results):
    silent = [case for case, _, failure in results if failure == compare.SILENT]
    assert len(silent) / len(results) < SILENT_CEILING
    with open(replay.DIVERGENCES) as f:
        listed = {c["id"] for entry in json.load(f)["ops"] for c in entry["silent"]}
    assert sorted(c["id"] for c in silent if c["id"] not in listed) == []


def test_divergences_are_current(data, results):
    if not os.environ.get("OP_FUZZ_ALL"):
        pytest.skip("divergences.json describes the whole set (OP_FUZZ_ALL=1)")
    with open(replay.DIVERGENCES) as f:
        assert json.load(f) == replay.divergences(results, data["seed"]), \
            "run `python -m tools.op_fuzz.replay --write-divergences`"


def test_known_list_is_current(results):
    if not os.environ.get("OP_FUZZ_ALL"):
        pytest.skip("only the whole set shows that an op agrees everywhere (OP_FUZZ_ALL=1)")
    failing = {case["op"] for case, _, failure in results if failure}
    assert sorted(set(KNOWN) - failing) == []


@pytest.mark.parametrize("dtype, a, b, same", [
    ("float32", [1.0, float("nan")], [1.0 + 1e-6, float("nan")], True),
    ("float32", [1.0, float("inf")], [1.0, float("nan")], False),
    ("float32", [float("-inf")], [float("inf")], False),
    ("float32", [1.0], [1.001], False),
    ("float16", [1.0], [1.001], True),
    ("int32", [1, 2], [1, 3], False),
    ("string", ["a"], ["a"], True),
    ("complex64", [[1.0, float("nan")]], [[1.0, float("nan")]], True),
])
def test_tolerances(dtype, a, b, same):
    assert compare.values_equal(dtype, a, b) is same


def test_failure_classes():
    ok = {"k": "ok", "r": {"d": "int32", "s": [1], "v": [1]}}
    err = {"k": "err", "c": "InvalidArgumentError", "mod": "tfcompat"}
    assert compare.classify(ok, ok) is None
    assert compare.classify(err, ok) == compare.SILENT
    assert compare.classify(ok, {"k": "err", "c": "IndexError", "mod": "builtins"}) == compare.INTERNAL
    assert compare.classify(err, {"k": "err", "c": "RuntimeError", "mod": "builtins"}) == compare.INTERNAL
    assert compare.classify(err, {"k": "err", "c": "ValueError", "mod": "builtins"}) == compare.OTHER_CLASS
    assert compare.classify(ok, {"k": "err", "c": "NotImplementedYet", "mod": "tfcompat"}) == compare.NOT_IMPLEMENTED
