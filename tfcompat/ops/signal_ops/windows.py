"""`tf.signal` window functions (Hann, Hamming, Kaiser, Kaiser-Bessel-derived, Vorbis), computed in `dtype` as TF."""
import math

import torch

from tfcompat.framework import dtypes
from tfcompat.framework.context import current_device
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import wrap
from tfcompat.ops.signal_ops._common import float_dtype, int_scalar, range_error, storage_of


def _length(window_length):
    n = int_scalar(window_length, "window_length")
    if n < 0:
        raise range_error(0, n)
    return n


def raised_cosine(window_length, periodic, dtype, a, b):
    """Storage of `a - b*cos(2*pi*k/N)`, N = length (+1 when periodic and even) - 1."""
    dtype = float_dtype(dtype)
    n = _length(window_length)
    td = dtype.torch_dtype
    if n == 1:
        return torch.ones(1, dtype=td, device=current_device())
    periodic = bool(storage_of(periodic)) if not isinstance(periodic, bool) else periodic
    dev = current_device()
    denom = torch.tensor(float(n + (periodic and n % 2 == 0) - 1), dtype=td, device=dev)
    count = torch.arange(n, dtype=td, device=dev)
    return a - b * torch.cos(torch.tensor(2 * math.pi, dtype=td, device=dev) * count / denom)


@tf_export("signal.hann_window")
def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """Hann window 0.5 - 0.5*cos(2*pi*n/N); periodic windows use N = length (for even lengths)."""
    return wrap(raised_cosine(window_length, periodic, dtype, 0.5, 0.5))


@tf_export("signal.hamming_window")
def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """Hamming window 0.54 - 0.46*cos(2*pi*n/N); periodic windows use N = length (for even lengths)."""
    return wrap(raised_cosine(window_length, periodic, dtype, 0.54, 0.46))


def kaiser(window_length, beta, dtype):
    """Storage of the Kaiser window: exp(num - beta) * i0e(num) / i0e(beta), num = beta*sqrt(1 - (2k/(L-1) - 1)^2)."""
    dtype = float_dtype(dtype)
    n = int_scalar(window_length, "window_length")
    td = dtype.torch_dtype
    if n == 1:
        return torch.ones(1, dtype=td, device=current_device())
    half = torch.tensor((n - 1.0) / 2.0, dtype=torch.float32)
    if n <= 0:
        raise range_error(float(-half), float(half + 0.1))
    dev = current_device()
    arg = (torch.arange(n, dtype=torch.float32) - half).to(dev, td)
    beta = storage_of(beta, dtype).to(dev, td)
    half = half.to(dev, td)
    num = beta * torch.sqrt(torch.relu(1 - torch.square(arg / half)))
    return torch.exp(num - beta) * (torch.special.i0e(num) / torch.special.i0e(beta))


@tf_export("signal.kaiser_window")
def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """Kaiser window of shape parameter `beta` (symmetric)."""
    return wrap(kaiser(window_length, beta, dtype))


@tf_export("signal.kaiser_bessel_derived_window")
def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """Kaiser-Bessel-derived window: sqrt of the normalised cumulative Kaiser window, mirrored (length 2*(L//2))."""
    dtype = float_dtype(dtype)
    n = _length(window_length)
    csum = torch.cumsum(kaiser(n // 2 + 1, beta, dtype), 0)
    half = torch.sqrt(csum[:-1] / csum[-1])
    return wrap(torch.cat([half, torch.flip(half, (0,))]))


@tf_export("signal.vorbis_window")
def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """Vorbis power-complementary window sin(pi/2 * sin(pi/L * (n + 0.5))^2)."""
    dtype = float_dtype(dtype)
    n = _length(window_length)
    td = dtype.torch_dtype
    dev = current_device()
    arg = torch.arange(n, dtype=td, device=dev)
    inner = torch.sin(math.pi / torch.tensor(float(n), dtype=td, device=dev) * (arg + 0.5))
    return wrap(torch.sin(math.pi / 2.0 * torch.pow(inner, 2.0)))
