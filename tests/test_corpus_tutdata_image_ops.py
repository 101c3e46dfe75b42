"""tf.image's random flips and crops as the data-augmentation tutorial uses them: TF's draws (one random_uniform op
per call, so later seeded ops see TF's op-seed counter) and TF's crop offsets.

Golden values recorded from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

IMG = tf.constant(np.random.default_rng(0).random((7, 9, 3)).astype("float32"))
BATCH = tf.constant(np.random.default_rng(1).integers(0, 255, (6, 2, 3, 1)).astype("uint8"))


def test_random_flip_draws_one_uniform_per_call():
    tf.random.set_seed(3)
    try:
        assert float(tf.reduce_sum(tf.image.random_flip_left_right(IMG)[:, 0])) == pytest.approx(11.64594841, 1e-6)
        # TF 2.21: the flip consumed one op seed, so the brightness delta is the sequence's second draw
        assert float(tf.reduce_sum(tf.image.random_brightness(IMG, 0.2))) == pytest.approx(79.02418518, 1e-6)
        assert [round(float(tf.reduce_sum(tf.image.random_flip_up_down(IMG)[0])), 4) for _ in range(4)] == [
            16.5734, 13.7137, 16.5734, 13.7137]
        # a batch: image i flips where round(draw i) is 1
        assert tf.image.random_flip_left_right(BATCH)[:, 0, :, 0].numpy().tolist() == [
            [120, 130, 192], [209, 241, 63], [65, 211, 69], [21, 7, 220], [208, 84, 115], [31, 115, 249]]
        assert tf.image.random_flip_up_down(BATCH, seed=7)[:, :, 0, 0].numpy().tolist() == [
            [242, 120], [79, 209], [69, 104], [21, 192], [201, 208], [31, 34]]
        assert [round(float(tf.reduce_sum(tf.image.random_flip_left_right(IMG, seed=1)[:, 0])), 4)
                for _ in range(3)] == [11.4992, 11.6459, 11.4992]
    finally:
        tf.random.set_seed(None)


def test_random_flip_of_a_batch_is_tf_arithmetic():
    x = tf.ones([3, 2, 2, 1]) * np.array([np.inf, 1.0], "float32").reshape(1, 1, 2, 1)
    tf.random.set_seed(3)
    try:
        out = tf.image.random_flip_left_right(x, seed=2).numpy().ravel().tolist()
    finally:
        tf.random.set_seed(None)
    # TF 2.21: flips * flipped + (1 - flips) * image, so an inf next to its flip gives nan
    assert [str(v) for v in out] == ["nan", "inf", "nan", "inf", "inf", "nan", "inf", "nan", "inf", "nan", "inf",
                                     "nan"]


def test_random_crop_offsets():
    tf.random.set_seed(3)
    try:
        # TF 2.21 (after the seeded calls above in the same order)
        tf.image.random_flip_left_right(IMG)
        tf.image.random_brightness(IMG, 0.2)
        for _ in range(4):
            tf.image.random_flip_up_down(IMG)
        tf.image.random_flip_left_right(BATCH)
        tf.image.random_flip_up_down(BATCH, seed=7)
        assert np.allclose(tf.image.random_crop(IMG, [3, 3, 3], seed=5).numpy()[0, 0],
                           [0.721488356590271, 0.5253543257713318, 0.3102418780326843])
        assert [tf.image.random_crop(tf.reshape(tf.range(100), [10, 10]), [2, 2]).numpy()[0, 0].tolist()
                for _ in range(3)] == [10, 40, 60]
    finally:
        tf.random.set_seed(None)


def test_stateless_random_crop_offsets():
    # TF 2.21: offsets are stateless_random_uniform in [0, int32 max) modulo each axis's room
    assert np.allclose(tf.image.stateless_random_crop(IMG, [4, 5, 3], seed=(0, 0)).numpy()[0, 0],
                       [0.9320597052574158, 0.11493263393640518, 0.7290151119232178])
    assert tf.image.stateless_random_crop(tf.reshape(tf.range(100), [10, 10]), [3, 2], seed=(4, 2)).numpy().tolist() \
        == [[56, 57], [66, 67], [76, 77]]
    assert [round(float(tf.reduce_sum(tf.image.stateless_random_crop(IMG, size=[4, 5, 3], seed=(i, 0)))), 4)
            for i in range(2)] == [33.8196, 31.6561]
