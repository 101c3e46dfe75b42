"""The wire format of `tf.train.Example` as TF's fast parser reads it (not protobuf's stricter parser).

TF skips unknown fields, reads a length that runs past the data as "up to the end", lets the last entry of
a feature name win, and parses a feature's value list only when that feature is asked for. Returning None
(or raising `BadFeature`) is where TF reports "Could not parse example input" (or "Can't parse serialized
Example").
"""
import numpy as np


class BadFeature(Exception):
    """A requested feature's value list TF cannot parse."""


class _Stream:
    __slots__ = ("data", "pos", "end")

    def __init__(self, data, pos=0, end=None):
        self.data, self.pos = data, pos
        self.end = len(data) if end is None else min(end, len(data))

    def at_end(self):
        return self.pos >= self.end

    def varint(self, bits=64):
        """The next varint truncated to `bits` (protobuf's ReadVarint32/64), or None when malformed or cut."""
        value, shift, pos = 0, 0, self.pos
        while pos < self.end and shift < 70:
            b = self.data[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                self.pos = pos
                return value & ((1 << bits) - 1)
        return None

    def expect(self, byte):
        if self.pos < self.end and self.data[self.pos] == byte:
            self.pos += 1
            return True
        return False

    def take(self, n):
        if n > self.end - self.pos:
            return None
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def limited(self, n):
        """A sub-stream of the next `n` bytes (to the end of the data if fewer remain); skips them here."""
        sub = _Stream(self.data, self.pos, self.pos + n)
        self.pos = sub.end
        return sub


def _skip_field(s):
    tag = s.varint(32)
    wire = 0 if tag is None else tag & 7
    if wire == 0:
        return s.varint(32) is not None
    if wire in (1, 5):
        return s.take(8 if wire == 1 else 4) is not None
    if wire == 2:
        n = s.varint(32)
        if n is None:
            return False
        if n < 1 << 31:                      # a negative count (as C int) skips nothing
            s.pos = min(s.end, s.pos + n)    # TF ignores a skip that runs past the data
        return True
    return False                             # groups and unknown wire types


def _string(s):
    n = s.varint(32)
    return None if n is None else s.take(n)


def _entry(s):
    """(name, feature bytes) of one `features` map entry, or None."""
    n = s.varint(32)
    if n is None:
        return None
    sub = s.limited(n)
    name = value = b""
    for _ in range(2):
        tag = sub.varint(32)
        if tag not in (0x0A, 0x12):
            return None
        got = _string(sub)
        if got is None:
            return None
        if tag == 0x0A:
            name = got
        else:
            value = got
    return (name, value) if sub.at_end() else None


def parse_example(data):
    """{feature name (bytes): feature bytes} of a serialized Example (the last entry of a name wins), or None
    where TF cannot parse it."""
    s = _Stream(data)
    out = {}
    while not s.at_end():
        if not s.expect(0x0A):
            if not _skip_field(s):
                return None
            continue
        n = s.varint(32)
        if n is None:
            return None
        features = s.limited(n)
        while not features.at_end():
            if not features.expect(0x0A):
                return None
            entry = _entry(features)
            if entry is None:
                return None
            out[entry[0]] = entry[1]
    return out


KINDS = {0x0A: "bytes_list", 0x12: "float_list", 0x1A: "int64_list"}


def feature_kind(raw):
    """The value list kind of a feature's bytes: None for an empty feature; ValueError for an unknown kind."""
    if not raw:
        return None
    kind = KINDS.get(raw[0])
    if kind is None:
        raise ValueError("Unsupported datatype.")
    return kind


def feature_values(raw, kind):
    """The values of a feature's `kind` list as a NumPy array (object array of bytes for bytes_list)."""
    s = _Stream(raw, 1)
    n = s.varint(32)
    if n is None:
        raise BadFeature()
    s = s.limited(n)
    if kind == "bytes_list":
        values = []
        while not s.at_end():
            if not s.expect(0x0A):
                raise BadFeature()
            b = _string(s)
            if b is None:
                raise BadFeature()
            values.append(b)
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    if kind == "float_list":
        return _floats(s)
    return _ints(s)


def _floats(s):
    if s.at_end():
        return np.empty(0, np.float32)
    if s.expect(0x0A):                              # packed: whole floats only, the rest ignored
        n = s.varint(32)
        if n is None:
            raise BadFeature()
        data = s.take(n // 4 * 4)
        if data is None:
            raise BadFeature()
        return np.frombuffer(data, "<f4").astype(np.float32)
    if s.data[s.pos] != 0x0D:
        raise BadFeature()
    values = []
    for _ in range((s.end - s.pos) // 5):           # tag byte + 4 bytes each; trailing bytes ignored
        if not s.expect(0x0D):
            raise BadFeature()
        values.append(s.take(4))
    return np.frombuffer(b"".join(values), "<f4").astype(np.float32)


def _ints(s):
    if s.at_end():
        return np.empty(0, np.int64)
    packed = s.expect(0x0A)
    if packed:
        n = s.varint(32)
        if n is None:
            raise BadFeature()
        s = s.limited(n)
    elif s.data[s.pos] != 0x08:
        raise BadFeature()
    values = []
    while not s.at_end():
        if not packed and not s.expect(0x08):
            raise BadFeature()
        v = s.varint(64)
        if v is None:
            raise BadFeature()
        values.append(v - (1 << 64) if v >> 63 else v)
    return np.array(values, dtype=np.int64)
