"""`TestCase.assertProtoEquals` for protocol buffer messages (tf.train.Example, summaries' protos...), as TF's
`util/protobuf/compare.py`: equal by fields (repeated fields in order), else a text-format diff after normalising
numbers (in place, as TF: int64/int32 as int, float rounded to 6 places, double to 7)."""
import collections.abc
import difflib


def _pool(message):
    return message.DESCRIPTOR.file.pool


def _as_fields(pb):
    from google.protobuf import message
    if isinstance(pb, message.Message):
        return {desc.number: value for desc, value in pb.ListFields()}
    if isinstance(pb, collections.abc.Mapping):
        return dict(pb.items())
    if not isinstance(pb, (str, bytes)):
        try:
            return dict(enumerate(list(iter(pb))))
        except TypeError:
            pass
    return pb


def proto_eq(a, b):
    """Whether two messages (or field values) are equal, field by field."""
    a, b = _as_fields(a), _as_fields(b)
    if not isinstance(a, dict) or not isinstance(b, dict):
        return a == b
    for tag in set(a) | set(b):
        if tag not in a or tag not in b or not proto_eq(a[tag], b[tag]):
            return False
    return True


def normalize_numbers(pb):
    """TF's NormalizeNumberFields: the number fields of `pb` (recursively) with normalised types and precision."""
    from google.protobuf import descriptor
    fd = descriptor.FieldDescriptor
    for desc, values in pb.ListFields():
        repeated = desc.is_repeated if hasattr(desc, "is_repeated") else desc.label == fd.LABEL_REPEATED
        if not repeated:
            values = [values]
        normalized = None
        if desc.type in (fd.TYPE_INT64, fd.TYPE_UINT64, fd.TYPE_SINT64, fd.TYPE_INT32, fd.TYPE_UINT32,
                         fd.TYPE_SINT32, fd.TYPE_ENUM):
            normalized = [int(x) for x in values]
        elif desc.type == fd.TYPE_FLOAT:
            normalized = [round(x, 6) for x in values]
        elif desc.type == fd.TYPE_DOUBLE:
            normalized = [round(float(x), 7) for x in values]
        if normalized is not None:
            if repeated:
                pb.ClearField(desc.name)
                getattr(pb, desc.name).extend(normalized)
            else:
                setattr(pb, desc.name, normalized[0])
        if desc.type in (fd.TYPE_MESSAGE, fd.TYPE_GROUP):
            if desc.type == fd.TYPE_MESSAGE and desc.message_type.GetOptions().map_entry:
                if desc.message_type.fields_by_number[2].type == fd.TYPE_MESSAGE:
                    for v in values.values():
                        normalize_numbers(v)
            else:
                for v in values:
                    normalize_numbers(v)
    return pb


def assert_proto_equal(test, a, b, msg=None):
    """TF's `compare.assertProtoEqual(normalize_numbers=True)`: fails with the text formats' line diff."""
    from google.protobuf import text_format
    for pb in (a, b):
        errors = pb.FindInitializationErrors()
        if errors:
            test.fail("Initialization errors: %s\n%s" % (errors, pb))
        normalize_numbers(pb)
    a_str = text_format.MessageToString(a, descriptor_pool=_pool(a))
    b_str = text_format.MessageToString(b, descriptor_pool=_pool(b))
    if len(a_str) < 2 ** 16 and len(b_str) < 2 ** 16:
        test.assertMultiLineEqual(a_str, b_str, msg=msg)
    else:
        diff = "".join(difflib.unified_diff(a_str.splitlines(True), b_str.splitlines(True)))
        if diff:
            test.fail("%s :\n%s" % (msg, diff))


def assert_proto_equals(test, expected_message_maybe_ascii, validate_message, msg=None):
    """`expected` (a message of the same type, or its text format) equals `validate_message`."""
    from google.protobuf import message, text_format
    if isinstance(expected_message_maybe_ascii, type(validate_message)):
        expected = expected_message_maybe_ascii
    elif isinstance(expected_message_maybe_ascii, (str, bytes)) and isinstance(validate_message, message.Message):
        expected = type(validate_message)()
        text_format.Merge(expected_message_maybe_ascii, expected, descriptor_pool=_pool(validate_message))
    else:
        raise AssertionError("Can't compare protos of type %s and %s." % (type(expected_message_maybe_ascii),
                                                                           type(validate_message)))
    if not proto_eq(expected, validate_message):
        assert_proto_equal(test, expected, validate_message, msg=msg)
