"""tensorflow/docs: the TF 2 notebooks of site/en/guide and site/en/tutorials, with their offline edits."""
from corpus_sources.common import git_ls, git_show, notebook_code_cells

REPO = "tensorflow/docs"
COMMIT = "7c3650212740204359d4ceae481abc79345541be"
PREFIX = "tfdocs"
FOLDERS = ("site/en/guide/", "site/en/tutorials/")
# measured by the shared corpus (/work/shared/conformance/corpus/), not here
SHARED = {"guide/autodiff", "guide/basic_training_loops", "guide/checkpoint", "guide/function",
          "guide/intro_to_modules", "guide/tensor", "guide/variable",
          "tutorials/customization/custom_layers", "tutorials/quickstart/beginner"}

DROP_LINES = [r"^\s*[!%]"]      # shell and IPython magic lines


def files(git_dir):
    out = []
    for folder in FOLDERS:
        for path in git_ls(git_dir, COMMIT, folder):
            rel = path[len("site/en/"):-len(".ipynb")]
            if path.endswith(".ipynb") and "/r1/" not in path and rel not in SHARED:
                cells = notebook_code_cells(git_show(git_dir, COMMIT, path))
                out.append((rel.replace("/", "__"), path, cells))
    return out


# tfds.load("mnist", as_supervised=True)'s two splits, from the bundled MNIST: (28, 28, 1) uint8 images, int64 labels
TFDS_MNIST = ("{split: tf.data.Dataset.from_tensor_slices((x[..., None], y.astype('int64'))) for split, (x, y) in"
              " zip(['train', 'test'], tf.keras.datasets.mnist.load_data())}")
NO_TFDS = ("import tensorflow_datasets as tfds\n", "# import tensorflow_datasets as tfds  (corpus edit: not installed)\n")
FASHION = ("fashion_mnist = tf.keras.datasets.fashion_mnist",
           "fashion_mnist = tf.keras.datasets.mnist  # corpus edit: the bundled MNIST (same shapes and dtypes)")
STUB_DISPLAY = ("from IPython import display",
                "import types; display = types.SimpleNamespace(clear_output=lambda wait=False: None)"
                "  # corpus edit: no IPython")


def cut(old, new):
    """An edit that shortens training (epochs or steps), marked as a corpus edit."""
    first, nl, rest = new.partition("\n")
    return old, f"{first}  # corpus edit: was {old.split(chr(10))[0].strip()}{nl}{rest}"


EDITS = {
    "tutorials__keras__classification": [FASHION, cut("epochs=10)", "epochs=1)")],
    "tutorials__distribute__custom_training": [FASHION, cut("EPOCHS = 10", "EPOCHS = 1")],
    "tutorials__images__cnn": [
        ("(train_images, train_labels), (test_images, test_labels) = datasets.cifar10.load_data()",
         "import numpy; _rng = numpy.random.default_rng(0)  # corpus edit: synthetic CIFAR-10 (shapes, dtypes)\n"
         "(train_images, train_labels), (test_images, test_labels) = (\n"
         "    (_rng.integers(0, 256, (n, 32, 32, 3), dtype='uint8'), _rng.integers(0, 10, (n, 1), dtype='uint8'))"
         " for n in (50000, 10000))"),
        cut("epochs=10,", "epochs=1,")],
    "tutorials__quickstart__advanced": [cut("EPOCHS = 5", "EPOCHS = 1")],
    "guide__mixed_precision": [cut("epochs=5,", "epochs=1,")],
    "tutorials__generative__dcgan": [
        ("import imageio\n", "# import imageio  (corpus edit: not installed)\n"), STUB_DISPLAY,
        cut("EPOCHS = 50", "EPOCHS = 2"),
        cut(".shuffle(BUFFER_SIZE).batch(BATCH_SIZE)", ".shuffle(BUFFER_SIZE).batch(BATCH_SIZE).take(8)")],
    "tutorials__load_data__numpy": [cut("epochs=10)", "epochs=1)")],
    "guide__effective_tf2": [
        NO_TFDS,
        ("datasets, info = tfds.load(name='mnist', with_info=True, as_supervised=True)",
         f"datasets, info = {TFDS_MNIST}, None  # corpus edit: tfds's MNIST from the bundled copy")],
    "tutorials__distribute__keras": [
        NO_TFDS,
        ("datasets, info = tfds.load(name='mnist', with_info=True, as_supervised=True)",
         f"datasets, info = {TFDS_MNIST}, None  # corpus edit: tfds's MNIST from the bundled copy"),
        cut("EPOCHS = 12", "EPOCHS = 2"),
        cut(".cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)", ".cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE).take(50)")],
    "guide__migrate__checkpoint_saver": [
        cut("          epochs=10,\n          validation_data", "          epochs=2,\n          validation_data")],
    "guide__migrate__tensorboard": [
        cut("          epochs=10,\n          validation_data", "          epochs=2,\n          validation_data")],
}

CELL_SKIPS = {
    "tutorials__generative__dcgan": [("imageio.get_writer", "imageio is not installed"),
                                     ("tensorflow_docs.vis.embed", "tensorflow_docs is not installed")],
}

SKIPS = {
    "tutorials__customization__custom_training_walkthrough": "tfds's penguins dataset and tfds.as_dataframe (pandas)",
    "tutorials__generative__data_compression": "needs tensorflow_compression and tfds",
}
