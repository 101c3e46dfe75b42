"""keras.utils.audio_dataset_from_directory against Keras 3.15.1 (golden values recorded from TF 2.21)."""
import os
import wave

import numpy as np
import pytest

import tfcompat as tf


@pytest.fixture
def audio_dir(tmp_path):
    """Two classes of five mono 16-bit WAVs of 100..249 samples, and a non-WAV file Keras skips."""
    root = tmp_path / "audio"
    for k, cls in enumerate(["b_cls", "a_cls"]):
        os.makedirs(root / cls)
        for i in range(5):
            n = 100 + 37 * i + k
            x = (np.sin(np.arange(n) * (0.1 + k * 0.05 + i * 0.01)) * 0.5 * 32767).astype("<i2")
            with wave.open(str(root / cls / f"f{i}.wav"), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(8000)
                w.writeframes(x.tobytes())
    (root / "a_cls" / "notes.txt").write_text("x")
    return str(root)


def test_both_subsets_fixed_length(audio_dir, capsys):
    train, val = tf.keras.utils.audio_dataset_from_directory(
        audio_dir, batch_size=4, validation_split=0.4, seed=3, output_sequence_length=120, subset="both",
        shuffle=False)
    assert capsys.readouterr().out == ("Found 10 files belonging to 2 classes.\nUsing 6 files for training.\n"
                                       "Using 4 files for validation.\n")
    assert repr(train.element_spec) == ("(TensorSpec(shape=(None, 120, None), dtype=tf.float32, name=None), "
                                        "TensorSpec(shape=(None,), dtype=tf.int32, name=None))")
    assert train.class_names == ["a_cls", "b_cls"] and val.class_names == ["a_cls", "b_cls"]
    got = [(a.shape.as_list(), y.numpy().tolist(), float(tf.reduce_sum(a))) for ds in (train, val) for a, y in ds]
    want = [([4, 120, 1], [0, 0, 0, 0], 13.98016357421875), ([2, 120, 1], [0, 1], 13.938079833984375),
            ([4, 120, 1], [1, 1, 1, 1], 18.795745849609375)]
    for (shape, labels, total), (w_shape, w_labels, w_total) in zip(got, want, strict=True):
        assert (shape, labels) == (w_shape, w_labels)
        assert total == pytest.approx(w_total, rel=1e-6)


def test_padded_batches_and_label_modes(audio_dir):
    ds = tf.keras.utils.audio_dataset_from_directory(audio_dir, batch_size=3, shuffle=False,
                                                     label_mode="categorical", verbose=False)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(None, None, None), dtype=tf.float32, name=None), "
                                     "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None))")
    assert [(a.shape.as_list(), y.numpy().tolist()) for a, y in ds] == [
        ([3, 175, 1], [[1.0, 0.0]] * 3), ([3, 249, 1], [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
        ([3, 211, 1], [[0.0, 1.0]] * 3), ([1, 248, 1], [[0.0, 1.0]])]
    ds = tf.keras.utils.audio_dataset_from_directory(audio_dir, batch_size=None, shuffle=False,
                                                     label_mode="binary", verbose=False)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(None, None), dtype=tf.float32, name=None), "
                                     "TensorSpec(shape=(1,), dtype=tf.float32, name=None))")
    assert [(a.shape.as_list(), y.numpy().tolist()) for a, y in ds.take(2)] == [([101, 1], [0.0]), ([138, 1], [0.0])]


def test_unlabelled_and_ragged(audio_dir, capsys):
    ds = tf.keras.utils.audio_dataset_from_directory(audio_dir, batch_size=3, shuffle=False, label_mode=None)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, None, None), dtype=tf.float32, name=None)"
    assert next(iter(ds)).shape.as_list() == [3, 175, 1]
    ds = tf.keras.utils.audio_dataset_from_directory(audio_dir, batch_size=3, shuffle=False, ragged=True,
                                                     label_mode=None)
    assert capsys.readouterr().out == "Found 10 files.\nFound 10 files.\n"
    assert repr(ds.element_spec) == "RaggedTensorSpec(TensorShape([None, None, None]), tf.float32, 2, tf.int64)"
    assert [x.row_lengths().numpy().tolist() for x in ds] == [[101, 138, 175], [212, 249, 100], [137, 174, 211],
                                                              [248]]


def test_given_labels(audio_dir):
    ds = tf.keras.utils.audio_dataset_from_directory(audio_dir, batch_size=4, seed=5, verbose=False,
                                                     labels=[3, 1, 2, 0, 1, 2, 0, 1, 2, 3])
    assert ds.class_names == ["0", "1", "2", "3"]
    assert repr(ds.element_spec[1]) == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(ragged=True, output_sequence_length=3), ValueError, "Cannot set both `ragged` and `output_sequence_length`"),
    (dict(sampling_rate=1.5), ValueError, "`sampling_rate` should have an integer value. Received: sampling_rate=1.5"),
    (dict(sampling_rate=0), ValueError, "`sampling_rate` should be higher than 0. Received: sampling_rate=0"),
    (dict(sampling_rate=16000), ImportError, "To use the argument `sampling_rate`, you should install tensorflow_io. "
                                             "You can install it via `pip install tensorflow-io`."),
    (dict(labels="x"), ValueError, "The `labels` argument should be a list/tuple of integer labels, of the same size "
                                   "as the number of audio files in the target directory. If you wish to infer the "
                                   "labels from the subdirectory names in the target directory, pass "
                                   "`labels=\"inferred\"`. If you wish to get a dataset that only contains audio "
                                   "samples (no labels), pass `labels=None`. Received: labels=x"),
    (dict(label_mode="y"), ValueError, '`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                                       "Received: label_mode=y"),
    (dict(validation_split=0.2), ValueError, "If `subset` is set, `validation_split` must be set, and inversely."),
    (dict(validation_split=0.2, subset="both"), ValueError,
     "If using `validation_split` and shuffling the data, you must provide a `seed` argument, to make sure that there "
     "is no overlap between the training and validation subset."),
    (dict(labels=[0, 1], class_names=["a"]), ValueError,
     "You can only pass `class_names` if `labels=\"inferred\"`. Received: labels=[0, 1], and class_names=['a']"),
])
def test_argument_errors(audio_dir, kwargs, error, message):
    with pytest.raises(error) as info:
        tf.keras.utils.audio_dataset_from_directory(audio_dir, **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize("kwargs, printed, message", [
    (dict(), "Found 0 files belonging to 1 classes.\n", "No audio files"),
    (dict(validation_split=0.5, subset="both", seed=1),
     "Found 0 files belonging to 1 classes.\nUsing 0 files for training.\n", "No training audio files"),
    (dict(validation_split=0.5, subset="validation", seed=1),
     "Found 0 files belonging to 1 classes.\nUsing 0 files for validation.\n", "No audio files"),
])
def test_no_files(tmp_path, capsys, kwargs, printed, message):
    os.makedirs(tmp_path / "empty" / "x")
    with pytest.raises(ValueError) as info:
        tf.keras.utils.audio_dataset_from_directory(str(tmp_path / "empty"), **kwargs)
    assert str(info.value) == f"{message} found in directory {tmp_path / 'empty'}. Allowed format(s): ('.wav',)"
    assert capsys.readouterr().out == printed
