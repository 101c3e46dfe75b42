"""`tf.signal`, one module per job: `fft` (FFT family and shifts), `windows`, `framing` (frame, overlap_and_add),
`dct` (DCT, MFCCs), `mel` (mel filterbank) and `spectral` (STFT, MDCT), over torch's FFT kernels."""
from tfcompat.ops.signal_ops import fft  # noqa: F401
from tfcompat.ops.signal_ops import windows  # noqa: F401
from tfcompat.ops.signal_ops import framing  # noqa: F401
from tfcompat.ops.signal_ops import dct  # noqa: F401
from tfcompat.ops.signal_ops import mel  # noqa: F401
from tfcompat.ops.signal_ops import spectral  # noqa: F401
