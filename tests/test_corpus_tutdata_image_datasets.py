"""keras.utils.image_dataset_from_directory / text_dataset_from_directory as the TF image and load_data tutorials use
them: the pipeline's repr, aspect-ratio crops and pads, channels-first images, Keras 3.15's `format` argument.

Golden values recorded from TF 2.21 + Keras 3.15.1 over the same files."""
import os

import numpy as np
import pytest

import tfcompat as tf


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    from PIL import Image
    root = tmp_path_factory.mktemp("tutdata")
    rng = np.random.default_rng(0)
    for c in ["a", "b"]:
        os.makedirs(root / "imgs" / c)
        for i in range(5):
            Image.fromarray(rng.integers(0, 256, (20 + i, 30, 3), dtype="uint8")).save(root / "imgs" / c / f"{i}.png")
        os.makedirs(root / "txt" / c)
        for i in range(4):
            (root / "txt" / c / f"{i}.txt").write_text(f"hello {c} {i}")
    return root


def _summary(ds):
    x = next(iter(ds))
    return tf.nest.map_structure(lambda t: (tuple(t.shape), t.dtype.name, round(float(tf.reduce_sum(tf.cast(
        t, tf.float64))), 1) if t.dtype != tf.string else t.numpy().tolist()), x)


SPEC_INT = "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"


def test_image_pipeline_ends_with_prefetch(tree, capsys):
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(8, 8), batch_size=3, seed=1)
    # TF 2.21
    assert capsys.readouterr().out == "Found 10 files belonging to 2 classes.\n"
    assert repr(ds) == ("<_PrefetchDataset element_spec=(TensorSpec(shape=(None, 8, 8, 3), dtype=tf.float32, "
                        f"name=None), {SPEC_INT})>")
    assert int(ds.cardinality()) == 4 and ds.class_names == ["a", "b"] and len(ds.file_paths) == 10
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(8, 8), batch_size=None,
                                                     shuffle=False, label_mode="categorical", color_mode="grayscale")
    assert repr(ds) == ("<_PrefetchDataset element_spec=(TensorSpec(shape=(8, 8, 1), dtype=tf.float32, name=None), "
                        "TensorSpec(shape=(2,), dtype=tf.float32, name=None))>")


def test_crop_to_aspect_ratio(tree):
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(8, 8), batch_size=4,
                                                     shuffle=False, label_mode="binary", crop_to_aspect_ratio=True)
    assert repr(ds) == ("<_PrefetchDataset element_spec=(TensorSpec(shape=(None, 8, 8, 3), dtype=tf.float32, "
                        "name=None), TensorSpec(shape=(None, 1), dtype=tf.float32, name=None))>")
    x, y = next(iter(ds))
    assert float(tf.reduce_sum(x)) == pytest.approx(95484.890625, rel=1e-6) and y.numpy().ravel().tolist() == [0] * 4
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(12, 8), batch_size=4,
                                                     shuffle=False, crop_to_aspect_ratio=True, interpolation="bicubic")
    (shape, dtype, total), _ = _summary(ds)
    assert (shape, dtype) == ((4, 12, 8, 3), "float32") and total == pytest.approx(147211.4, abs=0.2)


def test_pad_to_aspect_ratio(tree):
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(8, 12), batch_size=4,
                                                     shuffle=False, pad_to_aspect_ratio=True)
    (shape, dtype, total), labels = _summary(ds)
    assert (shape, dtype, labels) == ((4, 8, 12, 3), "float32", ((4,), "int32", 0.0))
    assert total == pytest.approx(128798.11, abs=0.2)
    # TF 2.21: nearest-neighbour padding keeps the decoded uint8 images
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(12, 8), batch_size=4,
                                                     shuffle=False, pad_to_aspect_ratio=True, interpolation="nearest")
    assert repr(ds.element_spec[0]) == "TensorSpec(shape=(None, 12, 8, 3), dtype=tf.uint8, name=None)"
    assert _summary(ds)[0] == ((4, 12, 8, 3), "uint8", 63547.0)


def test_channels_first(tree):
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(6, 8), batch_size=None,
                                                     shuffle=False, data_format="channels_first", color_mode="rgba")
    assert repr(ds.element_spec[0]) == "TensorSpec(shape=(4, 6, 8), dtype=tf.float32, name=None)"
    (shape, _, total), _ = _summary(ds)
    assert shape == (4, 6, 8) and total == pytest.approx(30408.88, abs=0.1)
    ds = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(6, 8), batch_size=2, seed=5,
                                                     data_format="channels_first", crop_to_aspect_ratio=True)
    assert repr(ds.element_spec[0]) == "TensorSpec(shape=(None, 3, 6, 8), dtype=tf.float32, name=None)"


def test_argument_errors_come_after_indexing(tree, capsys):
    f = tf.keras.utils.image_dataset_from_directory
    with pytest.raises(ValueError, match=r"^Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to "
                                         r"`True`\.$"):
        f(str(tree / "imgs"), image_size=(6, 8), crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)
    assert capsys.readouterr().out == "Found 10 files belonging to 2 classes.\n"      # TF 2.21
    with pytest.raises(ValueError, match=r"^The `data_format` argument must be one of \{'channels_first', "
                                         r"'channels_last'\}\. Received: data_format=nchw$"):
        f(str(tree / "imgs"), image_size=(6, 8), data_format="nchw")
    assert capsys.readouterr().out == "Found 10 files belonging to 2 classes.\n"
    with pytest.raises(ValueError, match='^`format` should be either "tf" or "grain". Received: format=np$'):
        f(str(tree / "imgs"), image_size=(6, 8), format="np")
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match='^`format` should be either "tf" or "grain". Received: format=x$'):
        tf.keras.utils.text_dataset_from_directory(str(tree / "txt"), format="x")
    with pytest.raises(NotImplementedError, match="grain"):
        f(str(tree / "imgs"), format="grain")


def test_text_pipeline_ends_with_prefetch(tree):
    ds = tf.keras.utils.text_dataset_from_directory(str(tree / "txt"), batch_size=3, shuffle=False)
    assert repr(ds) == ("<_PrefetchDataset element_spec=(TensorSpec(shape=(None,), dtype=tf.string, name=None), "
                        f"{SPEC_INT})>")
    assert not hasattr(ds, "file_paths") and ds.class_names == ["a", "b"]      # TF 2.21: no file_paths on text
    assert _summary(ds) == (((3,), "string", [b"hello a 0", b"hello a 1", b"hello a 2"]), ((3,), "int32", 0.0))
    tr, va = tf.keras.utils.text_dataset_from_directory(str(tree / "txt"), batch_size=3, validation_split=0.25,
                                                        subset="both", seed=1)
    assert _summary(tr) == (((3,), "string", [b"hello a 0", b"hello b 0", b"hello a 2"]), ((3,), "int32", 1.0))
    assert _summary(va) == (((2,), "string", [b"hello a 3", b"hello b 1"]), ((2,), "int32", 1.0))


def test_split_datasets_train(tree):
    tr, va = tf.keras.utils.image_dataset_from_directory(str(tree / "imgs"), image_size=(8, 8), batch_size=3,
                                                         validation_split=0.2, subset="both", seed=1)
    assert (len(tr.file_paths), len(va.file_paths)) == (8, 2)
    assert _summary(va)[1] == ((2,), "int32", 2.0)
    m = tf.keras.Sequential([tf.keras.Input((8, 8, 3)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])
    m.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    with pytest.warns(UserWarning, match="`shuffle=True` was passed"):
        history = m.fit(tr, validation_data=va, epochs=1, verbose=0)
    assert sorted(history.history) == ["loss", "val_loss"]
