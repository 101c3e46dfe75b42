"""Seeded fuzz of the `tf.io` decoders: 200 mutated encodings per decoder, with TensorFlow's outcome for each.

Recording (needs real TensorFlow; tfcompat never imports it):

    /root/tfvenv/bin/python tools/record_decoder_fuzz.py   # writes tests/fixtures/decoder_fuzz.json.gz

The fixture holds every input and TF's outcome: the exception class name, or `ok:` and a digest of the
result. `tests/test_decoder_fuzz.py` replays the inputs through tfcompat with the same `outcome()`.
"""
import base64
import gzip
import hashlib
import json
import os
import random
import sys
import tempfile
import zlib

import numpy as np

SEED = 1402
PER_DECODER = 200
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "decoder_fuzz.json.gz")

# ---------------------------------------------------------------------------------------------- the calls

_CSV_DEFAULTS = [[0], [0.0], [""], [0]]


def _features(tf):
    return {"a": tf.io.FixedLenFeature([2], tf.int64, default_value=[0, 0]), "b": tf.io.VarLenFeature(tf.float32),
            "c": tf.io.FixedLenFeature([], tf.string, default_value="")}


def _records(tf, data, tmpdir, compression):
    path = os.path.join(tmpdir, "fuzz.tfrecord")
    with open(path, "wb") as f:
        f.write(data)
    out = []
    try:
        for r in tf.data.TFRecordDataset(path, compression_type=compression):
            out.append(r)
    except Exception as e:   # noqa: BLE001 - the outcome records the class and what came before it
        return _Partial(out, e)
    return out


class _Partial(Exception):
    def __init__(self, records, error):
        super().__init__()
        self.records, self.error = records, error


CALLS = {
    "decode_csv": lambda tf, d, _: tf.io.decode_csv(d, _CSV_DEFAULTS),
    "parse_tensor": lambda tf, d, _: tf.io.parse_tensor(d, tf.float32),
    "decode_png": lambda tf, d, _: tf.io.decode_png(d),
    "decode_jpeg": lambda tf, d, _: tf.io.decode_jpeg(d),
    "decode_image": lambda tf, d, _: tf.io.decode_image(d),
    "decode_raw": lambda tf, d, _: tf.io.decode_raw(d, tf.int32),
    "parse_example": lambda tf, d, _: tf.io.parse_example([d], _features(tf)),
    "parse_single_example": lambda tf, d, _: tf.io.parse_single_example(d, _features(tf)),
    "tfrecord": lambda tf, d, tmp: _records(tf, d, tmp, None),
    "tfrecord_gzip": lambda tf, d, tmp: _records(tf, d, tmp, "GZIP"),
    "tfrecord_zlib": lambda tf, d, tmp: _records(tf, d, tmp, "ZLIB"),
}
EXACT = {"decode_jpeg": False}     # JPEG pixels may differ (libjpeg DCT variants): compare outcome classes only


def _digest_into(h, x):
    if isinstance(x, dict):
        for k in sorted(x):
            h.update(k.encode())
            _digest_into(h, x[k])
    elif isinstance(x, (list, tuple)):
        h.update(b"[%d" % len(x))
        for v in x:
            _digest_into(h, v)
    elif hasattr(x, "dense_shape") and hasattr(x, "indices"):
        for part in (x.indices, x.values, x.dense_shape):
            _digest_into(h, part)
    else:
        a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
        h.update(repr(a.shape).encode())
        if a.dtype == object:
            for s in a.reshape(-1):
                h.update(b"%d:" % len(s) + s)
        else:
            h.update(a.dtype.str.encode() + np.ascontiguousarray(a).tobytes())


def outcome(tf, name, data, tmpdir):
    """`ok:<digest>` of what the decoder returns for `data`, or the class name of what it raises."""
    try:
        result = CALLS[name](tf, data, tmpdir)
    except Exception as e:   # noqa: BLE001 - the class is the outcome
        return type(e).__name__
    if isinstance(result, _Partial):
        h = hashlib.sha256()
        _digest_into(h, result.records)
        return f"{type(result.error).__name__} after {len(result.records)}:{h.hexdigest()[:16]}"
    h = hashlib.sha256()
    _digest_into(h, result)
    return "ok:" + h.hexdigest()[:16]


# ------------------------------------------------------------------------------------ valid encodings (TF)

def _masked_crc(data):
    """TFRecord's masked CRC-32C (own table implementation)."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    crc ^= 0xFFFFFFFF
    return ((crc >> 15 | crc << 17) + 0xA282EAD8) & 0xFFFFFFFF


def _tfrecord(records):
    import struct
    out = b""
    for r in records:
        head = struct.pack("<Q", len(r))
        out += head + struct.pack("<I", _masked_crc(head)) + r + struct.pack("<I", _masked_crc(r))
    return out


def seeds(tf):
    """Valid encodings per decoder, made by TensorFlow itself."""
    rng = np.random.RandomState(SEED)
    imgs = [rng.randint(0, 256, s).astype(np.uint8) for s in ((4, 3, 3), (5, 2, 1), (3, 3, 4), (2, 6, 2))]
    pngs = [tf.io.encode_png(i).numpy() for i in imgs]
    jpegs = [tf.io.encode_jpeg(i).numpy() for i in imgs if i.shape[2] in (1, 3)]
    ex = []
    for a, b, c in (([1, 2], [0.5, 1.5, 2.5], b"hi"), ([-7, 9], [], b""), ([3, 4], [1e9], b"\xff\x00")):
        e = tf.train.Example(features=tf.train.Features(feature={
            "a": tf.train.Feature(int64_list=tf.train.Int64List(value=a)),
            "b": tf.train.Feature(float_list=tf.train.FloatList(value=b)),
            "c": tf.train.Feature(bytes_list=tf.train.BytesList(value=[c]))}))
        ex.append(e.SerializeToString())
    recs = [_tfrecord([b"abc", b"", b"x" * 40]), _tfrecord(ex)]
    return {
        "decode_csv": [b'1,2.5,"a,b",4', b'-3,1e3,"x""y",0', b"7,,plain,8", b'0,-0.5,"",9'],
        "parse_tensor": [tf.io.serialize_tensor(tf.constant(rng.rand(2, 3).astype(np.float32))).numpy(),
                         tf.io.serialize_tensor(tf.constant(1.5)).numpy()],
        "decode_png": pngs,
        "decode_jpeg": jpegs,
        "decode_image": pngs,
        "decode_raw": [bytes(range(16)), b"abcdefgh"],
        "parse_example": ex,
        "parse_single_example": ex,
        "tfrecord": recs,
        "tfrecord_gzip": [gzip.compress(r, mtime=0) for r in recs],
        "tfrecord_zlib": [zlib.compress(r) for r in recs],
    }


# ----------------------------------------------------------------------------------------------- mutations

def mutate(rng, data):
    """One mutation of `data`: bit flips, truncation, a length-like field rewritten, random bytes, a splice."""
    b = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0 and b:                                   # flip 1-3 bits
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif kind == 1 and b:                                 # truncate
        del b[rng.randrange(len(b)):]
    elif kind == 2 and len(b) >= 4:                       # a 1/4/8-byte field set to a small, huge or random value
        width = rng.choice((1, 4, 8))
        i = rng.randrange(max(1, len(b) - width + 1))
        value = rng.choice((0, 1, 0x7F, 0xFF, 0xFFFFFFFF, 1 << 62, rng.getrandbits(64)))
        b[i:i + width] = (value & ((1 << 8 * width) - 1)).to_bytes(width, rng.choice(("little", "big")))
    elif kind == 3:                                       # overwrite a span with random bytes
        i = rng.randrange(len(b) + 1)
        b[i:i + rng.randint(1, 8)] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 8)))
    elif kind == 4:                                       # insert bytes (quotes, delimiters, high bytes, random)
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.choice((b'"', b",", b"\xff", b"\x80\x81", b"\n", bytes([rng.getrandbits(8)])))
    else:                                                 # entirely random bytes
        b = bytearray(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))
    return bytes(b)


def cases():
    """[(decoder, input bytes)]: each seed unchanged, then mutations (one to three) of random seeds."""
    import tensorflow as tf
    rng = random.Random(SEED)
    out = []
    for name, valid in seeds(tf).items():
        inputs = list(valid)
        while len(inputs) < PER_DECODER:
            data = rng.choice(valid)
            for _ in range(rng.randint(1, 3)):
                data = mutate(rng, data)
            inputs.append(data)
        out.extend((name, d) for d in inputs)
    return out


def main():
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in cases():
            rows.append([name, base64.b64encode(data).decode(), outcome(tf, name, data, tmp)])
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with gzip.open(FIXTURE, "wt", compresslevel=9) as f:
        json.dump({"seed": SEED, "tf_version": tf.__version__, "cases": rows}, f, separators=(",", ":"))
    counts = {}
    for name, _, result in rows:
        counts.setdefault(name, {}).setdefault(result.split(":")[0].split(" after")[0], 0)
        counts[name][result.split(":")[0].split(" after")[0]] += 1
    json.dump(counts, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
