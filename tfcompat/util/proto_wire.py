"""Protocol-buffer wire primitives shared by the hand-written encoders (no protobuf dependency): varints and
length-delimited fields, byte for byte as protobuf's serializer writes them."""


def varint(n):
    """The base-128 varint of integer `n` (a negative int64 as its 64-bit two's complement: ten bytes)."""
    if n < 0:
        n += 1 << 64
    if n < 0x80:
        return bytes((n,))
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def length_delimited(number, payload):
    """Field `number` holding the bytes `payload` (wire type 2: key, length, payload)."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload
