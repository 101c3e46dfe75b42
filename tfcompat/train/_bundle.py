"""TF's TensorBundle files: `PREFIX.index` (a LevelDB-format table) and `PREFIX.data-00000-of-00001`.

Index table: data blocks of prefix-compressed entries with restart points, an
empty metaindex block, an index block of block handles, and a 48-byte footer
ending in the table magic; every block carries a type byte and a masked
CRC-32C. The empty key holds a `BundleHeaderProto`; each tensor key holds a
`BundleEntryProto` (dtype, shape, shard, offset, size, masked CRC-32C of the
bytes). Data files hold raw little-endian tensor bytes; a string tensor is its
element lengths as varints, a masked CRC of the lengths, then the bytes.

Writers put every file in place by renaming a finished, fsynced temporary file (data first, index last);
readers raise `DataLossError` (or `NotFoundError`) naming the file and the problem.
"""
import math
import os
import shutil
import struct

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.train import _proto
from tfcompat.util import atomic_file
from tfcompat.util import crc32c as _crc32c

MAGIC = 0xDB4775248B80FB57
FOOTER = 48
BLOCK_SIZE = 262144          # TF's table::Options::block_size
RESTART_INTERVAL = 16
SUPPORTED = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 17, 18, 19, 22, 23}   # DataType enums with plain storage
VARIANT = 21     # listed (TF's tf.data iterator states), but its values cannot be read


def data_path(prefix, shard=0, num_shards=1):
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def index_path(prefix):
    return prefix + ".index"


def _loss(path, problem):
    return errors.DataLossError(None, None, f"{problem} (file: {path})")


# -- table (index file) -------------------------------------------------------------------------------------------------
def _block(entries, restart_interval):
    out, restarts, prev = bytearray(), [], b""
    for i, (key, value) in enumerate(entries):
        if i % restart_interval == 0:
            restarts.append(len(out))
            shared = 0
        else:
            shared = 0
            limit = min(len(prev), len(key))
            while shared < limit and prev[shared] == key[shared]:
                shared += 1
        out += _proto.varint(shared) + _proto.varint(len(key) - shared) + _proto.varint(len(value))
        out += key[shared:] + value
        prev = key
    if not restarts:
        restarts = [0]
    out += b"".join(struct.pack("<I", r) for r in restarts) + struct.pack("<I", len(restarts))
    return bytes(out)


def _with_trailer(block):
    trailer = b"\x00"
    return block + trailer + struct.pack("<I", _crc32c.mask(_crc32c.crc32c(block + trailer)))


def _handle(offset, size):
    return _proto.varint(offset) + _proto.varint(size)


def _separator(start, limit):
    """LevelDB's FindShortestSeparator: a short key k with start <= k < limit (the index key of a block)."""
    n = 0
    while n < min(len(start), len(limit)) and start[n] == limit[n]:
        n += 1
    if n < min(len(start), len(limit)) and start[n] < 0xFF and start[n] + 1 < limit[n]:
        return start[:n] + bytes([start[n] + 1])
    return start


def _successor(key):
    """LevelDB's FindShortSuccessor: a short key >= `key` (the index key of the last block)."""
    for i, b in enumerate(key):
        if b != 0xFF:
            return key[:i] + bytes([b + 1])
    return key


def table_bytes(items):
    """The bytes of a table holding sorted (key, value) `items`."""
    out, index, block, size = [], [], [], 0
    offset = 0

    def flush(next_key):
        nonlocal offset, block, size
        raw = _block(block, RESTART_INTERVAL)
        last = block[-1][0]
        index.append((_separator(last, next_key) if next_key is not None else _successor(last),
                      _handle(offset, len(raw))))
        out.append(_with_trailer(raw))
        offset += len(raw) + 5
        block, size = [], 0

    for key, value in items:
        if size >= BLOCK_SIZE:
            flush(key)
        block.append((key, value))
        size += len(key) + len(value) + 8
    if block:
        flush(None)
    meta = _block([], RESTART_INTERVAL)
    meta_handle = _handle(offset, len(meta))
    out.append(_with_trailer(meta))
    offset += len(meta) + 5
    raw = _block(index, 1)
    index_handle = _handle(offset, len(raw))
    out.append(_with_trailer(raw))
    footer = meta_handle + index_handle
    out.append(footer + b"\x00" * (40 - len(footer)) + struct.pack("<Q", MAGIC))
    return b"".join(out)


def _read_block(path, buf, handle, what):
    try:
        offset, pos = _proto.read_varint(handle, 0)
        size, pos = _proto.read_varint(handle, pos)
    except _proto.ProtoError:
        raise _loss(path, f"corrupt {what} block handle") from None
    if offset + size + 5 > len(buf) - FOOTER:
        raise _loss(path, f"{what} block handle points past the end of the table (truncated file?)")
    body = buf[offset:offset + size + 1]
    (stored,) = struct.unpack_from("<I", buf, offset + size + 1)
    if _crc32c.mask(_crc32c.crc32c(body)) != stored:
        raise _loss(path, f"checksum mismatch in {what} block at offset {offset}")
    if body[-1] != 0:
        raise _loss(path, f"unsupported compression type {body[-1]} in {what} block")
    return body[:-1]


def _block_entries(path, block, what):
    if len(block) < 4:
        raise _loss(path, f"{what} block too short")
    (count,) = struct.unpack_from("<I", block, len(block) - 4)
    limit = len(block) - 4 - 4 * count
    if count == 0 or limit < 0:
        raise _loss(path, f"bad restart array in {what} block")
    pos, prev, out = 0, b"", []
    try:
        while pos < limit:
            shared, pos = _proto.read_varint(block, pos, limit)
            unshared, pos = _proto.read_varint(block, pos, limit)
            vlen, pos = _proto.read_varint(block, pos, limit)
            if shared > len(prev) or pos + unshared + vlen > limit:
                raise _proto.ProtoError("entry out of bounds")
            key = prev[:shared] + block[pos:pos + unshared]
            pos += unshared
            out.append((key, block[pos:pos + vlen]))
            pos += vlen
            prev = key
    except _proto.ProtoError as e:
        raise _loss(path, f"corrupt entry in {what} block: {e}") from None
    return out


def read_table(path):
    """The (key, value) pairs of the table file at `path`, in order, checking every block's CRC."""
    buf = _read_file(path)
    if len(buf) < FOOTER:
        raise _loss(path, f"file is too short ({len(buf)} bytes) to be an sstable; truncated or not a checkpoint index")
    if struct.unpack_from("<Q", buf, len(buf) - 8)[0] != MAGIC:
        raise _loss(path, "not an sstable (bad magic number); perhaps your file is in a different file format")
    footer = buf[len(buf) - FOOTER:len(buf) - 8]
    try:
        _, pos = _proto.read_varint(footer, 0)
        _, pos = _proto.read_varint(footer, pos)
        _, end = _proto.read_varint(footer, pos)
        _, end = _proto.read_varint(footer, end)
    except _proto.ProtoError:
        raise _loss(path, "corrupt table footer") from None
    items, last = [], None
    for _, handle in _block_entries(path, _read_block(path, buf, footer[pos:end], "index"), "index"):
        for key, value in _block_entries(path, _read_block(path, buf, handle, "data"), "data"):
            if last is not None and key <= last:
                raise _loss(path, "table keys are not in increasing order")
            items.append((key, value))
            last = key
    return items


def _read_file(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        where = path[:-6] if path.endswith(".index") else path
        raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                               f"matching files for {where}") from None
    except IsADirectoryError:
        raise _loss(path, f"Unable to open table file {path}: Is a directory") from None


# -- tensors <-> bytes ------------------------------------------------------------------------------------------------
def _lengths_crc(lengths):
    """TF's CRC of string lengths: each as uint32 (uint64 if larger), little-endian."""
    return _crc32c.crc32c(b"".join(struct.pack("<I" if n <= 0xFFFFFFFF else "<Q", n) for n in lengths))


def tensor_bytes(dtype, value):
    """(bytes, entry CRC) of a torch tensor (or object array of bytes for `dtype` string), little-endian."""
    if dtype is dtypes.string:
        items = [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in np.asarray(value).reshape(-1)]
        crc = _lengths_crc([len(v) for v in items])
        tail = struct.pack("<I", _crc32c.mask(crc)) + b"".join(items)
        return b"".join(_proto.varint(len(v)) for v in items) + tail, _crc32c.extend(crc, tail)
    t = value.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    t = t.contiguous()
    if t.dtype in (torch.bfloat16, torch.uint16, torch.uint32, torch.uint64):
        t = t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])
    if t.dtype is torch.bool:
        t = t.view(torch.uint8)
    raw = memoryview(t.numpy()).cast("B") if t.numel() else b""
    return raw, _crc32c.crc32c(raw)


def _numeric_from_bytes(path, key, dtype, shape, raw, crc):
    if _crc32c.mask(_crc32c.crc32c(raw)) != crc:
        raise _loss(path, f"checksum mismatch for tensor {key}: the data file is corrupt")
    count = math.prod(shape)
    if len(raw) != count * dtype.size:
        raise _loss(path, f"tensor {key} holds {len(raw)} bytes but {dtype.name}{list(shape)} needs {count * dtype.size}")
    tdtype = dtype.torch_dtype
    if tdtype in (torch.bfloat16, torch.uint16, torch.uint32, torch.uint64):
        base = {2: torch.int16, 4: torch.int32, 8: torch.int64}[dtype.size]
        t = torch.frombuffer(bytearray(raw), dtype=base).view(tdtype) if count else torch.empty(0, dtype=tdtype)
    elif tdtype is torch.bool:
        t = torch.frombuffer(bytearray(raw), dtype=torch.uint8) if count else torch.empty(0, dtype=torch.uint8)
        if count and int(t.max()) > 1:
            raise _loss(path, f"tensor {key} has bool bytes other than 0 and 1")
        t = t.bool()
    else:
        t = torch.frombuffer(bytearray(raw), dtype=tdtype) if count else torch.empty(0, dtype=tdtype)
    return t.reshape(shape)


def _string_from_bytes(path, key, shape, raw, crc):
    count = math.prod(shape)
    lengths, pos = [], 0
    try:
        for _ in range(count):
            n, pos = _proto.read_varint(raw, pos)
            lengths.append(n)
    except _proto.ProtoError:
        raise _loss(path, f"corrupt string lengths in tensor {key}") from None
    if pos + 4 > len(raw) or pos + 4 + sum(lengths) != len(raw):
        raise _loss(path, f"string tensor {key} has the wrong size")
    (stored,) = struct.unpack_from("<I", raw, pos)
    lengths_crc = _lengths_crc(lengths)
    if _crc32c.mask(lengths_crc) != stored or _crc32c.mask(_crc32c.extend(lengths_crc, raw[pos:])) != crc:
        raise _loss(path, f"checksum mismatch for string tensor {key}: the data file is corrupt")
    pos += 4
    out = np.empty(count, dtype=object)
    for i, n in enumerate(lengths):
        out[i] = bytes(raw[pos:pos + n])
        pos += n
    return out.reshape(shape)


# -- bundle -----------------------------------------------------------------------------------------------------------
def previous_data_path(path):
    """Where an overwrite keeps the old data file (a hard link) until the new index is in place."""
    directory, name = os.path.split(path)
    return os.path.join(directory, f".{name}.tfcompat-prev")


def _keep_previous(prefix):
    """Before overwriting the bundle at `prefix`: links its data file aside, so that a kill between the
    renames of the data and the index leaves the old index with the data it describes (readers fall back
    to the kept file). A link left by an interrupted overwrite is first resolved to the file the index
    describes."""
    data, index = data_path(prefix), index_path(prefix)
    kept = previous_data_path(data)
    if os.path.lexists(kept):
        if not os.path.exists(data) or (not os.path.samefile(data, kept) and not _index_matches(prefix, data)):
            os.replace(kept, data)
        else:
            os.unlink(kept)
    if not (os.path.exists(index) and os.path.exists(data)):
        return None
    try:
        os.link(data, kept)
    except FileExistsError:
        return None                       # another writer of this prefix made it just now: it is theirs
    except OSError:                       # no hard links here: a copy (a new file: never writes through a link)
        atomic_file.atomic_write(kept, lambda tmp: shutil.copyfile(data, tmp), sync_dir=False)
    atomic_file.sync_directory(os.path.dirname(prefix))
    return kept


def _index_matches(prefix, data):
    """Whether every tensor the index at `prefix` lists reads back from `data` with a correct checksum."""
    try:
        reader = BundleReader(prefix)
        for key, entry in reader.entries.items():
            if entry["dtype"] != VARIANT:
                reader.read_from(data, key)
    except errors.OpError:
        return False
    return True


def write_bundle(prefix, tensors, sync_dir=True):
    """Writes {key: (DType, shape tuple, torch tensor or object array)} as a TensorBundle at `prefix`.

    Data is laid out in the dict's order (TF: object-graph order), the object graph last. The data file
    lands first, then the index, each atomically: a reader that finds the index finds complete data, and a
    kill during an overwrite leaves the previous bundle readable. With `sync_dir=False` the caller fsyncs the
    directory (a state file written next does it for both).
    """
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    order = sorted(tensors, key=lambda k: k == "_CHECKPOINTABLE_OBJECT_GRAPH")
    chunks, entries, offset = [], {}, 0
    for key in order:
        dtype, shape, value = tensors[key]
        raw, crc = tensor_bytes(dtype, value)
        size = len(raw)
        entries[key.encode("utf-8")] = _proto.encode_entry(dtype.as_datatype_enum, shape, offset, size,
                                                           _crc32c.mask(crc))
        chunks.append(raw)
        offset += size
    kept = _keep_previous(prefix)
    atomic_file.write_bytes(data_path(prefix), chunks, sync_dir=False)
    items = [(b"", _proto.encode_header())] + sorted(entries.items())
    atomic_file.write_bytes(index_path(prefix), [table_bytes(items)], sync_dir)
    if kept is not None:
        try:
            os.unlink(kept)
        except FileNotFoundError:
            pass


class BundleReader:
    """Reads the tensors of the TensorBundle at `prefix`; all problems are DataLossError/NotFoundError."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.index = index_path(prefix)
        items = read_table(self.index)
        if not items or items[0][0] != b"":
            raise _loss(self.index, "no bundle header (empty key) in the index; not a TensorBundle")
        try:
            header = _proto.decode_header(items[0][1])
        except _proto.ProtoError as e:
            raise _loss(self.index, f"corrupt BundleHeaderProto: {e}") from None
        if header["endianness"] != 0:
            raise NotImplementedError("reading big-endian checkpoints is not supported by tfcompat")
        if header["min_consumer"] > _proto.BUNDLE_VERSION or _proto.BUNDLE_VERSION in header["bad_consumers"]:
            raise _loss(self.index, f"checkpoint needs bundle reader version {header['min_consumer']}; this reader is "
                                    f"version {_proto.BUNDLE_VERSION}")
        self.num_shards = header["num_shards"]
        if self.num_shards < 1:
            raise _loss(self.index, f"bad shard count {self.num_shards} in the bundle header")
        self.entries = {}
        for key, value in items[1:]:
            try:
                name = key.decode("utf-8")
                entry = _proto.decode_entry(value)
            except (UnicodeDecodeError, _proto.ProtoError) as e:
                raise _loss(self.index, f"corrupt BundleEntryProto for key {key!r}: {e}") from None
            if entry["sliced"]:
                raise NotImplementedError(f"checkpoint tensor {name} is partitioned (slices); tfcompat reads whole tensors only")
            if entry["dtype"] not in SUPPORTED and entry["dtype"] != VARIANT:
                raise _loss(self.index, f"tensor {name} has unsupported dtype enum {entry['dtype']}")
            if entry["shard_id"] >= self.num_shards:
                raise _loss(self.index, f"tensor {name} is in shard {entry['shard_id']} of {self.num_shards}")
            self.entries[name] = entry

    def dtype(self, key):
        return dtypes.as_dtype(self.entries[key]["dtype"])

    def shape(self, key):
        return self.entries[key]["shape"]

    def read(self, key):
        """The value of tensor `key`: a torch tensor, or an object array of bytes for strings.

        If the data file does not match the index and an interrupted overwrite left the previous data file
        aside, the tensor is read from that one (the index still describes it).
        """
        entry = self.entries[key]
        if entry["dtype"] == VARIANT:
            raise errors.InternalError(None, None, "Tensorflow type 21 not convertible to numpy dtype.")
        path = data_path(self.prefix, entry["shard_id"], self.num_shards)
        try:
            return self.read_from(path, key)
        except errors.DataLossError:
            kept = previous_data_path(path)
            if not os.path.exists(kept):
                raise
            try:
                return self.read_from(kept, key)
            except errors.OpError:
                pass
            raise

    def read_from(self, path, key):
        """Tensor `key` read from the data file `path`, checked against its index entry."""
        entry = self.entries[key]
        try:
            with open(path, "rb") as f:
                f.seek(0, os.SEEK_END)
                if entry["offset"] + entry["size"] > f.tell():
                    raise _loss(path, f"tensor {key} lies past the end of the data file (truncated file?)")
                f.seek(entry["offset"])
                raw = f.read(entry["size"])
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"Data file for checkpoint {self.prefix} not found: {path}") from None
        if entry["crc32c"] is None:
            raise _loss(self.index, f"tensor {key} has no checksum")
        dtype = dtypes.as_dtype(entry["dtype"])
        if dtype is dtypes.string:
            return _string_from_bytes(path, key, entry["shape"], raw, entry["crc32c"])
        return _numeric_from_bytes(path, key, dtype, entry["shape"], raw, entry["crc32c"])
