"""Image codecs: `tf.io.decode_png`, `decode_jpeg`, `decode_image`, `encode_png`, `encode_jpeg`."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops.image_ops import _convert
from tfcompat.ops.io_ops import png_decode, vision_extra
from tfcompat.ops.io_ops._common import c_name, kernel_error, string_scalar
from tfcompat.ops.string_ops import _strings
from tfcompat.util import encoders

_UNKNOWN_FORMAT = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."
# What the decoders lack: the formats they raise NotImplementedError for, and JPEG pixels' one difference
_DECODE_LIMITS = "GIF, BMP, WebP and JPEG XL images are not decoded (PNG and JPEG are)"
_JPEG_LIMITS = (f"{_DECODE_LIMITS}; JPEG pixels are libjpeg's INTEGER_ACCURATE IDCT (PIL) for every dct_method, "
                "while TF's default (INTEGER_FAST) may differ by a few levels")


def _image_format(data):
    if data.startswith(encoders.PNG_SIGNATURE):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith(b"GIF8"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"\xff\x0a") or data.startswith(b"\x00\x00\x00\x0cJXL \r\n\x87\n"):
        return "jxl"
    return None



def _decode_jpeg_pil(data, channels, op, ratio=1):
    """A JPEG decoded by PIL's libjpeg, downscaled by `ratio` in its IDCT as TF does (ISLOW DCT: TF's
    dct_method="INTEGER_ACCURATE"; TF's default IFAST may differ by a few levels)."""
    if channels == 4:
        raise kernel_error(errors.InvalidArgumentError, "JPEG does not support 4 channels", op, name=None)
    Image = vision_extra.pil_image(op)
    import io as _io
    try:
        if b"\xff\xd9" not in data:      # cut before its end marker: TF's reader fails at the end of the input
            raise ValueError("truncated JPEG")
        im = Image.open(_io.BytesIO(data))
        if channels == 1 or ratio != 1:      # the size asked for is exactly 1/ratio: libjpeg's scale 1/ratio
            im.draft("L" if channels == 1 else None, (im.size[0] / ratio, im.size[1] / ratio))
        im.load()
    except Exception:  # noqa: BLE001 - PIL's decode errors vary by format and version
        raise kernel_error(errors.InvalidArgumentError, "jpeg::Uncompress failed. Invalid JPEG data or crop window.",
                            op, name=None) from None
    mode = {1: "L", 3: "RGB"}.get(channels) or ("L" if im.mode == "L" else "RGB")
    return np.array(im.convert(mode) if im.mode != mode else im)


def _contents(contents, op):
    arr = _strings(contents, op)
    if arr.shape != ():
        raise kernel_error(errors.InvalidArgumentError,
                            f"`contents` must be scalar but got shape{list(arr.shape)}", op, name=None)
    return arr[()]


def _channels(channels, op):
    channels = int(channels or 0)
    if channels not in (0, 1, 3, 4):
        raise kernel_error(errors.InvalidArgumentError, f"`channels` must be 0, 1, 3 or 4 but got {channels}",
                           op, name=None)
    return channels


def _decode(contents, channels, dtype, op, ratio=1):
    """Decodes a PNG or JPEG (detected from its bytes, as TF's decode ops do) to an (h, w, c) array."""
    channels = _channels(channels, op)
    data = _contents(contents, op)
    if not data:
        raise kernel_error(errors.InvalidArgumentError, "Input is empty.", op, name=None)
    kind = _image_format(data)
    if kind == "png":
        try:
            return png_decode.decode(data, channels, dtype is dtypes.uint16)
        except png_decode.BadPng as e:
            msg = "Invalid PNG. Failed to initialize decoder." if e.init else f"Invalid PNG data, size {len(data)}"
            raise kernel_error(errors.InvalidArgumentError, msg, op, name=None) from None
    if kind == "jpeg":
        img = _decode_jpeg_pil(data, channels, op, ratio)
        img = img[..., None] if img.ndim == 2 else img
        return img.astype(np.uint16) * np.uint16(257) if dtype is dtypes.uint16 else img
    if kind is None:
        raise kernel_error(errors.InvalidArgumentError, _UNKNOWN_FORMAT, op, name=None)
    raise NotImplementedError(f"{op}: decoding {kind.upper()} images is not supported (PNG and JPEG are)")


def _decode_dtype(dtype, op, allowed):
    dt = dtypes.as_dtype(dtype)
    if dt not in allowed:
        names = ", ".join(d.name for d in allowed)
        sig = ("contents:string -> image:dtype; attr=channels:int,default=0; attr=dtype:type,default=DT_UINT8,"
               f"allowed=[{', '.join('DT_' + d.name.upper() for d in allowed)}]")
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'dtype' of {c_name(dt)} is not in the list of allowed values: "
                              f"{names}\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={sig}>", op,
                              name=None)
    return dt


@tf_export("io.decode_png", "image.decode_png", partial=_JPEG_LIMITS)
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decodes a PNG (JPEG too, as TF) to a uint8/uint16 (height, width, channels) tensor."""
    dt = _decode_dtype(dtype, "DecodePng", (dtypes.uint8, dtypes.uint16))
    return wrap(torch.from_numpy(_decode(contents, channels, dt, "DecodePng")))


@tf_export("io.decode_jpeg", "image.decode_jpeg", partial=_JPEG_LIMITS,
           unsupported=("fancy_upscaling", "try_recover_truncated", "acceptable_fraction"))
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG (PNG too, as TF) to a uint8 (height, width, channels) tensor, its IDCT scaled down by
    `ratio` (1, 2, 4 or 8); JPEG needs the vision extra."""
    op = "DecodeJpeg"
    _channels(channels, op)
    if ratio not in (1, 2, 4, 8):
        raise kernel_error(errors.InvalidArgumentError, f"ratio must be 1, 2, 4, or 8, got {ratio}", op, name=None)
    if dct_method not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):     # TF: a hint that a library may ignore
        raise kernel_error(errors.InvalidArgumentError,
                           "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}", op, name=None)
    return wrap(torch.from_numpy(_decode(contents, channels, dtypes.uint8, op, int(ratio))))


@tf_export("io.decode_image", "image.decode_image", partial=_JPEG_LIMITS)
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Decodes a PNG or JPEG to (height, width, channels); non-uint8 dtypes rescale as convert_image_dtype."""
    dt = dtypes.as_dtype(dtype)
    wide = dt is not dtypes.uint8
    img = torch.from_numpy(_decode(contents, channels, dtypes.uint16 if wide else dt, "DecodeImage"))
    return wrap(img if dt is dtypes.uint16 or not wide else _convert(img, dt))


@tf_export("io.encode_png", "image.encode_png")
def encode_png(image, compression=-1, name=None):
    """PNG bytes of a uint8/uint16 (height, width, channels) image; leading batch dims give a string tensor."""
    op = "EncodePng"
    t = storage(image) if isinstance(image, Tensor) else to_storage(image)
    if t.dtype not in (torch.uint8, torch.uint16):
        sig = ("image:T -> contents:string; attr=compression:int,default=-1; attr=T:type,default=DT_UINT8,"
               "allowed=[DT_UINT8, DT_UINT16]")
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'T' of {c_name(dtypes.FROM_STORAGE[t.dtype])} is not in the list "
                              f"of allowed values: uint8, uint16\n\t; NodeDef: {{{{node {op}}}}}; "
                              f"Op<name={op}; signature={sig}>", op)
    level = int(compression)
    if not -1 <= level <= 9:
        raise kernel_error(errors.InvalidArgumentError, f"compression should be in [-1,9], got {level}", op, name="")
    if t.dim() < 3:
        raise kernel_error(errors.InvalidArgumentError,
                            "images must be at least rank 3[" + ",".join(map(str, t.shape)) + "]", op, name="")
    if t.shape[-1] not in (1, 2, 3, 4):
        raise kernel_error(errors.InvalidArgumentError,
                            f"image must have 1, 2, 3, or 4 channels, got {t.shape[-1]}", op, name="")
    arr = t.detach().cpu()
    arr = arr.numpy() if t.dtype == torch.uint8 else arr.view(torch.int16).numpy().view(np.uint16)
    batch = arr.reshape((int(np.prod(arr.shape[:-3])),) + arr.shape[-3:])
    if 0 in arr.shape[-3:-1]:
        failed = ", ".join(map(str, range(len(batch))))
        raise kernel_error(errors.InternalError,
                            f"PNG encoding failed at the following flattened batch indices: {failed}", op, name="")
    level = 6 if level == -1 else level
    out = np.empty(len(batch), dtype=object)
    out[:] = [encoders.encode_png(img, level) for img in batch]
    return wrap(out.reshape(arr.shape[:-3]))


@tf_export("io.encode_jpeg", "image.encode_jpeg", partial="the JPEG bytes are PIL's, not byte-identical to TF's",
           unsupported=("density_unit", "xmp_metadata"))
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                density_unit="in", x_density=300, y_density=300, xmp_metadata="", name=None):
    """JPEG bytes of a uint8 (height, width, 1 or 3) image, written by PIL (bytes differ from TF's libjpeg)."""
    Image = vision_extra.pil_image("EncodeJpeg")
    t = storage(image) if isinstance(image, Tensor) else to_storage(image)
    if t.dtype != torch.uint8:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {c_name(dtypes.FROM_STORAGE[t.dtype])} is not in the list of "
            "allowed values: uint8")
    if t.dim() != 3:
        raise kernel_error(errors.InvalidArgumentError,
                            f"image must be 3-dimensional[{','.join(map(str, t.shape))}]", "EncodeJpeg")
    arr = t.detach().cpu().numpy()
    shape = "[" + ",".join(map(str, arr.shape)) + "]"
    channels = {"": arr.shape[2], "grayscale": 1, "rgb": 3}[format]
    if channels not in (1, 3):
        raise kernel_error(errors.InvalidArgumentError, f"image must have 1 or 3 channels, got {shape}",
                            "EncodeJpeg", name="")
    if arr.shape[2] != channels:
        raise kernel_error(errors.InvalidArgumentError, f"format {format} expects {channels} channels, got {shape}",
                            "EncodeJpeg", name="")
    import io as _io
    buf = _io.BytesIO()
    Image.fromarray(arr[..., 0] if channels == 1 else arr).save(
        buf, format="JPEG", quality=int(quality), progressive=bool(progressive), optimize=bool(optimize_size),
        subsampling=2 if chroma_downsampling else 0, dpi=(int(x_density), int(y_density)))
    return string_scalar(buf.getvalue())
