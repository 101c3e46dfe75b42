"""Protocol-buffer wire encoding of the few messages event files hold, byte for byte as TF writes them.

`Event{wall_time=1, step=2, file_version=3, summary=5, source_metadata=10}`,
`Summary{value=1}`, `Summary.Value{tag=1, tensor=8, metadata=9}`,
`TensorProto{dtype=1, tensor_shape=2, tensor_content=4, string_val=8}`,
`TensorShapeProto{dim=2}`, `Dim{size=1}`. Fields go in field-number order and
proto3 defaults are left out, as protobuf's C++ serializer does.
"""
import struct

import numpy as np

from tfcompat.util.proto_wire import varint  # noqa: F401  (summary/__init__ uses it too)

_pack_d = struct.Struct("<d").pack

DT_FLOAT = 1
DT_DOUBLE = 2
DT_STRING = 7


def field(tag_byte, payload):
    """A length-delimited field: key byte, length, payload."""
    return tag_byte + varint(len(payload)) + payload


def shape_proto(shape):
    """TensorShapeProto bytes for a tuple of dimension sizes."""
    return b"".join(field(b"\x12", b"\x08" + varint(d) if d else b"") for d in shape)


def tensor_proto(dtype_enum, shape, content=None, strings=None):
    """TensorProto bytes: numeric values in `tensor_content`, strings in `string_val`."""
    out = b"\x08" + varint(dtype_enum) + field(b"\x12", shape_proto(shape))
    if strings is not None:
        return out + b"".join(field(b"\x42", s) for s in strings)
    if content:
        out += field(b"\x22", content)
    return out


def array_tensor_proto(dtype_enum, array):
    """TensorProto bytes for a NumPy array (an object array of bytes for strings)."""
    if dtype_enum == DT_STRING:
        return tensor_proto(DT_STRING, array.shape, strings=list(array.reshape(-1)))
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return tensor_proto(dtype_enum, array.shape, content=np.ascontiguousarray(array).tobytes())


def summary_value(tag, tensor, metadata=b""):
    """`Summary` bytes holding one value."""
    value = field(b"\x0a", tag) + field(b"\x42", tensor)
    if metadata:
        value += field(b"\x4a", metadata)
    return field(b"\x0a", value)


def event(wall_time, step, summary):
    """`Event` bytes carrying a serialized `Summary`."""
    return (b"\x09" + _pack_d(wall_time) + (b"\x10" + varint(step) if step else b"")
            + field(b"\x2a", summary))


def file_version_event(wall_time):
    """The first event of every file, as TF's EventsWriter writes it."""
    return (b"\x09" + _pack_d(wall_time) + field(b"\x1a", b"brain.Event:2")
            + field(b"\x52", field(b"\x0a", b"tensorflow.core.util.events_writer")))


def plugin_metadata(plugin_name, content=b"", description=""):
    """`SummaryMetadata` bytes for a TensorBoard plugin (`plugin_data{plugin_name, content}`)."""
    plugin = field(b"\x0a", plugin_name.encode())
    if content:
        plugin += field(b"\x12", content)
    out = field(b"\x0a", plugin)
    if description:
        out += field(b"\x1a", description.encode())
    return out
