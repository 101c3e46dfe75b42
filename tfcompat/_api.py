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


# TF 2.21 modules that the API list's dir() walk did not reach (TF loads them lazily): all their names are TF's
UNLISTED_MODULES = ("experimental", "dtensor", "security", "tools")


def is_tf_name(full):
    """Whether `tf.<full>` is a public TF 2.21 name."""
    return full in tf_api_names() or full.split(".", 1)[0] in UNLISTED_MODULES


def missing(namespace, attr):
    """The error for `tf.<namespace>.<attr>`: NotImplementedYet for TF names, AttributeError otherwise."""
    full = f"{namespace}.{attr}" if namespace else attr
    # Keras's own modules (`import keras`) are named `keras.<x>`; everything else is `tensorflow.<x>`
    modname = namespace if namespace.startswith("keras") else "tensorflow" + ("." + namespace if namespace else "")
    if is_tf_name(full):
        return NotImplementedYet(f"tf.{full} is not implemented in tfcompat yet "
                                 f"(see compat_matrix.md for what is supported)")
    return AttributeError(f"module '{modname}' has no attribute '{attr}'")


class Namespace(types.ModuleType):
    """A generated TF namespace module."""

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        path = self._tf_path + "." + attr if self._tf_path else attr
        if path in LAZY:
            module = load(path)
            setattr(self, attr, module)
            return module
        raise missing(self._tf_path, attr)

    def __dir__(self):
        return sorted(set(self.__dict__) | {k.split(".")[-1] for k in LAZY if k.rsplit(".", 1)[0] == self._tf_path})


# TF namespaces that are real tfcompat packages, imported on first use (heavy ones stay out of `import tfcompat`);
# a "keras.<x>" target is the `tf.keras.<x>` view, as TF's `tf.metrics` is `keras._tf_keras.keras.metrics`
LAZY = {
    "keras": "tfcompat.keras",
    "data": "tfcompat.data",
    "distribute": "tfcompat.distribute",
    "summary": "tfcompat.summary",
    "train": "tfcompat.train",
    "saved_model": "tfcompat.saved_model",
    "compat": "tfcompat.compat",
    "compat.v1": "tfcompat.compat.v1",
    "compat.v2": "tfcompat",
    "feature_column": "tfcompat.compat.feature_column",
    "losses": "tfcompat.losses",
    "metrics": "keras.metrics",
    "optimizers": "keras.optimizers",
    "initializers": "keras.initializers",
    "experimental.numpy": "tfcompat.numpy_api",
    "experimental.dtensor": "tfcompat.dtensor",
    "test": "tfcompat.testing",
}


def load(path):
    """The module behind the lazy namespace `tf.<path>`.

    A target package that does not exist answers as any missing TF name does
    (`NotImplementedYet`, also an `AttributeError`), never `ModuleNotFoundError`.
    Each target package answers its own missing names with `missing` in a
    module `__getattr__` (it may be imported directly, bypassing this function).
    """
    target = LAZY[path]
    if target.startswith("keras."):
        from tfcompat._tf_keras import resolve
        return resolve(target)
    namespace, _, attr = path.rpartition(".")
    return import_or_missing(target, namespace, attr)


def import_or_missing(target, namespace, attr):
    """Imports module `target` for `tf.<namespace>.<attr>`; `missing(namespace, attr)` if there is no such module."""
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as e:
        if e.name is None or not (target == e.name or target.startswith(e.name + ".")):
            raise                                   # a dependency of an existing package is missing
        raise missing(namespace, attr) from None


def add_aliases():
    """Exports every TF name bound to the same object as an exported name (`tf.sin` is `tf.math.sin`).

    The groups come from real TF (`tools/tf_aliases.py`); a name exported on its own is left as it is.
    """
    path = os.path.join(os.path.dirname(__file__), "_resources", "tf_aliases_2.21.txt")
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            group = line.split()
            obj = next((EXPORTS[name] for name in group if name in EXPORTS), None)
            if obj is not None:
                for name in group:
                    EXPORTS.setdefault(name, obj)


def build(root):
    """Creates the namespace modules under package `root` from EXPORTS (with TF's aliases of each name)."""
    add_aliases()
    modules = {"": root}
    for path in LAZY:        # the namespaces that hold a lazy package (`tf.experimental` for `.numpy`)
        parent = path.rpartition(".")[0]
        if parent and parent not in LAZY:
            _namespace(root, modules, parent)
    for full in sorted(EXPORTS):
        obj = EXPORTS[full]
        path, _, attr = full.rpartition(".")
        mod = _namespace(root, modules, path)
        setattr(mod, attr, obj)


def constants(root, path, **values):
    """The namespace module `tf.<path>` holding `values` (TF's constant-only modules, e.g. `tf.version`)."""
    mod = _namespace(root, {"": root}, path)
    for name, value in values.items():
        setattr(mod, name, value)
    return mod


def _namespace(root, modules, path):
    mod = modules.get(path)
    if mod is not None:
        return mod
    parent_path, _, name = path.rpartition(".")
    parent = _namespace(root, modules, parent_path)
    qual = root.__name__ + "." + path
    mod = sys.modules.get(qual)
    if mod is None:
        if path in LAZY:        # a Namespace here would hide the package (tf.compat.v1 lost its modules so)
            raise RuntimeError(f"tf.{path} is the package {LAZY[path]}: define its names there, not with tf_export")
        mod = Namespace(qual, f"TF's `tf.{path}` namespace.")
        mod._tf_path = path
        mod.__path__ = []           # a package, so `import tensorflow.<path>.<lazy package>` works through the alias
        sys.modules[qual] = mod
    setattr(parent, name, mod)
    modules[path] = mod
    return mod
