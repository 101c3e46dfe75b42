"""Keras 3's audio layers: `MelSpectrogram` (Keras on TF: a centered STFT with reflect padding, a power
spectrogram, Keras's mel filter bank and a decibel scale clipped `top_db` below the batch's maximum) and
`STFTSpectrogram` (convolutions with Keras's DFT kernels, windows as scipy.signal.get_window makes them)."""
import math

import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import partial_api
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _window(name, length, dtype):
    """tf.signal's periodic hann / hamming windows (Keras's `stft` accepts only these names, or an array)."""
    n = torch.arange(length, dtype=dtype)
    cos = torch.cos(2.0 * math.pi * n / length)
    return 0.5 - 0.5 * cos if name == "hann" else 0.54 - 0.46 * cos


def stft(x, sequence_length, sequence_stride, fft_length, window="hann"):
    """Keras's `ops.stft(..., center=True)` on a torch tensor: the complex frames `(..., frames, fft // 2 + 1)`."""
    if isinstance(window, str) and window not in ("hann", "hamming"):
        raise ValueError(f'If a string is passed to `window`, it must be one of `"hann"`, `"hamming"`. Received: '
                         f"window={window}")
    half = fft_length // 2
    lead = x.shape[:-1]
    padded = torch.nn.functional.pad(x.reshape(-1, 1, x.shape[-1]), (half, half), mode="reflect")
    padded = padded.reshape(*lead, padded.shape[-1])
    frames = padded.unfold(-1, fft_length, sequence_stride)
    if window is not None:
        win = _window(window, sequence_length, x.dtype) if isinstance(window, str) else \
            torch.as_tensor(input_storage(window), dtype=x.dtype)
        if win.ndim != 1 or win.shape[-1] != sequence_length:
            raise ValueError(f"The shape of `window` must be equal to [sequence_length].Received: window shape="
                             f"{tuple(win.shape)}")
        left = (fft_length - sequence_length) // 2
        win = torch.nn.functional.pad(win, (left, fft_length - sequence_length - left))
        frames = frames * win.to(frames.device)
    return torch.fft.rfft(frames, n=fft_length)


def _hertz_to_mel(f):
    return _MEL_HIGH_FREQUENCY_Q * torch.log(1.0 + f / _MEL_BREAK_FREQUENCY_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins, num_spectrogram_bins, sampling_rate, lower_edge_hertz,
                                upper_edge_hertz, dtype=torch.float32):
    """Keras's mel filter bank `(num_spectrogram_bins, num_mel_bins)` (its first, DC, row zero)."""
    nyquist = torch.tensor(float(sampling_rate), dtype=dtype) / 2.0
    linear = torch.linspace(0.0, float(nyquist), num_spectrogram_bins, dtype=dtype)[1:]
    bins_mel = _hertz_to_mel(linear).unsqueeze(1)
    edges = torch.linspace(float(_hertz_to_mel(torch.tensor(float(lower_edge_hertz), dtype=dtype))),
                           float(_hertz_to_mel(torch.tensor(float(upper_edge_hertz), dtype=dtype))),
                           num_mel_bins + 2, dtype=dtype)
    lower, center, upper = edges[:-2].unsqueeze(0), edges[1:-1].unsqueeze(0), edges[2:].unsqueeze(0)
    lower_slopes = (bins_mel - lower) / (center - lower)
    upper_slopes = (upper - bins_mel) / (upper - center)
    weights = torch.clamp(torch.minimum(lower_slopes, upper_slopes), min=0.0)
    return torch.nn.functional.pad(weights, (0, 0, 1, 0))


class MelSpectrogram(Layer):
    """Mel spectrogram of audio `(batch, samples)` or `(samples,)`: `(batch, num_mel_bins, frames)`."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, fft_length=2048, sequence_stride=512, sequence_length=None, window="hann",
                 sampling_rate=16000, num_mel_bins=128, min_freq=20.0, max_freq=None, power_to_db=True, top_db=80.0,
                 mag_exp=2.0, min_power=1e-10, ref_power=1.0, **kwargs):
        self.fft_length = fft_length
        self.sequence_stride = sequence_stride
        self.sequence_length = sequence_length or fft_length
        if self.fft_length < self.sequence_length:
            raise ValueError(f"`fft_length` must be greater than or equal to   `sequence_length`. Received: "
                             f"`sequence_length`={self.sequence_length}, `fft_length`={self.fft_length}.")
        self.window = window
        self.sampling_rate = sampling_rate
        self.num_mel_bins = num_mel_bins
        self.min_freq = min_freq
        self.max_freq = max_freq or int(sampling_rate / 2)
        self.power_to_db = power_to_db
        self.top_db = top_db
        self.mag_exp = mag_exp
        self.min_power = min_power
        self.ref_power = ref_power
        super().__init__(**kwargs)
        self.built = True

    def call(self, inputs):
        compute = self._dtype_policy.compute_dtype
        dtype = torch.float64 if compute == "float64" else torch.float32
        x = input_storage(inputs).to(dtype)
        spec = stft(x, self.sequence_length, self.sequence_stride, self.fft_length, self.window).abs()
        spec = torch.pow(spec, self.mag_exp)
        matrix = linear_to_mel_weight_matrix(self.num_mel_bins, spec.shape[-1], self.sampling_rate, self.min_freq,
                                             self.max_freq).to(dtype)
        out = torch.tensordot(spec, matrix, dims=1)
        if self.power_to_db:
            log_spec = 10.0 * torch.log10(torch.clamp(out, min=self.min_power))
            ref = max(abs(float(self.ref_power)), self.min_power)
            log_spec = log_spec - 10.0 * math.log10(ref)
            out = torch.maximum(log_spec, log_spec.max() - self.top_db)      # the whole batch's maximum, as Keras
        out = out.transpose(-1, -2)
        target = dtypes.as_dtype(compute).torch_dtype
        return _wrap(out.to(target) if out.dtype is not target else out.contiguous())

    def compute_output_shape(self, input_shape):
        frames = lambda n: None if n is None else (n + self.sequence_stride + 1) // self.sequence_stride  # noqa: E731
        if len(input_shape) == 1:
            return [self.num_mel_bins, frames(input_shape[0])]
        return [input_shape[0], self.num_mel_bins, frames(input_shape[1])]

    def get_config(self):
        config = super().get_config()
        config.update({
            "fft_length": self.fft_length, "sequence_stride": self.sequence_stride,
            "sequence_length": self.sequence_length, "window": self.window, "sampling_rate": self.sampling_rate,
            "num_mel_bins": self.num_mel_bins, "min_freq": self.min_freq, "max_freq": self.max_freq,
            "power_to_db": self.power_to_db, "top_db": self.top_db, "mag_exp": self.mag_exp,
            "min_power": self.min_power, "ref_power": self.ref_power,
        })
        return config


# scipy.signal.get_window's names (Keras builds STFTSpectrogram's kernels from them); those with a formula here
_SCIPY_WINDOWS = {"boxcar", "box", "ones", "rect", "rectangular", "triang", "triangle", "tri", "parzen", "parz", "par",
                  "bohman", "blackman", "black", "blk", "nuttall", "nutl", "nut", "blackmanharris", "blackharr",
                  "bkh", "flattop", "flat", "flt", "bartlett", "bart", "brt", "hann", "han", "hanning", "barthann",
                  "brthan", "bth", "hamming", "hamm", "ham", "cosine", "halfcosine", "exponential", "poisson",
                  "tukey", "tuk", "taylor", "taylorwin", "lanczos", "sinc"}
_COSINE_SUMS = {"hann": (0.5, 0.5), "han": (0.5, 0.5), "hanning": (0.5, 0.5), "hamming": (0.54, 0.46),
                "hamm": (0.54, 0.46), "ham": (0.54, 0.46), "blackman": (0.42, 0.50, 0.08),
                "black": (0.42, 0.50, 0.08), "blk": (0.42, 0.50, 0.08)}


def _symmetric_window(name, m):
    """scipy's symmetric window of `m` points (float64 NumPy), for the names with a formula here."""
    import numpy as np
    if m == 1:
        return np.ones(1)
    if name in _COSINE_SUMS:
        fac = np.linspace(-np.pi, np.pi, m)
        return sum(a * np.cos(k * fac) for k, a in enumerate(_COSINE_SUMS[name]))
    if name in ("boxcar", "box", "ones", "rect", "rectangular"):
        return np.ones(m)
    if name in ("bartlett", "bart", "brt"):
        n = np.arange(m)
        return np.where(n <= (m - 1) / 2.0, 2.0 * n / (m - 1), 2.0 - 2.0 * n / (m - 1))
    if name in ("triang", "triangle", "tri"):
        n = np.arange(1, (m + 1) // 2 + 1)
        if m % 2 == 0:
            w = (2 * n - 1.0) / m
            return np.concatenate([w, w[::-1]])
        w = 2 * n / (m + 1.0)
        return np.concatenate([w, w[-2::-1]])
    if name in ("cosine", "halfcosine"):
        return np.sin(np.pi / m * (np.arange(m) + 0.5))
    raise NotImplementedError(f"tfcompat: STFTSpectrogram(window={name!r}) is not supported (implemented: hann, "
                              "hamming, blackman, bartlett, boxcar, triang, cosine, an array or None)")


def _check_window_name(name):
    if name.lower() not in _SCIPY_WINDOWS:
        raise ValueError("Unknown window type.")


def _get_window(name, m, periodic):
    """scipy.signal.get_window(name, m, fftbins=periodic): a periodic window is the symmetric one of m + 1 points
    without its last."""
    name = name.lower()
    _check_window_name(name)
    return _symmetric_window(name, m + 1)[:-1] if periodic else _symmetric_window(name, m)


def _stft_kernel(side, window, scaling, periodic, frame_length, bins):
    """Keras's `initializers.STFT`: `(frame_length, 1, bins)` cos / sin DFT kernels, windowed and scaled."""
    dtype = torch.float32
    n_fft = (bins - 1) * 2
    freq = torch.arange(bins, dtype=dtype).reshape(1, 1, bins) / n_fft
    time = torch.arange(frame_length, dtype=dtype).reshape(frame_length, 1, 1)
    args = (-2 * time) * freq * torch.arccos(torch.tensor(-1.0, dtype=dtype))
    kernel = torch.cos(args) if side == "real" else torch.sin(args)
    if window is None:
        return kernel
    win = _get_window(window, frame_length, periodic) if isinstance(window, str) else window
    win = torch.as_tensor(__import__("numpy").asarray(win), dtype=dtype)
    if win.ndim != 1 or win.shape[-1] != frame_length:
        raise ValueError(f"The shape of `window` must be equal to [frame_length].Received: window shape="
                         f"{tuple(win.shape)}")
    win = win.reshape(frame_length, 1, 1)
    scale = 1
    if scaling == "density":
        scale = torch.sqrt(torch.sum(torch.square(win)))
    elif scaling == "spectrum":
        scale = torch.sum(torch.abs(win))
    return kernel * win / scale


@partial_api("string windows: hann, hamming, blackman, bartlett, boxcar, triang and cosine (scipy's other names raise "
             "NotImplementedError)")
class STFTSpectrogram(Layer):
    """Short-time Fourier transform of `(batch, time, channels)` signals as a convolution with DFT kernels
    (`real_kernel`, `imag_kernel`, as Keras), in `mode` log / magnitude / psd / real / imag / angle / stft."""

    def __init__(self, mode="log", frame_length=256, frame_step=None, fft_length=None, window="hann", periodic=False,
                 scaling="density", padding="valid", expand_dims=False, data_format=None, **kwargs):
        if frame_step is not None and (frame_step > frame_length or frame_step < 1):
            raise ValueError(f"`frame_step` should be a positive integer not greater than `frame_length`. Received "
                             f"frame_step={frame_step}, frame_length={frame_length}")
        if fft_length is not None and fft_length < frame_length:
            raise ValueError(f"`fft_length` should be not less than `frame_length`. Received fft_length={fft_length}, "
                             f"frame_length={frame_length}")
        if fft_length is not None and (fft_length & -fft_length) != fft_length:
            import warnings
            warnings.warn(f"`fft_length` is recommended to be a power of two. Received fft_length={fft_length}",
                          stacklevel=2)
        modes = ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]
        if mode not in modes:
            raise ValueError(f"Output mode is invalid, it must be one of {', '.join(modes)}. Received: mode={mode}")
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. Received "
                             f"scaling={scaling}")
        if padding not in ["valid", "same"]:
            raise ValueError(f"Padding is invalid, it should be 'valid', 'same'. Received: padding={padding}")
        if isinstance(window, str):
            _check_window_name(window.lower())
        super().__init__(**kwargs)
        from tfcompat.keras.layers.conv import _data_format
        from tfcompat.keras.layers.input_spec import InputSpec
        self.mode, self.frame_length, self.frame_step = mode, frame_length, frame_step
        self._frame_step = frame_step or frame_length // 2
        self.fft_length = fft_length
        self._fft_length = fft_length or 2 ** int(math.ceil(math.log2(frame_length)))
        self.window, self.periodic, self.scaling = window, periodic, scaling
        self.padding, self.expand_dims = padding, expand_dims
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        shape = (self.frame_length, 1, self._fft_length // 2 + 1)
        for side in ("real", "imag"):
            if self.mode != ("imag" if side == "real" else "real"):
                def init(shape, dtype=None, side=side):
                    k = _stft_kernel(side, self.window, self.scaling, self.periodic, shape[0], shape[-1])
                    return _wrap(k.to(dtypes.as_dtype(dtype or "float32").torch_dtype))
                setattr(self, f"{side}_kernel", self.add_weight(name=f"{side}_kernel", shape=shape, initializer=init))
        self.built = True

    def _conv(self, x, kernel):
        """`(batch, channels, bins, frames)`: each channel convolved alone with the `(frame_length, 1, bins)` kernel."""
        from tfcompat.ops import conv_ops
        if self.data_format == "channels_last":
            b, t, c = x.shape
            flat = x.transpose(1, 2).reshape(-1, t, 1)
        else:
            b, c, t = x.shape
            flat = x.reshape(-1, t, 1)
        y = conv_ops._conv(flat, kernel.to(x.dtype), 1, [self._frame_step], self.padding.upper(), [1], "NWC", "Conv2D")
        return y.transpose(1, 2).reshape(b, c, y.shape[-1], y.shape[1])

    def _adjust(self, y):
        b, c, f, t = y.shape
        if self.data_format == "channels_last":
            return y.permute(0, 3, 2, 1) if self.expand_dims else y.reshape(b, c * f, t).transpose(1, 2)
        return y.permute(0, 1, 3, 2) if self.expand_dims else y.reshape(b, c * f, t)

    def call(self, inputs):
        x = input_storage(inputs)
        if x.dtype not in (torch.float16, torch.float32, torch.float64):
            raise TypeError(f"Invalid input type. Expected `float16`, `float32` or `float64`. Received: input "
                            f"type={dtypes.FROM_STORAGE[x.dtype]}")
        re = self._conv(x, self.real_kernel._read()) if self.mode != "imag" else None
        im = self._conv(x, self.imag_kernel._read()) if self.mode != "real" else None
        if self.mode in ("real", "imag"):
            return _wrap(self._adjust(re if self.mode == "real" else im).contiguous())
        if self.mode == "angle":
            return _wrap(self._adjust(torch.atan2(im, re)).contiguous())
        if self.mode == "stft":
            return _wrap(self._adjust(torch.cat([re, im], dim=2)).contiguous())
        power = torch.square(re) + torch.square(im)
        if self.mode == "psd":
            inner = torch.nn.functional.pad(power[:, :, 1:-1, :], (0, 0, 1, 1))
            return _wrap(self._adjust(power + inner).contiguous())
        from tfcompat.keras import _config
        eps = _config.config.epsilon
        linear = self._adjust(torch.sqrt(torch.clamp(power, min=eps)))
        out = linear if self.mode == "magnitude" else torch.log(torch.clamp(linear, min=eps))
        return _wrap(out.contiguous())

    def compute_output_shape(self, input_shape):
        channels = input_shape[-1] if self.data_format == "channels_last" else input_shape[1]
        freq = (self._fft_length // 2 + 1) * (2 if self.mode == "stft" else 1)
        n = input_shape[1] if self.data_format == "channels_last" else input_shape[2]
        if n is None:
            frames = None
        elif self.padding == "same":
            frames = -(-n // self._frame_step)
        else:
            frames = (n - self.frame_length) // self._frame_step + 1
        batch = input_shape[0]
        if self.expand_dims:
            return (batch, frames, freq, channels) if self.data_format == "channels_last" else \
                (batch, channels, frames, freq)
        if self.data_format == "channels_last":
            return (batch, frames, None if channels is None else freq * channels)
        return (batch, None if channels is None else freq * channels, frames)

    def get_config(self):
        config = super().get_config()
        config.update({"mode": self.mode, "frame_length": self.frame_length, "frame_step": self.frame_step,
                       "fft_length": self.fft_length, "window": self.window, "periodic": self.periodic,
                       "scaling": self.scaling, "padding": self.padding, "data_format": self.data_format,
                       "expand_dims": self.expand_dims})
        return config
