"""tensorflow/docs: the TF 2 notebooks of site/en/guide and site/en/tutorials, with their offline edits."""
from corpus_sources import synthetic
from corpus_sources.common import git_ls, git_show, notebook_code_cells

REPO = "tensorflow/docs"
COMMIT = "7c3650212740204359d4ceae481abc79345541be"
PREFIX = "tfdocs"
FOLDERS = ("site/en/guide/", "site/en/tutorials/")
# measured by the shared corpus (/work/shared/conformance/corpus/), not here
SHARED = {"guide/autodiff", "guide/basic_training_loops", "guide/checkpoint", "guide/function",
          "guide/intro_to_modules", "guide/tensor", "guide/variable",
          "tutorials/customization/custom_layers", "tutorials/quickstart/beginner"}

DROP_LINES = [r"^\s*(!|%%?[A-Za-z])"]      # shell and IPython magic lines (not a Python line `% (args)`)


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
def jpeg(path, shape, seed):
    """Code writing a seeded random JPEG of `shape` to `path` with PIL and binding its absolute path."""
    return (f"import os, numpy, PIL.Image  # corpus edit: a synthetic {shape} JPEG, not the download\n"
            f"PIL.Image.fromarray(numpy.random.default_rng({seed}).integers(0, 256, {shape}, dtype='uint8'))"
            f".save({path!r})\n")


TF_FLOWERS = """import numpy, types  # corpus edit: a synthetic tf_flowers (uint8 RGB images of varied sizes, 5 classes), not tfds
def _corpus_tf_flowers():
  def split(n, seed):
    rng = numpy.random.default_rng(seed)
    images = [rng.integers(0, 256, (int(rng.integers(150, 300)), int(rng.integers(150, 300)), 3), dtype='uint8')
              for _ in range(n)]
    labels = rng.integers(0, 5, n)
    return tf.data.Dataset.from_generator(lambda: zip(images, labels), output_signature=(
        tf.TensorSpec((None, None, 3), tf.uint8), tf.TensorSpec((), tf.int64)))
  names = ['dandelion', 'daisy', 'tulips', 'sunflowers', 'roses']
  label = types.SimpleNamespace(num_classes=5, int2str=lambda i: names[int(i)])
  return [split(96, 0), split(16, 1), split(16, 2)], types.SimpleNamespace(features={'label': label})
"""
TFDS_FLOWERS = ("tfds.load(\n    'tf_flowers',\n    split=['train[:80%]', 'train[80%:90%]', 'train[90%:]'],\n"
                "    with_info=True,\n    as_supervised=True,\n)")
IMDB = """import os, numpy  # corpus edit: a synthetic aclImdb tree (train/test x pos/neg review files, train/unsup), not the download
def _corpus_imdb(root='aclImdb_v1'):
  rng = numpy.random.default_rng(0)
  words = ['the', 'movie', 'film', 'was', 'great', 'bad', 'plot', 'actor', 'fun', 'boring', 'and', 'not', 'a', 'story']
  for split in ('train', 'test'):
    for label in ('pos', 'neg') + (('unsup',) if split == 'train' else ()):
      os.makedirs(os.path.join(root, 'aclImdb', split, label), exist_ok=True)
      for i in range(100):
        text = ' '.join(rng.choice(words, int(rng.integers(20, 60)))) + '.<br /><br />' + ' '.join(rng.choice(words, 8))
        with open(os.path.join(root, 'aclImdb', split, label, f'{i}_{int(rng.integers(1, 11))}.txt'), 'w') as f:
          f.write(text + '!')
  with open(os.path.join(root, 'aclImdb', 'train', 'pos', '1181_9.txt'), 'w') as f:
    f.write('A synthetic review.<br /><br />Great film!')
  return os.path.abspath(root)
"""
TITANIC_GET = 'titanic_file = tf.keras.utils.get_file("train.csv", "https://storage.googleapis.com/tf-datasets/titanic/train.csv")'


FREE_PORTS = ("""tf_config = {
    'cluster': {
        'worker': ['localhost:12345', 'localhost:23456']
    },""", """import socket  # corpus edit: two free ports, not 12345 and 23456 (runs of this file may overlap here)
def _corpus_free_port():
  with socket.socket() as s:
    s.bind(('localhost', 0))
    return s.getsockname()[1]
tf_config = {
    'cluster': {
        'worker': ['localhost:%d' % _corpus_free_port() for _ in range(2)]
    },""")


# %%writefile'd worker scripts run outside run.py, whose hook lets real Keras accept the bundled mnist.npz (its
# hash differs from the download's): they read the bundled file directly.
WORKER_MNIST = ("  (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()\\n",
                "  with np.load('/work/shared/data/mnist.npz') as _d:  # corpus edit: the bundled MNIST, read directly"
                "\\n    x_train, y_train = _d['x_train'], _d['y_train']\\n")


def cut(old, new):
    """An edit that shortens training (epochs or steps), marked as a corpus edit."""
    olds, news = old.split("\n"), new.split("\n")
    i = next(i for i, (o, n) in enumerate(zip(olds, news)) if o != n)
    news[i] += f"  # corpus edit: was {olds[i].strip()}"
    return old, "\n".join(news)


TFDS_MNIST_INFO = ("(ds_train, ds_test), ds_info = tfds.load(\n    'mnist',\n    split=['train', 'test'],\n"
                   "    shuffle_files=True,\n    as_supervised=True,\n    with_info=True,\n)")
TFDS_MNIST_SPLITS = f"(lambda d: (d['train'], d['test']))({TFDS_MNIST})"
MNIST_INFO = ("types.SimpleNamespace(splits={'train': types.SimpleNamespace(num_examples=60000), 'test': "
              "types.SimpleNamespace(num_examples=10000)})  # corpus edit: tfds's MNIST and ds_info, from the bundled copy")
# tensorflow_docs is not installed: the two helpers the notebook uses, minimal (a dot per epoch; one curve per run)
TFDOCS_STANDIN = """import types  # corpus edit: tensorflow_docs is not installed; minimal stand-ins for its two helpers used here
class _EpochDots(tf.keras.callbacks.Callback):
  def on_epoch_end(self, epoch, logs=None):
    print('.', end='' if (epoch + 1) % 100 else '\\n')
class _HistoryPlotter:
  def __init__(self, metric, smoothing_std=None):
    self.metric = metric
  def plot(self, histories):
    for name, history in histories.items():
      plt.plot(history.epoch, history.history[self.metric], label=name)
      plt.plot(history.epoch, history.history['val_' + self.metric], '--')
    plt.legend()
tfdocs = types.SimpleNamespace(modeling=types.SimpleNamespace(EpochDots=_EpochDots),
                               plots=types.SimpleNamespace(HistoryPlotter=_HistoryPlotter))
"""
BACKUP_FIT = ("with strategy.scope():\n  multi_worker_model = mnist_setup.build_and_compile_cnn_model()\n"
              "multi_worker_model.fit(multi_worker_dataset,\n                       ")
DICT_BATCHES = "numeric_dict_batches = numeric_dict_ds.shuffle(SHUFFLE_BUFFER).batch(BATCH_SIZE)\nmodel.fit(numeric_dict_batches"
UCI_MPG = "url = 'http://archive.ics.uci.edu/ml/machine-learning-databases/auto-mpg/auto-mpg.data'"
PETFINDER_GET = ("tf.keras.utils.get_file('petfinder_mini.zip', dataset_url,\n                        extract=True, "
                 "cache_dir='.')", synthetic.PETFINDER)

EDITS = {
    "tutorials__keras__classification": [FASHION, cut("epochs=10)", "epochs=1)")],
    "tutorials__distribute__custom_training": [
        FASHION, cut("EPOCHS = 10", "EPOCHS = 1"),
        cut(".shuffle(BUFFER_SIZE).batch(GLOBAL_BATCH_SIZE)", ".shuffle(BUFFER_SIZE).batch(GLOBAL_BATCH_SIZE).take(100)")],
    "tutorials__images__cnn": [
        ("(train_images, train_labels), (test_images, test_labels) = datasets.cifar10.load_data()",
         "import numpy; _rng = numpy.random.default_rng(0)  # corpus edit: synthetic CIFAR-10 (shapes, dtypes)\n"
         "(train_images, train_labels), (test_images, test_labels) = (\n"
         "    (_rng.integers(0, 256, (n, 32, 32, 3), dtype='uint8'), _rng.integers(0, 10, (n, 1), dtype='uint8'))"
         " for n in (5000, 1000))  # (50000 and 10000 in CIFAR-10: cut)"),
        cut("epochs=10,", "epochs=1,")],
    "tutorials__distribute__multi_worker_with_keras": [
        FREE_PORTS, WORKER_MNIST,
        ("multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=70)\\n\")",
         "multi_worker_model.fit(multi_worker_dataset, epochs=2, steps_per_epoch=20)"
         "  # corpus edit: was epochs=3, steps_per_epoch=70\\n\")"),
        cut("single_worker_model.fit(single_worker_dataset, epochs=3, steps_per_epoch=70)",
            "single_worker_model.fit(single_worker_dataset, epochs=3, steps_per_epoch=20)")] + [
        cut(f"{head}\n\ncallbacks = [tf.keras.callbacks.BackupAndRestore(backup_dir='/tmp/backup'{freq})]\n{BACKUP_FIT}"
            "epochs=3,\n                       steps_per_epoch=70,",
            f"{head}\n\ncallbacks = [tf.keras.callbacks.BackupAndRestore(backup_dir='/tmp/backup'{freq})]\n{BACKUP_FIT}"
            "epochs=3,\n                       steps_per_epoch=20,")
        for head, freq in [("# is backed up at epoch boundaries by default.", ""), ("# set to `epoch`.", ""),
                           ("# to an integer value of `30`.", ", save_freq=30")]],
    "tutorials__distribute__multi_worker_with_ctl": [
        FREE_PORTS, WORKER_MNIST, ("num_epochs = 3\\nnum_steps_per_epoch=70\\n",
                     "num_epochs = 2  # corpus edit: was 3\\nnum_steps_per_epoch=20  # corpus edit: was 70\\n"),
        cut("num_epochs = 3\nnum_steps_per_epoch = 70", "num_epochs = 3\nnum_steps_per_epoch = 20")],
    "tutorials__keras__regression": [
        (UCI_MPG, synthetic.AUTO_MPG + "url = 'auto-mpg.data'")] + [
        cut(f"{head}epochs=100,", f"{head}epochs=20,") for head in (
            "train_features['Horsepower'],\n    train_labels,\n    ", "train_features,\n    train_labels,\n    ")] + [
        cut(f"{head}epochs=100)", f"{head}epochs=20)") for head in (
            "train_features['Horsepower'],\n    train_labels,\n    validation_split=0.2,\n    verbose=0, ",
            "train_features,\n    train_labels,\n    validation_split=0.2,\n    verbose=0, ")],
    "guide__core__quickstart_core": [(UCI_MPG, synthetic.AUTO_MPG + "url = 'auto-mpg.data'")],
    "guide__core__logistic_regression_core": [
        ("url = 'https://archive.ics.uci.edu/ml/machine-learning-databases/breast-cancer-wisconsin/wdbc.data'",
         synthetic.WDBC + "url = 'wdbc.data'"), cut("epochs = 200", "epochs = 50")],
    "guide__core__mlp_core": [
        NO_TFDS,
        ('train_data, val_data, test_data = tfds.load("mnist", \n'
         "                                            split=['train[10000:]', 'train[0:10000]', 'test'],\n"
         "                                            batch_size=128, as_supervised=True)",
         "(_x, _y), (_x_test, _y_test) = tf.keras.datasets.mnist.load_data()  # corpus edit: tfds's MNIST splits, "
         "from the bundled copy\n_split = lambda x, y: tf.data.Dataset.from_tensor_slices((x[..., None], "
         "y.astype('int64'))).batch(128)\ntrain_data, val_data, test_data = (\n"
         "    _split(_x[10000:], _y[10000:]), _split(_x[:10000], _y[:10000]), _split(_x_test, _y_test))"),
        ('x_viz, y_viz = tfds.load("mnist", split=[\'train[:1500]\'], batch_size=-1, as_supervised=True)[0]',
         "x_viz, y_viz = tf.constant(_x[:1500, ..., None]), tf.constant(_y[:1500].astype('int64'))"
         "  # corpus edit: tfds's MNIST, bundled"),
        ('x_test, y_test = tfds.load("mnist", split=[\'test\'], batch_size=-1, as_supervised=True)[0]',
         "x_test, y_test = tf.constant(_x_test[..., None]), tf.constant(_y_test.astype('int64'))"
         "  # corpus edit: tfds's MNIST, bundled"),
        cut("optimizer=Adam(), epochs=10)", "optimizer=Adam(), epochs=1)")],
    "tutorials__load_data__csv": [
        ('abalone_train = pd.read_csv(\n    "https://storage.googleapis.com/download.tensorflow.org/data/abalone_train.csv",',
         synthetic.ABALONE + 'abalone_train = pd.read_csv(\n    "abalone_train.csv",'),
        ('titanic = pd.read_csv("https://storage.googleapis.com/tf-datasets/titanic/train.csv")',
         TITANIC + "titanic = pd.read_csv(_corpus_titanic())"),
        (TITANIC_GET.replace("titanic_file", "titanic_file_path"), "titanic_file_path = _corpus_titanic()  # corpus edit"),
        ("traffic_volume_csv_gz = tf.keras.utils.get_file(\n    'Metro_Interstate_Traffic_Volume.csv.gz', \n"
         '    "https://archive.ics.uci.edu/ml/machine-learning-databases/00492/Metro_Interstate_Traffic_Volume.csv.gz",\n'
         "    cache_dir='.', cache_subdir='traffic')",
         synthetic.TRAFFIC + "traffic_volume_csv_gz = os.path.abspath('traffic/Metro_Interstate_Traffic_Volume.csv.gz')"),
        ("fonts_zip = tf.keras.utils.get_file(\n    'fonts.zip',  \"https://archive.ics.uci.edu/ml/machine-learning-"
         "databases/00417/fonts.zip\",\n    cache_dir='.', cache_subdir='fonts',\n    extract=True)",
         synthetic.FONTS + "fonts_zip = os.path.abspath('fonts')")],
    "tutorials__load_data__pandas_dataframe": [
        ("csv_file = tf.keras.utils.get_file('heart.csv', 'https://storage.googleapis.com/download.tensorflow.org/"
         "data/heart.csv')", synthetic.HEART + "csv_file = os.path.abspath('heart.csv')"),
        # batches of 2: 15 and 5 epochs ran past the file timeout under TF on the loaded machine
        cut("target, epochs=15, batch_size=BATCH_SIZE)", "target, epochs=2, batch_size=BATCH_SIZE)"),
        cut("model.fit(numeric_batches, epochs=15)", "model.fit(numeric_batches, epochs=2)")] + [
        (f"{fit}, epochs=5, batch_size=BATCH_SIZE)\n\n# %%\n{DICT_BATCHES}, epochs=5)",
         f"{fit}, epochs=1, batch_size=BATCH_SIZE)  # corpus edit: was epochs=5\n\n# %%\n{DICT_BATCHES}, epochs=1)"
         "  # corpus edit: was epochs=5")
        for fit in ("model.fit(numeric_features_dict, target_array", "model.fit(numeric_features_dict, target")] + [
        cut("history = model.fit(dict(df), target, epochs=5, batch_size=BATCH_SIZE)",
            "history = model.fit(dict(df), target, epochs=1, batch_size=BATCH_SIZE)"),
        cut("history = model.fit(ds, epochs=5)", "history = model.fit(ds, epochs=1)")],
    "tutorials__structured_data__preprocessing_layers": [PETFINDER_GET],
    "tutorials__structured_data__feature_columns": [PETFINDER_GET],
    "tutorials__structured_data__imbalanced_data": [
        ("raw_df = pd.read_csv('https://storage.googleapis.com/download.tensorflow.org/data/creditcard.csv')",
         CREDITCARD + "\nraw_df = pd.read_csv(csv_path)"), cut("EPOCHS = 100", "EPOCHS = 5")],
    "tutorials__structured_data__time_series": [
        ("import IPython\nimport IPython.display\n",
         "import types  # corpus edit: no IPython\n"
         "IPython = types.SimpleNamespace(display=types.SimpleNamespace(clear_output=lambda wait=False: None))\n"),
        ("zip_path = tf.keras.utils.get_file(\n    origin='https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
         "jena_climate_2009_2016.csv.zip',\n    fname='jena_climate_2009_2016.csv.zip',\n    extract=True)\n"
         "csv_path, _ = os.path.splitext(zip_path)",
         synthetic.JENA + "csv_path = os.path.abspath('jena_climate_2009_2016.csv')"),
        cut("MAX_EPOCHS = 20", "MAX_EPOCHS = 3")],
    "guide__migrate__early_stopping": [
        NO_TFDS, (TFDS_MNIST_INFO, "import types\n(ds_train, ds_test), ds_info = " + TFDS_MNIST_SPLITS + ", " + MNIST_INFO),
        cut("patience=3)\n\n# Only around 25 epochs are run during training, instead of 100.\nhistory = model.fit(\n"
            "    ds_train,\n    epochs=100,", "patience=3)\n\n# Only around 25 epochs are run during training, instead "
            "of 100.\nhistory = model.fit(\n    ds_train,\n    epochs=3,"),
        cut("callback = LimitTrainingTime(30)\nhistory = model.fit(\n    ds_train,\n    epochs=100,",
            "callback = LimitTrainingTime(30)\nhistory = model.fit(\n    ds_train,\n    epochs=3,"),
        cut("epochs = 100\n", "epochs = 3\n")],
    "tutorials__distribute__dtensor_keras_tutorial": [
        NO_TFDS, (TFDS_MNIST_INFO, "import types\n(ds_train, ds_test), ds_info = " + TFDS_MNIST_SPLITS + ", " + MNIST_INFO)],
    "tutorials__keras__overfit_and_underfit": [
        ("import tensorflow_docs as tfdocs\nimport tensorflow_docs.modeling\nimport tensorflow_docs.plots\n", TFDOCS_STANDIN),
        ("from  IPython import display", "import types; display = types.SimpleNamespace()  # corpus edit: no IPython"),
        ("gz = tf.keras.utils.get_file('HIGGS.csv.gz', 'http://mlphysics.ics.uci.edu/data/higgs/HIGGS.csv.gz')",
         synthetic.HIGGS + "gz = os.path.abspath('HIGGS.csv.gz')"),
        cut("def compile_and_fit(model, name, optimizer=None, max_epochs=10000):",
            "def compile_and_fit(model, name, optimizer=None, max_epochs=5):")],
    "tutorials__audio__simple_audio": [
        ("from IPython import display", "import types  # corpus edit: no IPython (no audio playback)\n"
         "display = types.SimpleNamespace(display=lambda *a, **k: None, Audio=lambda *a, **k: None)"),
        ("if not data_dir.exists():\n  tf.keras.utils.get_file(\n      'mini_speech_commands.zip',\n"
         '      origin="http://storage.googleapis.com/download.tensorflow.org/data/mini_speech_commands.zip",\n'
         "      extract=True,\n      cache_dir='.', cache_subdir='data')",
         synthetic.SPEECH_COMMANDS + "if not data_dir.exists():\n  _corpus_speech_commands()"),
        cut("EPOCHS = 10", "EPOCHS = 3")],
    "tutorials__customization__custom_training_walkthrough": [
        ("import tensorflow_datasets as tfds\n", synthetic.PENGUINS), cut("num_epochs = 201", "num_epochs = 51")],
    "tutorials__images__transfer_learning": [
        ("path_to_zip = tf.keras.utils.get_file('cats_and_dogs.zip', origin=_URL, extract=True)\n"
         "PATH = os.path.join(os.path.dirname(path_to_zip), 'cats_and_dogs_filtered')",
         synthetic.CATS_AND_DOGS + "PATH = _corpus_cats_and_dogs()"),
        ("                                               weights='imagenet')",
         "                                               weights=None)  # corpus edit: no ImageNet weights download"),
        cut("initial_epochs = 10", "initial_epochs = 2"), cut("fine_tune_epochs = 10", "fine_tune_epochs = 1")],
    "tutorials__quickstart__advanced": [cut("EPOCHS = 5", "EPOCHS = 1"), cut(".shuffle(10000).batch(32)", ".shuffle(10000).batch(32).take(200)")],
    "guide__graph_optimization": [cut("a = tf.constant(np.random.randn(2000,2000), dtype = tf.float32)",
                                       "a = tf.constant(np.random.randn(300,300), dtype = tf.float32)")],
    "guide__core__optimizers_core": [cut("init_val=2., max_iters=2000):", "init_val=2., max_iters=300):")],
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
    "guide__saved_model": [
        ('file = tf.keras.utils.get_file(\n    "grace_hopper.jpg",\n    "https://storage.googleapis.com/download.'
         'tensorflow.org/example_images/grace_hopper.jpg")',
         jpeg("grace_hopper.jpg", (606, 517, 3), 0) + "file = os.path.abspath('grace_hopper.jpg')"),
        ("labels_path = tf.keras.utils.get_file(\n    'ImageNetLabels.txt',\n    'https://storage.googleapis.com/"
         "download.tensorflow.org/data/ImageNetLabels.txt')",
         "with open('ImageNetLabels.txt', 'w') as _f:  # corpus edit: synthetic label names, not the download\n"
         "  _f.write('background\\n' + ''.join(f'class_{i}\\n' for i in range(1000)))\n"
         "labels_path = 'ImageNetLabels.txt'"),
        ("pretrained_model = tf.keras.applications.MobileNet()",
         "pretrained_model = tf.keras.applications.MobileNet(weights=None)  # corpus edit: no pretrained download")],
    "guide__core__matrix_core": [
        ("import requests\n", "# import requests  (corpus edit: not installed; the image is synthetic)\n"),
        ("img_path = requests.get(img_link, stream=True).raw",
         jpeg("corgi.jpg", (320, 480, 3), 0) + "img_path = 'corgi.jpg'")],
    "guide__core__distribution": [
        NO_TFDS,
        ("train_data, test_data = tfds.load(\"mnist\", split=['train[:5000]', 'test[:5000]'], batch_size=128, "
         "as_supervised=True)",
         "train_data, test_data = (tf.data.Dataset.from_tensor_slices((x[:5000, ..., None], y[:5000].astype('int64')))"
         ".batch(128) for x, y in tf.keras.datasets.mnist.load_data())  # corpus edit: tfds's MNIST from the bundled copy")],
    "tutorials__distribute__save_and_load": [
        NO_TFDS,
        ("  datasets = tfds.load(name='mnist', as_supervised=True)",
         f"  datasets = {TFDS_MNIST}  # corpus edit: tfds's MNIST from the bundled copy"),
        # three 2-epoch fits of all 938 batches took TF 100-200 s each here (over the file limit)
        cut("train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)",
            "train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE).take(100)")],
    "tutorials__generative__autoencoder": [
        ("import pandas as pd\n", "# import pandas as pd  (corpus edit: not installed)\n"),
        ("from sklearn.metrics import accuracy_score, precision_score, recall_score\n"
         "from sklearn.model_selection import train_test_split\n",
         "# from sklearn.metrics import accuracy_score, precision_score, recall_score  (corpus edit: not installed)\n"
         "# from sklearn.model_selection import train_test_split\n"),
        ("from tensorflow.keras.datasets import fashion_mnist",
         "from tensorflow.keras.datasets import mnist as fashion_mnist  # corpus edit: the bundled MNIST"),
        cut("autoencoder.fit(x_train, x_train,\n                epochs=10,",
            "autoencoder.fit(x_train, x_train,\n                epochs=1,"),
        cut("autoencoder.fit(x_train_noisy, x_train,\n                epochs=10,",
            "autoencoder.fit(x_train_noisy, x_train,\n                epochs=1,"),
        ("dataframe = pd.read_csv('http://storage.googleapis.com/download.tensorflow.org/data/ecg.csv', header=None)\n"
         "raw_data = dataframe.values\ndataframe.head()",
         "import numpy; _rng = numpy.random.default_rng(0)  # corpus edit: synthetic ECGs (4998 x 140 values, 0/1 label), not the download\n"
         "raw_data = numpy.concatenate([_rng.normal(size=(4998, 140)), _rng.integers(0, 2, (4998, 1))], axis=1)\n"
         "raw_data[:5]"),
        ("train_data, test_data, train_labels, test_labels = train_test_split(\n"
         "    data, labels, test_size=0.2, random_state=21\n)",
         "train_data, test_data, train_labels, test_labels = (  # corpus edit: a fixed split, sklearn is not installed\n"
         "    data[:3998], data[3998:], labels[:3998], labels[3998:])")],
    "tutorials__load_data__tfrecord": [
        ("import IPython.display as display",
         "import types  # corpus edit: no IPython\n"
         "display = types.SimpleNamespace(display=lambda *a: None, HTML=str, Image=lambda **k: None)"),
        ("cat_in_snow  = tf.keras.utils.get_file(\n    '320px-Felis_catus-cat_on_snow.jpg',\n"
         "    'https://storage.googleapis.com/download.tensorflow.org/example_images/320px-Felis_catus-cat_on_snow.jpg')",
         jpeg("cat.jpg", (213, 320, 3), 1) + "cat_in_snow = os.path.abspath('cat.jpg')"),
        ("williamsburg_bridge = tf.keras.utils.get_file(\n    '194px-New_East_River_Bridge_from_Brooklyn_det.4a09796u.jpg',\n"
         "    'https://storage.googleapis.com/download.tensorflow.org/example_images/194px-New_East_River_Bridge_from_"
         "Brooklyn_det.4a09796u.jpg')",
         jpeg("bridge.jpg", (317, 194, 3), 2) + "williamsburg_bridge = os.path.abspath('bridge.jpg')")],
    "tutorials__images__classification": [
        ('data_dir = tf.keras.utils.get_file("flower_photos.tgz", origin=dataset_url, extract=True)\n'
         'data_dir = pathlib.Path(data_dir).parent / "flower_photos_extracted" / "flower_photos"',
         FLOWERS + "data_dir = pathlib.Path(_corpus_flowers(per_class=20))"),
        cut("epochs=10\n", "epochs=2\n"), cut("epochs = 15\n", "epochs = 2\n"),
        ("sunflower_path = tf.keras.utils.get_file('Red_sunflower', origin=sunflower_url)",
         jpeg("Red_sunflower.jpg", (446, 592, 3), 3) + "sunflower_path = os.path.abspath('Red_sunflower.jpg')")],
    "tutorials__images__data_augmentation": [
        ("import tensorflow_datasets as tfds\n", TF_FLOWERS),
        ("layers\n\n# %%\n(train_ds, val_ds, test_ds), metadata = " + TFDS_FLOWERS,
         "layers\n\n# %%\n(train_ds, val_ds, test_ds), metadata = _corpus_tf_flowers()  # corpus edit: not tfds"),
        ("(train_ds, val_ds, test_ds), metadata = " + TFDS_FLOWERS + "\n\n# %%\nimage, label",
         "(train_ds, val_ds, test_ds), metadata = _corpus_tf_flowers()  # corpus edit: not tfds\n\n# %%\nimage, label"),
        ("(train_datasets, val_ds, test_ds), metadata = " + TFDS_FLOWERS,
         "(train_datasets, val_ds, test_ds), metadata = _corpus_tf_flowers()  # corpus edit: not tfds"),
        cut("epochs=5\n", "epochs=2\n")],
    "tutorials__load_data__images": [
        ("import tensorflow_datasets as tfds\n", TF_FLOWERS),
        ("archive = tf.keras.utils.get_file(origin=dataset_url, extract=True)\n"
         "data_dir = pathlib.Path(archive) / 'flower_photos'",
         FLOWERS + "data_dir = pathlib.Path(_corpus_flowers(per_class=20))"),
        ("(train_ds, val_ds, test_ds), metadata = " + TFDS_FLOWERS,
         "(train_ds, val_ds, test_ds), metadata = _corpus_tf_flowers()  # corpus edit: not tfds")],
    "tutorials__keras__text_classification": [
        ('dataset = tf.keras.utils.get_file("aclImdb_v1", url,\n                                    untar=True, '
         "cache_dir='.',\n                                    cache_subdir='')", IMDB + "dataset = _corpus_imdb()")],
    "guide__migrate__checkpoint_saver": [
        cut("          epochs=10,\n          validation_data",
            "          epochs=2, steps_per_epoch=100,\n          validation_data")],
    "guide__migrate__evaluator": [cut("          epochs=1,\n          callbacks", "          epochs=1, steps_per_epoch=100,\n          callbacks")],
    "guide__migrate__fault_tolerance": [
        cut(f"            epochs=10,\n            steps_per_epoch=100,\n            validation_data=(x_test, y_test),\n"
            f"            callbacks=[backup_restore_callback{tail}",
            f"            epochs=5,\n            steps_per_epoch=100,\n            validation_data=(x_test, y_test),\n"
            f"            callbacks=[backup_restore_callback{tail}")
        for tail in (", InterruptAtEpoch()])", "])\n\n# %%\nclass InterruptAtStep", ", InterruptAtStep()])",
                     "])\n\n# %%\nmodel = create_model()")] + [
        # the custom loop's steps run on all 60,000 images: 5-15 s each on TF here, 25 of them over the file limit
        ("epochs = 5\nsteps_per_epoch = 5",
         "epochs = 2  # corpus edit: was epochs = 5\nsteps_per_epoch = 3  # corpus edit: was steps_per_epoch = 5")],
    "guide__migrate__tensorboard": [
        cut("          epochs=10,\n          validation_data",
            "          epochs=2, steps_per_epoch=100,\n          validation_data")],
}

FSNS = "the FSNS TFRecord file is a download"
CELL_SKIPS = {
    "tutorials__generative__autoencoder": [("print_stats(preds, test_labels)", "sklearn's metrics are not installed")],
    "tutorials__distribute__save_and_load": [("import tensorflow_hub as hub", "tensorflow_hub is not installed")],
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

PANDAS = "pandas is not installed here (nor in the TF venv) and the notebook is built on DataFrames"
ESTIMATOR = "tf.estimator was removed in TF 2.16: TF 2.21 cannot run the notebook"
TPU = "needs a TPU"
SKIPS = {
    "guide__estimator": ESTIMATOR,
    "guide__jax2tf": "needs jax and flax (not installed)",
    "guide__migrate__canned_estimators": ESTIMATOR + "; also pandas and tensorflow_decision_forests",
    "guide__migrate__multi_worker_cpu_gpu_training": "needs portpicker and an in-process multi-worker cluster",
    "guide__migrate__tflite": "downloads a frozen graph; converts with TFLite",
    "guide__migrate__tpu_embedding": TPU,
    "guide__migrate__tpu_estimator": TPU,
    "guide__migrate__upgrade": "shell only: tf_upgrade_v2 on a cloned tensorflow/models",
    "guide__migrate__validate_correctness": "needs tf_slim and a cloned tensorflow/models",
    "guide__tpu": TPU,
    "tutorials__audio__music_generation": "downloads the MAESTRO dataset; needs pretty_midi, pyfluidsynth, pandas",
    "tutorials__audio__transfer_learning_audio": "needs tensorflow_hub (YAMNet) and tensorflow_io",
    "tutorials__distribute__dtensor_ml_tutorial": "tfds's IMDB reviews (a download)",
    "tutorials__distribute__multi_worker_with_estimator": ESTIMATOR,
    "tutorials__distribute__parameter_server_training": "needs portpicker and an in-process parameter-server cluster",
    "tutorials__estimator__keras_model_to_estimator": ESTIMATOR,
    "tutorials__estimator__linear": ESTIMATOR + "; also pandas",
    "tutorials__estimator__premade": ESTIMATOR + "; also pandas",
    "tutorials__generative__adversarial_fgsm": "needs pretrained MobileNetV2 ImageNet weights (a download)",
    "tutorials__generative__cvae": "needs tensorflow_probability, imageio and tensorflow_docs",
    "tutorials__generative__cyclegan": "tfds's cycle_gan dataset and tensorflow_examples",
    "tutorials__generative__data_compression": "needs tensorflow_compression and tfds",
    "tutorials__generative__deepdream": "needs pretrained InceptionV3 ImageNet weights (a download)",
    "tutorials__generative__pix2pix": "downloads the facades dataset",
    "tutorials__generative__style_transfer": "needs pretrained VGG19 weights and tensorflow_hub",
    "tutorials__images__segmentation": "tfds's oxford_iiit_pet and tensorflow_examples",
    "tutorials__images__transfer_learning_with_hub": "needs tensorflow_hub models",
    "tutorials__interpretability__integrated_gradients": "needs tensorflow_hub (Inception V1)",
    "tutorials__keras__keras_tuner": "needs keras_tuner",
    "tutorials__keras__text_classification_with_hub": "needs tensorflow_hub and tfds's IMDB reviews",
    "tutorials__load_data__text": "needs tensorflow_text and tfds; downloads Stack Overflow and Iliad data",
    "tutorials__load_data__video": "needs cv2, imageio, tqdm and a UCF101 download",
    "tutorials__optimization__compression": "needs tensorflow_compression and tfds",
    "tutorials__reinforcement_learning__actor_critic": "needs gym",
    "tutorials__understanding__sngp": "needs tf-models-official (official.nlp) and sklearn",
    "tutorials__video__transfer_learning_with_movinet": "needs cv2, tensorflow_hub and a UCF101 download",
    "tutorials__video__video_classification": "needs cv2 and a UCF101 download",
}
