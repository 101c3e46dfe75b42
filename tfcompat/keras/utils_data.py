"""`keras.utils` data helpers: timeseries windows, `PyDataset`, image/text datasets from directories."""
import os

import numpy as np

from tfcompat.data.dataset import DerivedDataset
from tfcompat.framework.export import partial_api

IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _check_timeseries_args(data, start_index, end_index, sampling_rate, sequence_stride):
    n = len(data)
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: start_index={start_index}")
        if start_index >= n:
            raise ValueError("`start_index` must be lower than the length of the data. "
                             f"Received: start_index={start_index}, for data of length {n}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. "
                             f"Received: start_index={start_index}, and end_index={end_index} ")
        if end_index >= n:
            raise ValueError("`end_index` must be lower than the length of the data. "
                             f"Received: end_index={end_index}, for data of length {n}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: end_index={end_index}")
    for name, v in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if v <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: {name}={v}")
        if v >= n:
            raise ValueError(f"`{name}` must be lower than the length of the data. "
                             f"Received: {name}={v}, for data of length {n}")


class _Windows(DerivedDataset):
    """Its input's elements under the element spec of Keras's window pipeline: `tf.range` with tensor bounds leaves a
    window's time dimension unknown in TF, so windows are `(None, features...)` (batched `(None, None, ...)`); shown as
    the transformation that pipeline ends with (`_BatchDataset`, `_ShuffleDataset` or `_PrefetchDataset`)."""

    def __init__(self, input_dataset, spec, tf_name):
        super().__init__(input_dataset)
        self._spec, self._tf_name = spec, tf_name

    def _compute_spec(self):
        return self._spec

    def _elements(self):
        return self._input._elements()


@partial_api("format='grain' (Grain datasets) is not implemented")
def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1, sampling_rate=1,
                                  batch_size=128, shuffle=False, seed=None, start_index=None, end_index=None,
                                  format="tf"):  # noqa: A002 - Keras's argument name
    """A `tf.data.Dataset` of sliding windows over `data` (and the target at each window's start).

    Keras builds one window per element (a `tf.range` of indices, gathered) and batches them; here each batch of
    start positions is gathered at once (same values and order: the shuffle permutes positions as it would windows),
    under the element spec and dataset name of Keras's pipeline."""
    import tfcompat as tf
    _check_timeseries_args(data, start_index, end_index, sampling_rate, sequence_stride)
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format == "grain":
        raise NotImplementedError("keras.utils.timeseries_dataset_from_array(format='grain'): Grain datasets are not "
                                  "implemented in tfcompat")
    start_index = start_index or 0
    end_index = len(data) if end_index is None else end_index
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    positions = np.arange(0, num_seqs, sequence_stride, dtype="int64")
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(positions)
    offsets = tf.constant(np.arange(0, sequence_length * sampling_rate, sampling_rate, dtype="int64"))
    series = tf.convert_to_tensor(data[start_index:end_index])
    labels = None if targets is None else tf.convert_to_tensor(targets[start_index:end_index])

    def windows(pos):
        x = tf.gather(series, tf.expand_dims(pos, -1) + offsets)
        return x if labels is None else (x, tf.gather(labels, pos))

    batch = [] if batch_size is None else [None]
    spec = tf.TensorSpec(batch + [None] + series.shape.as_list()[1:], series.dtype)
    if labels is not None:
        spec = (spec, tf.TensorSpec(batch + labels.shape.as_list()[1:], labels.dtype))
    ds = tf.data.Dataset.from_tensor_slices(positions)
    if shuffle:
        ds = ds.shuffle(batch_size * 8 if batch_size is not None else 1024, seed=seed)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    name = "_BatchDataset" if batch_size is not None else "_ShuffleDataset" if shuffle else "_PrefetchDataset"
    return _Windows(ds.map(windows), spec, name)


class PyDataset:
    """Base class of Python datasets: `__getitem__(i)` returns batch `i`, `__len__` the number of batches."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    @property
    def workers(self):
        return getattr(self, "_workers", 1)

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        return getattr(self, "_use_multiprocessing", False)

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        return getattr(self, "_max_queue_size", 10)

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    @property
    def num_batches(self):
        """`len(self)` when the subclass defines `__len__`, else None (infinite or unknown)."""
        if type(self).__len__ is PyDataset.__len__:
            return None
        return len(self)

    def on_epoch_begin(self):
        """Called at the start of every epoch."""

    def on_epoch_end(self):
        """Called at the end of every epoch."""


Sequence = PyDataset


def _check_split(validation_split, subset, shuffle, seed):
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` "
                         "argument, to make sure that there is no overlap between the training and "
                         "validation subset.")


def _walk_files(directory, follow_links, formats):
    """Relative-to-`directory` paths of the allowed files below it, in Keras's sorted walk order."""
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda w: w[0]):
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                yield os.path.join(root, fname)


def _index_directory(directory, labels, formats, class_names, shuffle, seed, follow_links, verbose):
    """(file_paths, labels, class_names) as Keras's `index_directory` lists (and shuffles) them."""
    if labels == "inferred":
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError("The `class_names` passed did not match the names of the subdirectories of the "
                                 f"target directory. Expected: {subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = class_names
    else:
        if class_names is not None:
            if labels is None:
                raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified.")
            raise ValueError("When argument `labels` is specified, argument `class_names` cannot be specified "
                             "(the `class_names` will be the sorted list of labels).")
        subdirs = [""]
    paths, found = [], []
    for i, sub in enumerate(subdirs):
        files = list(_walk_files(os.path.join(directory, sub), follow_links, formats))
        paths += files
        found += [i] * len(files)
    if labels == "inferred":
        class_names, labels = list(subdirs), np.array(found, dtype="int32")
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(paths):
            raise ValueError("Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(paths)} files in "
                             f"directory {directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        print(f"Found {len(paths)} files." if labels is None
              else f"Found {len(paths)} files belonging to {len(class_names)} classes.")
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            labels = np.array(labels)
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def _split(samples, labels, validation_split, subset):
    if not validation_split:
        return samples, labels
    n_val = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - n_val} files for training.")
        sl = slice(None, -n_val)
    else:
        print(f"Using {n_val} files for validation.")
        sl = slice(-n_val, None)
    return samples[sl], None if labels is None else labels[sl]


def _labels_dataset(labels, label_mode, num_classes):
    import tfcompat as tf
    ds = tf.data.Dataset.from_tensor_slices(np.asarray(labels, dtype="int32"))
    if label_mode == "binary":
        return ds.map(lambda y: tf.expand_dims(tf.cast(y, "float32"), -1))
    if label_mode == "categorical":
        return ds.map(lambda y: tf.one_hot(y, num_classes))
    return ds


def _files_dataset(paths, labels, label_mode, num_classes, load, shuffle, buffer_size, seed, batch_size):
    import tfcompat as tf
    ds = tf.data.Dataset.from_tensor_slices(list(paths))
    if label_mode:
        ds = tf.data.Dataset.zip((ds, _labels_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size, seed=seed)
    ds = ds.map((lambda p, y: (load(p), y)) if label_mode else load)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    return ds.prefetch(tf.data.AUTOTUNE)       # Keras's pipelines end with a prefetch


def _check_labels(labels, label_mode, class_names, not_a_list):
    """Keras's checks of `labels`, `class_names` and `label_mode`; `not_a_list` is the message for `labels` that are
    neither "inferred", None nor a list (Keras's image/text and audio utilities word it differently)."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(f"{not_a_list} Received: labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")


def _from_directory(directory, labels, label_mode, class_names, formats, batch_size, shuffle, seed,
                    validation_split, subset, follow_links, verbose, load, kind, checks=None):
    _check_labels(labels, label_mode, class_names,
                  "`labels` argument should be a list/tuple of integer labels, of the same size as the number of "
                  f"{kind} files in the target directory. If you wish to infer the labels from the subdirectory "
                  "names in the target directory, pass `labels=\"inferred\"`. If you wish to get a dataset that "
                  f"only contains {kind}s (no labels), pass `labels=None`.")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    _check_split(validation_split, subset, shuffle, seed)
    data_seed = seed        # Keras shuffles a text dataset with the given seed, an image dataset with the drawn one
    if seed is None and (shuffle or kind == "image"):
        seed = np.random.randint(1e6)
    if kind == "image":
        data_seed = seed
    paths, labels, class_names = _index_directory(directory, labels, formats, class_names, shuffle, seed,
                                                  follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={class_names}")
    if checks is not None:      # Keras checks these arguments once the directory is indexed
        checks()
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    num_classes = len(class_names) if class_names else 0
    subsets = ("training", "validation") if subset == "both" else (subset,)
    out = []
    for part in subsets:
        p, y = _split(paths, labels, validation_split, part)
        if not p:
            raise ValueError(f"No {kind}s found in directory {directory}. Allowed formats: {formats}"
                             if kind == "image" else f"No text files found in directory {directory}. "
                             "Allowed format: .txt")
        ds = _files_dataset(p, y, label_mode, num_classes, load,     # subset="both": Keras's validation unshuffled
                            shuffle and not (subset == "both" and part == "validation"), buffer_size, data_seed,
                            batch_size)
        ds.class_names = class_names
        if kind == "image":     # Keras gives image datasets their files (text datasets none)
            ds.file_paths = list(p)
        out.append(ds)
    return tuple(out) if subset == "both" else out[0]


def _check_format(format, name):  # noqa: A002 - Keras's argument name
    """Keras 3.15's `format` argument: "tf" datasets; "grain" (Grain datasets) is not implemented."""
    if format not in ("tf", "grain"):
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}')
    if format == "grain":
        raise NotImplementedError(f"keras.utils.{name}(format='grain'): Grain datasets are not implemented in "
                                  "tfcompat")


@partial_api("format='grain' (Grain datasets) is not implemented")
def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, color_mode="rgb",
                                 batch_size=32, image_size=(256, 256), shuffle=True, seed=None, validation_split=None,
                                 subset=None, interpolation="bilinear", follow_links=False,
                                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, data_format=None,
                                 format="tf", verbose=True):  # noqa: A002 - Keras's argument name
    """A dataset of float32 `(batch, h, w, channels)` images (and labels) read from class subdirectories (channels
    first with `data_format="channels_first"`); each image resized, or centrally cropped (`crop_to_aspect_ratio`) or
    padded (`pad_to_aspect_ratio`) to the aspect ratio of `image_size` first."""
    import tfcompat as tf
    from tfcompat.keras.image_utils import _data_format
    from tfcompat.keras.preprocessing.smart_resize import smart_resize
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or not len(image_size) == 2:
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 integers. "
                         f"Received: image_size={image_size}")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    _check_format(format, "image_dataset_from_directory")
    size, layout = tuple(image_size), []

    def checks():
        layout.append(_data_format(data_format))
        if pad_to_aspect_ratio and crop_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.")

    def load(path):
        img = tf.io.decode_image(tf.io.read_file(path), channels=channels, expand_animations=False)
        if crop_to_aspect_ratio:
            img = smart_resize(img, size, interpolation=interpolation)
        elif pad_to_aspect_ratio:
            img = tf.image.resize_with_pad(img, size[0], size[1], method=interpolation)
        else:
            img = tf.image.resize(img, size, method=interpolation)
        return tf.transpose(img, (2, 0, 1)) if layout[0] == "channels_first" else img

    return _from_directory(directory, labels, label_mode, class_names, IMAGE_FORMATS, batch_size, shuffle, seed,
                           validation_split, subset, follow_links, verbose, load, "image", checks)


@partial_api("format='grain' (Grain datasets) is not implemented")
def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                max_length=None, shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):  # noqa: A002 - Keras's name
    """A dataset of `tf.string` texts (and labels) read from the `.txt` files of class subdirectories."""
    import tfcompat as tf
    _check_format(format, "text_dataset_from_directory")

    def load(path):
        text = tf.io.read_file(path)
        return text if max_length is None else tf.strings.substr(text, 0, max_length)

    return _from_directory(directory, labels, label_mode, class_names, (".txt",), batch_size, shuffle, seed,
                           validation_split, subset, follow_links, verbose, load, "text")
