"""tf.image.ssim, ssim_multiscale, sobel_edges and total_variation against TF 2.21 (golden values from TF)."""
import numpy as np
import pytest

import tfcompat as tf

A = ((np.arange(24 * 24 * 2).reshape(1, 24, 24, 2) * 37) % 101 / 100.).astype(np.float32)
B = ((np.arange(24 * 24 * 2).reshape(1, 24, 24, 2) * 53) % 97 / 96.).astype(np.float32)
C = (A * 0.8 + 0.1).astype(np.float32)


def test_ssim_values():
    assert tf.image.ssim(tf.constant(A), tf.constant(B), 1.0).numpy()[0] == pytest.approx(-0.01982535980641842, abs=1e-6)
    assert tf.image.ssim(A, B, 1.0, filter_size=5, filter_sigma=0.8).numpy()[0] == pytest.approx(-0.009209726005792618,
                                                                                                abs=1e-6)
    assert tf.image.ssim(A, C, 1.0).numpy()[0] == pytest.approx(0.9757477045059204, rel=1e-6)
    u8 = tf.image.ssim((A * 255).astype(np.uint8), (B * 255).astype(np.uint8), 255)
    assert u8.dtype == tf.float32 and u8.numpy()[0] == pytest.approx(-0.019909199327230453, abs=1e-6)
    m = tf.image.ssim(A, B, 1.0, return_index_map=True)
    assert m.shape == (1, 14, 14)
    np.testing.assert_allclose(m.numpy()[0, :2, :2], [[0.0057274, -0.0033941], [-0.0419739, -0.0244223]], atol=2e-6)


def test_ssim_multiscale_values():
    # uncorrelated images: cs is a small difference of float32 sums, so only a few digits are stable
    assert tf.image.ssim_multiscale(A, B, 1.0, power_factors=(0.4, 0.6)).numpy()[0] == pytest.approx(
        0.005126942880451679, abs=1e-5)
    assert tf.image.ssim_multiscale(A, C, 1.0, power_factors=(0.4, 0.6)).numpy()[0] == pytest.approx(
        0.9768311977386475, rel=1e-6)
    odd = tf.image.ssim_multiscale(A[:, :23, :23], C[:, :23, :23], 1.0, power_factors=(0.4, 0.6))
    assert odd.numpy()[0] == pytest.approx(0.9768269658088684, rel=1e-6)
    assert tf.image.ssim_multiscale(A[:, :23, :23], B[:, :23, :23], 1.0, power_factors=(0.4, 0.6)).numpy()[0] == 0.0


def test_ssim_errors():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.ssim(tf.ones([1, 8, 8, 3]), tf.ones([1, 8, 8, 3]), 1.0)
    assert str(e.value) == "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 1, 8, 8, 3\n11"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Summarized data: 1, 8, 8, 3\n11"):
        tf.image.ssim_multiscale(tf.ones([1, 64, 64, 3]), tf.ones([1, 64, 64, 3]), 1.0)
    with pytest.raises(ValueError, match=r"^Shapes \(16, 16, 3\) and \(16, 15, 3\) are incompatible$"):
        tf.image.ssim(tf.ones([1, 16, 16, 3]), tf.ones([1, 16, 15, 3]), 1.0)
    with pytest.raises(ValueError, match=r"^Two images are not compatible: \(2, 16, 16, 3\) and \(3, 16, 16, 3\)$"):
        tf.image.ssim(tf.ones([2, 16, 16, 3]), tf.ones([3, 16, 16, 3]), 1.0)
    with pytest.raises(ValueError, match=r"^Shape \(16, 16\) must have rank at least 3$"):
        tf.image.ssim(tf.ones([16, 16]), tf.ones([16, 16]), 1.0)


def test_sobel_edges():
    img = np.array([[[1.], [2.], [4.], [8.]], [[0.], [3.], [1.], [5.]], [[2.], [2.], [7.], [1.]]], np.float32)[None]
    y = tf.image.sobel_edges(tf.constant(img))
    assert y.shape == (1, 3, 4, 1, 2) and y.dtype == tf.float32
    assert y.numpy().tolist() == [[[[[0.0, 0.0]], [[0.0, 8.0]], [[0.0, 16.0]], [[0.0, 0.0]]],
                                   [[[2.0, 0.0]], [[4.0, 10.0]], [[-1.0, 9.0]], [[-8.0, 0.0]]],
                                   [[[0.0, 0.0]], [[0.0, 12.0]], [[0.0, 2.0]], [[0.0, 0.0]]]]]
    assert tf.image.sobel_edges(tf.constant(img, tf.float64)).dtype == tf.float64
    prefix = "{{function_node __wrapped__MirrorPad_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.sobel_edges(tf.ones([1, 4, 1, 1]))
    assert str(e.value) == prefix + "paddings must be less than the dimension size: 1, 1 not less than 1 [Op:MirrorPad]"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.sobel_edges(tf.ones([4, 4, 3]))
    assert str(e.value) == prefix + ("The first dimension of paddings must be the rank of inputs[4,2], [4,4,3] "
                                     "[Op:MirrorPad]")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.image.sobel_edges(tf.ones([1, 4, 4, 1], tf.int32))
    with pytest.raises(AttributeError, match="'numpy.ndarray' object has no attribute 'get_shape'"):
        tf.image.sobel_edges(img)


def test_total_variation_input_checks():
    with pytest.raises(AttributeError, match="'list' object has no attribute 'get_shape'"):
        tf.image.total_variation([[[1.]]])
    with pytest.raises(ValueError, match="'images' must be either 3 or 4-dimensional."):
        tf.image.total_variation(tf.ones([3, 3]))


def test_jpeg_quality_round_trip():
    rng = np.random.RandomState(0)
    x = np.clip(np.cumsum(rng.rand(16, 24, 3).astype(np.float32) * 0.1, axis=1) / 2, 0, 1).astype(np.float32)
    y = tf.image.adjust_jpeg_quality(x, 75)
    assert y.dtype == tf.float32 and y.shape == x.shape
    assert float(tf.image.psnr(x, y, 1.0)) == pytest.approx(28.4678, abs=0.5)   # TF 2.21; pixels differ by <= 3 levels
    u8 = tf.image.adjust_jpeg_quality((x * 255).astype(np.uint8), 20)
    assert u8.dtype == tf.uint8
    assert tf.image.adjust_jpeg_quality(x[..., :1], 50).shape == (16, 24, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"quality must be in \[0,100\], got 120 "
                                                             r"\[Op:EncodeJpegVariableQuality\]"):
        tf.image.adjust_jpeg_quality(x, 120)
    with pytest.raises(ValueError, match="`min_jpeg_quality` must be less than `max_jpeg_quality`."):
        tf.image.random_jpeg_quality(x, 50, 40)
    with pytest.raises(ValueError, match="jpeg encoding range must be between 0 and 100."):
        tf.image.stateless_random_jpeg_quality(x, 50, 140, (1, 2))
    a = tf.image.stateless_random_jpeg_quality(x, 40, 60, (1, 2))
    np.testing.assert_array_equal(a, tf.image.stateless_random_jpeg_quality(x, 40, 60, (1, 2)))


def test_sobel_gradient():
    img = tf.Variable(np.arange(48, dtype=np.float32).reshape(1, 4, 4, 3) ** 1.5 / 100)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.sobel_edges(img) ** 2)
    np.testing.assert_allclose(tape.gradient(y, img).numpy().ravel()[:6],       # TF 2.21
                               [-37.5423, -39.3187, -40.9371, -61.3906, -63.835, -66.1241], rtol=1e-5)
