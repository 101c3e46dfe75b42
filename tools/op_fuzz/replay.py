"""Replays recorded cases under tfcompat and reports agreement per namespace and per failure class.

    python -m tools.op_fuzz.replay                 # the fixed CI sample (what tests/test_op_fuzz.py replays)
    python -m tools.op_fuzz.replay --all -v        # every recorded case, failing ones listed
    python -m tools.op_fuzz.replay --fixture tests/fixtures/op_fuzz/seed_20261203.json.gz --all   # the fresh
                                                   # seed recorded by record.py as an independent check
    python -m tools.op_fuzz.replay --write-divergences   # the whole set's failures -> divergences.json
"""
import argparse
import collections
import gzip
import json
import os
import random
import warnings

from tools.op_fuzz import compare, runner

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "tests", "fixtures", "op_fuzz", "cases.json.gz")
DIVERGENCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "divergences.json")
SAMPLE = 4000
SAMPLE_SEED = 0


def load(path=FIXTURE):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def sample(cases, n=SAMPLE, seed=SAMPLE_SEED):
    """The fixed sample of `n` cases (in recorded order), the same on every run."""
    if n >= len(cases):
        return list(cases)
    keep = set(random.Random(seed).sample(range(len(cases)), n))
    return [c for i, c in enumerate(cases) if i in keep]


def run_case(tf, case):
    """tfcompat's outcome of one case."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return runner.run(tf, case)
    except runner.BuildError as e:
        return {"k": "build", "m": str(e)[:160]}


def replay(cases):
    """[(case, tfcompat outcome, failure class or None)] for every comparable case."""
    import tfcompat as tf
    out = []
    for case in cases:
        if case["tf"]["k"] not in ("ok", "err"):
            continue
        got = run_case(tf, case)
        out.append((case, got, compare.classify(case["tf"], got)))
    return out


def _short(outcome):
    if outcome["k"] == "err":
        return f"{outcome['c']}: {outcome.get('m', '')[:100]!r}"
    if outcome["k"] != "ok":
        return f"{outcome['k']}: {outcome.get('m', '')[:100]!r}"
    return json.dumps(outcome["r"])[:140]


def report(results, verbose=False):
    """Agreement per namespace and counts per failure class, as text."""
    by_ns = collections.defaultdict(lambda: [0, 0])
    by_class = collections.Counter()
    for case, _, failure in results:
        by_ns[case["ns"]][1] += 1
        by_ns[case["ns"]][0] += failure is None
        if failure:
            by_class[failure] += 1
    total = len(results)
    agree = sum(a for a, _ in by_ns.values())
    lines = [f"{'namespace':<12}{'agree':>8}{'cases':>8}{'%':>8}"]
    for ns in sorted(by_ns):
        a, n = by_ns[ns]
        lines.append(f"{ns:<12}{a:>8}{n:>8}{100.0 * a / n:>8.1f}")
    lines.append(f"{'all':<12}{agree:>8}{total:>8}{100.0 * agree / max(total, 1):>8.1f}")
    lines.append("")
    for cls in compare.CLASSES:
        if by_class[cls]:
            lines.append(f"{cls:<34}{by_class[cls]:>6}  ({100.0 * by_class[cls] / total:.2f}%)")
    if verbose:
        lines.append("")
        for case, got, failure in results:
            if failure:
                lines.append(f"#{case['id']} {case['op']} [{failure}] args={json.dumps(case['a'])[:160]} "
                             f"kwargs={json.dumps(case['k'])[:80]}\n    TF: {_short(case['tf'])}\n"
                             f"    tfcompat: {_short(got)}")
    return "\n".join(lines)


def divergences(results, seed):
    """The whole set's failing cases as data for compat_matrix.md: per op its reason, counts per failure class and
    every silent acceptance (TF raises) with TF's error."""
    from tools.op_fuzz.known import KNOWN
    ops = {}
    for case, _, failure in results:
        if failure:
            entry = ops.setdefault(case["op"], {"op": case["op"], "reason": KNOWN.get(case["op"], ""), "cases": 0,
                                                "classes": {}, "silent": []})
            entry["cases"] += 1
            entry["classes"][failure] = entry["classes"].get(failure, 0) + 1
            if failure == compare.SILENT:
                entry["silent"].append({"id": case["id"], "args": json.dumps(case["a"])[:90],
                                        "tf": f"{case['tf']['c']}: {case['tf'].get('m', '')[:90]}"})
    return {"seed": seed, "cases": len(results), "agree": sum(f is None for _, _, f in results),
            "silent": sum(f == compare.SILENT for _, _, f in results),
            "ops": [ops[op] for op in sorted(ops)]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixture", default=FIXTURE)
    ap.add_argument("--all", action="store_true", help="every recorded case instead of the CI sample")
    ap.add_argument("--sample", type=int, default=SAMPLE)
    ap.add_argument("--op", help="only cases of this op")
    ap.add_argument("-v", action="store_true", help="list every failing case")
    ap.add_argument("--write-divergences", action="store_true",
                    help=f"replay the whole set and write {os.path.relpath(DIVERGENCES)} (compat_matrix.md's source)")
    a = ap.parse_args()
    data = load(a.fixture)
    cases = data["cases"] if a.all or a.write_divergences else sample(data["cases"], a.sample)
    if a.op:
        cases = [c for c in cases if c["op"] == a.op]
    print(f"seed {data['seed']}, generator v{data['generator_version']}, TF {data['tensorflow']}: "
          f"{len(cases)} cases")
    results = replay(cases)
    print(report(results, a.v))
    if a.write_divergences:
        with open(DIVERGENCES, "w") as f:
            json.dump(divergences(results, data["seed"]), f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
