"""`tf.image` image quality: `ssim`, `ssim_multiscale`, `sobel_edges` and JPEG quality round trips, as TF
composes them."""
import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, check_dtype, input_storage, wrap
from tfcompat.framework.tensor import Tensor, device_name, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops import image_ops, random_ops
from tfcompat.ops.io_ops import image_codecs

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _tensor_only(x):
    """TF's image functions that read `x.get_shape()` take tensors only."""
    if not isinstance(x, (Tensor, Variable)):
        x.get_shape()               # Python's own AttributeError for what has no get_shape
    return x


def _shape_text(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _compatible(t1, t2):
    """TF's static checks that two image batches compare: rank >= 3, equal image shapes, broadcastable heads."""
    for t in (t1, t2):
        if t.ndim < 3:
            raise ValueError(f"Shape {_shape_text(t.shape)} must have rank at least 3")
    if t1.shape[-3:] != t2.shape[-3:]:
        raise ValueError(f"Shapes {_shape_text(t1.shape[-3:])} and {_shape_text(t2.shape[-3:])} are incompatible")
    for d1, d2 in zip(reversed(t1.shape[:-3]), reversed(t2.shape[:-3])):
        if not (d1 == 1 or d2 == 1 or d1 == d2):
            raise ValueError(f"Two images are not compatible: {_shape_text(t1.shape)} and {_shape_text(t2.shape)}")


def _float_pair(img1, img2, max_val):
    """Both images and max_val in float32, integer images rescaled to [0, 1] (TF's convert_image_dtype)."""
    a, b = storage(convert_to_tensor(img1)), storage(convert_to_tensor(img2))
    _compatible(a, b)
    src = dtypes.FROM_STORAGE[a.dtype]
    mv = torch.as_tensor(storage(convert_to_tensor(max_val)), device=a.device).to(a.dtype)
    return (image_ops._convert(a, dtypes.float32), image_ops._convert(b, dtypes.float32),
            image_ops._convert(mv, dtypes.float32) if src is not dtypes.float32 else mv)


def _gaussian(size, sigma, device):
    """TF's _fspecial_gauss: softmax over the 2-D grid of -0.5 * (x^2 + y^2) / sigma^2, as (size, size)."""
    coords = torch.arange(size, dtype=torch.float32, device=device) - (size - 1) / 2.0
    g = coords * coords * (-0.5 / (sigma * sigma))
    return torch.softmax((g.reshape(1, -1) + g.reshape(-1, 1)).reshape(-1), dim=0).reshape(size, size)


def _ssim_per_channel(x, y, max_val, size, sigma, k1, k2, index_map=False):
    """(ssim per channel, contrast-structure per channel) of float32 NHWC-like `x`, `y` (any leading axes)."""
    for t in (x, y):
        if t.shape[-3] < size or t.shape[-2] < size:
            raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                              f"true. Summarized data: {', '.join(map(str, t.shape))}\n{size}")
    c = x.shape[-1]
    weight = _gaussian(size, float(sigma), x.device).expand(c, 1, size, size)

    def reduce(t):
        flat = t.reshape((-1,) + tuple(t.shape[-3:])).permute(0, 3, 1, 2)
        out = F.conv2d(flat, weight, groups=c).permute(0, 2, 3, 1)
        return out.reshape(tuple(t.shape[:-3]) + tuple(out.shape[1:]))

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reduce(x), reduce(y)
    num0 = mean0 * mean1 * 2.0
    den0 = mean0 * mean0 + mean1 * mean1
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reduce(x * y) * 2.0
    den1 = reduce(x * x + y * y)
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if index_map:
        return luminance * cs, cs
    return torch.mean(luminance * cs, dim=(-3, -2)), torch.mean(cs, dim=(-3, -2))


@tf_export("image.ssim")
def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """Structural similarity of each image pair (last three axes), averaged over channels (Gaussian window)."""
    x, y, mv = _float_pair(img1, img2, max_val)
    x, y = torch.broadcast_tensors(x, y)
    per_channel, _ = _ssim_per_channel(x, y, mv, int(filter_size), filter_sigma, k1, k2, bool(return_index_map))
    return wrap(torch.mean(per_channel, dim=-1))


@tf_export("image.ssim_multiscale")
def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5, k1=0.01,
                    k2=0.03):
    """MS-SSIM: contrast-structure at each halved scale and SSIM at the last, weighted by `power_factors`."""
    x, y, mv = _float_pair(img1, img2, max_val)
    x, y = torch.broadcast_tensors(x, y)
    mcs = []
    for k in range(len(power_factors)):
        if k > 0:
            x, y = (_halve(t) for t in (x, y))
        per_channel, cs = _ssim_per_channel(x, y, mv, int(filter_size), filter_sigma, k1, k2)
        mcs.append(torch.relu(cs))
    mcs.pop()
    stacked = torch.stack(mcs + [torch.relu(per_channel)], dim=-1)
    weights = torch.tensor(power_factors, dtype=stacked.dtype, device=stacked.device)
    return wrap(torch.mean(torch.prod(stacked ** weights, dim=-1), dim=-1))


def _halve(t):
    """TF's MS-SSIM downscale: odd height/width padded at the end by mirroring, then 2x2 average pooling."""
    head = t.shape[:-3]
    flat = t.reshape((-1,) + tuple(t.shape[-3:])).permute(0, 3, 1, 2)
    flat = F.pad(flat, (0, flat.shape[3] % 2, 0, flat.shape[2] % 2), mode="replicate")
    out = F.avg_pool2d(flat, 2).permute(0, 2, 3, 1)
    return out.reshape(tuple(head) + tuple(out.shape[1:]))


@tf_export("image.sobel_edges")
def sobel_edges(image):
    """(dy, dx) Sobel responses of a 4-D NHWC image (reflect-padded), stacked on a new last axis."""
    t = input_storage(_tensor_only(image))

    def pad_error(message):
        return errors.kernel_error(errors.InvalidArgumentError, message, "MirrorPad", device_name(t.device), name=None)
    if t.ndim != 4:
        raise pad_error(f"The first dimension of paddings must be the rank of inputs[4,2], "
                        f"[{','.join(map(str, t.shape))}]")
    if min(t.shape[1], t.shape[2]) <= 1:
        raise pad_error(f"paddings must be less than the dimension size: 1, 1 not less than "
                        f"{min(t.shape[1], t.shape[2])}")
    check_dtype(t, "DepthwiseConv2dNative", FLOAT)
    n, h, w, c = t.shape
    ky = torch.tensor([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], dtype=t.dtype, device=t.device)
    weight = torch.stack([ky, ky.t()]).unsqueeze(1).repeat(c, 1, 1, 1)
    padded = F.pad(t.permute(0, 3, 1, 2), (1, 1, 1, 1), mode="reflect")
    out = F.conv2d(padded, weight, groups=c)                     # channel i * 2 + k
    return wrap(out.permute(0, 2, 3, 1).reshape(n, h, w, c, 2))


_JPEG_NOTE = "JPEG round trips are PIL's libjpeg encoder and ISLOW decoder (TF's IFAST decode may differ by a level)"


@tf_export("image.adjust_jpeg_quality", partial=_JPEG_NOTE)
def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG encode at `jpeg_quality` (0-100) and decode, in its own dtype."""
    t = storage(convert_to_tensor(image))
    src = dtypes.FROM_STORAGE[t.dtype]
    u8 = image_ops._convert(t, dtypes.uint8, saturate=True)
    quality = int(storage(convert_to_tensor(jpeg_quality, dtype=dtypes.int32)))
    if not 0 <= quality <= 100:
        raise errors.kernel_error(errors.InvalidArgumentError, f"quality must be in [0,100], got {quality}",
                                  "EncodeJpegVariableQuality", device_name(t.device))
    encoded = image_codecs.encode_jpeg(wrap(u8), quality=quality)
    decoded = storage(image_codecs.decode_jpeg(encoded, channels=t.shape[-1], dct_method=dct_method))
    return wrap(image_ops._convert(decoded, src, saturate=True))


def _check_quality_range(lo, hi):
    if lo < 0 or hi < 0 or lo > 100 or hi > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if lo >= hi:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


@tf_export("image.random_jpeg_quality", partial=_JPEG_NOTE + "; draws are tfcompat's random streams")
def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality at a quality drawn uniformly from [min_jpeg_quality, max_jpeg_quality)."""
    _check_quality_range(min_jpeg_quality, max_jpeg_quality)
    q = random_ops.uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, q)


@tf_export("image.stateless_random_jpeg_quality", partial=_JPEG_NOTE + "; draws are not TF's Philox values")
def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """adjust_jpeg_quality at a quality drawn from [min_jpeg_quality, max_jpeg_quality) as a function of `seed`."""
    _check_quality_range(min_jpeg_quality, max_jpeg_quality)
    q = random_ops.stateless_uniform([], seed=seed, minval=min_jpeg_quality, maxval=max_jpeg_quality,
                                     dtype=dtypes.int32)
    return adjust_jpeg_quality(image, q)
