"""`tf.image.extract_glimpse`: windows cut from each image of a batch at given offsets (TF's ExtractGlimpseV2)."""
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import check_dtype, input_storage, wrap
from tfcompat.framework.tensor import device_name

_OP = "ExtractGlimpseV2"
_FLOAT = frozenset([torch.float32])
_INT = frozenset([torch.int32])


def _fail(message, t):
    return errors.kernel_error(errors.InvalidArgumentError, message, _OP, device_name(t.device), name=None)


def _dims(t):
    return "[" + ",".join(map(str, t.shape)) + "]"


def _input(x, dtype, allowed):
    t = input_storage(x, None if hasattr(x, "dtype") and not hasattr(x, "__array__") else dtype)
    check_dtype(t, _OP, allowed)
    return t


def _corner(offset, extent, window, normalized, centered):
    """The window's top-left pixel along one axis from its offset, as Eigen's ExtractGlimpses computes it in
    float32 and truncates toward zero."""
    v = torch.tensor(offset, dtype=torch.float32)
    if normalized:
        v = v * extent
        if centered:
            v = v / 2.0 + extent / 2.0 - window / 2.0
    elif centered:
        v = v + extent / 2.0
    return int(v.item())


def _noise(img, h, w, noise, gen):
    """The glimpse's fill where it leaves the image: zeros, uniform over the image's [min, max], or each
    channel's gaussian (mean, std) clipped to its [min, max] (tfcompat's random draws, not Eigen's)."""
    c = img.shape[-1]
    if noise == "zero":
        return img.new_zeros(h, w, c)
    if noise == "uniform":
        lo, hi = img.min(), img.max()
        return lo + torch.rand(h, w, c, generator=gen, dtype=img.dtype) * (hi - lo)
    flat = img.reshape(-1, c)
    mean, std = flat.mean(0), (flat - flat.mean(0)).square().mean(0).sqrt()
    draw = mean + torch.randn(h, w, c, generator=gen, dtype=img.dtype) * std
    return torch.minimum(torch.maximum(draw, flat.min(0).values), flat.max(0).values)


@tf_export("image.extract_glimpse", partial="uniform and gaussian noise are tfcompat's random draws, not TF's")
def extract_glimpse(input, size, offsets, centered=True, normalized=True, noise="uniform", name=None):  # noqa: A002
    """(batch, size[0], size[1], channels) windows of float32 `input` whose position is `offsets` ([y, x] per
    image: centered in [-1, 1], normalized in [0, 1], or pixels); where a window leaves its image the rest is
    `noise` ("uniform", "gaussian" or "zero")."""
    img = _input(input, dtypes.float32, _FLOAT)
    win = _input(size, dtypes.int32, _INT)
    off = _input(offsets, dtypes.float32, _FLOAT)
    if noise not in ("uniform", "gaussian", "zero"):
        raise _fail(f"The noise could only be uniform, gaussian, or zero, got{noise}", img)
    if img.dim() != 4:
        raise _fail(f"input must be 4-dimensional (batch_size, height, width, depth){_dims(img)}", img)
    if win.shape != (2,):
        raise _fail(f"input must be a vector of size 2 (height, width){_dims(win)}", img)
    h, w = (int(v) for v in win.tolist())
    for v in (h, w):
        if v < 0:
            raise _fail(f"Expected a non-negative size, got {v}", img)
    if off.dim() != 2:
        raise _fail(f"input must be a matrix{_dims(off)}", img)
    if off.shape[0] != img.shape[0]:
        raise _fail(f"first dimension should be batch{_dims(off)}", img)
    if off.shape[1] != 2:
        raise _fail(f"second dimension should be of size 2 (y,x){_dims(off)}", img)
    batch, ih, iw, c = img.shape
    out = img.new_zeros(batch, h, w, c)
    if out.numel() == 0:
        return wrap(out)
    gen = None if noise == "zero" else torch.Generator().manual_seed(int(torch.randint(2 ** 62, ())))
    for i, (oy, ox) in enumerate(off.tolist()):
        y = _corner(oy, ih, h, normalized, centered)
        x = _corner(ox, iw, w, normalized, centered)
        inside = 0 <= y and y + h < ih and 0 <= x and x + w < iw
        if not inside:
            out[i] = _noise(img[i], h, w, noise, gen)
        y0, x0 = max(y, 0), max(x, 0)
        y1, x1 = min(y + h, ih), min(x + w, iw)
        if y1 > y0 and x1 > x0:
            out[i, y0 - y:y1 - y, x0 - x:x1 - x] = img[i, y0:y1, x0:x1]
    return wrap(out)
