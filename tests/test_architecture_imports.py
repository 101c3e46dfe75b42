"""The import graph shows the layering: framework/ imports nothing above it, packages import only downwards.

The graph is built with `ast` from every `import` in tfcompat/, at module level and inside functions alike
(an import hidden in a function is still an edge of the design).
"""
import ast
import os

from conftest import REPO

PKG = os.path.join(REPO, "tfcompat")

# Top-level packages and modules of tfcompat, lowest layer first: each imports only from layers before it.
LAYERS = ["framework", "util", "ops", "train", "summary", "module", "eager", "data", "distribute", "dtensor", "keras", "losses",
          "saved_model", "compat", "numpy_api", "testing"]
# The public facade: `import tfcompat` and the namespaces it builds; it sits above every layer.
FACADE = {"tfcompat", "tfcompat._api", "tfcompat._tf_keras", "tfcompat._alias", "tfcompat.__main__",
          "tfcompat.notebook", "tfcompat._notebook_figures"}
# Upward imports that remain, each with its reason (a new one fails the test; one removed must leave the list).
KNOWN_UPWARD = set()
# Modules that reach the facade: the lazy packages' `__getattr__` asks `_api.missing` for TF's NotImplementedYet
# answer; the others call public `tf.*` ops through `import tfcompat`.
FACADE_USERS = {
    "tfcompat.compat", "tfcompat.compat.feature_column", "tfcompat.compat.v1", "tfcompat.compat.v1.variable_scope", "tfcompat.data", "tfcompat.keras.applications", "tfcompat.data.experimental", "tfcompat.distribute",
    "tfcompat.distribute.cluster_resolver", "tfcompat.distribute.coordinator", "tfcompat.distribute.experimental",
    "tfcompat.distribute.experimental_coordinator", "tfcompat.dtensor",
    "tfcompat.eager.control_flow", "tfcompat.keras", "tfcompat.keras.export", "tfcompat.keras.initializers", "tfcompat.keras.losses",
    "tfcompat.keras.models", "tfcompat.keras.ops", "tfcompat.keras.optimizers", "tfcompat.keras.utils_data",
    "tfcompat.keras.legacy_backend", "tfcompat.keras.layers.tfsm_layer", "tfcompat.numpy_api", "tfcompat.numpy_api.random",
    "tfcompat.losses", "tfcompat.saved_model", "tfcompat.saved_model.experimental", "tfcompat.summary", "tfcompat.summary.experimental",
    "tfcompat.train", "tfcompat.testing", "tfcompat.testing.experimental",
}


def _modules():
    out = {}
    for dirpath, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                name = os.path.relpath(path[:-3], REPO).replace(os.sep, ".")
                out[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    return out


def _edges():
    """(importer, imported) for every import of a tfcompat module."""
    modules = _modules()
    edges = []
    for mod, path in modules.items():
        package = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())

        def visit(node, package=package, mod=mod):   # called within this iteration
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        parts = package.split(".")
                        base = ".".join(parts[:len(parts) - child.level + 1] + ([base] if base else []))
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in child.names]
                else:
                    visit(child, package, mod)
                    continue
                edges.extend((mod, t) for t in targets if t.split(".")[0] == "tfcompat")
        visit(tree)
    return edges


def _layer(mod):
    return mod.split(".")[1] if "." in mod else ""


def test_framework_imports_nothing_above_it():
    bad = sorted({(a, b) for a, b in _edges() if _layer(a) == "framework" and b != "tfcompat.framework"
                  and not b.startswith("tfcompat.framework.")})
    assert bad == []


def test_packages_import_only_downwards():
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward = set()
    for a, b in _edges():
        if a in FACADE or b in FACADE:
            continue
        assert _layer(a) in rank and _layer(b) in rank, f"{a} or {b} is in no layer: add it to LAYERS"
        if rank[_layer(b)] > rank[_layer(a)]:
            upward.add((a, b))
    assert upward == KNOWN_UPWARD


def test_only_known_modules_reach_the_facade():
    users = {a for a, b in _edges() if b in FACADE and a not in FACADE}
    assert users <= FACADE_USERS, sorted(users - FACADE_USERS)


def test_no_cycle_between_top_level_packages():
    graph = {}
    for a, b in _edges():
        if a not in FACADE and b not in FACADE and (a, b) not in KNOWN_UPWARD and _layer(a) != _layer(b):
            graph.setdefault(_layer(a), set()).add(_layer(b))
    done, active = set(), []

    def walk(node):
        assert node not in active, "import cycle: " + " -> ".join(active[active.index(node):] + [node])
        if node in done:
            return
        active.append(node)
        for nxt in sorted(graph.get(node, ())):
            walk(nxt)
        active.pop()
        done.add(node)

    for node in sorted(graph):
        walk(node)
