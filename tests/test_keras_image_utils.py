"""keras.utils.array_to_img/img_to_array/load_img/save_img against Keras 3.15.1 (on TF 2.21)'s printed output."""
import contextlib
import io

import numpy as np
import pytest

import tfcompat as tf

pytest.importorskip("PIL")      # Keras needs PIL for these helpers too

# run in TF 2.21 (with `from tensorflow import keras`), its output below
SCRIPT = '''\
import numpy as np, os, tempfile, io
d = tempfile.mkdtemp()
x = (np.arange(4*6*3).reshape(4, 6, 3) * 3.5).astype('float32')
img = keras.utils.array_to_img(x)
print(type(img).__name__, img.mode, img.size)
a = keras.utils.img_to_array(img); print(a.dtype, a.shape, a[0, :2].tolist(), a[-1, -1].tolist())
print(keras.utils.img_to_array(img, data_format='channels_first').shape)
keras.utils.save_img(os.path.join(d, 'a.png'), x)
l = keras.utils.load_img(os.path.join(d, 'a.png')); print(l.mode, l.size, keras.utils.img_to_array(l)[1, 2].tolist())
g = keras.utils.load_img(os.path.join(d, 'a.png'), color_mode='grayscale'); print(g.mode, keras.utils.img_to_array(g)[:, :, 0].tolist())
r = keras.utils.load_img(os.path.join(d, 'a.png'), target_size=(2, 3)); print(r.size, keras.utils.img_to_array(r)[:, :, 0].tolist())
r = keras.utils.load_img(os.path.join(d, 'a.png'), target_size=(2, 2), interpolation='bilinear', keep_aspect_ratio=True); print(r.size, keras.utils.img_to_array(r)[:, :, 1].tolist())
r = keras.utils.load_img(os.path.join(d, 'a.png'), color_mode='rgba'); print(r.mode, keras.utils.img_to_array(r).shape)
keras.utils.save_img(os.path.join(d, 'b.jpg'), x)
j = keras.utils.load_img(os.path.join(d, 'b.jpg')); print(j.mode, j.size)
print(keras.utils.img_to_array(keras.utils.array_to_img(np.ones((2, 2, 1)) * 300, scale=False)).tolist())
for bad in [np.zeros((2, 2)), np.zeros((2, 2, 2))]:
    try: keras.utils.array_to_img(bad)
    except Exception as e: print(type(e).__name__, e)
try: keras.utils.load_img(os.path.join(d, 'a.png'), color_mode='cmyk')
except Exception as e: print(type(e).__name__, e)
try: keras.utils.load_img(os.path.join(d, 'a.png'), target_size=(2, 2), interpolation='foo')
except Exception as e: print(type(e).__name__, e)
try: keras.utils.load_img(3)
except Exception as e: print(type(e).__name__, e)
print(keras.preprocessing.image.load_img is keras.utils.load_img)
'''

TF_OUTPUT = '''\
Image RGB (6, 4)
float32 (4, 6, 3) [[0.0, 3.0, 7.0], [10.0, 14.0, 17.0]] [247.0, 251.0, 255.0]
(3, 4, 6)
RGB (6, 4) [86.0, 89.0, 93.0]
L [[3.0, 13.0, 24.0, 35.0, 46.0, 56.0], [67.0, 78.0, 89.0, 99.0, 110.0, 121.0], [132.0, 143.0, 153.0, 164.0, 175.0, 186.0], [196.0, 207.0, 218.0, 229.0, 240.0, 250.0]]
(3, 2) [[75.0, 96.0, 118.0], [204.0, 226.0, 247.0]]
(2, 2) [[65.0, 87.0], [167.0, 189.0]]
RGBA (4, 6, 4)
RGB (6, 4)
[[[300.0], [300.0]], [[300.0], [300.0]]]
ValueError Expected image array to have rank 3 (single image). Got array with shape: (2, 2)
ValueError Unsupported channel number: 2
ValueError color_mode must be "grayscale", "rgb", or "rgba"
ValueError Invalid interpolation method foo specified. Supported methods are nearest, bilinear, bicubic, hamming, box, lanczos
TypeError path should be path-like or io.BytesIO, not <class 'int'>
True
'''


def test_image_helpers_print_what_keras_prints():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SCRIPT, {"keras": tf.keras, "np": np})
    assert buf.getvalue() == TF_OUTPUT


def test_png_is_written_by_tfcompats_encoder(tmp_path):
    x = np.arange(12, dtype="float32").reshape(2, 2, 3) * 20
    tf.keras.utils.save_img(str(tmp_path / "x.png"), x, scale=False)
    decoded = tf.io.decode_png(tf.io.read_file(str(tmp_path / "x.png"))).numpy()
    np.testing.assert_array_equal(decoded, x.astype("uint8"))
    with pytest.raises(NotImplementedError, match="optimize"):
        tf.keras.utils.save_img(str(tmp_path / "y.png"), x, optimize=True)
