"""`tf.signal.linear_to_mel_weight_matrix`: HTK-mel triangular filters over linear-frequency spectrogram bins."""
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.context import current_device
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.ops.signal_ops._common import float_dtype, storage_of


def _hertz_to_mel(hz):
    return 1127.0 * torch.log(1.0 + hz / 700.0)


def _linspace(start, stop, num):
    """TF's linspace: start + i*(stop - start)/(num - 1), the last value exactly `stop`."""
    if num == 1:
        return start.reshape(1)
    step = (stop - start) / (num - 1)
    return torch.cat([start + step * torch.arange(num - 1, dtype=start.dtype, device=start.device), stop.reshape(1)])


def _validate(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtype):
    """TF's argument checks (a tensor sample_rate skips the ones that need its value)."""
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz {upper_edge_hertz:.1f}")
    if not isinstance(sample_rate, Tensor):
        if sample_rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). "
                             f"Got {upper_edge_hertz} for sample_rate: {sample_rate}")
    float_dtype(dtype, "Got:")


@tf_export("signal.linear_to_mel_weight_matrix")
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000, lower_edge_hertz=125.0,
                                upper_edge_hertz=3800.0, dtype=dtypes.float32, name=None):
    """[num_spectrogram_bins, num_mel_bins] weights mapping linear bins (0 to Nyquist) to mel bands; the DC row is 0."""
    _validate(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz, dtypes.as_dtype(dtype))
    td = dtypes.as_dtype(dtype).torch_dtype
    dev = current_device()
    rate = storage_of(sample_rate).to(dev, td)
    zero = torch.zeros((), dtype=td, device=dev)
    linear = _linspace(zero, rate / 2.0, int(num_spectrogram_bins))[1:]
    bins_mel = _hertz_to_mel(linear)[:, None]
    lower = torch.tensor(float(lower_edge_hertz), dtype=td, device=dev)
    upper = torch.tensor(float(upper_edge_hertz), dtype=td, device=dev)
    edges = _linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2)
    low, center, high = edges[:-2][None, :], edges[1:-1][None, :], edges[2:][None, :]
    lower_slopes = (bins_mel - low) / (center - low)
    upper_slopes = (high - bins_mel) / (high - center)
    weights = torch.maximum(zero, torch.minimum(lower_slopes, upper_slopes))
    return wrap(torch.nn.functional.pad(weights, (0, 0, 1, 0)))
