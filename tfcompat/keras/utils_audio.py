"""`keras.utils.audio_dataset_from_directory`: WAV files of class subdirectories as a `tf.data.Dataset`."""
import numpy as np

from tfcompat.data import structure as st
from tfcompat.data.dataset import AUTOTUNE, Dataset, DerivedDataset
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.ops.audio_ops import decode_wav
from tfcompat.ops.io_ops.files import read_file
from tfcompat.keras.utils_data import _check_labels, _check_split, _index_directory, _labels_dataset, _split

AUDIO_FORMATS = (".wav",)


class _DecodedAudio(DerivedDataset):
    """Its input's elements, with the audio's static shape as TF's `DecodeWav` infers it (channels unknown)."""

    _tf_name = "_ParallelMapDataset"

    def __init__(self, input_dataset, length, labelled):
        super().__init__(input_dataset)
        self._length, self._labelled = length, labelled

    def _compute_spec(self):
        spec = self._input.element_spec
        audio = spec[0] if self._labelled else spec
        audio = st.with_shape(audio, [self._length, None])
        return (audio, spec[1]) if self._labelled else audio

    def _elements(self):
        return self._input._elements()


def _check_args(labels, label_mode, class_names, ragged, output_sequence_length, sampling_rate):
    _check_labels(labels, label_mode, class_names,
                  "The `labels` argument should be a list/tuple of integer labels, of the same size as the number "
                  "of audio files in the target directory. If you wish to infer the labels from the subdirectory "
                  "names in the target directory, pass `labels=\"inferred\"`. If you wish to get a dataset that "
                  "only contains audio samples (no labels), pass `labels=None`.")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError(f"`sampling_rate` should have an integer value. Received: sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` should be higher than 0. Received: sampling_rate={sampling_rate}")
        raise ImportError("To use the argument `sampling_rate`, you should install tensorflow_io. You can install "
                          "it via `pip install tensorflow-io`.")


def _audio_dataset(paths, labels, label_mode, num_classes, length, ragged, shuffle, buffer_size, seed):
    """Unbatched (audio, label) or audio elements: each file decoded to float32 `(samples, channels)`."""
    ds = Dataset.from_tensor_slices(list(paths))
    if label_mode:
        ds = Dataset.zip((ds, _labels_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=buffer_size, seed=seed)
    samples = -1 if length is None else length

    def decode(path):
        return decode_wav(read_file(path), desired_samples=samples)[0]

    ds = ds.map((lambda p, y: (decode(p), y)) if label_mode else decode, num_parallel_calls=AUTOTUNE)
    ds = _DecodedAudio(ds, length, bool(label_mode))
    if ragged:
        ds = ds.map((lambda x, y: (RaggedTensor.from_tensor(x), y)) if label_mode
                    else RaggedTensor.from_tensor, num_parallel_calls=AUTOTUNE)
    return ds


def _batched(ds, batch_size, class_names, length, ragged):
    ds = ds.prefetch(AUTOTUNE)
    if batch_size is not None:
        if length is None and not ragged:   # labels keep their shape: () int, (1,) binary, (classes,) one-hot
            shapes = ([None, None], ds.element_spec[1].shape) if isinstance(ds.element_spec, tuple) else [None, None]
            ds = ds.padded_batch(batch_size, padded_shapes=shapes)
        else:
            ds = ds.batch(batch_size)
    ds.class_names = class_names
    return ds


def audio_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                 sampling_rate=None, output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None, follow_links=False, verbose=True):
    """A dataset of float32 `(batch, samples, channels)` audio (and labels) from the `.wav` files of class
    subdirectories; `output_sequence_length` crops or zero-pads each file, else batches pad to their longest file
    (`ragged=True`: RaggedTensors). `sampling_rate` needs tensorflow_io, as in Keras."""
    _check_args(labels, label_mode, class_names, ragged, output_sequence_length, sampling_rate)
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    _check_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    paths, labels, class_names = _index_directory(directory, labels, AUDIO_FORMATS, class_names, shuffle, seed,
                                                  follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={class_names}")
    num_classes = len(class_names) if class_names else 0
    parts = ("training", "validation") if subset == "both" else (subset,)
    out = []
    for part in parts:
        p, y = _split(paths, labels, validation_split, part)
        if not p:
            which = f"{part} " if subset == "both" else ""
            raise ValueError(f"No {which}audio files found in directory {directory}. "
                             f"Allowed format(s): {AUDIO_FORMATS}")
        ds = _audio_dataset(p, y, label_mode, num_classes, output_sequence_length, ragged,
                            shuffle and part != "validation" if subset == "both" else shuffle, buffer_size, seed)
        out.append(_batched(ds, batch_size, class_names, output_sequence_length, ragged))
    return tuple(out) if subset == "both" else out[0]
