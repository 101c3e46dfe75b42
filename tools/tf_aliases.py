"""Records which TF 2.21 public names are the same object (tfcompat/_resources/tf_aliases_2.21.txt).

    /path/to/tf-venv/bin/python tools/tf_aliases.py

Run with real TensorFlow 2.21: it resolves every function and class name of the bundled API list and
writes each group of two or more names bound to one object (`tf.sin` and `tf.math.sin`), one group a
line, tab-separated, names without `tf.`. `tfcompat/_api.py` exports every name of a group once tfcompat
implements one of them. Names under the lazily imported packages (Keras, tf.data, ...) are left out: those
packages bind their own names.
"""
import collections
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API = os.path.join(ROOT, "tfcompat", "_resources", "tf_api_2.21.txt")
OUT = os.path.join(ROOT, "tfcompat", "_resources", "tf_aliases_2.21.txt")
# the namespaces tfcompat implements as real packages (tfcompat/_api.py LAZY) and TF's module-only entries
SKIP = ("keras", "data", "summary", "train", "saved_model", "compat", "losses", "metrics", "optimizers",
        "initializers")


def groups(tf, names):
    by_object = collections.defaultdict(list)
    keep = {}
    for name in names:
        obj = tf
        try:
            for part in name.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        by_object[id(obj)].append(name)
        keep[id(obj)] = obj                 # ids stay unique while every object is alive
    return sorted(sorted(g) for g in by_object.values() if len(g) > 1)


def main():
    import tensorflow as tf
    names = []
    with open(API, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, kind = line.rstrip("\n").split("\t")
            name = name[3:]
            if kind in ("function", "class") and name.split(".", 1)[0] not in SKIP:
                names.append(name)
    found = groups(tf, names)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(f"# TF {tf.__version__} public names bound to one object (tools/tf_aliases.py): "
                "one group a line, tab-separated, without 'tf.'.\n")
        for g in found:
            f.write("\t".join(g) + "\n")
    print(f"{len(found)} groups -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
