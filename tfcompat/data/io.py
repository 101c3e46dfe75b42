"""`Dataset.save` / `Dataset.load` in tfcompat's format: a directory of NumPy `.npy` files and a JSON spec.

Layout of `path/`:
- `dataset_spec.json`: `{"format": "tfcompat.data/1", "num_elements": N, "spec": S}` where `S` is the
  element structure: `{"tuple": [S, ...]}`, `{"dict": [[key, S], ...]}` or a leaf
  `{"shape": [d or null, ...] or null, "dtype": "float32"}`.
- for leaf `i` (in `tf.nest` flatten order): `component_i.shapes.npy` (int64 `[N, rank]`, each element's
  shape) and `component_i.values.npy` (the elements' values flattened and concatenated, 1-D). String
  leaves store UTF-8/bytes values as `component_i.values.npy` (uint8, concatenated) plus
  `component_i.lengths.npy` (int64, one length per string). No pickle is used.
"""
import json
import os

import numpy as np

from tfcompat.data import structure as st
from tfcompat.data.dataset import Dataset
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.tensor import wrap
from tfcompat.framework.tensor_shape import TensorShape

SPEC_FILE = "dataset_spec.json"
FORMAT = "tfcompat.data/1"


def exists(path):
    return os.path.exists(os.path.join(path, SPEC_FILE))


def _spec_to_json(spec):
    if isinstance(spec, dict):
        return {"dict": [[k, _spec_to_json(spec[k])] for k in spec]}
    if isinstance(spec, tuple):
        return {"tuple": [_spec_to_json(s) for s in spec]}
    if isinstance(spec, st.DatasetSpec):
        raise NotImplementedError("saving dataset-valued elements")
    return {"shape": None if spec.shape.rank is None else spec.shape.as_list(), "dtype": spec.dtype.name}


def _spec_from_json(obj):
    if "dict" in obj:
        return {k: _spec_from_json(v) for k, v in obj["dict"]}
    if "tuple" in obj:
        return tuple(_spec_from_json(v) for v in obj["tuple"])
    return st.TensorSpec(TensorShape(obj["shape"]), dtypes.as_dtype(obj["dtype"]))


def save(dataset, path):
    spec = dataset.element_spec
    flat_spec = st.flatten(spec)
    columns = [[] for _ in flat_spec]
    count = 0
    for element in dataset._elements():
        for col, t in zip(columns, st.flatten(element)):
            col.append(t._array())
        count += 1
    os.makedirs(path, exist_ok=True)
    for i, (s, col) in enumerate(zip(flat_spec, columns)):
        shapes = np.array([a.shape for a in col], dtype=np.int64).reshape(count, -1)
        np.save(os.path.join(path, f"component_{i}.shapes.npy"), shapes)
        if s.dtype == dtypes.string:
            items = [b for a in col for b in a.reshape(-1)]
            lengths = np.array([len(b) for b in items], dtype=np.int64)
            values = np.frombuffer(b"".join(items), dtype=np.uint8)
            np.save(os.path.join(path, f"component_{i}.lengths.npy"), lengths)
        else:
            values = np.concatenate([a.reshape(-1) for a in col]) if col else np.empty(0, s.dtype.as_numpy_dtype)
        np.save(os.path.join(path, f"component_{i}.values.npy"), values, allow_pickle=False)
    with open(os.path.join(path, SPEC_FILE), "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "num_elements": count, "spec": _spec_to_json(spec)}, f)


def load(path, element_spec=None):
    spec_path = os.path.join(path, SPEC_FILE)
    if not os.path.exists(spec_path):
        raise errors.NotFoundError(None, None, f"tf.data snapshot element_spec file not found: {spec_path}.")
    with open(spec_path, encoding="utf-8") as f:
        meta = json.load(f)
    if meta.get("format") != FORMAT:
        raise errors.InvalidArgumentError(None, None, f"{spec_path} is not a {FORMAT} dataset spec.")
    return _LoadDataset(path, meta, element_spec if element_spec is not None else _spec_from_json(meta["spec"]))


class _LoadDataset(Dataset):
    _tf_name = "_LoadDataset"

    def __init__(self, path, meta, spec):
        self._path, self._n, self._spec = path, meta["num_elements"], spec

    def _card(self):
        return self._n

    def _column(self, i, s):
        def read(name):
            return np.load(os.path.join(self._path, f"component_{i}.{name}.npy"), allow_pickle=False)
        shapes, values = read("shapes"), read("values")
        if s.dtype == dtypes.string:
            ends = np.cumsum(read("lengths"))
            raw = values.tobytes()
            values = np.empty(len(ends), dtype=object)
            values[:] = [raw[a:b] for a, b in zip(np.concatenate([[0], ends[:-1]]), ends)]
        else:
            values = to_storage(values, s.dtype)
        sizes = [int(np.prod(sh)) for sh in shapes]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return [values[int(a):int(b)].reshape(tuple(sh)) for a, b, sh in zip(offsets[:-1], offsets[1:], shapes)]

    def _elements(self):
        flat_spec = st.flatten(self._spec)
        columns = [self._column(i, s) for i, s in enumerate(flat_spec)]
        for parts in zip(*columns) if columns else ():
            yield st.pack(self._spec, [wrap(p) for p in parts])

