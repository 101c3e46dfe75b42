"""Element specs of maps over decoders whose output shapes depend on the data (TF's shape inference leaves them
unknown): decode_png/jpeg/bmp/gif/image and parse_tensor, with set_shape. Golden specs from TF 2.21."""
import numpy as np

import tfcompat as tf


def _files(tmp_path):
    arr = (np.arange(8 * 6 * 3).reshape(8, 6, 3) % 255).astype(np.uint8)
    for i in range(2):
        tf.io.write_file(str(tmp_path / f"{i}.png"), tf.io.encode_png(arr))
    return tf.data.Dataset.list_files(str(tmp_path / "*.png"), shuffle=False)


def test_decoded_image_specs(tmp_path):
    files = _files(tmp_path)
    load = files.map(lambda p: (tf.io.decode_png(tf.io.read_file(p), channels=3), tf.strings.length(p)))
    # TF 2.21
    assert repr(load.element_spec) == ("(TensorSpec(shape=(None, None, 3), dtype=tf.uint8, name=None), "
                                       "TensorSpec(shape=(), dtype=tf.int32, name=None))")
    assert repr(files.map(lambda p: tf.io.decode_png(tf.io.read_file(p))).element_spec) == \
        "TensorSpec(shape=(None, None, None), dtype=tf.uint8, name=None)"
    assert repr(files.map(lambda p: tf.io.decode_image(tf.io.read_file(p))).element_spec) == \
        "TensorSpec(shape=<unknown>, dtype=tf.uint8, name=None)"
    assert repr(files.map(lambda p: tf.io.decode_image(tf.io.read_file(p), channels=3,
                                                       expand_animations=False)).element_spec) == \
        "TensorSpec(shape=(None, None, 3), dtype=tf.uint8, name=None)"
    resized = files.map(lambda p: tf.image.resize(tf.io.decode_png(tf.io.read_file(p), channels=3), [8, 6]))
    assert repr(resized.element_spec) == "TensorSpec(shape=(8, 6, 3), dtype=tf.float32, name=None)"
    x, n = next(iter(load.batch(2)))
    assert x.shape == (2, 8, 6, 3) and n.numpy().tolist() == [len(str(tmp_path / "0.png"))] * 2

    def fixed(p):
        img = tf.io.decode_png(tf.io.read_file(p), channels=3)
        img.set_shape([8, 6, 3])
        return img
    assert repr(files.map(fixed).element_spec) == "TensorSpec(shape=(8, 6, 3), dtype=tf.uint8, name=None)"


def test_parse_tensor_specs():
    s = [tf.io.serialize_tensor(tf.constant(np.arange(6.0).reshape(2, 3), tf.float32)).numpy()] * 3
    ds = tf.data.Dataset.from_tensor_slices(s).map(lambda x: tf.io.parse_tensor(x, tf.float32))
    # TF 2.21
    assert repr(ds.element_spec) == "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"
    assert repr(ds.batch(2).element_spec) == "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"
    assert [x.shape for x in ds.batch(2)] == [(2, 2, 3), (1, 2, 3)]
    assert repr(ds.map(lambda x: tf.ensure_shape(x, [2, 3])).element_spec) == \
        "TensorSpec(shape=(2, 3), dtype=tf.float32, name=None)"

    def f(x):
        x.set_shape([2, 3])
        return x
    assert repr(ds.map(f).element_spec) == "TensorSpec(shape=(2, 3), dtype=tf.float32, name=None)"
    assert repr(ds.map(lambda x: tf.reshape(x, [6])).element_spec) == \
        "TensorSpec(shape=(6,), dtype=tf.float32, name=None)"
    with np.testing.assert_raises_regex(ValueError, "^You must provide `padded_shapes` argument because component 0 "
                                                    "has unknown rank.$"):
        ds.padded_batch(2)


def test_py_function_and_numpy_function_specs():
    ds = tf.data.Dataset.range(3)
    m = ds.map(lambda x: tf.py_function(lambda v: v.numpy() * 10, [x], tf.int64))
    # TF 2.21: the outputs of Python functions have unknown shapes
    assert repr(m.element_spec) == "TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)"
    assert [int(v) for v in m] == [0, 10, 20]
    m = ds.map(lambda x: tf.numpy_function(lambda v: (v * 2).astype(np.float32), [x], tf.float32))
    assert repr(m.element_spec) == "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"

    def two(x):
        a, b = tf.py_function(lambda v: (v + 1, str(v.numpy())), [x], [tf.int64, tf.string])
        a.set_shape([])
        return a, b
    m = ds.map(two)
    assert repr(m.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int64, name=None), "
                                    "TensorSpec(shape=<unknown>, dtype=tf.string, name=None))")
    assert [(int(a), b.numpy()) for a, b in m.take(2)] == [(1, b"0"), (2, b"1")]
