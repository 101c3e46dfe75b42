"""tf.image.extract_glimpse and non_max_suppression_padded against TF 2.21's answers.

tests/fixtures/image_ops_golden/box_glimpse.json holds the inputs and TF's results, made by record.py beside it.
"""
import json
import os

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import errors

_GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "image_ops_golden", "box_glimpse.json")))
_IMG = np.arange(2 * 7 * 9 * 2, dtype=np.float32).reshape(2, 7, 9, 2)
_NOISY = [g for g in _GOLDEN["glimpse"] if g.get("noise") in ("uniform", "gaussian")]
_ZERO = [g for g in _GOLDEN["glimpse"] if g not in _NOISY]


def _glimpse_input(g):
    kind = g.get("case", {}).get("input")
    return {"rank3": _IMG[0], "float64": _IMG.astype(np.float64), "int32": _IMG.astype(np.int32)}.get(kind, _IMG)


@pytest.mark.parametrize("g", _ZERO, ids=lambda g: f"{g['size']}-{g['offsets']}-{g.get('centered')}-"
                         f"{g.get('normalized')}-{g.get('case')}")
def test_extract_glimpse_as_tf(g):
    kw = {k: g[k] for k in ("centered", "normalized") if k in g}
    call = lambda: tf.image.extract_glimpse(_glimpse_input(g), g["size"], g["offsets"],  # noqa: E731
                                            noise=g.get("noise", "zero"), **kw)
    want = g["tf"]
    if "error" in want:
        with pytest.raises(errors.InvalidArgumentError) as e:
            call()
        assert str(e.value) == want["message"]
        return
    out = call()
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), np.array(want["values"], dtype=np.float32).reshape(out.shape))


@pytest.mark.parametrize("g", _NOISY, ids=lambda g: g["noise"])
def test_extract_glimpse_noise_fills_only_outside_the_image(g):
    out = tf.image.extract_glimpse(_IMG, g["size"], g["offsets"], noise=g["noise"]).numpy()
    want = np.array(g["tf"]["values"], dtype=np.float32)
    assert out.shape == want.shape
    zero = tf.image.extract_glimpse(_IMG, g["size"], g["offsets"], noise="zero").numpy()
    inside = zero != 0         # the image's pixels (the sample image's only 0 is outside these windows)
    np.testing.assert_array_equal(out[inside], want[inside])
    for b in range(len(out)):
        lo, hi = _IMG[b].min(), _IMG[b].max()
        assert ((out[b] >= lo) & (out[b] <= hi)).all()


@pytest.mark.parametrize("c", _GOLDEN["nms"], ids=lambda c: f"{c['boxes']}-{c['kwargs']}")
def test_non_max_suppression_padded_as_tf(c):
    inputs = _GOLDEN["nms_inputs"]
    call = lambda: tf.image.non_max_suppression_padded(  # noqa: E731
        tf.constant(inputs[c["boxes"]]), tf.constant(inputs[c["scores"]]), **c["kwargs"])
    if "error" in c["tf"]:
        with pytest.raises(ValueError) as e:
            call()
        assert (type(e.value).__name__, str(e.value)) == (c["tf"]["error"], c["tf"]["message"])
        return
    idx, valid = call()
    assert [idx.dtype.name, valid.dtype.name] == c["tf"]["dtypes"]
    assert [idx.numpy().tolist(), valid.numpy().tolist()] == c["tf"]["values"]


def test_non_max_suppression_padded_batched_needs_padding():
    boxes = tf.zeros([2, 3, 4])
    with pytest.raises(ValueError, match=r"^'pad_to_max_output_size' \(value False\) must be True for batched input$"):
        tf.image.non_max_suppression_padded(boxes, tf.zeros([2, 3]), 2)
