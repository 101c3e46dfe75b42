"""`tf.data.experimental.CsvDataset`: the records of CSV files as tuples of scalars typed by `record_defaults`."""
import csv
import io as _io

import numpy as np
import torch

from tfcompat.data import structure as st
from tfcompat.data._common import UNKNOWN
from tfcompat.data.dataset import Dataset
from tfcompat.data.readers import _names, _open
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape

CSV_DTYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def column_types(record_defaults):
    """[(dtype, default or None when the field is required)] of TF's `record_defaults` (dtypes or values)."""
    out = []
    for d in record_defaults:
        if isinstance(d, dtypes.DType) or (isinstance(d, type) and d in (str, int, float)):
            dt, default = dtypes.as_dtype(d), None
        else:
            t = d if isinstance(d, Tensor) else convert_to_tensor(d)
            dt = t.dtype
            default = None if t.shape.num_elements() == 0 else t._array().reshape(-1)[0]
        if dt not in CSV_DTYPES:
            raise TypeError(f"Unsupported type for CSV column: {dt.name}; use one of float32, float64, int32, int64, "
                            "string")
        out.append((dt, default))
    return out


def parse_field(text, dtype, default, index):
    """One CSV field as a scalar storage of `dtype` (the default when empty; TF's error when required)."""
    if text == "":
        if default is None:
            raise errors.op_error(errors.InvalidArgumentError, f"Field {index} is required but missing in record!",
                                  "IteratorGetNext")
        value = default
    elif dtype == dtypes.string:
        value = text.encode()
    else:
        try:
            value = float(text) if dtype.is_floating else int(text)
        except ValueError:
            raise errors.op_error(errors.InvalidArgumentError, f"Field {index} in record is not a valid "
                                  f"{dtype.name}: {text}", "IteratorGetNext") from None
    if dtype == dtypes.string:
        a = np.empty((), dtype=object)
        a[()] = value if isinstance(value, bytes) else str(value).encode()
        return a
    return torch.tensor(value, dtype=dtype.torch_dtype)


@tf_export("data.experimental.CsvDataset", unsupported=("buffer_size",))
class CsvDataset(Dataset):
    """Each record of the CSV files as a tuple of scalars, one per selected column, typed by `record_defaults`."""

    _tf_name = "CsvDatasetV2"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None, name=None):
        if select_cols is not None and exclude_cols is not None:
            raise ValueError("Either select_cols or exclude_cols should be empty")
        self._files = _names(filenames)
        self._types = column_types(record_defaults)
        self._compression, self._header, self._delim = compression_type, header, field_delim
        self._quote, self._na = use_quote_delim, na_value
        self._select = None if select_cols is None else [int(c) for c in select_cols]
        self._exclude = None if exclude_cols is None else {int(c) for c in exclude_cols}

    def _compute_spec(self):
        return tuple(st.TensorSpec(TensorShape(()), dt) for dt, _ in self._types)

    def _card(self):
        return UNKNOWN

    def _columns(self, fields):
        if self._select is not None:
            return [fields[c] if c < len(fields) else "" for c in self._select]
        if self._exclude is not None:
            return [f for i, f in enumerate(fields) if i not in self._exclude]
        return fields

    def _elements(self):
        for path in self._files:
            with _open(path, self._compression) as f:
                text = f.read().decode("utf-8")
            reader = csv.reader(_io.StringIO(text), delimiter=self._delim,
                                quoting=csv.QUOTE_MINIMAL if self._quote else csv.QUOTE_NONE)
            lines = [r for r in reader if r]
            for fields in lines[1:] if self._header else lines:
                fields = self._columns(fields)
                if len(fields) != len(self._types):
                    raise errors.op_error(errors.InvalidArgumentError, f"Expect {len(self._types)} fields but have "
                                          f"{len(fields)} in record", "IteratorGetNext")
                yield tuple(wrap(parse_field("" if v == self._na else v, dt, d, i))
                            for i, (v, (dt, d)) in enumerate(zip(fields, self._types)))
