"""File sources: `TextLineDataset`, `Dataset.list_files`, `tf.data.experimental.make_csv_dataset`."""
import collections
import csv
import glob
import gzip
import io as _io
import os
import zlib

import numpy as np

from tfcompat.data import structure as st
from tfcompat.data._common import AUTOTUNE, UNKNOWN, get_next_error, parallel_cycle_length, round_robin, to_int
from tfcompat.data.dataset import Dataset
from tfcompat.data.sources import TensorSliceDataset
from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.deprecation import warn_deprecated


def _names(value):
    """File names from a string, a list of strings or a string tensor."""
    if isinstance(value, Dataset):
        raise NotImplementedError("file names given as a dataset")
    if isinstance(value, Tensor):
        value = value._array().reshape(-1).tolist()
    elif isinstance(value, (str, bytes)):
        value = [value]
    return [v.decode() if isinstance(v, bytes) else str(v) for v in value]


def _open(path, compression):
    compression = (compression or "").upper()
    if compression in ("GZIP", "ZLIB") and not os.path.exists(path):
        raise get_next_error(errors.NotFoundError, f"{path}; No such file or directory")
    if compression == "GZIP":
        return gzip.open(path, "rb")
    if compression == "ZLIB":
        with open(path, "rb") as f:
            return _io.BytesIO(zlib.decompress(f.read()))
    if compression:
        raise errors.InvalidArgumentError(None, None, f"Unsupported compression type: {compression}")
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise get_next_error(errors.NotFoundError, f"{path}; No such file or directory") from None


def _string(value):
    a = np.empty((), dtype=object)
    a[()] = value
    return wrap(a)


def parallel_reads(num_parallel_reads):
    """A reader's `num_parallel_reads` as an int (None: files one after another), checked as TF does."""
    if num_parallel_reads is None:
        return None
    n = to_int(num_parallel_reads)
    if n <= 0 and n != AUTOTUNE:
        raise errors.op_error(errors.InvalidArgumentError, "{{function_node __wrapped__LegacyParallelInterleaveDataset"
                              "V2_Targuments_0_device_/job:localhost/replica:0/task:0/device:CPU:0}} `cycle_length` "
                              "must be > 0", "LegacyParallelInterleaveDatasetV2")
    return n


def read_files(files, read_one, num_parallel_reads):
    """The records `read_one(path)` yields for each of `files`, in TF's reader order: file after file, or with
    `num_parallel_reads` n a deterministic interleave of n files, one record from each in turn (AUTOTUNE: the cycle
    of an autotuned parallel `interleave`)."""
    if num_parallel_reads is None:
        return (record for path in files for record in read_one(path))
    cycle = parallel_cycle_length(AUTOTUNE) if num_parallel_reads == AUTOTUNE else num_parallel_reads
    return round_robin((read_one(path) for path in files), cycle)


@tf_export("data.TextLineDataset", partial="file names given as a dataset")
class TextLineDataset(Dataset):
    """The lines of text files, without their line endings (`\\n` or `\\r\\n`), as scalar strings."""

    _tf_name = "TextLineDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        self._files = _names(filenames)
        self._compression = compression_type
        self._parallel_reads = parallel_reads(num_parallel_reads)

    def _compute_spec(self):
        return st.TensorSpec(TensorShape(()), dtypes.string)

    def _card(self):
        return UNKNOWN

    def _elements(self):
        return read_files(self._files, self._lines, self._parallel_reads)

    def _lines(self, path):
        with _open(path, self._compression) as f:
            for line in f:
                if line.endswith(b"\n"):
                    line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
                yield _string(line)


def list_files(file_pattern, shuffle, seed):
    patterns = _names(file_pattern)
    files = sorted({f for p in patterns for f in glob.glob(p)})
    if not files:
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            f"b'No files matched pattern: {', '.join(patterns)}'")
    ds = TensorSliceDataset(np.array(files, dtype=object))
    if shuffle is None or shuffle:
        ds = ds.shuffle(len(files), seed=seed)
    return ds


def _infer_dtype(values, na_value):
    """TF's CSV column type inference: int32, int64, float32, else string."""
    kinds = []
    for v in values:
        if v == na_value or v == "":
            continue
        try:
            i = int(v)
            kinds.append("int32" if -2 ** 31 <= i < 2 ** 31 else "int64")
            continue
        except ValueError:
            pass
        try:
            float(v)
            kinds.append("float32")
        except ValueError:
            return dtypes.string
    for k in ("float32", "int64", "int32"):
        if k in kinds:
            return dtypes.as_dtype(k)
    return dtypes.string


def _parse(value, dtype, default):
    if value == "" or value is None:
        return default
    if dtype == dtypes.string:
        return value.encode()
    return float(value) if dtype.is_floating else int(value)


def warn_ignore_errors():
    """TF's deprecation warning of `tf.data.experimental.ignore_errors` (logged once per process)."""
    warn_deprecated("ignore_errors", "tensorflow.python.data.experimental.ops.error_ops",
                    "Use `tf.data.Dataset.ignore_errors` instead.")


@tf_export("data.experimental.make_csv_dataset", partial="ignore_errors=True raises on a malformed row instead of "
           "skipping it")
def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """Batches of `(OrderedDict of feature columns, label)` read from CSV files (types inferred as TF does)."""
    if ignore_errors:
        warn_ignore_errors()        # TF applies the deprecated tf.data.experimental.ignore_errors()
    files = sorted({f for p in _names(file_pattern) for f in glob.glob(p)})
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    per_file, names = [], None
    for path in files:
        with _open(path, compression_type) as f:
            text = f.read().decode(encoding)
        reader = csv.reader(_io.StringIO(text), delimiter=field_delim,
                            quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)
        lines = [r for r in reader if r]
        if header:
            names = names or lines[0]
            lines = lines[1:]
        per_file.append(lines)
    reads = 1 if num_parallel_reads is None else to_int(num_parallel_reads)   # TF interleaves the files' rows
    cycle = parallel_cycle_length(AUTOTUNE) if reads == AUTOTUNE else reads
    rows = list(round_robin((iter(lines) for lines in per_file), cycle))
    names = list(column_names) if column_names is not None else names
    if names is None:
        raise ValueError("Expected `column_names` or `header` to be set.")
    selected = list(select_columns) if select_columns is not None else names
    if label_name is not None and label_name not in selected:
        raise ValueError(f"`label_name` provided must be one of the columns: {selected}. Received: {label_name}.")
    index = {n: i for i, n in enumerate(names)}
    if column_defaults is not None and len(column_defaults) != len(selected):
        raise ValueError("If specified, column_defaults and select_columns must have same length.")
    columns = collections.OrderedDict()
    for c, name in enumerate(selected):
        values = [r[index[name]] for r in rows]
        if column_defaults is None:
            dtype = _infer_dtype(values[:num_rows_for_inference], na_value)
            default = b"" if dtype == dtypes.string else 0
            data = [_parse(None if v == na_value else v, dtype, default) for v in values]
        else:
            from tfcompat.data.csv_dataset import column_types, parse_field
            (dtype, default), = column_types([column_defaults[c]])
            data = [parse_field("" if v == na_value else v, dtype, default, c)[()] for v in values]
        columns[name] = np.array(data, dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)
    label = columns.pop(label_name) if label_name is not None else None
    ds = Dataset.from_tensor_slices((columns, label) if label is not None else columns)
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    return ds.batch(batch_size).prefetch(-1 if prefetch_buffer_size is None else prefetch_buffer_size)
