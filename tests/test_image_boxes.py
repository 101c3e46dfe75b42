"""tf.image box ops (crop_and_resize, draw_bounding_boxes, non-max suppression) and the stateless random
flips and crop, against TF 2.21 (golden values and error texts recorded from TF)."""
import numpy as np
import pytest

import tfcompat as tf

CAR = [[[[1.4], [2.45], [3.5]], [[7.0], [8.05], [9.1]]], [[[0.0], [0.0], [0.0]], [[16.75], [18.625], [0.0]]], [[[17.5], [17.5], [17.5]], [[17.5], [17.5], [17.5]]]]
CAR_NEAREST = [[[[1.0], [3.0]], [[5.0], [7.0]], [[9.0], [11.0]]], [[[-1.0], [-1.0]], [[13.0], [-1.0]], [[17.0], [-1.0]]], [[[18.0], [18.0]], [[18.0], [18.0]], [[18.0], [18.0]]]]
CAR_1X1 = [[[[5.25]]], [[[14.625]]], [[[17.5]]]]
DRAW = [[0.0, 0.5, 0.5, 0.5, 0.5, 0.0], [0.0, 0.5, 0.0, 0.0, 0.5, 0.0], [0.25, 0.25, 0.25, 0.0, 0.5, 0.0], [0.0, 0.5, 0.25, 0.5, 0.5, 0.0], [0.0, 0.0, 0.25, 0.0, 0.0, 0.0]]
NMS = [3, 0, 5]
NMS_THR = [3, 0]
SOFT = ([3, 0, 1, 5, 4, 2], [0.95, 0.9, 0.384004, 0.3, 0.256003, 0.196972])

IMG = np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [-0.5, 0.25, 0.5, 1.5], [0.5, 0.5, 0.5, 0.5]], np.float32)
IDX = np.array([0, 1, 1], np.int32)
NMS_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                      [0, 100, 1, 101]], np.float32)
NMS_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
CAR_PREFIX = "{{function_node __wrapped__CropAndResize_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_crop_and_resize_values():
    y = tf.image.crop_and_resize(IMG, BOXES, IDX, [2, 3])
    assert y.dtype == tf.float32 and y.shape == (3, 2, 3, 1)
    np.testing.assert_allclose(y, CAR, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(tf.image.crop_and_resize(IMG, BOXES, IDX, [3, 2], method="nearest",
                                                        extrapolation_value=-1.), CAR_NEAREST)
    np.testing.assert_allclose(tf.image.crop_and_resize(IMG, BOXES, IDX, [1, 1]), CAR_1X1, rtol=1e-6)
    np.testing.assert_allclose(tf.image.crop_and_resize(tf.constant(IMG.astype(np.uint8)), BOXES, IDX, [2, 3]), CAR,
                               rtol=1e-6, atol=1e-5)
    assert tf.image.crop_and_resize(IMG, np.zeros([0, 4], np.float32), np.zeros([0], np.int32), [3, 3]).shape == \
        (0, 3, 3, 1)


def test_crop_and_resize_gradient_reaches_the_image():
    x = tf.Variable(IMG)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.crop_and_resize(x, BOXES[:1], IDX[:1], [2, 2]))
    g = tape.gradient(y, x)
    assert g.shape == IMG.shape and float(tf.reduce_sum(g)) == pytest.approx(4.0)


@pytest.mark.parametrize("kwargs, cls, message", [
    ({"box_indices": [0, 1, 2]}, tf.errors.OutOfRangeError, "box_index has values outside [0, batch_size)"),
    ({"crop_size": [0, 3]}, tf.errors.InvalidArgumentError, "crop dimensions must be positive"),
    ({"image": IMG[0]}, tf.errors.InvalidArgumentError, "input image must be 4-D[3,4,1]"),
    ({"boxes": BOXES[:, :3]}, tf.errors.InvalidArgumentError, "boxes must have 4 columns"),
    ({"box_indices": IDX[:2]}, tf.errors.InvalidArgumentError, "box_index has incompatible shape"),
    ({"boxes": np.array([[0, 0, np.inf, 1]] * 3, np.float32)}, tf.errors.InvalidArgumentError,
     "Boxes contains at least one element that is not finite"),
])
def test_crop_and_resize_errors(kwargs, cls, message):
    args = {"image": IMG, "boxes": BOXES, "box_indices": IDX, "crop_size": [3, 3], **kwargs}
    with pytest.raises(cls) as e:
        tf.image.crop_and_resize(**args)
    assert str(e.value) == CAR_PREFIX + message + " [Op:CropAndResize]"


def test_crop_and_resize_method():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.crop_and_resize(IMG, BOXES, IDX, [3, 3], method="bicubic")
    assert str(e.value).startswith("Value for attr 'method' of \"bicubic\" is not in the list of allowed values: "
                                   "\"bilinear\", \"nearest\"\n\t; NodeDef: {{node CropAndResize}}; Op<name=CropAndResize;")


def test_draw_bounding_boxes():
    canvas = np.zeros([1, 5, 6, 1], np.float32)
    bb = np.array([[[0.1, 0.2, 0.8, 0.9], [0.5, -0.3, 1.4, 0.5], [0.9, 0.1, 0.2, 0.5]]], np.float32)
    y = tf.image.draw_bounding_boxes(canvas, bb, np.array([[0.5], [0.25]], np.float32))
    assert y.numpy()[0, :, :, 0].tolist() == DRAW
    rgb = tf.image.draw_bounding_boxes(np.zeros([1, 3, 3, 3], np.float32), [[[0, 0, 1, 1]]], None)
    assert rgb.numpy()[0, 0, 0].tolist() == [1., 1., 0.] and rgb.numpy()[0, 1, 1].tolist() == [0., 0., 0.]
    gray = tf.image.draw_bounding_boxes(np.zeros([1, 3, 3, 1], np.float32), [[[0, 0, 1, 1], [0, 0, 0.5, 0.5]]], None)
    assert gray.numpy().max() == 1.0
    u8 = tf.image.draw_bounding_boxes(np.zeros([1, 3, 3, 3], np.uint8), [[[0, 0, 1, 1]]], None)
    assert u8.dtype == tf.float32                     # numpy input converts to the op's default type
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint8 is not in the list of "
                                                             "allowed values: float, half"):
        tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3], tf.uint8), [[[0, 0, 1, 1]]], None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Channel depth should be either 1"):
        tf.image.draw_bounding_boxes(np.zeros([1, 3, 3, 2], np.float32), [[[0, 0, 1, 1]]], None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="The batch sizes should be the same"):
        tf.image.draw_bounding_boxes(np.zeros([2, 3, 3, 3], np.float32), [[[0, 0, 1, 1]]], None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="colors must have equal or more channels than the "
                                                             r"image provided: \[2,2\]"):
        tf.image.draw_bounding_boxes(np.zeros([1, 3, 3, 3], np.float32), [[[0, 0, 1, 1]]], np.ones([2, 2], np.float32))


def test_non_max_suppression():
    i = tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 3, iou_threshold=0.5)
    assert i.dtype == tf.int32 and i.numpy().tolist() == NMS
    assert tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 6, 0.5, score_threshold=0.4).numpy().tolist() == NMS_THR
    idx, scores = tf.image.non_max_suppression_with_scores(NMS_BOXES, NMS_SCORES, 6, iou_threshold=1.0,
                                                           soft_nms_sigma=0.5)
    assert idx.numpy().tolist() == SOFT[0]
    np.testing.assert_allclose(scores, SOFT[1], rtol=1e-5)
    ties = tf.image.non_max_suppression(np.array([[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3]], np.float32),
                                        np.array([0.5, 0.5, 0.5], np.float32), 3)
    assert ties.numpy().tolist() == [0, 2]
    assert tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 0).shape == (0,)
    overlaps = np.eye(3, dtype=np.float32) + 0.6 * (1 - np.eye(3, dtype=np.float32))
    assert tf.image.non_max_suppression_overlaps(overlaps, [0.2, 0.9, 0.5], 3, 0.7).numpy().tolist() == [1, 2, 0]
    assert tf.image.non_max_suppression_overlaps(overlaps, [0.2, 0.9, 0.5], 3, 0.5).numpy().tolist() == [1]


@pytest.mark.parametrize("call, message", [
    (lambda: tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, 3, iou_threshold=1.5),
     "iou_threshold must be in [0, 1]"),
    (lambda: tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES, -1), "output size must be non-negative"),
    (lambda: tf.image.non_max_suppression(NMS_BOXES[:, :3], NMS_SCORES, 3),
     "boxes must have 4 columns (Dimension must be 4 but is 3)"),
    (lambda: tf.image.non_max_suppression(NMS_BOXES, NMS_SCORES[:2], 3),
     "scores has incompatible shape (Dimensions must be equal, but are 6 and 2)"),
])
def test_non_max_suppression_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert message in str(e.value)


def test_stateless_random_flips_and_crop():
    x = tf.reshape(tf.range(2 * 3 * 4, dtype=tf.float32), [2, 3, 4, 1])
    for fn, axis in ((tf.image.stateless_random_flip_left_right, 2), (tf.image.stateless_random_flip_up_down, 1)):
        a, b = fn(x, (3, 4)), fn(x, (3, 4))
        np.testing.assert_array_equal(a, b)
        for img, out in zip(x.numpy(), a.numpy()):
            assert (out == img).all() or (out == np.flip(img, axis - 1)).all()
        single = fn(x[0], (3, 4))
        assert single.shape == (3, 4, 1)
    c = tf.image.stateless_random_crop(x, [1, 2, 3, 1], (5, 6))
    np.testing.assert_array_equal(c, tf.image.stateless_random_crop(x, [1, 2, 3, 1], (5, 6)))
    assert c.shape == (1, 2, 3, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need value.shape >= size"):
        tf.image.stateless_random_crop(x, [3, 2, 3, 1], (5, 6))


def test_combined_non_max_suppression():
    boxes = np.array([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]], [[0, 2, 1, 3]], [[-0.5, 0.5, 0.5, 1.5]]]], np.float32)
    scores = np.array([[[0.9, 0.1], [0.8, 0.7], [0.3, 0.6], [0.2, 0.95]]], np.float32)
    r = tf.image.combined_non_max_suppression(boxes, scores, 2, 5)
    assert type(r).__name__ == "CombinedNonMaxSuppression" and r.valid_detections.dtype == tf.int32
    np.testing.assert_allclose(r.nmsed_boxes, [[[0.0, 0.5, 0.5, 1.0], [0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.0],
                                                [0.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]]])
    np.testing.assert_allclose(r.nmsed_scores, [[0.95, 0.9, 0.7, 0.3, 0.0]])
    assert r.nmsed_classes.numpy().tolist() == [[1.0, 0.0, 1.0, 0.0, 0.0]] and r.valid_detections.numpy().tolist() == [4]
    p = tf.image.combined_non_max_suppression(boxes, scores, 1, 5, pad_per_class=True, clip_boxes=False)
    np.testing.assert_allclose(p.nmsed_boxes, [[[-0.5, 0.5, 0.5, 1.5], [0.0, 0.0, 1.0, 1.0]]])
    assert p.nmsed_classes.numpy().tolist() == [[1.0, 0.0]] and p.valid_detections.numpy().tolist() == [2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_size_per_class must be positive"):
        tf.image.combined_non_max_suppression(boxes, scores, 0, 5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"iou_threshold must be in \[0, 1\]"):
        tf.image.combined_non_max_suppression(boxes, scores, 1, 5, iou_threshold=2.)


def test_is_jpeg():
    assert tf.image.is_jpeg(tf.constant(b"\xff\xd8\xffabc")).numpy()
    assert not tf.image.is_jpeg(b"\xff\xd8").numpy() and not tf.image.is_jpeg(b"abc").numpy()
    assert tf.image.is_jpeg([b"\xff\xd8\xffabc", b"x"]).numpy().tolist() == [True, False]


SDBB_PREFIX = "{{function_node __wrapped__SampleDistortedBoundingBoxV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_sample_distorted_bounding_box():
    bb = tf.constant([[[0.1, 0.2, 0.5, 0.6], [0.3, 0.3, 0.9, 0.8]]])
    whole = tf.image.sample_distorted_bounding_box([100, 80, 3], bb, seed=3, min_object_covered=0.0,
                                                   area_range=(1.0, 1.0), aspect_ratio_range=(0.8, 0.8))
    assert [np.asarray(x).tolist() for x in whole] == [[0, 0, 0], [100, 80, -1], [[[0.0, 0.0, 1.0, 1.0]]]]
    # no crop satisfies the constraints: the whole image, as TF
    none = tf.image.sample_distorted_bounding_box([100, 80, 3], bb, seed=3, min_object_covered=1.0,
                                                  area_range=(0.05, 0.06), max_attempts=5)
    assert np.asarray(none[1]).tolist() == [100, 80, -1]
    s64 = tf.image.stateless_sample_distorted_bounding_box(tf.constant([100, 80, 3], tf.int64), bb, seed=(1, 2))
    assert s64[0].dtype == tf.int64
    again = tf.image.stateless_sample_distorted_bounding_box(tf.constant([100, 80, 3], tf.int64), bb, seed=(1, 2))
    assert [np.asarray(x).tolist() for x in s64] == [np.asarray(x).tolist() for x in again]
    for _ in range(20):
        begin, size, box = tf.image.sample_distorted_bounding_box([100, 80, 3], bb, min_object_covered=0.3)
        (y, x, _), (h, w, _) = begin.numpy(), size.numpy()
        assert 0 <= y and y + h <= 100 and 0 <= x and x + w <= 80 and h * w >= 0.05 * 8000 - 1
        np.testing.assert_allclose(box.numpy()[0, 0], [y / 100, x / 80, (y + h) / 100, (x + w) / 80], rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    ({"bounding_boxes": tf.zeros([1, 0, 4])}, "No bounding boxes provided as input. One must enable "
     "use_image_if_no_bounding_boxes if you wish to not provide any bounding boxes."),
    ({"bounding_boxes": [[[0.1, 0.2, 1.5, 0.6]]]}, "All bounding box coordinates must be in [0.0, 1.0]: 1.5"),
    ({"area_range": (0.5, 1.5)}, "Area range must be less then or equal to 1.0: [0.5, 1.5]"),
    ({"aspect_ratio_range": (-1, 1.5)}, "Aspect ratio range must be non-negative: [-1, 1.5]"),
    ({"image_size": [100, 80]}, "image_size must contain 3 elements[2]"),
    ({"min_object_covered": -1.}, "Min object covered must be non-negative: -1"),
])
def test_sample_distorted_bounding_box_errors(kwargs, message):
    args = {"image_size": [100, 80, 3], "bounding_boxes": [[[0.1, 0.2, 0.5, 0.6]]], "seed": 3, **kwargs}
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.sample_distorted_bounding_box(**args)
    assert str(e.value) == SDBB_PREFIX + message + " [Op:SampleDistortedBoundingBoxV2]"


def test_draw_bounding_boxes_is_not_differentiable():
    x = tf.Variable(np.zeros([1, 3, 3, 3], np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.draw_bounding_boxes(x, [[[0, 0, 1, 1]]], None))
    assert tape.gradient(y, x) is None
