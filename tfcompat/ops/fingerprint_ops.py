"""`tf.fingerprint`: TF's Fingerprint op (FarmHash Fingerprint64 of each row's bytes, 8 little-endian uint8s)."""
import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.tensor import device_name
from tfcompat.util import farmhash


def _fail(msg, t):
    device = t.device if type(t) is torch.Tensor else torch.device("cpu")
    return errors.kernel_error(errors.InvalidArgumentError, msg, "Fingerprint", device_name(device), name=None)


def _row_bytes(t):
    """The rows of `t` (first dim) as the bytes of their elements in memory order."""
    a = t.cpu().numpy() if t.dtype is not torch.bfloat16 else t.cpu().view(torch.int16).numpy()
    a = np.ascontiguousarray(a.reshape(a.shape[0], int(np.prod(a.shape[1:], dtype=np.int64))))
    return [a[i].tobytes() for i in range(a.shape[0])]


@tf_export("fingerprint")
def fingerprint(data, method="farmhash64", name=None):
    """`[batch, 8]` uint8 fingerprints of the rows of `data`.

    Numeric rows hash their raw element bytes; a row of one string hashes the string; a row of several strings hashes
    the concatenated 8-byte fingerprints of its strings, as TF's kernel does.
    """
    t = input_storage(data)
    if method != "farmhash64":
        raise _fail(f"Unsupported fingerprint method: {method}", t)
    shape = list(t.shape)
    if not shape:
        raise _fail("`data` should have at least one dimension: []", t)
    if isinstance(t, np.ndarray):           # tf.string
        rows = t.reshape(shape[0], int(np.prod(shape[1:], dtype=np.int64)))
        if rows.shape[1] == 1:
            fps = [farmhash.fingerprint64(bytes(s)) for s in rows[:, 0]]
        else:
            fps = [farmhash.fingerprint64(b"".join(farmhash.fingerprint64(bytes(s)).to_bytes(8, "little")
                                                   for s in row)) for row in rows]
    else:
        fps = [farmhash.fingerprint64(b) for b in _row_bytes(t)]
    out = np.frombuffer(b"".join(f.to_bytes(8, "little") for f in fps), dtype=np.uint8).reshape(len(fps), 8)
    return wrap(torch.from_numpy(out.copy()).to(t.device if type(t) is torch.Tensor else "cpu"))
