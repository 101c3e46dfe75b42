"""Generates compat_matrix.md: every public name of TF 2.21 and whether tfcompat implements it.

    python tools/compat_matrix.py            # rewrite compat_matrix.md
    python tools/compat_matrix.py --check    # exit 1 if compat_matrix.md is stale

A name is *implemented* when `tfcompat` resolves it, *partial* when the object
declares what it lacks (`partial=` or unsupported arguments, see
tfcompat/framework/export.py), else *not implemented*: names tfcompat lacks, and
names whose implementation does nothing but raise NotImplementedError. The test
column names the first test function that uses the object (under any of its TF names).
The last section lists the op fuzzer's known divergences (tools/op_fuzz/divergences.json).
"""
import argparse
import ast
import inspect
import os
import re
import sys
import textwrap
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API_FILE = os.path.join(ROOT, "tfcompat", "_resources", "tf_api_2.21.txt")
OUT = os.path.join(ROOT, "compat_matrix.md")
README = os.path.join(ROOT, "README.md")
DIVERGENCES = os.path.join(ROOT, "tools", "op_fuzz", "divergences.json")
BEGIN, END = "<!-- compat-summary:begin -->", "<!-- compat-summary:end -->"
# the namespaces the README's summary table shows (the matrix has all of them)
README_NAMESPACES = ["tf", "tf.math", "tf.linalg", "tf.nn", "tf.random", "tf.image", "tf.strings", "tf.debugging",
                     "tf.config", "tf.data", "tf.train", "tf.summary", "tf.saved_model", "tf.nest", "tf.keras",
                     "tf.keras.layers", "tf.keras.losses", "tf.keras.metrics", "tf.keras.optimizers",
                     "tf.keras.callbacks", "tf.keras.ops", "tf.raw_ops"]
TESTS = os.path.join(ROOT, "tests")
_TF_REF = re.compile(r"\btf\.([A-Za-z_][\w.]*)")


def read_api():
    rows = []
    with open(API_FILE, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, kind = line.rstrip("\n").split("\t")
            rows.append((name[3:], kind))
    return rows


def resolve(tf, name):
    obj = tf
    for part in name.split("."):
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - NotImplementedYet, AttributeError, ImportError, or a broken module
            return None, False
    return obj, True


def always_raises(obj):
    """True when `obj` (a function, or a class through its own `__init__`) only raises NotImplementedError."""
    fn = vars(obj).get("__init__") if isinstance(obj, type) else obj
    if not isinstance(fn, types.FunctionType) or not fn.__module__.startswith("tfcompat"):
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(fn))))
    except (OSError, TypeError, SyntaxError):
        return False
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.FunctionDef) else []
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]     # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Raise):
        return False
    exc = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def test_index(tf):
    """id(object) -> "tests/file.py::test_name" of the first test that mentions it.

    The objects stay referenced by the index's `_alive` entry: a name that resolves to a fresh object on each
    access would otherwise free it, and its id could be reused by an unrelated object resolved later.
    """
    index = {"_alive": []}
    for fname in sorted(os.listdir(TESTS)):
        if not (fname.startswith("test_") and fname.endswith(".py")):
            continue
        path = os.path.join(TESTS, fname)
        with open(path, encoding="utf-8") as f:
            src = f.read()
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                body = ast.get_source_segment(src, node) or ""
                for ref in _TF_REF.findall(body):
                    ref = ref.rstrip(".")
                    while ref:
                        obj, ok = resolve(tf, ref)
                        if ok:
                            index["_alive"].append(obj)
                            index.setdefault(id(obj), f"tests/{fname}::{node.name}")
                            break
                        ref = ref.rpartition(".")[0]
    return index


def build():
    sys.path.insert(0, ROOT)
    import tfcompat as tf
    from tfcompat.framework.export import partial_note
    rows = read_api()
    tests = test_index(tf)
    groups = {}
    counts = {"implemented": 0, "partial": 0, "not implemented": 0}
    for name, kind in rows:
        obj, ok = resolve(tf, name)
        if not ok:
            status, note = "not implemented", ""
        elif always_raises(obj):
            status, note = "not implemented", "raises NotImplementedError"
        else:
            note = partial_note(obj) if not isinstance(obj, types.ModuleType) else None
            status = "partial" if note else "implemented"
        counts[status] += 1
        ns = name.rpartition(".")[0] or "tf"
        ns = ns if ns == "tf" else "tf." + ns
        if ns.startswith("tf.raw_ops"):
            ns = "tf.raw_ops"
        test = tests.get(id(obj), "") if ok and not isinstance(obj, (int, float, str, bool)) else ""
        groups.setdefault(ns, []).append((name, kind, status, note or "", test))
    total = len(rows)
    lines = [
        "# tfcompat compatibility matrix",
        "",
        "Generated by `python tools/compat_matrix.py` from TF 2.21's public API list "
        "(`tfcompat/_resources/tf_api_2.21.txt`); do not edit by hand. CI fails when it is stale.",
        "",
        f"**{total} TF names: {counts['implemented']} implemented, {counts['partial']} partial, "
        f"{counts['not implemented']} not implemented.**",
        "",
        "| namespace | names | implemented | partial | not implemented |",
        "|---|---:|---:|---:|---:|",
    ]
    for ns in sorted(groups):
        items = groups[ns]
        c = {s: sum(1 for i in items if i[2] == s) for s in counts}
        lines.append(f"| `{ns}` | {len(items)} | {c['implemented']} | {c['partial']} | {c['not implemented']} |")
    for ns in sorted(groups):
        lines += ["", f"## `{ns}`", "", "| name | kind | status | missing | test |", "|---|---|---|---|---|"]
        for name, kind, status, note, test in groups[ns]:
            lines.append(f"| `tf.{name}` | {kind} | {status} | {note} | {test} |")
    lines += known_divergences()
    summary = [f"{total} TF 2.21 names: {counts['implemented']} implemented, {counts['partial']} partial, "
               f"{counts['not implemented']} not implemented (`compat_matrix.md` has every name).", "",
               "| namespace | names | implemented | partial |", "|---|---:|---:|---:|"]
    for ns in README_NAMESPACES:
        items = groups.get(ns, [])
        c = {st: sum(1 for i in items if i[2] == st) for st in counts}
        summary.append(f"| `{ns}` | {len(items)} | {c['implemented']} | {c['partial']} |")
    return "\n".join(lines) + "\n", counts, "\n".join(summary)


def known_divergences():
    """compat_matrix.md's last section: where the op fuzzer's recorded cases still differ from TF 2.21, per op with
    its reason (tools/op_fuzz/known.py), and every silent acceptance of an input TF rejects."""
    import json
    with open(DIVERGENCES, encoding="utf-8") as f:
        d = json.load(f)
    n = d["cases"]
    lines = ["", "## Known divergences", "",
             f"The differential op fuzzer (`tools/op_fuzz`, {n} cases of seed {d['seed']} recorded from TF 2.21) "
             f"agrees on {d['agree']} ({100.0 * d['agree'] / n:.1f}%); {d['silent']} cases "
             f"({100.0 * d['silent'] / n:.2f}%) accept an input TF rejects. Every op that still differs, with "
             "the reason (`tools/op_fuzz/known.py`; regenerate with "
             "`python -m tools.op_fuzz.replay --write-divergences`):", "",
             "| op | cases | how | reason |", "|---|---:|---|---|"]
    for e in d["ops"]:
        how = ", ".join(f"{cls} ({k})" for cls, k in sorted(e["classes"].items()))
        lines.append(f"| `tf.{e['op']}` | {e['cases']} | {how} | {e['reason']} |")
    lines += ["", "Silent acceptance (tfcompat returns where TF raises), case by case:", "",
              "| case | op | arguments | TF raises |", "|---:|---|---|---|"]
    for e in d["ops"]:
        for c in e["silent"]:
            tf_error = c["tf"].replace("|", "\\|").replace("\n", " ")
            args = c["args"].replace("|", "\\|")
            lines.append(f"| {c['id']} | `tf.{e['op']}` | `{args}` | {tf_error} |")
    return lines


def with_summary(readme, summary):
    """README text with the summary table between its markers replaced."""
    head, _, rest = readme.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{summary}\n{END}{tail}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    a = p.parse_args()
    text, counts, summary = build()
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    if a.check:
        with open(OUT, encoding="utf-8") as f:
            current = f.read()
        if current != text or with_summary(readme, summary) != readme:
            print("compat_matrix.md or README.md's summary is stale: run `python tools/compat_matrix.py`")
            return 1
        print("compat_matrix.md is current")
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    with open(README, "w", encoding="utf-8") as f:
        f.write(with_summary(readme, summary))
    print(f"wrote {OUT}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
