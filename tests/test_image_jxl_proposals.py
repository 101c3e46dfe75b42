"""tf.image.decode_jxl and generate_bounding_box_proposals as TF 2.21's CPU wheel runs them (outcomes recorded from
TF): DecodeJxl decodes the other formats as TF's shared decode kernel does (JPEG XL itself is declared), and
GenerateBoundingBoxProposals has no CPU kernel, so it raises TF's NotFoundError after TF's conversions."""
import numpy as np
import pytest

import tfcompat as tf

_PREFIX = "{{function_node __wrapped__DecodeJxl_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def _png(channels):
    return tf.io.encode_png(np.zeros((2, 2, channels), np.uint8)).numpy()


@pytest.mark.parametrize("data, kwargs, shape", [
    (_png(4), {}, (2, 2, 4)), (_png(4), {"channels": 1}, (2, 2, 1)),
    (tf.io.encode_png(np.zeros((2, 2, 1), np.uint16)).numpy(), {}, (2, 2, 1)),
])
def test_decode_jxl_decodes_png_as_tf(data, kwargs, shape):
    img = tf.image.decode_jxl(data, **kwargs)
    assert (tuple(img.shape), img.dtype.name) == (shape, "uint8") and tf.io.decode_jxl is tf.image.decode_jxl


@pytest.mark.parametrize("data, kwargs, message", [
    (b"\xff", {}, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodeJxl]"),
    (b"BM" + b"\0" * 30, {}, "Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` "
                             "instead. Op used: DecodeJxl [Op:DecodeJxl]"),
    (b"GIF89a....", {}, "Invalid GIF data (size 10), failed to open gif file: No screen descriptor detected "
                        "[Op:DecodeJxl]"),
    (b"\xff\x0a", {"channels": 2}, "`channels` must be 0, 1, 3 or 4 but got 2 [Op:DecodeJxl]"),
    ([b"a", b"b"], {}, "`contents` must be scalar but got shape[2] [Op:DecodeJxl]"),
])
def test_decode_jxl_errors_as_tf(data, kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.decode_jxl(data, **kwargs)
    assert str(e.value) == _PREFIX + message


def test_decode_jxl_refuses_gif_and_other_dtypes_as_tf():
    data = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff,\x00\x00\x00\x00\x01\x00\x01\x00\x00"
            b"\x02\x02D\x01\x00;")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Bad op type DecodeJxl \[Op:DecodeJxl\]$"):
        tf.image.decode_jxl(data)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of float is not in the list of "
                       "allowed values: uint8\n"):
        tf.image.decode_jxl(b"\xff\x0a", dtype=tf.float32)
    with pytest.raises(NotImplementedError, match="JPEG XL"):
        tf.image.decode_jxl(b"\xff\x0a" + b"\0" * 30)


_NF = ("Could not find device for node: {{node GenerateBoundingBoxProposals}} = GenerateBoundingBoxProposals"
       "[post_nms_topn=%d]\nAll kernels registered for op GenerateBoundingBoxProposals:\n  <no registered kernels>\n"
       " [Op:GenerateBoundingBoxProposals]")
_S = np.zeros((1, 2, 2, 3), np.float32)


@pytest.mark.parametrize("args, kwargs, text", [
    ((_S, _S, _S, _S), {"post_nms_topn": 5}, _NF % 5),
    ((_S, _S, _S, _S), {"post_nms_topn": 5.5}, _NF % 5),
    (([1], [2], [3], [4]), {"pre_nms_topn": np.int64(3), "min_size": 2}, _NF % 300),
    ((_S.astype(np.float64), _S, _S, _S), {}, _NF % 300 + " name: "),      # TF's fallback path
    ((_S, _S, _S, _S), {"nms_threshold": tf.constant(0.5, tf.float64)}, _NF % 300 + " name: "),
])
def test_generate_bounding_box_proposals_has_no_cpu_kernel(args, kwargs, text):
    with pytest.raises(tf.errors.NotFoundError) as e:
        tf.image.generate_bounding_box_proposals(*args, **kwargs)
    assert str(e.value) == text


@pytest.mark.parametrize("kwargs, text", [
    ({"post_nms_topn": "a"}, "Expected int for argument 'post_nms_topn' not 'a'."),
    ({"nms_threshold": "x"}, "Cannot convert 'x' to EagerTensor of dtype float"),
    ({"pre_nms_topn": 3.5}, "Cannot convert 3.5 to EagerTensor of dtype int32"),
])
def test_generate_bounding_box_proposals_conversion_errors(kwargs, text):
    with pytest.raises(TypeError) as e:
        tf.image.generate_bounding_box_proposals([1.], [2.], [3.], [4.], **kwargs)
    assert str(e.value) == text
