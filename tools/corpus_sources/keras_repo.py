"""Corpus source: keras-team/keras `guides/` and `examples/` (Keras 3 scripts) as `# %%` cells.

Guides are split at their top-level text blocks (`\"\"\"...\"\"\"` statements, dropped); example scripts,
which have none, at each top-level statement that follows a blank line.  One guide imports torch for
its DataLoader section and one cell builds a TensorBoard callback: `record` puts both on TF's path (tf_extra).
Real Keras needs ~/.keras/datasets/mnist.npz: copy ../shared/data/mnist.npz there (run.py accepts its hash).
"""
import ast

from .common import git_ls, git_show

REPO = "keras-team/keras"
COMMIT = "3422977a5e38fb2f7709aaa9a08e47f0c43d0f60"
PREFIX = "keras"
FOLDERS = ("guides", "examples")

DROP_LINES = []

_JAX = "written for the jax backend's own API (jax is not installed here)"
_TORCH = "written for the torch backend's own API (KERAS_BACKEND=torch; tfcompat is TF-only)"
SKIPS = {
    "examples_demo_custom_jax_workflow": _JAX,
    "examples_demo_jax_distributed": _JAX,
    "guides_custom_train_step_in_jax": _JAX,
    "guides_distributed_training_with_jax": _JAX,
    "guides_writing_a_custom_training_loop_in_jax": _JAX,
    "examples_demo_custom_torch_workflow": _TORCH,
    "examples_demo_torch_multi_gpu": _TORCH + " and needs several GPUs",
    "guides_custom_train_step_in_torch": _TORCH,
    "guides_distributed_training_with_torch": _TORCH,
    "guides_writing_a_custom_training_loop_in_torch": _TORCH,
}

# cifar10 (a download): seeded uint8 images and labels of CIFAR-10's shapes.
_CIFAR10 = (
    "_rng = np.random.default_rng(0)  # offline: synthetic stand-in for cifar10.load_data()\n"
    "(x_train, y_train), (x_test, y_test) = (\n"
    "    (_rng.integers(0, 256, (50000, 32, 32, 3), dtype=np.uint8),\n"
    "     _rng.integers(0, 10, (50000, 1), dtype=np.uint8)),\n"
    "    (_rng.integers(0, 256, (10000, 32, 32, 3), dtype=np.uint8),\n"
    "     _rng.integers(0, 10, (10000, 1), dtype=np.uint8)),\n"
    ")"
)
# tfds cats_vs_dogs (a download): seeded uint8 images (one fixed size) and int64 labels, 32/16/16.
_CATS_VS_DOGS = (
    "import tensorflow as tf  # offline: synthetic stand-in for tfds.load('cats_vs_dogs')\n"
    "_rng = np.random.default_rng(0)\n"
    "train_ds, validation_ds, test_ds = [\n"
    "    tf.data.Dataset.from_tensor_slices((\n"
    "        _rng.integers(0, 256, (n, 200, 180, 3), dtype=np.uint8),\n"
    "        _rng.integers(0, 2, (n,)).astype(np.int64)))\n"
    "    for n in (32, 16, 16)\n"
    "]"
)



def _rows_cut(x_dim, y_dim):
    return [(f"np.random.random((50000, {d}))", f"np.random.random((5000, {d}))  # cut from 50000 rows")
            for d in (x_dim, y_dim)]




def _train_cut(n, indent=""):
    """MNIST training split cut to its first n samples (validation split kept)."""
    return [(f"{indent}x_train = x_train[:-{v}]\n{indent}y_train = y_train[:-{v}]",
             f"{indent}x_train = x_train[:{n}]  # cut from 50000 samples\n{indent}y_train = y_train[:{n}]")
            for v in (("num_val_samples",) if indent else ("10000",))]


EDITS = {
    # the demos' random training sets cut from 50000 to 5000 rows (a file trains in under 2 minutes)
    "examples_demo_custom_layer_backend_agnostic": _rows_cut(128, 16),
    "examples_demo_functional": _rows_cut(100, 16) + [("epochs = 5", "epochs = 2  # cut from 5")],
    "examples_demo_subclass": _rows_cut(128, 16),
    "examples_demo_mnist_convnet": [
        ("x_train, y_train, batch_size=batch_size, epochs=epochs, validation_split=0.1",
         "x_train[:6000], y_train[:6000], batch_size=batch_size, epochs=epochs, validation_split=0.1"
         "  # cut from 60000 samples"),
    ],
    "guides_custom_train_step_in_tensorflow": [("gan.fit(dataset.take(100), epochs=1)",
                                                "gan.fit(dataset.take(20), epochs=1)  # cut from 100 batches")],
    "guides_distributed_training_with_tensorflow": _train_cut(5000, indent="    "),
    "guides_making_new_layers_and_models_via_subclassing": [
        ("vae.fit(x_train, x_train, epochs=2, batch_size=64)",
         "vae.fit(x_train, x_train, epochs=1, batch_size=64)  # cut from 2 epochs")],
    "guides_training_with_built_in_methods": _train_cut(5000),
    "guides_writing_a_custom_training_loop_in_tensorflow": _train_cut(5000),
    "guides_functional_api": [
        ("x_train, y_train, batch_size=64, epochs=2, validation_split=0.2",
         "x_train, y_train, batch_size=64, epochs=1, validation_split=0.2  # cut from 2 epochs"),
        ("(x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()", _CIFAR10),
        ("vgg19 = keras.applications.VGG19()",
         "vgg19 = keras.applications.VGG19(weights=None)  # offline: no ImageNet weights download"),
    ],
    "guides_transfer_learning": [
        ("import tensorflow_datasets as tfds\n", ""),
        ("tfds.disable_progress_bar()\n\n"
         "train_ds, validation_ds, test_ds = tfds.load(\n"
         '    "cats_vs_dogs",\n'
         "    # Reserve 10% for validation and 10% for test\n"
         '    split=["train[:40%]", "train[40%:50%]", "train[50%:60%]"],\n'
         "    as_supervised=True,  # Include labels\n"
         ")", _CATS_VS_DOGS),
        ('weights="imagenet",  # Load weights pre-trained on ImageNet.',
         "weights=None,  # offline: no ImageNet weights download"),
    ],
}


def _is_text(node):
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def _text_block_cells(lines, tree):
    """Guides: the code between top-level text blocks."""
    cells, start = [], 0
    for node in tree.body:
        if _is_text(node):
            cells.append(lines[start:node.lineno - 1])
            start = node.end_lineno
    return cells + [lines[start:]]


def _paragraph_cells(lines, tree):
    """Scripts: a new cell at each top-level statement (with its leading comments) after a blank line."""
    starts = []
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        while first > 0 and lines[first - 1].lstrip().startswith("#"):
            first -= 1
        if first > 0 and not lines[first - 1].strip():
            starts.append(first)
    bounds = [0, *starts, len(lines)]
    return [lines[a:b] for a, b in zip(bounds, bounds[1:])]


def cells_of(source):
    """A Keras guide or example script -> its code cells, verbatim."""
    lines = source.split("\n")
    tree = ast.parse(source)
    split = _text_block_cells if any(_is_text(n) for n in tree.body[1:]) else _paragraph_cells
    cells = ("\n".join(c).strip("\n") for c in split(lines, tree))
    return [c for c in cells if c.strip()]


def files(git_dir):
    """(stem, path in repo, cells) for every .py under guides/ and examples/ at COMMIT."""
    out = []
    for folder in FOLDERS:
        for path in git_ls(git_dir, COMMIT, folder + "/"):
            if path.endswith(".py"):
                stem = path[:-3].replace("/", "_")
                out.append((stem, path, cells_of(git_show(git_dir, COMMIT, path))))
    return out
