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

# Synthetic stand-ins for downloads, written into the working directory by the edited cell (seeded, so both
# implementations read the same bytes; PIL writes the JPEGs).
FLOWERS = """import os, numpy, PIL.Image  # corpus edit: a synthetic flower_photos (5 classes of JPEGs), not the download
def _corpus_flowers(root='flower_photos', per_class=8):
  rng = numpy.random.default_rng(0)
  for name in ['daisy', 'dandelion', 'roses', 'sunflowers', 'tulips']:
    os.makedirs(os.path.join(root, name), exist_ok=True)
    for i in range(per_class):
      shape = (int(rng.integers(180, 320)), int(rng.integers(180, 320)), 3)
      PIL.Image.fromarray(rng.integers(0, 256, shape, dtype='uint8')).save(os.path.join(root, name, f'{i}.jpg'))
  with open(os.path.join(root, 'LICENSE.txt'), 'w') as f:
    f.write('synthetic images\\n')
  return os.path.abspath(root)
"""
TITANIC = """import os, numpy  # corpus edit: a synthetic titanic train.csv (same columns), not the download
def _corpus_titanic(path='train.csv', rows=627):
  rng = numpy.random.default_rng(0)
  with open(path, 'w') as f:
    f.write('survived,sex,age,n_siblings_spouses,parch,fare,class,deck,embark_town,alone\\n')
    for _ in range(rows):
      f.write('%d,%s,%.1f,%d,%d,%.4f,%s,%s,%s,%s\\n' % (
          rng.integers(0, 2), rng.choice(['male', 'female']), rng.integers(1, 80), rng.integers(0, 5),
          rng.integers(0, 4), rng.uniform(5, 100), rng.choice(['First', 'Second', 'Third']),
          rng.choice(['unknown', 'A', 'B', 'C', 'D', 'E']), rng.choice(['Southampton', 'Cherbourg', 'Queenstown']),
          rng.choice(['y', 'n'])))
  return os.path.abspath(path)
"""
ILIAD = """file_paths = []  # corpus edit: synthetic text files, not the download
for _i, file_name in enumerate(file_names):
  with open(file_name, 'w') as _f:
    for _j in range(12):
      _f.write(f'{file_name} line {_j}: ' + ' '.join('w%d' % ((_j * 7 + _k * (_i + 3)) % 40) for _k in range(8)) + '\\n')
  file_paths.append(os.path.abspath(file_name))"""
CREDITCARD = """import numpy  # corpus edit: a synthetic creditcard.csv (Time, V1..V28, Amount, Class; 2% positive), not the download
_rng = numpy.random.default_rng(0)
with open('creditcard.csv', 'w') as _f:
  _f.write(','.join(['"Time"'] + ['"V%d"' % i for i in range(1, 29)] + ['"Amount"', '"Class"']) + '\\n')
  for _t in range(3000):
    _f.write(','.join(['%d' % _t] + ['%.6f' % v for v in _rng.normal(size=28)] + ['%.2f' % _rng.uniform(0, 500),
                                                                               '"%d"' % (_rng.uniform() < 0.02)]) + '\\n')
csv_path = os.path.abspath('creditcard.csv')"""
TITANIC_GET = 'titanic_file = tf.keras.utils.get_file("train.csv", "https://storage.googleapis.com/tf-datasets/titanic/train.csv")'


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
    "guide__data": [
        ("import pandas as pd\n", "# import pandas as pd  (corpus edit: not installed)\n"),
        ("train, test = tf.keras.datasets.fashion_mnist.load_data()\n\n# %%",
         "train, test = tf.keras.datasets.mnist.load_data()  # corpus edit: bundled MNIST, not fashion\n\n# %%"),
        ("train, test = tf.keras.datasets.fashion_mnist.load_data()\n\nimages, labels = train",
         "train, test = tf.keras.datasets.mnist.load_data()  # corpus edit: bundled MNIST, not fashion\n\n"
         "images, labels = train"),
        ("flowers = tf.keras.utils.get_file(\n    'flower_photos',\n"
         "    'https://storage.googleapis.com/download.tensorflow.org/example_images/flower_photos.tgz',\n"
         "    untar=True)", FLOWERS + "flowers = _corpus_flowers()"),
        ("flowers_root = tf.keras.utils.get_file(\n    'flower_photos',\n"
         "    'https://storage.googleapis.com/download.tensorflow.org/example_images/flower_photos.tgz',\n"
         "    untar=True)", FLOWERS + "flowers_root = _corpus_flowers()"),
        ("file_paths = [\n    tf.keras.utils.get_file(file_name, directory_url + file_name)\n"
         "    for file_name in file_names\n]", ILIAD),
        (TITANIC_GET + "\ntitanic_lines = tf.data.TextLineDataset(titanic_file)\n\n# %%\nfor line in",
         TITANIC + "titanic_file = _corpus_titanic()\ntitanic_lines = tf.data.TextLineDataset(titanic_file)"
         "\n\n# %%\nfor line in"),
        (TITANIC_GET + "\n\n# %%\ndf = pd.read_csv", TITANIC + "titanic_file = _corpus_titanic()\n\n# %%\ndf = pd.read_csv"),
        (TITANIC_GET + "\ntitanic_lines = tf.data.TextLineDataset(titanic_file)\n\n# %%\ndef plot",
         TITANIC + "titanic_file = _corpus_titanic()\ntitanic_lines = tf.data.TextLineDataset(titanic_file)"
         "\n\n# %%\ndef plot"),
        ("zip_path = tf.keras.utils.get_file(\n    origin='https://storage.googleapis.com/download.tensorflow.org/data/"
         "creditcard.zip',\n    fname='creditcard.zip',\n    extract=True)\n\ncsv_path = zip_path.replace('.zip', '.csv')",
         CREDITCARD)],
    "guide__migrate__checkpoint_saver": [
        cut("          epochs=10,\n          validation_data", "          epochs=2,\n          validation_data")],
    "guide__migrate__tensorboard": [
        cut("          epochs=10,\n          validation_data", "          epochs=2,\n          validation_data")],
}

FSNS = "the FSNS TFRecord file is a download"
CELL_SKIPS = {
    "guide__data": [("# Creates a dataset that reads all of the examples from two files.", FSNS),
                    ("# %%\ndataset = tf.data.TFRecordDataset(filenames = [fsns_test_file])\ndataset\n", FSNS),
                    ("parsed.features.feature['image/text']", FSNS),
                    ('fsns-00000-of-00001")\ndataset = tf.data.TFRecordDataset', FSNS),
                    ("raw_img = feature['image/encoded']", FSNS),
                    ("# %%\nraw_example = next(iter(dataset))\n\n", FSNS),
                    ("img, txt = tf_parse(raw_example)", FSNS),
                    ("df = pd.read_csv(titanic_file)", "pandas is not installed"),
                    ("titanic_slices = tf.data.Dataset.from_tensor_slices(dict(df))", "reads the pandas DataFrame"),
                    ("import scipy.ndimage as ndimage", "scipy is not installed"),
                    ("image = random_rotate_image(image)\nshow", "needs scipy's rotation"),
                    ("rot_ds = images_ds.map(tf_random_rotate_image)", "needs scipy's rotation")],
    "tutorials__generative__dcgan": [("imageio.get_writer", "imageio is not installed"),
                                     ("tensorflow_docs.vis.embed", "tensorflow_docs is not installed")],
}

SKIPS = {
    "tutorials__customization__custom_training_walkthrough": "tfds's penguins dataset and tfds.as_dataframe (pandas)",
    "tutorials__generative__data_compression": "needs tensorflow_compression and tfds",
}
