"""Image decoders (BMP, GIF, WebP, JPEG crop and shape) against TF 2.21's answers on the same bytes.

tests/fixtures/image_codecs/golden.json holds the inputs and TF's results, made by record.py beside it.
"""
import base64
import json
import os
import struct

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import errors

_GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "image_codecs", "golden.json")))
_INPUTS = {k: base64.b64decode(v) for k, v in _GOLDEN["inputs"].items()}


def _ifast(call):
    """TF decodes this JPEG with its default IFAST IDCT; tfcompat's libjpeg (PIL) runs ISLOW: a few levels off."""
    return call["input"].startswith("jpeg") and call["kwargs"].get("dct_method") != "INTEGER_ACCURATE" \
        and call["op"] != "extract_jpeg_shape" and "error" not in call["tf"]


def _run(call):
    kw = dict(call["kwargs"])
    for key in ("dtype", "output_type"):
        if key in kw:
            kw[key] = getattr(tf, kw[key])
    if call["op"] == "decode_and_crop_jpeg":
        kw.setdefault("crop_window", [0, 0, 1, 1])
    return getattr(tf.io, call["op"])(_INPUTS[call["input"]], **kw)


@pytest.mark.parametrize("call", _GOLDEN["calls"], ids=lambda c: f"{c['input']}-{c['op']}-{c['kwargs']}")
def test_decode_as_tf(call):
    want = call["tf"]
    if "error" in want:
        with pytest.raises(getattr(errors, want["error"], None) or getattr(__builtins__, want["error"], Exception)) \
                as e:
            _run(call)
        assert str(e.value) == want["message"]
        return
    out = _run(call)
    assert out.dtype.name == want["dtype"]
    assert list(out.shape) == want["shape"]
    got = out.numpy().reshape(-1)
    if _ifast(call):
        scale = {"uint8": 1, "uint16": 256, "float32": 1 / 255}[want["dtype"]]
        assert np.abs(got.astype(np.float64) - np.array(want["values"])).max() <= 8 * scale
    else:
        np.testing.assert_array_equal(got, np.array(want["values"], dtype=got.dtype))


def test_codec_aliases_and_scalar_contents():
    for name in ("decode_bmp", "decode_gif", "decode_webp", "decode_and_crop_jpeg", "extract_jpeg_shape"):
        assert getattr(tf.image, name) is getattr(tf.io, name)
    with pytest.raises(errors.InvalidArgumentError, match="must be scalar"):
        tf.io.decode_bmp([_INPUTS["bmp24"]])
    with pytest.raises(errors.InvalidArgumentError, match="Input is empty"):
        tf.io.decode_gif(b"")


def test_top_down_bmp_widens_like_bottom_up():
    # TF 2.21 crashes (segfault) on a top-down BMP with dtype uint16/float32; tfcompat widens it as any BMP
    data = _INPUTS["bmp24_td"]
    u8 = tf.io.decode_image(data).numpy()
    np.testing.assert_array_equal(tf.io.decode_image(data, dtype=tf.uint16).numpy(), u8.astype(np.uint16) * 256)
    np.testing.assert_array_equal(tf.io.decode_image(data, dtype=tf.float32).numpy(),
                                  u8.astype(np.float32) * np.float32(1 / 255))


def _gif_cuts(data):
    return [data[:n] for n in range(len(data))]


@pytest.mark.parametrize("name", ["gif_anim_sub", "gif_transparent", "gif_interlaced", "bmp24", "bmp8", "webp_rgba"])
def test_corrupt_inputs_raise_tf_errors_only(name):
    data = _INPUTS[name]
    rng = np.random.RandomState(3)
    variants = _gif_cuts(data)
    for _ in range(200):
        b = bytearray(data)
        for i in rng.randint(0, len(b), size=rng.randint(1, 4)):
            b[i] = rng.randint(0, 256)
        variants.append(bytes(b))
    for v in variants:
        try:
            out = tf.io.decode_image(v)
        except errors.InvalidArgumentError:
            continue
        assert out.dtype == tf.uint8 and out.shape[-1] in (1, 3, 4)


def test_gif_allocation_is_bounded_by_the_pixels_coded():
    # a 65535 x 65535 screen and image whose LZW data ends at once: refused before any large allocation
    head = b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0x80, 0, 0) + bytes(6)
    img = b"," + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x02\x02\x4c\x01\x00;"
    with pytest.raises(errors.InvalidArgumentError, match="Invalid GIF data"):
        tf.io.decode_gif(head + img)


def test_declared_limits():
    with pytest.raises(NotImplementedError, match="JPEG XL"):
        tf.io.decode_image(b"\xff\x0a" + bytes(20))


def _fuzz_tool():
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "fixtures", "image_codecs", "record_fuzz.py")
    spec = importlib.util.spec_from_file_location("record_fuzz", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("fmt", ["gif", "bmp"])
def test_mutated_gif_and_bmp_give_tf_outcomes(fmt):
    """300 seeded mutations per format (record_fuzz.py): the same pixels, or the same error class and text."""
    import gzip
    tool = _fuzz_tool()
    with gzip.open(os.path.join(os.path.dirname(__file__), "fixtures", "image_codecs", "fuzz.json.gz"), "rt") as f:
        rows = [r for r in json.load(f) if r[0] == fmt]
    assert len(rows) == tool.PER_FORMAT
    differ = [(want, got) for _, data, want in rows
              if (got := tool.outcome(tf, fmt, base64.b64decode(data))) != want]
    assert not differ, f"{len(differ)} differ: {differ[:5]}"
