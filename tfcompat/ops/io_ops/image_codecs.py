"""Image codecs: `tf.io.decode_png/jpeg/gif/bmp/webp/jxl/image`, `decode_and_crop_jpeg`, `extract_jpeg_shape`,
`encode_png`, `encode_jpeg`, dispatching on the magic bytes as TF's one decode kernel does."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops.image_ops import _convert
from tfcompat.ops.io_ops import bmp_decode, gif_decode, jpeg_header, png_decode, vision_extra, webp_header
from tfcompat.ops.io_ops._common import c_name, data_dependent, kernel_error, string_scalar
from tfcompat.ops.string_ops import _strings
from tfcompat.util import encoders

_UNKNOWN_FORMAT = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."
# What the decoders lack: the formats they raise NotImplementedError for, and JPEG pixels' one difference
_DECODE_LIMITS = "JPEG XL and animated WebP images are not decoded"
_JPEG_LIMITS = (f"{_DECODE_LIMITS}; JPEG pixels are libjpeg's INTEGER_ACCURATE IDCT (PIL) for every dct_method, "
                "while TF's default (INTEGER_FAST) may differ by a few levels")


def _image_format(data):
    """TF's ClassifyFileFormat: the format its magic bytes name, or None."""
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith(encoders.PNG_SIGNATURE):
        return "png"
    if data.startswith(b"GIF8"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data[:4] == b"RIFF" and len(data) > 12 and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"\xff\x0a") or data.startswith(b"\x00\x00\x00\x0cJXL \r\n\x87\n"):
        return "jxl"
    return None


def _decode_jpeg_pil(data, channels, op, ratio=1, crop=None):
    """A JPEG decoded by PIL's libjpeg, downscaled by `ratio` in its IDCT as TF does (ISLOW DCT: TF's
    dct_method="INTEGER_ACCURATE"; TF's default IFAST may differ by a few levels), cut to `crop`
    ([y, x, height, width] of the scaled image) where given."""
    Image = vision_extra.pil_image(op)
    import io as _io
    try:
        if b"\xff\xd9" not in data:      # cut before its end marker: TF's reader fails at the end of the input
            raise ValueError("truncated JPEG")
        im = Image.open(_io.BytesIO(data))
        if channels == 1 or ratio != 1:      # the size asked for is exactly 1/ratio: libjpeg's scale 1/ratio
            im.draft("L" if channels == 1 else None, (im.size[0] / ratio, im.size[1] / ratio))
        im.load()
        if crop is not None:
            y, x, h, w = crop
            if x < 0 or y < 0 or h <= 0 or w <= 0 or x + w > im.size[0] or y + h > im.size[1]:
                raise ValueError("crop window outside the image")
    except Exception:  # noqa: BLE001 - PIL's decode errors vary by format and version
        raise kernel_error(errors.InvalidArgumentError, "jpeg::Uncompress failed. Invalid JPEG data or crop window.",
                            op, name=None) from None
    mode = {1: "L", 3: "RGB"}.get(channels) or ("L" if im.mode == "L" else "RGB")
    img = np.array(im.convert(mode) if im.mode != mode else im)
    img = img[..., None] if img.ndim == 2 else img
    return img if crop is None else np.ascontiguousarray(img[y:y + h, x:x + w])


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


def _fail(msg, op):
    return kernel_error(errors.InvalidArgumentError, msg, op, name=None)


def _from_8bit(img, dtype):
    """TF's widening of 8-bit pixels: uint16 times 256, float32 times float(1/255)."""
    if dtype is dtypes.uint16:
        return img.astype(np.uint16) * np.uint16(256)
    if dtype is dtypes.float32:
        return img.astype(np.float32) * np.float32(1.0 / 255)
    return img


def _png(data, channels, dtype, op):
    try:
        img = png_decode.decode(data, channels, dtype is not dtypes.uint8)
    except png_decode.BadPng as e:
        raise _fail("Invalid PNG. Failed to initialize decoder." if e.init else f"Invalid PNG data, size {len(data)}",
                    op) from None
    if op == "DecodeBmp":
        raise _fail("Trying to decode PNG format using DecodeBmp op. Use `decode_png` or `decode_image` instead.", op)
    if op == "DecodeAndCropJpeg":
        raise _fail("DecodeAndCropJpeg operation can run on JPEG only, but detected PNG.", op)
    return img.astype(np.float32) * np.float32(1.0 / 65535) if dtype is dtypes.float32 else img


def _gif(data, channels, dtype, op, expand_animations):
    if channels not in (0, 3):
        raise _fail(f"channels must be 0 or 3 for GIF, got {channels}", op)
    if op == "DecodeBmp":
        raise _fail("Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or `decode_image` instead.", op)
    if op == "DecodeAndCropJpeg":
        raise _fail("DecodeAndCropJpeg operation can run on JPEG only, but detected GIF.", op)
    try:
        frames = gif_decode.decode(data, expand_animations or op != "DecodeImage")
    except gif_decode.BadGif as e:
        raise _fail(f"Invalid GIF data (size {len(data)}), {e}", op) from None
    if op == "DecodeJxl":
        raise _fail("Bad op type DecodeJxl", op)
    if op in ("DecodePng", "DecodeJpeg"):
        if len(frames) != 1:
            raise _fail(f"Got {len(frames)} frames, but animated gifs can only be decoded by tf.io.decode_gif or "
                        "tf.io.decode_image", op)
        frames = frames[0]
    elif op == "DecodeImage" and not expand_animations:
        frames = frames[0]
    return _from_8bit(frames, dtype)


def _bmp(data, channels, dtype, op):
    if channels == 1:
        raise _fail("`channels` must be 0, 3 or 4 for BMP, but got 1", op)
    if op == "DecodeAndCropJpeg":
        raise _fail("DecodeAndCropJpeg operation can run on JPEG only, but detected BMP.", op)
    if op not in ("DecodeBmp", "DecodeImage"):
        raise _fail(f"Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. Op "
                    f"used: {op}", op)
    try:
        return _from_8bit(bmp_decode.decode(data, channels), dtype)
    except bmp_decode.BadBmp as e:
        raise _fail(str(e), op) from None


def _jpeg(data, channels, dtype, op, ratio, crop):
    if channels == 4:
        raise _fail("JPEG does not support 4 channels", op)
    if op == "DecodeBmp":
        raise _fail("Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or `decode_image` instead.",
                    op)
    img = _decode_jpeg_pil(data, channels, op, ratio, crop)
    return _from_8bit(img[None] if op == "DecodeGif" else img, dtype)


def _webp(data, channels, dtype, op, expand_animations):
    if channels not in (0, 3, 4):
        raise _fail("WebP only supports 3 or 4 channels", op)
    if dtype is not dtypes.uint8:
        raise _fail("WebP only supports uint8 for dtype", op)
    header = webp_header.features(data)
    if header is None:
        raise _fail("Failed to decode WebP header.", op)
    width, height, img_channels, animated = header
    if channels not in (0, img_channels):
        raise _fail("Number of channels requested does not match input", op)
    if animated:
        raise NotImplementedError(f"{op}: animated WebP images are not decoded")
    Image = vision_extra.pil_image(op, "WebP")
    import io as _io
    try:
        im = Image.open(_io.BytesIO(data))
        img = np.array(im.convert("RGBA" if img_channels == 4 else "RGB"))
    except Exception:  # noqa: BLE001 - PIL's decode errors vary by version
        raise _fail("Failed to decode WebP image.", op) from None
    if img.shape != (height, width, img_channels):
        raise _fail("Failed to decode WebP image.", op)
    return img if op == "DecodeImage" and not expand_animations else img[None]


def _decode(contents, channels, dtype, op, ratio=1, expand_animations=True, crop=None):
    """TF's DecodeImageV2 kernel: the format from the magic bytes, then that format's rules for op `op` (which
    formats it refuses, frames and rank, channels); 8-bit formats widen to uint16/float32 as TF does."""
    channels = 3 if op == "DecodeGif" else _channels(channels, op)
    data = _contents(contents, op)
    if not data:
        raise _fail("Input is empty.", op)
    kind = _image_format(data)
    if kind == "png":
        img = _png(data, channels, dtype, op)
        return img[None] if op == "DecodeGif" else img
    if kind == "jpeg":
        return _jpeg(data, channels, dtype, op, ratio, crop)
    if kind == "gif":
        return _gif(data, channels, dtype, op, expand_animations)
    if kind == "bmp":
        return _bmp(data, channels, dtype, op)
    if kind == "webp":
        return _webp(data, channels, dtype, op, expand_animations)
    if kind is None:
        raise _fail(_UNKNOWN_FORMAT, op)
    raise NotImplementedError(f"{op}: decoding JPEG XL images is not supported")


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


def _channel_axis(channels):
    """The axes of a decoded (height, width, channels) image TF's shape inference knows: channels when given."""
    return (2,) if channels else ()


def _tensor(arr):
    return wrap(torch.from_numpy(np.ascontiguousarray(arr)))


@tf_export("io.decode_png", "image.decode_png", partial=_JPEG_LIMITS)
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decodes a PNG (JPEG, GIF and WebP too, as TF) to a uint8/uint16 (height, width, channels) tensor."""
    dt = _decode_dtype(dtype, "DecodePng", (dtypes.uint8, dtypes.uint16))
    return data_dependent(_tensor(_decode(contents, channels, dt, "DecodePng")), _channel_axis(channels))


@tf_export("io.decode_jpeg", "image.decode_jpeg", partial=_JPEG_LIMITS,
           unsupported=("fancy_upscaling", "try_recover_truncated", "acceptable_fraction"))
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG (PNG, GIF and WebP too, as TF) to a uint8 (height, width, channels) tensor, its IDCT
    scaled down by `ratio` (1, 2, 4 or 8); JPEG needs the vision extra."""
    op = "DecodeJpeg"
    _jpeg_attrs(channels, ratio, dct_method, op)
    return data_dependent(_tensor(_decode(contents, channels, dtypes.uint8, op, int(ratio))), _channel_axis(channels))


def _jpeg_attrs(channels, ratio, dct_method, op):
    _channels(channels, op)
    if ratio not in (1, 2, 4, 8):
        raise _fail(f"ratio must be 1, 2, 4, or 8, got {ratio}", op)
    if dct_method not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):     # TF: a hint that a library may ignore
        raise _fail("dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}", op)


@tf_export("io.decode_and_crop_jpeg", "image.decode_and_crop_jpeg", partial=_JPEG_LIMITS,
           unsupported=("fancy_upscaling", "try_recover_truncated", "acceptable_fraction"))
def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """Decodes the [y, x, height, width] `crop_window` of a JPEG (of the image scaled down by `ratio`)."""
    op = "DecodeAndCropJpeg"
    _jpeg_attrs(channels, ratio, dct_method, op)
    window = to_storage(crop_window, dtypes.int32)
    if window.dim() != 1:
        raise _fail(f"crop_window must be 1-D, got shape {_shape_text(window.shape)}", op)
    if window.shape[0] != 4:
        raise _fail(f"crop_size must have four elements {_shape_text(window.shape)}", op)
    return data_dependent(_tensor(_decode(contents, channels, dtypes.uint8, op, int(ratio), crop=window.tolist())),
                          _channel_axis(channels))


def _shape_text(shape):
    return "[" + ",".join(map(str, shape)) + "]"


@tf_export("io.decode_bmp", "image.decode_bmp", partial=_DECODE_LIMITS)
def decode_bmp(contents, channels=0, name=None):
    """Decodes an uncompressed 8/24/32-bit BMP to a uint8 (height, width, channels) tensor (WebP too, as TF)."""
    return data_dependent(_tensor(_decode(contents, channels, dtypes.uint8, "DecodeBmp")), _channel_axis(channels))


@tf_export("io.decode_gif", "image.decode_gif", partial=_JPEG_LIMITS)
def decode_gif(contents, name=None):
    """Decodes every frame of a GIF to a uint8 (frames, height, width, 3) tensor; PNG, JPEG and WebP give one
    frame, as in TF."""
    return data_dependent(_tensor(_decode(contents, 3, dtypes.uint8, "DecodeGif")), (3,))


@tf_export("io.decode_webp", "image.decode_webp", partial="animated WebP images are not decoded")
def decode_webp(contents, channels=0, name=None):
    """Decodes a still WebP (by libwebp, through the vision extra) to uint8 (1, height, width, 3 or 4); PNG,
    JPEG and GIF are decoded as by decode_png."""
    return _tensor(_decode(contents, channels, dtypes.uint8, "DecodeWebP"))


@tf_export("io.decode_jxl", "image.decode_jxl", partial="JPEG XL codestreams are not decoded (NotImplementedError); "
           "the PNG, JPEG, BMP and WebP images TF's DecodeJxl kernel also takes are")
def decode_jxl(contents, channels=0, dtype=dtypes.uint8, name=None):
    """TF's DecodeJxl kernel: a JPEG XL image to uint8 (height, width, channels); PNG and JPEG as decode_png,
    WebP as decode_webp, while GIF and BMP are refused."""
    _decode_dtype(dtype, "DecodeJxl", (dtypes.uint8,))
    return _tensor(_decode(contents, channels, dtypes.uint8, "DecodeJxl"))


@tf_export("io.decode_image", "image.decode_image", partial=_JPEG_LIMITS)
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Decodes a JPEG, PNG, GIF, BMP or WebP to (height, width, channels), or (frames, height, width, 3) for a
    GIF with expand_animations; dtypes other than uint8/uint16/float32 decode as uint16 then convert."""
    dt = dtypes.as_dtype(dtype)
    kernel_dt = dt if dt in (dtypes.uint8, dtypes.uint16, dtypes.float32) else dtypes.uint16
    img = _tensor(_decode(contents, channels, kernel_dt, "DecodeImage", expand_animations=expand_animations))
    img = img if kernel_dt is dt else wrap(_convert(storage(img), dt))
    return data_dependent(img, None if expand_animations else _channel_axis(channels))


@tf_export("io.extract_jpeg_shape", "image.extract_jpeg_shape")
def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG from its frame header, without decoding it."""
    op = "ExtractJpegShape"
    dt = dtypes.as_dtype(output_type)
    if dt not in (dtypes.int32, dtypes.int64):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'output_type' of {c_name(dt)} is not in the list of allowed values: "
                              f"int32, int64\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature=contents:string"
                              " -> image_shape:output_type; attr=output_type:type,default=DT_INT32,allowed=[DT_INT32, "
                              "DT_INT64]>", op, name=None)
    data = _contents(contents, op)
    shape = jpeg_header.shape(data)
    if shape is None:
        raise _fail(f"Invalid JPEG data, size {len(data)}", op)
    return wrap(torch.tensor(shape, dtype=dt.torch_dtype))


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
