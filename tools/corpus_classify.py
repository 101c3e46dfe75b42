"""Rewrites tools/corpus_sources/failure_classes.py from compare.py's current verdicts (dev-time tooling).

    python tools/build_corpus.py compare && python tools/corpus_classify.py [--out ../corpus] [--dry-run]

Every failing cell gets one class: a cell TF itself did not finish (file timeout) has no reference; a NameError for a name an earlier failing cell of the file binds is that
cell's cascade (its class, "cascade of cell N"); otherwise a class recorded for the cell with a reason of
its own (written by hand, not the failure line this tool records) stays; a cell not run after a timeout is the timed-out cell's cascade; else a difference in outputs
with one TF run (random values cannot be told from deterministic ones) is "unverified: one TF run"; else the first
RULES pattern found in what tfcompat raised names the class, else "numbers differ from TF" or "not yet grouped".
Entries of files that have a verdict but whose cell now passes are dropped; files without a verdict keep
theirs. Review the result: a rule is a guess from the message, the recorded reason is what the cell hit.
"""
import argparse
import ast
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_corpus import DEFAULT_OUT, ROOT  # noqa: E402
from corpus_report import first_line, load_json, tf_runs, verdicts  # noqa: E402
from corpus_sources.failure_classes import CLASSES  # noqa: E402

TABLE = os.path.join(ROOT, "tools", "corpus_sources", "failure_classes.py")
# (pattern searched in tfcompat's error or the differing line, class): first match wins
RULES = [
    (r"FileTimeout|file timeout", "slow: file timeout under tfcompat"),
    (r"CellTimeout|did not finish in time", "slow: cell timeout under tfcompat"),
    (r"fill_value.*must be Number", "Keras Constant initializer given an array (torch TypeError escapes)"),
    (r"dtensor", "tf.experimental.dtensor"),
    (r"ExtensionType|BatchableExtensionType", "tf.experimental.ExtensionType"),
    (r"tf\.distribute|Strategy|cluster_resolver|ClusterSpec|TF_CONFIG|DistributedValues|PerReplica",
     "tf.distribute strategies"),
    (r"validation_split` is only supported|`y` should not be passed|pandas|Only input tensors may be passed as posit",
     "Keras fit/predict/call on pandas objects"),
    (r"'DType' object has no attribute|merge layer should be called on a list of inputs. Received: input_shape=\[\]",
     "Keras Input/layers given a tf.DType"),
    (r"compat\.v1|tf1\.|estimator|Estimator", "TF1 compat surface"),
    (r"feature_column|DenseFeatures", "tf.feature_column"),
    (r"experimental\.numpy|tnp\.", "tf.experimental.numpy"),
    (r"[Rr]agged", "RaggedTensor coverage"),
    (r"[Ss]parse", "SparseTensor coverage"),
    (r"saved_model|SavedModel|SaveOptions", "SavedModel"),
    (r"keras\.applications", "keras.applications"),
    (r"tf\.lite|TFLite", "tf.lite"),
    (r"pydot|plot_model", "plot_model without pydot"),
    (r"make_csv_dataset|CsvDataset|tf\.data|Dataset|snapshot", "tf.data coverage"),
    (r"tf\.signal|stft|rfft", "tf.signal coverage"),
    (r"tf\.audio|decode_wav|audio_dataset", "tf.audio / audio datasets"),
    (r"Normalization|StringLookup|IntegerLookup|CategoryEncoding|Discretization|TextVectorization|Hashing",
     "Keras preprocessing layers"),
    (r"summary\(\)|Total params|Trainable params|Layer \(type\)", "model.summary() text"),
    (r"Instructions for updating|deprecat", "TF deprecation warnings"),
]
NAME_ERROR = re.compile(r"NameError: name '(\w+)' is not defined")
NUMBERS = re.compile(r"(stdout|stderr|result): number ")       # the outputs differ only in a number
STREAM = re.compile(r"(stdout|stderr|result): ")                # the outputs differ (not the status)
GENERIC = ("not yet grouped (see reason)", "unverified: one TF run", "numbers differ from TF")


def bound_names(source):
    """Names a cell binds at top level (assignments, defs, classes, imports, loop and with targets)."""
    try:
        tree = ast.parse(source or "")
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def what_failed(out, name, verdict, result):
    """The cell's failure in one line: tfcompat's error, or the first differing line."""
    cell = result["cells"][verdict["index"]] if result else {}
    if cell.get("status") == "error" and verdict["reason"].startswith("status:"):
        message = (cell.get("error_message") or "").strip().split("\n")[0]
        return f"{cell.get('error_type')}: {message}"[:200]
    return first_line(out, name, verdict)[:200]


def classify(out):
    after = verdicts(out, "after")
    table = {}
    for name, cells in sorted(after.items()):
        stem = name[:-3]
        result = load_json(os.path.join(out, "results", stem + ".json"))
        expected = load_json(os.path.join(out, "expected", "run1", stem + ".json"))
        sources = {c["index"]: c.get("source") for c in (expected or result or {"cells": []})["cells"]}
        failed = {}
        for index, v in sorted(cells.items()):
            if v["verdict"] != "fail":
                continue
            why = what_failed(out, name, v, result)
            m = NAME_ERROR.search(why)
            cause = next((i for i in sorted(failed, reverse=True) if m and m.group(1) in bound_names(sources.get(i))),
                         None)
            known = CLASSES.get((stem, index))
            tf_error = (expected or {"cells": {}})["cells"][index].get("error_type") if expected else None
            if tf_error in ("FileTimeout", "NotRun", "HarnessCrash"):
                cls, why = "TF reference incomplete (TF ran out of time)", f"TF: {tf_error}; tfcompat: {why}"
            elif cause is not None:
                cls, why = failed[cause][0], f"cascade of cell {cause}: {why}"
            elif known and known[0] not in GENERIC and known[1] != why:      # written by hand, not by this tool
                cls, why = known
            elif why.startswith("NotRun") and failed:
                cause = max(failed)
                cls, why = failed[cause][0], f"cascade of cell {cause}: {why}"
            elif STREAM.match(why) and tf_runs(out, name) < 2:
                cls = "unverified: one TF run"
            else:     # the rules read errors: a differing output line names too much (metric names, paths)
                cls = None if STREAM.match(why) else next((c for pattern, c in RULES if re.search(pattern, why)), None)
                cls = cls or ("numbers differ from TF" if NUMBERS.match(why) else "not yet grouped (see reason)")
            failed[index] = (cls, why)
            table[(stem, index)] = (cls, why)
    for key, entry in CLASSES.items():       # files not compared now keep their entries
        if key[0] + ".py" not in after:
            table[key] = entry
    return table


def write(table, path):
    with open(path, encoding="utf-8") as f:
        head = f.read().split("CLASSES = {")[0]
    lines = [head + "CLASSES = {"]
    for prefix in ("tfdocs", "keras"):
        lines.append(f"    # --- {prefix} ---")
        for (stem, index), (cls, why) in sorted(table.items()):
            if stem.startswith(prefix + "__"):
                lines.append(f"    ({stem!r}, {index}): ({cls!r}, {why!r}),")
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=DEFAULT_OUT, help="corpus directory (default ../corpus)")
    p.add_argument("--dry-run", action="store_true", help="print the class counts, write nothing")
    args = p.parse_args(argv)
    table = classify(os.path.abspath(args.out))
    counts = {}
    for cls, _ in table.values():
        counts[cls] = counts.get(cls, 0) + 1
    for cls, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{n:5d}  {cls}")
    if not args.dry_run:
        write(table, TABLE)
        print(f"wrote {TABLE}: {len(table)} cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
