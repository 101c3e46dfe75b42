"""Builds tfcompat's TF namespaces (`tf.math`, `tf.nn`, ...) from the export registry.

Op modules register their functions with `tf_export`; this module turns the
registry into module objects (`tfcompat.math`, ...), importable by name, and
gives every namespace TF's "not implemented yet" answer for TF names tfcompat
lacks (an `AttributeError` that also names the compatibility matrix).
"""
import importlib
import os
import sys
import types

from tfcompat.framework.errors import NotImplementedYet
from tfcompat.framework.export import EXPORTS

_TF_NAMES = None


def tf_api_names():
    """The set of public TF 2.21 names ("math.add", ...), from the bundled API list."""
    global _TF_NAMES
    if _TF_NAMES is None:
        path = os.path.join(os.path.dirname(__file__), "_resources", "tf_api_2.21.txt")
        names = set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                names.add(line.split("\t", 1)[0][3:])
        _TF_NAMES = names
    return _TF_NAMES


def missing(namespace, attr):
    """The error for `tf.<namespace>.<attr>`: NotImplementedYet for TF names, AttributeError otherwise."""
    full = f"{namespace}.{attr}" if namespace else attr
    modname = "tensorflow" + ("." + namespace if namespace else "")
    if full in tf_api_names():
        return NotImplementedYet(f"tf.{full} is not implemented in tfcompat yet "
                                 f"(see compat_matrix.md for what is supported)")
    return AttributeError(f"module '{modname}' has no attribute '{attr}'")


class Namespace(types.ModuleType):
    """A generated TF namespace module."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        sub = LAZY.get(self._tf_path + "." + attr if self._tf_path else attr)
        if sub is not None:
            module = importlib.import_module(sub)
            setattr(self, attr, module)
            return module
        raise missing(self._tf_path, attr)

    def __dir__(self):
        return sorted(set(self.__dict__) | {k.split(".")[-1] for k in LAZY if k.rsplit(".", 1)[0] == self._tf_path})


# TF namespaces that are real tfcompat packages, imported on first use (heavy ones stay out of `import tfcompat`)
LAZY = {
    "keras": "tfcompat.keras",
    "data": "tfcompat.data",
    "summary": "tfcompat.summary",
    "train": "tfcompat.train",
    "saved_model": "tfcompat.saved_model",
    "compat": "tfcompat.compat",
    "compat.v1": "tfcompat.compat.v1",
    "compat.v2": "tfcompat",
    "distribute": "tfcompat.distribute",
    "experimental": "tfcompat.experimental",
    "estimator": "tfcompat.estimator",
    "lite": "tfcompat.lite",
    "losses": "tfcompat.losses",
    "metrics": "tfcompat.keras.metrics",
    "optimizers": "tfcompat.keras.optimizers",
    "initializers": "tfcompat.keras.initializers",
}


def build(root):
    """Creates the namespace modules under package `root` from EXPORTS."""
    modules = {"": root}
    for full in sorted(EXPORTS):
        obj = EXPORTS[full]
        path, _, attr = full.rpartition(".")
        mod = _namespace(root, modules, path)
        setattr(mod, attr, obj)


def _namespace(root, modules, path):
    mod = modules.get(path)
    if mod is not None:
        return mod
    parent_path, _, name = path.rpartition(".")
    parent = _namespace(root, modules, parent_path)
    qual = root.__name__ + "." + path
    mod = sys.modules.get(qual)
    if mod is None:
        mod = Namespace(qual, f"TF's `tf.{path}` namespace.")
        mod._tf_path = path
        sys.modules[qual] = mod
    setattr(parent, name, mod)
    modules[path] = mod
    return mod
