"""`tf.io.decode_json_example`: `tf.train.Example`s in protobuf's JSON mapping to their binary encoding, written as
TF's JSON-to-binary converter writes them (fields in JSON order, repeated values unpacked)."""
import base64
import binascii
import json
import math
import re
import struct

import numpy as np

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import wrap
from tfcompat.ops.io_ops._common import kernel_error
from tfcompat.ops.string_ops import _strings
from tfcompat.util.proto_wire import length_delimited, varint

_OP = "DecodeJSONExample"
_TYPE = "type.googleapis.com/tensorflow.Example"
_FLT_MAX = float(np.finfo(np.float32).max)
_INT = re.compile(r"-?\d+")
_LISTS = {"bytesList": "bytes_list", "floatList": "float_list", "int64List": "int64_list"}
_LIST_FIELD = {"bytes_list": 1, "float_list": 2, "int64_list": 3}


class _Bad(Exception):
    def __init__(self, path, detail):
        super().__init__(f" @ {path}: {detail}" if path else f": {detail}")




def _object(value, path, allowed):
    if not isinstance(value, dict):
        raise _Bad(path, "expected '{'")
    for key in value:
        if key not in allowed:
            raise _Bad(path, f"no such field: '{key}'")
    return value


def _int64(v, path):
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise _Bad(path, "int64, expected integer")
    if isinstance(v, float):
        if v != int(v):
            raise _Bad(path, "int64, expected integer, but JSON number had fractional part")
        v = int(v)
    elif isinstance(v, str):
        if not _INT.fullmatch(v):
            raise _Bad(path, "int64, invalid integer")
        v = int(v)
    if not -2 ** 63 <= v < 2 ** 63:
        raise _Bad(path, "int64, JSON number out of range for int")
    return varint(1 << 3 | 0) + varint(v)


def _float(v, path):
    if isinstance(v, str):
        special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
        if v in special:
            v = special[v]
        else:
            try:
                v = float(v)
            except ValueError:
                raise _Bad(path, "float, invalid number") from None
    elif isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Bad(path, "float, expected number")
    if math.isfinite(v) and abs(v) > _FLT_MAX:
        raise _Bad(path, "float, float out of range")
    return varint(1 << 3 | 5) + struct.pack("<f", v)


def _bytes(v, path):
    if not isinstance(v, str):
        raise _Bad(path, "bytes, expected string")
    s = v.replace("-", "+").replace("_", "/")
    try:
        data = base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise _Bad(path, "bytes, corrupt base64") from None
    return length_delimited(1, data)


def _feature(value, path):
    out, seen = b"", None
    for key, body in _object(value, path, set(_LISTS) | set(_LISTS.values())).items():
        kind = _LISTS.get(key, key)
        if body is None:
            continue
        if seen is not None:
            raise _Bad(f"{path}.{key}", f"'{key}' has already been set (either directly or as part of a oneof)")
        seen = kind
        lst = _object(body, f"{path}.{key}", {"value"})
        items = lst.get("value")
        if items is not None and not isinstance(items, list):
            raise _Bad(f"{path}.{key}.value", "expected '['")
        enc = {"bytes_list": _bytes, "float_list": _float, "int64_list": _int64}[kind]
        payload = b"".join(enc(v, f"{path}.{key}.value[{i}]") for i, v in enumerate(items or []))
        out += length_delimited(_LIST_FIELD[kind], payload)
    return out


def _example(text):
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates)
    except ValueError as e:
        raise _Bad("", f"invalid JSON ({e})") from None
    if doc is None:
        return b""
    out = b""
    features = _object(doc, "", {"features"}).get("features")
    if features is None:
        return out
    body = b""
    fmap = _object(features, "features", {"feature"}).get("feature")
    if fmap is not None:
        for i, (name, feat) in enumerate(_object(fmap, "features.feature", set(fmap)).items()):
            value = b"" if feat is None else _feature(feat, f"features.feature[{i}]")
            body += length_delimited(1, length_delimited(1, name.encode("utf-8")) + length_delimited(2, value))
    return out + length_delimited(1, body)


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key '{k}'")
        out[k] = v
    return out


@tf_export("io.decode_json_example")
def decode_json_example(json_examples, name=None):
    """Each JSON-encoded `tf.train.Example` (protobuf's JSON mapping) as its binary serialization."""
    arr = _strings(json_examples, _OP)
    out = np.empty(arr.shape, dtype=object)
    flat = out.reshape(-1)
    for i, s in enumerate(arr.reshape(-1)):
        try:
            flat[i] = _example(s.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise kernel_error(errors.InvalidArgumentError, f"Error while parsing JSON: invalid JSON in {_TYPE}: {e}",
                               _OP) from None
        except _Bad as e:
            raise kernel_error(errors.InvalidArgumentError, f"Error while parsing JSON: invalid JSON in {_TYPE}{e}",
                               _OP) from None
    return wrap(out)
