"""`tf.strings` and the byte-level `tf.io` ops: string tensors are NumPy object arrays of `bytes`."""
import base64
import codecs
import math
import re

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor, to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops._array_util import _fast_name, _kfail
from tfcompat.util import farmhash


def _strings(x, op="StringOp", converted=None):
    """The object array of an input that must be a string tensor. `converted`: the wrapper converts the input to
    tf.string first (TF's ValueError, its text prefixed with `converted`) rather than the op's dtype check."""
    if isinstance(x, Tensor):
        t = storage(x)
        if type(t) is not np.ndarray and converted is not None:
            raise ValueError(f"{converted}Tensor conversion requested dtype string for Tensor with dtype "
                             f"{x.dtype.name}: {x!r}")
        if type(t) is not np.ndarray:
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"cannot compute {op} as input #0(zero-based) was expected to be a string tensor "
                                  f"but is a {x.dtype.name} tensor", op)
        return t
    return to_storage(x, dtypes.string)


def _map(fn, arr, otype=object):
    """Applies `fn` to every element of an object array, keeping the shape."""
    out = np.empty(arr.shape, dtype=otype)
    flat = out.reshape(-1)
    for i, v in enumerate(arr.reshape(-1)):
        flat[i] = fn(v)
    return out


def _int_tensor(arr, dtype=torch.int32):
    return wrap(torch.from_numpy(np.asarray(arr, dtype=np.int64)).to(dtype))


def _ragged_from_parts(parts, shape, values_fn):
    """A RaggedTensor whose innermost rows are `parts` (one list per input element), outer dims `shape`."""
    lengths = [len(p) for p in parts]
    values = values_fn([v for p in parts for v in p])
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    result = RaggedTensor.from_row_splits(values, convert_to_tensor(splits), validate=False)
    for i in range(len(shape) - 1, 0, -1):
        n = int(np.prod(shape[:i]))
        uniform = np.arange(n + 1, dtype=np.int64) * shape[i]
        result = RaggedTensor.from_row_splits(result, convert_to_tensor(uniform), validate=False)
    return result


def _string_values(items):
    arr = np.empty(len(items), dtype=object)
    arr[:] = items if items else []
    return wrap(arr)


def _split_result(arr, fn, values_fn=_string_values):
    """fn(element) -> list; a 1-D tensor for a scalar input, else a RaggedTensor."""
    if arr.ndim == 0:
        return values_fn(fn(arr[()]))
    return _ragged_from_parts([fn(v) for v in arr.reshape(-1)], arr.shape, values_fn)


@tf_export("strings.split")
def split(input, sep=None, maxsplit=-1, name=None):
    """Splits each string at `sep` (runs of whitespace when None): 1-D for a scalar, else a RaggedTensor."""
    arr = _strings(input, "StringSplitV2", converted="input: ")
    if sep is not None and not isinstance(sep, (str, bytes)):
        sep = convert_to_tensor(sep)._array()[()]
    sep = sep.encode() if isinstance(sep, str) else sep

    def parts(s):
        if maxsplit == 0:
            return [s]
        if not sep:
            return _whitespace_split(s, maxsplit)
        return s.split(sep, maxsplit)
    return _split_result(arr, parts)


def _whitespace_split(s, maxsplit):
    """StringSplitV2 without a separator: tokens between runs of ASCII whitespace; once `maxsplit` tokens are
    taken, the rest after the following whitespace is one more piece, empty when nothing is left (unlike str.split)."""
    if maxsplit < 0:
        return s.split()
    tokens = s.split(None, maxsplit)
    if len(tokens) == maxsplit:
        tokens.append(b"")
    return tokens


@tf_export("strings.bytes_split")
def bytes_split(input, name=None):
    """Splits each string into its bytes."""
    arr = _strings(input, "StringSplit", converted="")
    return _split_result(arr, lambda s: [s[i:i + 1] for i in range(len(s))])


@tf_export("strings.join")
def join(inputs, separator="", name=None):
    """Elementwise concatenation of string tensors (broadcast), joined by `separator`."""
    sep = separator.encode() if isinstance(separator, str) else separator
    arrs = np.broadcast_arrays(*[_strings(x, "StringJoin") for x in inputs])
    out = np.empty(arrs[0].shape, dtype=object)
    flat = out.reshape(-1)
    cols = [a.reshape(-1) for a in arrs]
    for i in range(flat.shape[0]):
        flat[i] = sep.join(c[i] for c in cols)
    return wrap(out)


@tf_export("strings.reduce_join")
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Joins the strings along `axis` (all axes when None) with `separator`."""
    if axis is not None:            # TF converts the axis (int32), then the input to tf.string
        convert_to_tensor(axis, dtype=dtypes.int32)
    arr = _strings(inputs, "ReduceJoin", converted=None if axis is None else "")
    sep = separator.encode() if isinstance(separator, str) else separator
    if axis is not None:
        for a in np.atleast_1d(axis):
            if not -arr.ndim <= int(a) < arr.ndim:
                raise errors.kernel_error(errors.OutOfRangeError, f"Invalid reduction dimension {int(a)} for input "
                                          f"with {arr.ndim} dimension(s)", "ReduceJoin")
    axes = list(range(arr.ndim)) if axis is None else [int(a) % max(arr.ndim, 1) for a in np.atleast_1d(axis)]
    keep = [d for d in range(arr.ndim) if d not in axes]
    moved = np.transpose(arr, keep + axes).reshape([arr.shape[d] for d in keep]
                                                   + [math.prod(arr.shape[d] for d in axes)])
    out = np.empty(moved.shape[:-1], dtype=object)
    flat_in = moved.reshape(math.prod(moved.shape[:-1]), moved.shape[-1])
    flat_out = out.reshape(-1)
    for i in range(flat_out.shape[0]):
        flat_out[i] = sep.join(flat_in[i])
    if keepdims:
        out = out.reshape([1 if d in axes else arr.shape[d] for d in range(arr.ndim)])
    return wrap(out)


def _utf8_len(s):
    return len(s.decode("utf-8", errors="replace"))


@tf_export("strings.length")
def length(input, unit="BYTE", name=None):
    """Length of each string in bytes (`unit="BYTE"`) or Unicode code points (`"UTF8_CHAR"`)."""
    arr = _strings(input, "StringLength")
    if unit == "BYTE":
        return _int_tensor(_map(len, arr, np.int64))
    if unit == "UTF8_CHAR":
        return _int_tensor(_map(_utf8_len, arr, np.int64))
    raise ValueError(f"Value for attr 'unit' of \"{unit}\" is not in the list of allowed values: \"BYTE\", "
                     "\"UTF8_CHAR\"")


def _case(fn_name):
    def f(input, encoding="", name=None):
        arr = _strings(input, fn_name.capitalize())
        if encoding == "":
            return wrap(_map(getattr(bytes, fn_name), arr))
        if encoding.lower().replace("-", "") != "utf8":
            raise NotImplementedError(f"tf.strings.{fn_name}(encoding={encoding!r}) is not supported by tfcompat")
        return wrap(_map(lambda s: getattr(s.decode("utf-8"), fn_name)().encode("utf-8"), arr))
    f.__name__ = f.__qualname__ = fn_name
    f.__doc__ = f"{fn_name.capitalize()}-cases each string (ASCII only unless encoding='utf-8')."
    return tf_export("strings." + fn_name, partial="encodings other than UTF-8")(f)


lower = _case("lower")
upper = _case("upper")


@tf_export("strings.strip")
def strip(input, name=None):
    """Removes leading and trailing whitespace."""
    return wrap(_map(bytes.strip, _strings(input, "StringStrip")))


def _pattern(pattern, op):
    """The compiled pattern; an invalid one is the kernel's InvalidArgumentError (op `Static<op>` for a Python
    pattern, `<op>` for a tensor, as TF)."""
    static = not isinstance(pattern, Tensor)
    if not static:
        pattern = pattern._array()[()]
    raw = pattern.encode() if isinstance(pattern, str) else pattern
    try:
        return re.compile(raw)
    except re.error as e:
        raise errors.kernel_error(errors.InvalidArgumentError, f"Invalid pattern: "
                                  f"{raw.decode('utf-8', 'replace')}, error: {e.msg}",
                                  ("Static" if static else "") + op, name=None) from None


@tf_export("strings.regex_full_match")
def regex_full_match(input, pattern, name=None):
    """True for each string that `pattern` matches entirely."""
    rx = _pattern(pattern, "RegexFullMatch")
    out = _map(lambda s: rx.fullmatch(s) is not None, _strings(input, "RegexFullMatch"), bool)
    return wrap(torch.from_numpy(out))


@tf_export("strings.regex_replace")
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """Replaces matches of `pattern` with `rewrite` (`\\1` refers to groups); only the first if not global."""
    rx = _pattern(pattern, "RegexReplace")
    rw = rewrite.encode() if isinstance(rewrite, str) else rewrite
    count = 0 if replace_global else 1
    return wrap(_map(lambda s: rx.sub(rw, s, count=count), _strings(input, "StaticRegexReplace")))


@tf_export("strings.substr")
def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002  (TF's argument name)
    """`len` bytes (or UTF-8 characters) of each string from `pos` (negative counts from the end)."""
    arr = _strings(input, "Substr")
    pos_a = np.asarray(pos.numpy() if isinstance(pos, Tensor) else pos)
    len_a = np.asarray(len.numpy() if isinstance(len, Tensor) else len)
    a, p, n = np.broadcast_arrays(arr, pos_a, len_a)
    out = np.empty(a.shape, dtype=object)
    flat = out.reshape(-1)
    utf8 = unit == "UTF8_CHAR"
    for i, (s, start, count) in enumerate(zip(a.reshape(-1), p.reshape(-1), n.reshape(-1))):
        text = s.decode("utf-8") if utf8 else s
        size = text.__len__()
        start = int(start)
        if start < -size or start > size:
            raise _kfail(f"pos {start} out of range for string b'{s.decode('latin-1')}' at index {i}", "Substr",
                         _fast_name(input, pos, len))
        start = start + size if start < 0 else start
        count = int(count)
        piece = text[start:] if count < 0 and not utf8 else text[start:start + max(count, 0)]   # TF: -1 is "to the end"
        flat[i] = piece.encode("utf-8") if utf8 else piece
    return wrap(out)


def _to_int(s):
    text = s.decode("ascii", errors="replace").strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError
    return int(text)


def _to_float(s):
    text = s.decode("ascii", errors="replace").strip()
    if not text or text.lower().lstrip("+-") in ("infinity",) or "_" in text:
        raise ValueError
    if "0x" in text.lower():                   # TF parses with strtod: hexadecimal floats ("0x1F", "0x1p3")
        return float.fromhex(text)
    return float(text)


@tf_export("strings.to_number")
def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Parses each string as a number of `out_type` (float32 by default)."""
    arr = _strings(string_tensor, "StringToNumber")
    out_type = dtypes.as_dtype(out_type)
    parse = _to_int if out_type.is_integer else _to_float
    out = np.empty(arr.shape, dtype=out_type.as_numpy_dtype)
    flat = out.reshape(-1)
    for i, s in enumerate(arr.reshape(-1)):
        try:
            flat[i] = parse(s)
        except (ValueError, OverflowError):
            raise _kfail(f"StringToNumberOp could not correctly convert string: {s.decode('latin-1')}",
                         "StringToNumber", _fast_name(string_tensor)) from None
    return wrap(torch.from_numpy(out))


def _scalar_text(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="replace")
    if isinstance(v, (np.complexfloating, complex)):
        return "?"                                       # TF's summarizer has no complex format
    if isinstance(v, np.floating):
        return _shortest_text(v)
    if isinstance(v, float):
        return _shortest_text(np.float64(v))
    if isinstance(v, (np.bool_, bool)):
        return "1" if v else "0"
    return str(v)


def _shortest_text(v):
    """TF's float text: `%g` at 6 (15 for doubles) digits when that reads back exactly, else 9 (17)."""
    wide = v.dtype == np.float64
    v = v if wide else np.float32(v)
    if np.isnan(v):
        return "-nan" if np.signbit(v) else "nan"
    short = "%.*g" % (15 if wide else 6, v)
    if v.dtype.type(short) == v:
        return short
    return "%.*g" % (17 if wide else 9, v)


def _summarize(a, summarize, depth=0):
    """TF's tensor summary text: nested brackets, at most `summarize` leading and trailing items per dimension."""
    if a.ndim == 0:
        return _scalar_text(a[()])
    n = a.shape[0]
    if summarize >= 0 and n > 2 * summarize:
        idx = list(range(summarize)) + [None] + list(range(n - summarize, n))
    else:
        idx = list(range(n))
    items = ["..." if i is None else _summarize(a[i], summarize, depth + 1) for i in idx]
    sep = " " if a.ndim == 1 else "\n" + " " * (depth + 1)
    return "[" + sep.join(items) + "]"


@tf_export("strings.format")
def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001  (TF's name)
    """The template with each placeholder replaced by a summary of the next input tensor."""
    if isinstance(inputs, (Tensor, np.ndarray)) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    pieces = template.split(placeholder)
    if pieces.__len__() - 1 != inputs.__len__():
        raise ValueError(f"The template expects {pieces.__len__() - 1} tensors, but the inputs only has "
                         f"{inputs.__len__()}. Please ensure the number of placeholders in template matches inputs "
                         f"length.")
    out = pieces[0]
    for value, piece in zip(inputs, pieces[1:]):
        a = (value if isinstance(value, Tensor) else convert_to_tensor(value))._array()
        text = _summarize(a, summarize)
        if a.ndim == 0 and a.dtype == object:
            text = f'"{text}"'
        out += text + piece
    return wrap(np.array(out.encode("utf-8"), dtype=object))


@tf_export("strings.as_string", "as_string", partial="fill other than '', ' ' or '0'; complex inputs")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):
    """Each number formatted as a string (`%d`, `%f`, `%e` or `%g`; booleans as true/false)."""
    t = input if isinstance(input, Tensor) else convert_to_tensor(input)
    dt = t.dtype
    if dt is dtypes.string:
        raise errors.op_error(errors.InvalidArgumentError,
                              "Value for attr 'T' of string is not in the list of allowed values", "AsString")
    if fill not in ("", " ", "0"):
        raise NotImplementedError(f"tf.strings.as_string(fill={fill!r}) is not supported by tfcompat")
    flags = "0" if fill == "0" else ""
    w = str(width) if width > -1 else ""
    if dt.is_bool or dt.is_integer:
        bad = "precision" if precision > -1 else ("scientific and shortest format" if scientific or shortest else None)
        if bad:
            raise errors.kernel_error(errors.InvalidArgumentError, f"{bad} not supported for datatype {dt.name}",
                                      "AsString", name="" if isinstance(input, Tensor) else None)
    if dt.is_bool:
        return wrap(_map(lambda v: b"true" if v else b"false", t._array()))
    if dt.is_integer:
        spec = "%" + flags + w + "d"
        return wrap(_map(lambda v: (spec % int(v)).encode(), t._array()))
    if scientific and shortest:
        raise errors.op_error(errors.InvalidArgumentError, "Cannot select both scientific and shortest notation",
                              "AsString")
    prec = f".{precision}" if precision > -1 else ""
    kind = "e" if scientific else ("g" if shortest else "f")
    spec = "%" + flags + w + prec + kind
    if dt.is_complex:                                       # TF: "(re,im)", each part in the float format
        return wrap(_map(lambda v: f"({spec % v.real},{spec % v.imag})".encode(), t._array()))
    return wrap(_map(lambda v: (spec % float(v)).encode(), t._array()))


# -- Unicode: malformed input is marked by Python's decoder and then replaced, dropped or rejected as TF does ---------
_MARK = "tfcompat.malformed"
_MALFORMED = 0xD800           # a lone surrogate: no successful decode yields one, so it marks a malformed subsequence
codecs.register_error(_MARK, lambda e: ("\ud800", e.end))
_OUT_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}
# TF's attr-check text for each op: the op's signature follows the rejected value
_OP_DEFS = {
    "UnicodeDecode": 'Op<name=UnicodeDecode; signature=input:string -> row_splits:Tsplits, char_values:int32; '
                     'attr=input_encoding:string; attr=errors:string,default="replace",allowed=["strict", "replace", '
                     '"ignore"]; attr=replacement_char:int,default=65533; attr=replace_control_characters:bool,'
                     'default=false; attr=Tsplits:type,default=DT_INT64,allowed=[DT_INT32, DT_INT64]>',
    "UnicodeEncode": 'Op<name=UnicodeEncode; signature=input_values:int32, input_splits:Tsplits -> output:string; '
                     'attr=errors:string,default="replace",allowed=["ignore", "replace", "strict"]; attr='
                     'output_encoding:string,allowed=["UTF-8", "UTF-16-BE", "UTF-32-BE"]; attr=replacement_char:int,'
                     'default=65533; attr=Tsplits:type,default=DT_INT64,allowed=[DT_INT32, DT_INT64]>',
    "UnicodeTranscode": 'Op<name=UnicodeTranscode; signature=input:string -> output:string; attr=input_encoding:'
                        'string; attr=output_encoding:string,allowed=["UTF-8", "UTF-16-BE", "UTF-32-BE"]; attr=errors:'
                        'string,default="replace",allowed=["strict", "replace", "ignore"]; attr=replacement_char:int,'
                        'default=65533; attr=replace_control_characters:bool,default=false>',
}
_ERRORS_ALLOWED = {"UnicodeEncode": '"ignore", "replace", "strict"'}


def _name_tail(op):
    return None if op == "UnicodeTranscode" else ""      # UnicodeTranscode reports without ` name: `


def _check_unicode_args(op, errors_mode, replacement_char, output_encoding=None):
    """TF's attr and range checks of the Unicode ops (InvalidArgumentError, before any string is touched)."""
    if errors_mode not in ("strict", "replace", "ignore"):
        allowed = _ERRORS_ALLOWED.get(op, '"strict", "replace", "ignore"')
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'errors' of \"{errors_mode}\" is not in the list of allowed values: "
                              f"{allowed}\n\t; NodeDef: {{{{node {op}}}}}; {_OP_DEFS[op]}", op, _name_tail(op))
    if output_encoding is not None and output_encoding not in _OUT_ENCODINGS:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'output_encoding' of \"{output_encoding}\" is not in the list of "
                              f"allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\"\n\t; NodeDef: {{{{node {op}}}}}; "
                              f"{_OP_DEFS[op]}", op, _name_tail(op))
    if not 0 <= replacement_char <= 0x10FFFF:
        raise errors.kernel_error(errors.InvalidArgumentError, "replacement_char out of unicode codepoint range", op,
                                  name=_name_tail(op))


def _decode(s, encoding, errors_mode, replacement_char, replace_control_characters, op):
    """The code points of `s`; malformed subsequences (and C0 controls when asked) replaced, dropped or rejected."""
    try:
        text = s.decode(_encoding(encoding), "strict" if errors_mode == "strict" else _MARK)
    except UnicodeDecodeError:
        raise errors.kernel_error(errors.InvalidArgumentError, "Invalid formatting on input string", op,
                                  name=_name_tail(op)) from None
    codes = [ord(c) for c in text]
    if replace_control_characters:
        codes = [replacement_char if c < 0x20 else c for c in codes]
    if _MALFORMED in codes:
        codes = [c for c in codes if c != _MALFORMED] if errors_mode == "ignore" else \
            [replacement_char if c == _MALFORMED else c for c in codes]
    return codes


def _encode(codes, encoding, errors_mode, replacement_char, op):
    """Code points as bytes; invalid ones (surrogates, out of range) replaced, dropped or rejected."""
    chars = []
    for c in codes:
        c = int(c)
        if 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF:
            chars.append(chr(c))
        elif errors_mode == "replace":
            chars.append(chr(replacement_char))
        elif errors_mode == "strict":
            raise errors.kernel_error(errors.InvalidArgumentError,
                                      "Code point is out of range for Unicode, or is a surrogate.", op,
                                      name=_name_tail(op))
    return "".join(chars).encode(_OUT_ENCODINGS[encoding])


def _encoding(name):
    return _OUT_ENCODINGS.get(name.upper(), name)


def _int32_values(items):
    return wrap(torch.tensor(items, dtype=torch.int32))


@tf_export("strings.unicode_decode")
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533, replace_control_characters=False,
                   name=None):
    """The code points (int32) of each string: 1-D for a scalar, else a RaggedTensor."""
    _check_unicode_args("UnicodeDecode", errors, replacement_char)
    arr = _strings(input, "UnicodeDecode")
    return _split_result(arr, lambda s: _decode(s, input_encoding, errors, replacement_char,
                                                replace_control_characters, "UnicodeDecode"), _int32_values)


@tf_export("strings.unicode_split")
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    """Each string split into its characters (as UTF-8 strings)."""
    _check_unicode_args("UnicodeDecode", errors, replacement_char)
    arr = _strings(input, "UnicodeDecode")
    return _split_result(arr, lambda s: [chr(c).encode("utf-8") for c in
                                         _decode(s, input_encoding, errors, replacement_char, False,
                                                 "UnicodeDecode")])


@tf_export("strings.unicode_encode", partial="RaggedTensors of ragged_rank > 1")
def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):
    """Encodes rows of code points as strings: the innermost dimension is joined."""
    _check_unicode_args("UnicodeEncode", errors, replacement_char, output_encoding)

    def encode(codes):
        return _encode(codes, output_encoding, errors, replacement_char, "UnicodeEncode")
    if isinstance(input, RaggedTensor):
        rows = input.to_list()
        if input.ragged_rank != 1:
            raise NotImplementedError("tf.strings.unicode_encode of RaggedTensors of ragged_rank > 1")
        arr = np.empty(rows.__len__(), dtype=object)
        arr[:] = [encode(r) for r in rows]
        return wrap(arr)
    a = (input if isinstance(input, Tensor) else convert_to_tensor(input))._array()
    if a.ndim == 0:
        raise ValueError("Rank of input must be at least 1")
    flat = a.reshape(-1, a.shape[-1])
    out = np.empty(flat.shape[0], dtype=object)
    out[:] = [encode(r) for r in flat]
    return wrap(out.reshape(a.shape[:-1]))


@tf_export("strings.unicode_transcode")
def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,
                      replace_control_characters=False, name=None):
    """Each string re-encoded from `input_encoding` to `output_encoding`."""
    _check_unicode_args("UnicodeTranscode", errors, replacement_char, output_encoding)
    arr = _strings(input, "UnicodeTranscode")
    return wrap(_map(lambda s: _encode(_decode(s, input_encoding, errors, replacement_char,
                                               replace_control_characters, "UnicodeTranscode"),
                                       output_encoding, "replace", replacement_char, "UnicodeTranscode"), arr))


@tf_export("io.decode_raw")
def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Reinterprets each string's bytes as a vector of `out_type` (a new innermost dimension)."""
    arr = _strings(input_bytes, "DecodeRaw")
    dt = dtypes.as_dtype(out_type)
    np_dt = np.dtype(dt.as_numpy_dtype).newbyteorder("<" if little_endian else ">")
    size = np_dt.itemsize
    flat = arr.reshape(-1)
    if fixed_length is not None:
        n = int(fixed_length)
        flat = [s[:n].ljust(n, b"\0") for s in flat]
    lengths = {s.__len__() for s in flat}
    if lengths.__len__() > 1:
        raise errors.op_error(errors.InvalidArgumentError,
                              "DecodeRaw requires input strings to all be the same size, but element 1 has size "
                              f"{flat[1].__len__()} != {flat[0].__len__()}", "DecodeRaw")
    nbytes = lengths.pop() if lengths else 0
    if nbytes % size:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Input to DecodeRaw has length {nbytes} that is not a multiple of {size}, the size of "
                              f"{dt.name}", "DecodeRaw")
    data = np.frombuffer(b"".join(flat), dtype=np_dt).astype(np_dt.newbyteorder("="))
    return wrap(torch.from_numpy(data.reshape(arr.shape + (nbytes // size,))))


@tf_export("io.encode_base64")
def encode_base64(input, pad=False, name=None):
    """Web-safe base64 of each string (`-` and `_`), `=` padding only when `pad`."""
    def enc(s):
        out = base64.urlsafe_b64encode(s)
        return out if pad else out.rstrip(b"=")
    return wrap(_map(enc, _strings(input, "EncodeBase64")))


@tf_export("io.decode_base64")
def decode_base64(input, name=None):
    """Decodes web-safe base64 strings (padding optional)."""
    def dec(s):
        try:
            return base64.urlsafe_b64decode(s + b"=" * (-s.__len__() % 4))
        except ValueError:
            raise errors.op_error(errors.InvalidArgumentError, "Invalid character found in base64.", "DecodeBase64") \
                from None
    return wrap(_map(dec, _strings(input, "DecodeBase64")))


def _buckets(arr, num_buckets, op, sig, hash_fn):
    n = int(num_buckets)
    if n < 1:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'num_buckets' of {n} must be at least minimum 1"
                                          f"\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; {sig}> [Op:{op}]")
    flat = [hash_fn(s) % n for s in arr.reshape(-1)]
    return wrap(torch.tensor(flat, dtype=torch.int64).reshape(arr.shape))


@tf_export("strings.to_hash_bucket_fast")
def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002  (TF's argument name)
    """FarmHash Fingerprint64 of each string, modulo `num_buckets` (int64)."""
    return _buckets(_strings(input, "StringToHashBucketFast"), num_buckets, "StringToHashBucketFast",
                    "signature=input:string -> output:int64; attr=num_buckets:int,min=1", farmhash.fingerprint64)


@tf_export("strings.to_hash_bucket_strong")
def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002  (TF's argument name)
    """SipHash-2-4 of each string under the two-int `key`, modulo `num_buckets` (int64)."""
    key = [int(k) for k in key]
    op = "StringToHashBucketStrong"
    arr = _strings(input, op)
    if len(key) != 2:
        raise errors.op_error(errors.InvalidArgumentError, "Key must have 2 elements", op)
    k0, k1 = (k & ((1 << 64) - 1) for k in key)
    return _buckets(arr, num_buckets, op, "signature=input:string -> output:int64; attr=num_buckets:int,min=1; "
                    "attr=key:list(int)", lambda s: farmhash.siphash24(k0, k1, s))
