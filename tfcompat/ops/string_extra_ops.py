"""More of `tf.strings`: `to_hash_bucket` (TF's own Hash64), `unsorted_segment_join`, and the Unicode decoders that
also give each character's byte offset (`unicode_decode_with_offsets`, `unicode_split_with_offsets`)."""
import codecs

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops import string_ops
from tfcompat.util import tf_hash


@tf_export("strings.to_hash_bucket")
def to_hash_bucket(string_tensor, num_buckets, name=None):
    """TF's Hash64 of each string, modulo `num_buckets` (int64); the legacy hash (`to_hash_bucket_fast` is
    Fingerprint64)."""
    if isinstance(string_tensor, RaggedTensor):
        return string_tensor.with_flat_values(to_hash_bucket(string_tensor.flat_values, num_buckets))
    op = "StringToHashBucket"
    return string_ops._buckets(string_ops._strings(string_tensor, op), num_buckets, op,
                               "signature=string_tensor:string -> output:int64; attr=num_buckets:int,min=1",
                               tf_hash.hash64)


_SEGMENT_OP_DEF = ("Op<name=UnsortedSegmentJoin; signature=inputs:string, segment_ids:Tindices, "
                   "num_segments:Tnumsegments -> output:string; attr=separator:string,default=\"\"; "
                   "attr=Tindices:type,allowed=[DT_INT32, DT_INT64]; attr=Tnumsegments:type,default=DT_INT32,"
                   "allowed=[DT_INT32, DT_INT64]>")


def _index_input(x, attr):
    t = convert_to_tensor(x)
    if t.dtype.name not in ("int32", "int64"):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr '{attr}' of {_c(t.dtype)} is not in the list of allowed values: int32, int64\n\t; NodeDef: "
                              f"{{{{node UnsortedSegmentJoin}}}}; {_SEGMENT_OP_DEF}", "UnsortedSegmentJoin", None)
    return storage(t)


def _c(dtype):
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


@tf_export("strings.unsorted_segment_join")
def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """Joins the strings of `inputs` by segment (`segment_ids` a prefix of its shape), in index order, with
    `separator`; the result has `num_segments` rows (empty strings for empty segments)."""
    op = "UnsortedSegmentJoin"
    arr = string_ops._strings(inputs, op)
    ids = _index_input(segment_ids, "Tindices")
    n = _index_input(num_segments, "Tnumsegments")

    def fail(cls, msg):
        return errors.kernel_error(cls, msg, op, name=None)
    if ids.ndim == 0:
        raise fail(errors.InvalidArgumentError, "Segment_id cannot have rank 0")
    if ids.ndim > arr.ndim:
        raise fail(errors.OutOfRangeError, f"Invalid segment_id rank {ids.ndim} for input with {arr.ndim} "
                                           "dimension(s)")
    for i in range(ids.ndim):
        if ids.shape[i] != arr.shape[i]:
            raise fail(errors.InvalidArgumentError, f"Segment dimension is {ids.shape[i]} while input dimension is "
                                                    f"{arr.ndim} in rank {i}")
    if n.ndim != 0:
        raise fail(errors.InvalidArgumentError, "Number of segments must be a scalar")
    count = int(n)
    if count < 0:
        raise fail(errors.InvalidArgumentError, f"Number of segments must be non-negative but got {count}")
    flat_ids = ids.reshape(-1).tolist()
    if any(not 0 <= i < count for i in flat_ids):
        raise fail(errors.InvalidArgumentError,
                   "segment_ids are not allowed to exceed num_segments or to have negative values.")
    inner = arr.shape[ids.ndim:]
    sep = separator.encode() if isinstance(separator, str) else bytes(separator)
    width = int(np.prod(inner)) if inner else 1
    rows = arr.reshape(len(flat_ids), width)
    parts = [[[] for _ in range(width)] for _ in range(count)]
    for seg, row in zip(flat_ids, rows):
        for j, s in enumerate(row.tolist()):
            parts[seg][j].append(s)
    out = np.empty(count * width, dtype=object)
    out[:] = [sep.join(p) for seg in parts for p in seg] if count * width else []
    return wrap(out.reshape((count,) + inner))


# -- Unicode decoding with byte offsets ------------------------------------------------------------------------------
_SPAN = "tfcompat.malformed_span"
# a malformed subsequence decodes to a lone high surrogate followed by a lone low one carrying its byte length: no
# successful decode yields either
codecs.register_error(_SPAN, lambda e: ("\ud800" + chr(0xDC00 + (e.end - e.start)), e.end))
_OP = "UnicodeDecodeWithOffsets"
_OP_DEF = ("Op<name=UnicodeDecodeWithOffsets; signature=input:string -> row_splits:Tsplits, char_values:int32, "
           "char_to_byte_starts:int64; attr=input_encoding:string; attr=errors:string,default=\"replace\","
           "allowed=[\"strict\", \"replace\", \"ignore\"]; attr=replacement_char:int,default=65533; "
           "attr=replace_control_characters:bool,default=false; attr=Tsplits:type,default=DT_INT64,"
           "allowed=[DT_INT32, DT_INT64]>")
_UNIT = {"utf-8": None, "utf-16-be": 2, "utf-32-be": 4}


def _check(errors_mode, replacement_char):
    if errors_mode not in ("strict", "replace", "ignore"):
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'errors' of \"{errors_mode}\" is not in the list of allowed values: "
                              f"\"strict\", \"replace\", \"ignore\"\n\t; NodeDef: {{{{node {_OP}}}}}; {_OP_DEF}", _OP)
    if not 0 <= replacement_char <= 0x10FFFF:
        raise errors.kernel_error(errors.InvalidArgumentError, "replacement_char out of unicode codepoint range", _OP)


def _decode_offsets(s, encoding, errors_mode, replacement_char, replace_control):
    """[(code point, byte offset)] of `s`, malformed subsequences replaced, dropped or rejected as TF's decoder."""
    enc = string_ops._encoding(encoding)
    try:
        text = s.decode(enc, "strict" if errors_mode == "strict" else _SPAN)
    except UnicodeDecodeError:
        raise errors.kernel_error(errors.InvalidArgumentError, "Invalid formatting on input string", _OP) from None
    out, pos, i = [], 0, 0
    norm = codecs.lookup(enc).name
    while i < len(text):
        c = text[i]
        if c == "\ud800" and i + 1 < len(text) and 0xDC00 <= ord(text[i + 1]) < 0xDD00:
            span = ord(text[i + 1]) - 0xDC00
            if errors_mode == "replace":
                out.append((replacement_char, pos))
            pos, i = pos + span, i + 2
            continue
        code = ord(c)
        out.append((replacement_char if replace_control and code < 0x20 else code, pos))
        unit = _UNIT.get(norm, 0)
        pos += len(c.encode(norm)) if unit is None or unit == 0 else (4 if unit == 2 and code > 0xFFFF else unit)
        i += 1
    return out


def _with_offsets(input, fn, values_fn):
    """(values, offsets) of each string: 1-D tensors for a scalar, RaggedTensors otherwise (nested in a ragged
    input's rows)."""
    if isinstance(input, RaggedTensor):
        v, o = _with_offsets(input.flat_values, fn, values_fn)
        return input.with_flat_values(v), input.with_flat_values(o)
    if not isinstance(input, Tensor):
        input = convert_to_tensor(input)
    if not isinstance(storage(input), np.ndarray):
        raise errors.op_error(errors.InvalidArgumentError, f"cannot compute {_OP} as input #0(zero-based) was "
                              f"expected to be a string tensor but is a {_c(input.dtype)} tensor", _OP)
    arr = string_ops._strings(input, _OP)

    def offsets(items):
        return wrap(torch.tensor(items, dtype=torch.int64))
    if arr.ndim == 0:
        pairs = fn(arr[()])
        return values_fn([p[0] for p in pairs]), offsets([p[1] for p in pairs])
    decoded = [fn(s) for s in arr.reshape(-1)]
    values = string_ops._ragged_from_parts([[p[0] for p in d] for d in decoded], arr.shape, values_fn)
    offs = string_ops._ragged_from_parts([[p[1] for p in d] for d in decoded], arr.shape, offsets)
    return values, offs


@tf_export("strings.unicode_decode_with_offsets")
def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                                replace_control_characters=False, name=None):
    """(code points int32, start byte offsets int64) of each string's characters."""
    _check(errors, replacement_char)
    return _with_offsets(input, lambda s: _decode_offsets(s, input_encoding, errors, replacement_char,
                                                          replace_control_characters),
                         lambda items: wrap(torch.tensor(items, dtype=torch.int32)))


@tf_export("strings.unicode_split_with_offsets")
def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    """(characters, each encoded in `input_encoding`, start byte offsets int64) of each string."""
    _check(errors, replacement_char)
    enc = string_ops._encoding(input_encoding)
    return _with_offsets(input, lambda s: [(chr(c).encode(enc, "replace"), p) for c, p in
                                           _decode_offsets(s, input_encoding, errors, replacement_char, False)],
                         string_ops._string_values)
