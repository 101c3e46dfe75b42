"""Keras 3's audio preprocessing layer `MelSpectrogram` (Keras on TF: a centered STFT with reflect padding, a
power spectrogram, Keras's mel filter bank and a decibel scale clipped `top_db` below the batch's maximum)."""
import math

import torch

from tfcompat.framework import dtypes
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
