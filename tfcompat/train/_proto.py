"""The protobuf messages of TF checkpoints, encoded and decoded by hand (no protobuf dependency).

Wire format: varints, fixed32/fixed64 and length-delimited fields. The messages
are TF's `BundleHeaderProto`, `BundleEntryProto` (with `TensorShapeProto`),
`TrackableObjectGraph`, and the text form of `CheckpointState`. Decoders raise
`ProtoError` on malformed input; callers turn it into `DataLossError` naming the file.
"""
import struct

from tfcompat.util.proto_wire import varint  # noqa: F401  (the encoders here and in _bundle use it)


class ProtoError(ValueError):
    """Malformed protobuf bytes."""


# -- wire primitives ------------------------------------------------------------------------------------------------
def read_varint(buf, pos, limit=None):
    """(value, new_pos) of the varint at `buf[pos:]`, at most 10 bytes, never past `limit`."""
    limit = len(buf) if limit is None else limit
    result = shift = 0
    while True:
        if pos >= limit or shift > 63:
            raise ProtoError("truncated or overlong varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result & ((1 << 64) - 1), pos
        shift += 7


def _signed(n):
    return n - (1 << 64) if n >= 1 << 63 else n


def _key(field, wire):
    return varint(field << 3 | wire)


def _int_field(field, n):
    return _key(field, 0) + varint(n) if n else b""


def _bytes_field(field, data):
    return _key(field, 2) + varint(len(data)) + data


def _str_field(field, s):
    return _bytes_field(field, s.encode("utf-8")) if s else b""


def fields(buf):
    """Yields (field_number, wire_type, value) of message bytes `buf`; value is int or bytes."""
    pos, n = 0, len(buf)
    while pos < n:
        key, pos = read_varint(buf, pos)
        field, wire = key >> 3, key & 7
        if field == 0:
            raise ProtoError("field number 0")
        if wire == 0:
            value, pos = read_varint(buf, pos)
        elif wire == 1:
            if pos + 8 > n:
                raise ProtoError("truncated fixed64")
            value, pos = struct.unpack_from("<Q", buf, pos)[0], pos + 8
        elif wire == 2:
            size, pos = read_varint(buf, pos)
            if pos + size > n:
                raise ProtoError("truncated length-delimited field")
            value, pos = bytes(buf[pos:pos + size]), pos + size
        elif wire == 5:
            if pos + 4 > n:
                raise ProtoError("truncated fixed32")
            value, pos = struct.unpack_from("<I", buf, pos)[0], pos + 4
        else:
            raise ProtoError(f"unsupported wire type {wire}")
        yield field, wire, value


def _expect(wire, want, what):
    if wire != want:
        raise ProtoError(f"wrong wire type for {what}")


def _text(value, what):
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtoError(f"{what} is not UTF-8") from None


# -- TensorShapeProto -------------------------------------------------------------------------------------------------
def encode_shape(dims):
    """TensorShapeProto bytes of a fully known shape."""
    return b"".join(_bytes_field(2, _int_field(1, d)) for d in dims)


def decode_shape(buf):
    """The dims of TensorShapeProto bytes (a tuple); -1 dims or unknown rank are ProtoErrors here."""
    dims = []
    for field, wire, value in fields(buf):
        if field == 2:
            _expect(wire, 2, "dim")
            size = 0
            for f, w, v in fields(value):
                if f == 1:
                    _expect(w, 0, "dim.size")
                    size = _signed(v)
            if size < 0:
                raise ProtoError("unknown dimension in a saved tensor shape")
            dims.append(size)
        elif field == 3 and value:
            raise ProtoError("unknown rank in a saved tensor shape")
    return tuple(dims)


# -- BundleHeaderProto / BundleEntryProto ---------------------------------------------------------------------------
BUNDLE_VERSION = 1     # TF's kTensorBundleVersion (producer); min_consumer 0


def encode_header(num_shards=1):
    return _int_field(1, num_shards) + _bytes_field(3, _int_field(1, BUNDLE_VERSION))


def decode_header(buf):
    """{num_shards, endianness, producer, min_consumer, bad_consumers}."""
    out = {"num_shards": 0, "endianness": 0, "producer": 0, "min_consumer": 0, "bad_consumers": []}
    for field, wire, value in fields(buf):
        if field in (1, 2):
            _expect(wire, 0, "header")
            out["num_shards" if field == 1 else "endianness"] = _signed(value)
        elif field == 3:
            _expect(wire, 2, "version")
            for f, w, v in fields(value):
                if f == 3 and w == 2:      # packed bad_consumers
                    pos = 0
                    while pos < len(v):
                        c, pos = read_varint(v, pos)
                        out["bad_consumers"].append(c)
                elif f in (1, 2, 3):
                    _expect(w, 0, "version")
                    if f == 3:
                        out["bad_consumers"].append(v)
                    else:
                        out["producer" if f == 1 else "min_consumer"] = _signed(v)
    return out


def encode_entry(dtype_enum, shape, offset, size, crc, shard_id=0):
    return (_int_field(1, dtype_enum) + _bytes_field(2, encode_shape(shape)) + _int_field(3, shard_id)
            + _int_field(4, offset) + _int_field(5, size) + _key(6, 5) + struct.pack("<I", crc))


def decode_entry(buf):
    """{dtype, shape, shard_id, offset, size, crc32c, sliced}."""
    out = {"dtype": 0, "shape": (), "shard_id": 0, "offset": 0, "size": 0, "crc32c": None, "sliced": False}
    names = {1: "dtype", 3: "shard_id", 4: "offset", 5: "size"}
    for field, wire, value in fields(buf):
        if field in names:
            _expect(wire, 0, names[field])
            out[names[field]] = _signed(value)
        elif field == 2:
            _expect(wire, 2, "shape")
            out["shape"] = decode_shape(value)
        elif field == 6:
            _expect(wire, 5, "crc32c")
            out["crc32c"] = value
        elif field == 7:
            out["sliced"] = True
    if out["offset"] < 0 or out["size"] < 0 or out["shard_id"] < 0:
        raise ProtoError("negative offset, size or shard id")
    return out


# -- TrackableObjectGraph ---------------------------------------------------------------------------------------------
class Node:
    """One TrackableObjectGraph.TrackableObject: children [(id, name)], attributes [(name, full_name, key)],
    slot_variables [(original_id, slot_name, slot_id)], has_checkpoint_values (bool or None)."""

    __slots__ = ("children", "attributes", "slot_variables", "has_checkpoint_values", "registered_saver")

    def __init__(self):
        self.children = []
        self.attributes = []
        self.slot_variables = []
        self.has_checkpoint_values = None
        self.registered_saver = None


def encode_object_graph(nodes):
    out = []
    for node in nodes:
        body = b"".join(_bytes_field(1, _int_field(1, i) + _str_field(2, name)) for i, name in node.children)
        body += b"".join(_bytes_field(2, _str_field(1, a) + _str_field(2, b) + _str_field(3, c))
                         for a, b, c in node.attributes)
        body += b"".join(_bytes_field(3, _int_field(1, o) + _str_field(2, s) + _int_field(3, i))
                         for o, s, i in node.slot_variables)
        if node.has_checkpoint_values is not None:
            body += _bytes_field(5, _int_field(1, int(node.has_checkpoint_values)))
        out.append(_bytes_field(1, body))
    return b"".join(out)


def _sub(value, names, what):
    """Decodes a small submessage of int (wire 0) and string (wire 2) fields into a dict."""
    out = {}
    for f, w, v in fields(value):
        if f in names:
            kind = names[f]
            _expect(w, 2 if kind is str else 0, what)
            out[f] = _text(v, what) if kind is str else _signed(v)
    return out


def decode_object_graph(buf):
    nodes = []
    for field, wire, value in fields(buf):
        if field != 1:
            continue
        _expect(wire, 2, "nodes")
        node = Node()
        for f, w, v in fields(value):
            if f == 1:
                _expect(w, 2, "children")
                d = _sub(v, {1: int, 2: str}, "children")
                node.children.append((d.get(1, 0), d.get(2, "")))
            elif f == 2:
                _expect(w, 2, "attributes")
                d = _sub(v, {1: str, 2: str, 3: str}, "attributes")
                node.attributes.append((d.get(1, ""), d.get(2, ""), d.get(3, "")))
            elif f == 3:
                _expect(w, 2, "slot_variables")
                d = _sub(v, {1: int, 2: str, 3: int}, "slot_variables")
                node.slot_variables.append((d.get(1, 0), d.get(2, ""), d.get(3, 0)))
            elif f == 4:
                _expect(w, 2, "registered_saver")
                node.registered_saver = _sub(v, {1: str, 2: str}, "registered_saver").get(1, "")
            elif f == 5:
                _expect(w, 2, "has_checkpoint_values")
                node.has_checkpoint_values = bool(_sub(v, {1: int}, "has_checkpoint_values").get(1, 0))
        nodes.append(node)
    for node in nodes:
        for ids in [[i for i, _ in node.children], [o for o, _, s in node.slot_variables],
                    [s for _, _, s in node.slot_variables]]:
            if any(not 0 <= i < len(nodes) for i in ids):
                raise ProtoError("object graph refers to a node that does not exist")
    if not nodes:
        raise ProtoError("empty object graph")
    return nodes


# -- CheckpointState (text format) ------------------------------------------------------------------------------------
def _quote(s):
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        if c in "\"'\\":
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def encode_state(model_path, all_paths, timestamps=None, last_preserved=None):
    """CheckpointState text, as TF's `text_format` writes it."""
    lines = [f"model_checkpoint_path: {_quote(model_path)}"]
    lines += [f"all_model_checkpoint_paths: {_quote(p)}" for p in all_paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in timestamps or ()]
    if last_preserved is not None:
        lines.append(f"last_preserved_timestamp: {last_preserved!r}")
    return "\n".join(lines) + "\n"


def _unquote(text):
    if len(text) < 2 or text[0] not in "\"'" or text[-1] != text[0]:
        raise ProtoError(f"expected a quoted string, got {text!r}")
    body, out, i = text[1:-1], bytearray(), 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in "01234567":
                j = i + 1
                while j < min(i + 4, len(body)) and body[j] in "01234567":
                    j += 1
                out.append(int(body[i + 1:j], 8) & 0xFF)
                i = j
                continue
            out += {"n": b"\n", "t": b"\t", "r": b"\r"}.get(n, n.encode("utf-8"))
            i += 2
        else:
            out += c.encode("utf-8")
            i += 1
    return out.decode("utf-8", errors="replace")


def decode_state(text):
    """{model_checkpoint_path, all_model_checkpoint_paths, all_model_checkpoint_timestamps,
    last_preserved_timestamp} of CheckpointState text."""
    out = {"model_checkpoint_path": "", "all_model_checkpoint_paths": [], "all_model_checkpoint_timestamps": [],
           "last_preserved_timestamp": 0.0}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if not sep or name not in out:
            raise ProtoError(f"unexpected line {line!r}")
        try:
            if name == "model_checkpoint_path":
                out[name] = _unquote(value)
            elif name == "all_model_checkpoint_paths":
                out[name].append(_unquote(value))
            elif name == "all_model_checkpoint_timestamps":
                out[name].append(float(value))
            else:
                out[name] = float(value)
        except ValueError as e:
            raise ProtoError(str(e)) from None
    return out
