"""Keras's legacy image iterators: `Iterator` (a `PyDataset` of index batches), `NumpyArrayIterator` (what
`ImageDataGenerator.flow` returns), `FilesIterator` (batches of image files) and `DirectoryIterator`
(`flow_from_directory`: one class per subfolder)."""
import os
import threading
import warnings

import numpy as np

from tfcompat.keras._config import config
from tfcompat.keras.image_utils import array_to_img, img_to_array, load_img
from tfcompat.keras.utils_data import PyDataset
from tfcompat.keras.utils_progbar import print_msg


class Iterator(PyDataset):
    """Batches of sample indices over `n` samples, reshuffled each epoch; NumPy's global generator reseeded
    with `seed + batches seen` before each batch when `seed` is given (as Keras)."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n, batch_size, shuffle, seed, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        return self._get_batches_of_transformed_samples(
            self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            start = (self.batch_index * self.batch_size) % self.n if self.n else 0
            self.batch_index = self.batch_index + 1 if self.n > start + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[start:start + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


def _transformed(generator, x):
    """One image through the generator's random transform and standardization."""
    x = generator.apply_transform(x, generator.get_random_transform(x.shape))
    return generator.standardize(x)


def _save_batch(batch_x, index_array, data_format, save_to_dir, prefix, save_format, hash_range):
    for i, j in enumerate(index_array):
        img = array_to_img(batch_x[i], data_format, scale=True)
        img.save(os.path.join(save_to_dir, f"{prefix}_{j}_{np.random.randint(hash_range)}.{save_format}"))


class NumpyArrayIterator(Iterator):
    """Batches of transformed images from a rank-4 array `x` (with labels `y`, extra arrays, sample weights)."""

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False, sample_weight=None, seed=None,
                 data_format=None, save_to_dir=None, save_prefix="", save_format="png", subset=None,
                 ignore_class_split=False, dtype=None):
        data_format = data_format or config.image_data_format
        self.dtype = dtype or config.floatx
        x_misc = []
        if isinstance(x, (tuple, list)):
            x_misc = [np.asarray(m) for m in x[1]] if isinstance(x[1], list) else [np.asarray(x[1])]
            x = x[0]
            for m in x_misc:
                if len(x) != len(m):
                    raise ValueError("All of the arrays in `x` should have the same length. Found a pair with: "
                                     f"len(x[0]) = {len(x)}, len(x[?]) = {len(m)}")
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, y.shape = {np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same length. Found: "
                             f"x.shape = {np.asarray(x).shape}, sample_weight.shape = "
                             f"{np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in ("training", "validation"):
                raise ValueError(f'Invalid subset name: {subset}; expected "training" or "validation".')
            split = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:split]), np.unique(y[split:]))):
                raise ValueError("Training and validation subsets have different number of classes after the "
                                 "split. If your numpy arrays are sorted by the label, you might want to shuffle "
                                 "them.")
            part = slice(None, split) if subset == "validation" else slice(split, None)
            x, x_misc = x[part], [np.asarray(m[part]) for m in x_misc]
            y = None if y is None else y[part]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError(f"Input data in `NumpyArrayIterator` should have rank 4. You passed an array with "
                             f"shape {self.x.shape}")
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in (1, 3, 4):
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention "{data_format}" '
                          f"(channels on axis {channels_axis}), i.e. expected either 1, 3, or 4 channels on axis "
                          f"{channels_axis}. However, it was passed an array with shape {self.x.shape} "
                          f"({self.x.shape[channels_axis]} channels).", stacklevel=2)
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        super().__init__(x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        for i, j in enumerate(index_array):
            batch_x[i] = _transformed(self.image_data_generator, self.x[j].astype(self.dtype))
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                        self.save_format, 1e4)
        misc = [m[index_array] for m in self.x_misc]
        inputs = [batch_x] + misc if misc else batch_x
        if self.y is None:
            return inputs
        if self.sample_weight is None:
            return inputs, self.y[index_array]
        return inputs, self.y[index_array], self.sample_weight[index_array]


def _valid_files(directory, formats, follow_links):
    """(root, filename) of the files with an allowed extension under `directory`, in sorted walk order."""
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda entry: entry[0]):
        for name in sorted(files):
            if name.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. Please verify '
                              "your output.", stacklevel=4)
            if name.lower().endswith(formats):
                yield root, name


class FilesIterator(Iterator):
    """Batches of transformed images read from files (`filepaths`), with labels by `class_mode` (Keras's
    `BatchFromFilesMixin`)."""

    def _set_processing_attrs(self, image_data_generator, target_size, color_mode, data_format, save_to_dir,
                              save_prefix, save_format, subset, interpolation, keep_aspect_ratio):
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}
        if color_mode not in channels:
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or "grayscale".')
        self.color_mode = color_mode
        self.data_format = data_format
        self.image_shape = (self.target_size + (channels[color_mode],) if data_format == "channels_last"
                            else (channels[color_mode],) + self.target_size)
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        self.interpolation = interpolation
        self.split = None
        if subset is not None:
            share = image_data_generator._validation_split
            if subset not in ("validation", "training"):
                raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')
            self.split = (0, share) if subset == "validation" else (share, 1)
        self.subset = subset

    @property
    def filepaths(self):
        raise NotImplementedError(f"`filepaths` property method has not been implemented in {type(self).__name__}.")

    @property
    def labels(self):
        raise NotImplementedError(f"`labels` property method has not been implemented in {type(self).__name__}.")

    @property
    def sample_weight(self):
        raise NotImplementedError(f"`sample_weight` property method has not been implemented in "
                                  f"{type(self).__name__}.")

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        filepaths = self.filepaths
        for i, j in enumerate(index_array):
            img = load_img(filepaths[j], color_mode=self.color_mode, target_size=self.target_size,
                           interpolation=self.interpolation, keep_aspect_ratio=self.keep_aspect_ratio)
            x = img_to_array(img, data_format=self.data_format)
            if hasattr(img, "close"):
                img.close()
            batch_x[i] = _transformed(self.image_data_generator, x) if self.image_data_generator else x
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                        self.save_format, 1e7)
        mode = self.class_mode
        if mode == "input":
            batch_y = batch_x.copy()
        elif mode in ("binary", "sparse"):
            batch_y = np.array([self.classes[j] for j in index_array], dtype=self.dtype)
        elif mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            for i, j in enumerate(index_array):
                batch_y[i, self.classes[j]] = 1.0
        elif mode == "multi_output":
            batch_y = [output[index_array] for output in self.labels]
        elif mode == "raw":
            batch_y = self.labels[index_array]
        else:
            return batch_x
        if self.sample_weight is None:
            return batch_x, batch_y
        return batch_x, batch_y, self.sample_weight[index_array]


class DirectoryIterator(FilesIterator):
    """Batches of transformed images read from `directory/<class>/...` files, labelled by folder."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256), color_mode="rgb", classes=None,
                 class_mode="categorical", batch_size=32, shuffle=True, seed=None, data_format=None,
                 save_to_dir=None, save_prefix="", save_format="png", follow_links=False, subset=None,
                 interpolation="nearest", keep_aspect_ratio=False, dtype=None):
        self._set_processing_attrs(image_data_generator, target_size, color_mode,
                                   data_format or config.image_data_format, save_to_dir, save_prefix, save_format,
                                   subset, interpolation, keep_aspect_ratio)
        self.dtype = dtype or config.floatx
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {self.allowed_class_modes}")
        self.class_mode = class_mode
        if not classes:
            classes = [d for d in sorted(os.listdir(directory)) if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        self.filenames, labels = [], []
        for name in classes:
            found = self._class_files(os.path.join(directory, name), follow_links)
            self.filenames += found
            labels += [self.class_indices[name]] * len(found)
        self.samples = len(self.filenames)
        self.classes = np.array(labels, dtype="int32")
        print_msg(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, name) for name in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    def _class_files(self, folder, follow_links):
        """The class folder's files as paths relative to `directory` (its `split` share when a subset)."""
        files = list(_valid_files(folder, self.white_list_formats, follow_links))
        if self.split:
            files = files[int(self.split[0] * len(files)):int(self.split[1] * len(files))]
        base = os.path.basename(folder)
        return [os.path.join(base, os.path.relpath(os.path.join(root, name), folder)) for root, name in files]

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self.classes

    @property
    def sample_weight(self):
        return None
