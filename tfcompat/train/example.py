"""`tf.train.Example` and its parts: protobuf messages with TF's `feature.proto` / `example.proto` schema.

The `tensorboard` package does not ship these two files, so their descriptors are built here (same
package `tensorflow`, field numbers and types, proto3) in a private descriptor pool, which keeps them
from clashing with TF's own classes if both are loaded. Serialized bytes are TF's.
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_REPEATED, _OPTIONAL = _F.LABEL_REPEATED, _F.LABEL_OPTIONAL


def _field(name, number, kind, label=_OPTIONAL, type_name=None, oneof=None):
    f = _F(name=name, number=number, type=kind, label=label)
    if type_name:
        f.type_name = ".tensorflow." + type_name
    if oneof is not None:
        f.oneof_index = oneof
    return f


def _map(msg, field, number, value_type):
    """A `map<string, value_type> field = number;` on message `msg`."""
    entry = msg.nested_type.add(name=field.title().replace("_", "") + "Entry")
    entry.options.map_entry = True
    entry.field.extend([_field("key", 1, _F.TYPE_STRING),
                        _field("value", 2, _F.TYPE_MESSAGE, type_name=value_type)])
    msg.field.append(_field(field, number, _F.TYPE_MESSAGE, _REPEATED, f"{msg.name}.{entry.name}"))


def _file():
    fd = descriptor_pb2.FileDescriptorProto(name="tfcompat/train/example.proto", package="tensorflow",
                                            syntax="proto3")
    m = fd.message_type
    m.add(name="BytesList").field.append(_field("value", 1, _F.TYPE_BYTES, _REPEATED))
    m.add(name="FloatList").field.append(_field("value", 1, _F.TYPE_FLOAT, _REPEATED))
    m.add(name="Int64List").field.append(_field("value", 1, _F.TYPE_INT64, _REPEATED))
    feature = m.add(name="Feature")
    feature.oneof_decl.add(name="kind")
    feature.field.extend([_field("bytes_list", 1, _F.TYPE_MESSAGE, type_name="BytesList", oneof=0),
                          _field("float_list", 2, _F.TYPE_MESSAGE, type_name="FloatList", oneof=0),
                          _field("int64_list", 3, _F.TYPE_MESSAGE, type_name="Int64List", oneof=0)])
    _map(m.add(name="Features"), "feature", 1, "Feature")
    m.add(name="FeatureList").field.append(_field("feature", 1, _F.TYPE_MESSAGE, _REPEATED, "Feature"))
    _map(m.add(name="FeatureLists"), "feature_list", 1, "FeatureList")
    m.add(name="Example").field.append(_field("features", 1, _F.TYPE_MESSAGE, type_name="Features"))
    m.add(name="SequenceExample").field.extend([
        _field("context", 1, _F.TYPE_MESSAGE, type_name="Features"),
        _field("feature_lists", 2, _F.TYPE_MESSAGE, type_name="FeatureLists")])
    return fd


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file())


def _cls(name):
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName("tensorflow." + name))


BytesList = _cls("BytesList")
FloatList = _cls("FloatList")
Int64List = _cls("Int64List")
Feature = _cls("Feature")
Features = _cls("Features")
FeatureList = _cls("FeatureList")
FeatureLists = _cls("FeatureLists")
Example = _cls("Example")
SequenceExample = _cls("SequenceExample")
