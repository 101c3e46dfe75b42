"""Export and import of a checkpoint's tensors as `.safetensors` (tfcompat addition, for the torch ecosystem).

Tensors keep their checkpoint keys. String tensors and the object graph, which safetensors cannot hold,
travel in the file's metadata (base64), so `safetensors_to_checkpoint` rebuilds a checkpoint that
`tf.train.Checkpoint.restore` (and real TF) can read.
"""
import base64
import json
import os

import numpy as np

from tfcompat.framework import dtypes, errors
from tfcompat.train import _bundle
from tfcompat.train.checkpoint import OBJECT_GRAPH_KEY, open_reader
from tfcompat.util import atomic_file

_STRINGS = "tfcompat.string_tensors"


def checkpoint_to_safetensors(prefix, out_path):
    """Writes every tensor of the checkpoint at `prefix` to the safetensors file `out_path`; returns out_path."""
    from safetensors.torch import save
    reader = open_reader(os.fspath(prefix))
    tensors, strings = {}, {}
    for key in reader.entries:
        value = reader.read(key)
        if reader.dtype(key) is dtypes.string:
            strings[key] = {"shape": list(value.shape),
                            "values": [base64.b64encode(v).decode("ascii") for v in value.reshape(-1)]}
        elif value.is_complex():
            raise NotImplementedError(f"safetensors has no complex dtype (tensor {key})")
        else:
            tensors[key] = value.contiguous()
    out_path = os.fspath(out_path)
    atomic_file.write_bytes(out_path, [save(tensors, metadata={_STRINGS: json.dumps(strings)})])
    return out_path


def safetensors_to_checkpoint(path, prefix):
    """Writes the tensors of a safetensors file (as made by `checkpoint_to_safetensors`) as a checkpoint at `prefix`."""
    from safetensors import safe_open
    path, prefix = os.fspath(path), os.fspath(prefix)
    try:
        with safe_open(path, framework="pt") as f:
            metadata = f.metadata() or {}
            tensors = {k: f.get_tensor(k) for k in f.keys()}
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path} not found") from None
    except Exception as e:  # noqa: BLE001 - safetensors raises its own error types for corrupt files
        raise errors.DataLossError(None, None, f"cannot read safetensors file {path}: {e}") from None
    out = {k: (dtypes.FROM_STORAGE[t.dtype], tuple(t.shape), t) for k, t in tensors.items()}
    try:
        strings = json.loads(metadata.get(_STRINGS, "{}"))
        for key, item in strings.items():
            values = np.empty(len(item["values"]), dtype=object)
            values[:] = [base64.b64decode(v) for v in item["values"]]
            out[key] = (dtypes.string, tuple(item["shape"]), values.reshape(item["shape"]))
    except (ValueError, KeyError, TypeError) as e:
        raise errors.DataLossError(None, None, f"corrupt string tensors in the metadata of {path}: {e}") from None
    if OBJECT_GRAPH_KEY not in out:
        raise errors.InvalidArgumentError(None, None, f"{path} holds no {OBJECT_GRAPH_KEY}; it was not exported from a "
                                                      "checkpoint")
    _bundle.write_bundle(prefix, out)
    return prefix
