"""keras.utils data helpers against golden values from TF 2.21 / Keras 3.15."""
import os

import numpy as np
import pytest

import tfcompat as tf


def _batches(ds):
    return [tuple(t.numpy().tolist() for t in b) if isinstance(b, tuple) else b.numpy().tolist() for b in ds]


def test_timeseries_windows_and_targets():
    d, t = np.arange(20).reshape(10, 2), np.arange(10) * 10
    ds = tf.keras.utils.timeseries_dataset_from_array(d, t[3:], sequence_length=3, sequence_stride=2, batch_size=2)
    assert _batches(ds) == [([[[0, 1], [2, 3], [4, 5]], [[4, 5], [6, 7], [8, 9]]], [30, 50]),
                            ([[[8, 9], [10, 11], [12, 13]], [[12, 13], [14, 15], [16, 17]]], [70, 90])]
    x, y = next(iter(ds))
    assert x.dtype == tf.int64 and y.dtype == tf.int64


def test_timeseries_sampling_rate_start_end():
    ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, sampling_rate=2,
                                                      batch_size=3, start_index=1, end_index=9)
    assert _batches(ds) == [[[1, 3, 5], [2, 4, 6], [3, 5, 7]], [[4, 6, 8]]]


def test_timeseries_unbatched_and_shuffled():
    ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(10.), None, sequence_length=3, batch_size=None)
    out = _batches(ds)
    assert len(out) == 8 and out[0] == [0.0, 1.0, 2.0] and next(iter(ds)).dtype == tf.float64
    ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(20), None, sequence_length=3, batch_size=4,
                                                      shuffle=True, seed=1)
    rows = sorted(r for b in _batches(ds) for r in b)
    assert [len(b) for b in _batches(ds)] == [4, 4, 4, 4, 2]
    assert rows == [[i, i + 1, i + 2] for i in range(18)]


def test_timeseries_errors():
    f = tf.keras.utils.timeseries_dataset_from_array
    with pytest.raises(ValueError, match=r"^`sampling_rate` must be higher than 0. Received: sampling_rate=0$"):
        f(np.arange(10), None, 3, sampling_rate=0)
    with pytest.raises(ValueError, match=r"^`end_index` must be lower than the length of the data. "
                                         r"Received: end_index=10, for data of length 10$"):
        f(np.arange(10), None, 3, end_index=10)


def test_pydataset_and_sequence_alias():
    assert tf.keras.utils.Sequence is tf.keras.utils.PyDataset

    class Data(tf.keras.utils.PyDataset):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.epochs = 0

        def __len__(self):
            return 3

        def __getitem__(self, i):
            x = np.full((2, 1), float(i), "float32")
            return x, 2 * x

        def on_epoch_end(self):
            self.epochs += 1

    data = Data(workers=2, use_multiprocessing=False, max_queue_size=5)
    assert (data.workers, data.use_multiprocessing, data.max_queue_size, data.num_batches) == (2, False, 5, 3)
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    hist = model.fit(data, epochs=2, verbose=0)
    assert len(hist.history["loss"]) == 2 and data.epochs == 2

    class Endless(tf.keras.utils.PyDataset):
        pass
    assert Endless().num_batches is None


def _make_images(root):
    spec = {"cats": ["c2.png", "c1.png", "c3.PNG"], "dogs": ["d1.png", "sub/d0.png"], "birds": ["b.png"]}
    for cls, files in spec.items():
        for i, f in enumerate(files):
            p = os.path.join(root, cls, f)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            img = (np.arange((4 + i) * 6 * 3).reshape(4 + i, 6, 3) * (i + 1) % 256).astype("uint8")
            with open(p, "wb") as fh:
                fh.write(tf.io.encode_png(img).numpy())
    with open(os.path.join(root, "cats", "note.txt"), "w") as fh:
        fh.write("x")
    os.makedirs(os.path.join(root, ".hidden"))
    return str(root)


def _rel(ds, root):
    return [p.replace(root, "") for p in ds.file_paths]


def test_image_dataset_from_directory(tmp_path, capsys):
    root = _make_images(tmp_path)
    ds = tf.keras.utils.image_dataset_from_directory(root, batch_size=4, image_size=(3, 5), shuffle=False)
    assert capsys.readouterr().out == "Found 6 files belonging to 3 classes.\n"
    assert ds.class_names == ["birds", "cats", "dogs"]
    assert _rel(ds, root) == ["/birds/b.png", "/cats/c1.png", "/cats/c2.png", "/cats/c3.PNG", "/dogs/d1.png",
                              "/dogs/sub/d0.png"]
    out = [(x.shape.as_list(), x.dtype, y.numpy().tolist(), float(tf.reduce_sum(x))) for x, y in ds]
    assert [o[:3] for o in out] == [([4, 3, 5, 3], tf.float32, [0, 1, 1, 1]), ([2, 3, 5, 3], tf.float32, [2, 2])]
    np.testing.assert_allclose([o[3] for o in out], [12054.5, 5602.5], rtol=1e-5)
    np.testing.assert_allclose(next(iter(ds))[0].numpy()[0, 0, 0], [3.3000007, 4.3000007, 5.3000007], rtol=1e-5)


def test_image_dataset_split_modes(tmp_path, capsys):
    root = _make_images(tmp_path)
    ds = tf.keras.utils.image_dataset_from_directory(root, batch_size=None, image_size=(2, 2), seed=3,
                                                     label_mode="categorical", color_mode="grayscale",
                                                     validation_split=0.5, subset="training")
    assert _rel(ds, root) == ["/cats/c3.PNG", "/dogs/sub/d0.png", "/dogs/d1.png"]
    x, y = next(iter(ds))
    assert x.shape.as_list() == [2, 2, 1] and y.shape.as_list() == [3] and y.dtype == tf.float32
    tr, va = tf.keras.utils.image_dataset_from_directory(root, image_size=(2, 2), seed=7, validation_split=0.34,
                                                         subset="both", label_mode="binary",
                                                         class_names=["cats", "dogs"])
    assert _rel(tr, root) == ["/cats/c1.png", "/dogs/d1.png", "/cats/c3.PNG", "/cats/c2.png"]
    assert _rel(va, root) == ["/dogs/sub/d0.png"]
    assert [y.numpy().tolist() for _, y in va] == [[[1.0]]]
    assert capsys.readouterr().out.splitlines()[-3:] == ["Found 5 files belonging to 2 classes.",
                                                         "Using 4 files for training.", "Using 1 files for validation."]


def test_image_dataset_unlabeled_nearest(tmp_path):
    root = _make_images(tmp_path)
    ds = tf.keras.utils.image_dataset_from_directory(root, labels=None, image_size=(2, 2), shuffle=False,
                                                     interpolation="nearest")
    x = next(iter(ds))
    assert x.dtype == tf.uint8 and x.shape.as_list() == [6, 2, 2, 3]
    assert x.numpy()[0, :, :, 0].tolist() == [[21, 30], [57, 66]]


def test_image_dataset_errors(tmp_path):
    root = _make_images(tmp_path)
    f = tf.keras.utils.image_dataset_from_directory
    cases = [(dict(color_mode="x"), '`color_mode` must be one of {"rgb", "rgba", "grayscale"}. Received: color_mode=x'),
             (dict(label_mode="x"), '`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                                    'Received: label_mode=x'),
             (dict(validation_split=0.2), "If `subset` is set, `validation_split` must be set, and inversely."),
             (dict(validation_split=0.2, subset="training"),
              "If using `validation_split` and shuffling the data, you must provide a `seed` argument, to make sure "
              "that there is no overlap between the training and validation subset."),
             (dict(class_names=["zz"]), "The `class_names` passed did not match the names of the subdirectories of "
                                        "the target directory. Expected: ['birds', 'cats', 'dogs'] (or a subset of "
                                        "it), but received: class_names=['zz']"),
             (dict(label_mode="binary"), 'When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                                         "Received: class_names=['birds', 'cats', 'dogs']")]
    for kwargs, msg in cases:
        with pytest.raises(ValueError) as e:
            f(root, verbose=False, **kwargs)
        assert str(e.value) == msg


def test_text_dataset_from_directory(tmp_path):
    for c, names in {"neg": ["b.txt", "a.txt"], "pos": ["z.txt"]}.items():
        os.makedirs(tmp_path / c)
        for n in names:
            (tmp_path / c / n).write_text(f"text {c} {n} hello")
    ds = tf.keras.utils.text_dataset_from_directory(str(tmp_path), batch_size=2, shuffle=False, max_length=8)
    assert ds.class_names == ["neg", "pos"]
    out = [(x.numpy().tolist(), y.numpy().tolist(), x.dtype, y.dtype) for x, y in ds]
    assert out == [([b"text neg", b"text neg"], [0, 0], tf.string, tf.int32), ([b"text pos"], [1], tf.string, tf.int32)]
