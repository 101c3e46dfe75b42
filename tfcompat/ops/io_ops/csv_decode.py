"""`tf.io.decode_csv`: CSV records split and parsed with TF's quoting rules, number syntax and messages."""
import re

import numpy as np

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.ops.io_ops._common import c_name, kernel_error, np_array, wrap_np
from tfcompat.ops.string_ops import _strings

_CSV_TYPES = ("float32", "float64", "int32", "int64", "string")


@tf_export("io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """Splits CSV lines into one tensor per column; an empty (or `na_value`) field takes the column default."""
    arr = _strings(records, "DecodeCSV")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    defaults = [d if isinstance(d, Tensor) else wrap(to_storage(d)) for d in record_defaults]
    for d in defaults:
        if d.dtype.name not in _CSV_TYPES:
            raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'OUT_TYPE' of {d.dtype.name} is not "
                                  "in the list of allowed values: float, double, int32, int64, string", "DecodeCSV",
                                  None)
    fn = f"DecodeCSV_OUT_TYPE_{len(defaults)}"
    cols = list(select_cols) if select_cols is not None else list(range(len(defaults)))
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    out = [[] for _ in defaults]
    for r, line in enumerate(arr.reshape(-1)):
        try:
            fields = _csv_split(line, delim, use_quote_delim)
        except ValueError as e:
            raise kernel_error(errors.InvalidArgumentError, str(e), "DecodeCSV", fn) from None
        if select_cols is None and len(fields) != len(defaults):
            raise kernel_error(errors.InvalidArgumentError, f"Expect {len(defaults)} fields but have {len(fields)} "
                                f"in record {r}", "DecodeCSV", fn)
        for j, (c, d) in enumerate(zip(cols, defaults)):
            field = fields[c] if c < len(fields) else b""
            out[j].append(_csv_field(field, d, na, j, r, fn))
    with np.errstate(over="ignore"):      # 1e39 in a float column is inf, as TF's strtof gives
        return [wrap_np(np_array(values, d.dtype).reshape(arr.shape), d.dtype) for values, d in zip(out, defaults)]


def _csv_split(line, delim, quotes):
    """The fields of one CSV record (bytes, any encoding), with TF's rules: a field may start after line breaks;
    a quoted field ends with a quote then the delimiter or the end, `""` inside it is a quote; an unquoted field
    holds no quote or line break. Raises ValueError with TF's message."""
    fields, i, n, d = [], 0, len(line), delim[0]
    while i < n:
        if line[i] in b"\r\n":
            i += 1
            continue
        if not (quotes and line[i] == 34):
            j = i
            while j < n and line[j] != d:
                if (quotes and line[j] == 34) or line[j] in b"\r\n":
                    raise ValueError("Unquoted fields cannot have quotes/CRLFs inside")
                j += 1
            fields.append(line[i:j])
            i = j + 1
            continue
        i += 1
        field = bytearray()
        while i < n - 1 and not (line[i] == 34 and line[i + 1] == d):
            if line[i] != 34:
                field.append(line[i])
                i += 1
            elif line[i + 1] == 34:
                field.append(34)
                i += 2
            else:
                raise ValueError("Quote inside a string has to be escaped by another quote")
        if not (i < n and line[i] == 34 and (i == n - 1 or line[i + 1] == d)):
            raise ValueError("Quoted field has to end with quote followed by delim or end")
        fields.append(bytes(field))
        i += 2
    if line and line[-1] == d:
        fields.append(b"")
    return fields


_CSV_INT = re.compile(rb"\s*[+-]?\d+\s*")
_CSV_FLOAT = re.compile(rb"\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|infinity|nan)\s*", re.I)
_CSV_HEX = re.compile(rb"\s*[+-]?0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(p[+-]?\d+)?\s*", re.I)


def _csv_number(field, dt):
    """A CSV number as TF's strto* parse it (hex floats, inf/nan, surrounding spaces), or None."""
    if dt.is_integer:
        if not _CSV_INT.fullmatch(field):
            return None
        v = int(field)
        bits = 31 if dt == dtypes.int32 else 63
        return v if -(1 << bits) <= v < 1 << bits else None
    if _CSV_FLOAT.fullmatch(field):
        v = float(field)
    elif _CSV_HEX.fullmatch(field):
        text = field.strip().decode()
        v = float.fromhex(text if "p" in text.lower() else text + "p0")
    else:
        return None
    return v


def _csv_field(field, default, na_value, col, row, fn):
    dt = default.dtype
    if field == b"" or field == na_value:
        if default.shape.num_elements() == 0:
            raise kernel_error(errors.InvalidArgumentError, f"Field {col} is required but missing in record {row}!",
                                "DecodeCSV", fn)
        return default._array().reshape(-1)[0]
    if dt == dtypes.string:
        return field
    v = _csv_number(field, dt)
    if v is None:
        text = field.split(b"\0")[0].decode("utf-8", "backslashreplace")
        raise kernel_error(errors.InvalidArgumentError, f"Field {col} in record {row} is not a valid "
                            f"{c_name(dt)}: {text}", "DecodeCSV", fn)
    return v

