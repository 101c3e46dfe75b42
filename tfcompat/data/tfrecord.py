"""Record file sources: `tf.data.TFRecordDataset` and `tf.data.FixedLengthRecordDataset`."""
import os
import struct

from tfcompat.data import structure as st
from tfcompat.data.dataset import UNKNOWN, Dataset
from tfcompat.data.inflate import InflatingReader
from tfcompat.data.readers import _names, _open, _string, parallel_reads, read_files
from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.util.crc32c import crc32c, mask

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
_LENGTH = struct.Struct("<QI")
_CRC = struct.Struct("<I")


def _read_error(cls, message):
    """TF's error for a failure while a reader dataset is iterated."""
    return errors.op_error(cls, f"{{{{function_node __wrapped__IteratorGetNext_output_types_1_device_{_CPU}}}}} "
                                f"{message}", "IteratorGetNext")


def _opened(path, compression):
    """The file's (decompressed) byte stream: compressed files inflate block by block (`InflatingReader`)."""
    try:
        if compression in ("GZIP", "ZLIB"):
            return InflatingReader(path, compression == "GZIP", _read_error)
        return _open(path, compression)
    except (errors.NotFoundError, FileNotFoundError):
        raise _read_error(errors.NotFoundError, f"{path}; No such file or directory") from None


def _compression(compression_type):
    """`compression_type` as TF's readers take it: None or a string (bytes, a scalar string tensor), kept as is."""
    if compression_type is None:
        return ""
    if isinstance(compression_type, Tensor):
        compression_type = compression_type._array()[()]
    if isinstance(compression_type, bytes):
        return compression_type.decode()
    if not isinstance(compression_type, str):
        raise TypeError(f"Expected string, but got {compression_type!r} of type '{type(compression_type).__name__}'.")
    return compression_type


def _remaining(f):
    """Bytes left in a plain file (None for a decompressing stream, which has no known size)."""
    if isinstance(f, InflatingReader):
        return None
    return os.fstat(f.fileno()).st_size - f.tell()


def read_records(f):
    """The records of an open TFRecord stream, CRCs checked (TF's DataLossError messages).

    A length field is trusted only as far as the bytes exist: a plain file's remaining size is checked before
    the record is read, and a decompressing stream yields only what it actually inflates.
    """
    offset = 0
    eof = "Read less bytes than requested" if not isinstance(f, InflatingReader) else "EOF reached"
    while True:
        header = f.read(12)
        if len(header) < 12:        # TF treats a partial header as the end of the file
            return
        length, length_crc = _LENGTH.unpack(header)
        if mask(crc32c(header[:8])) != length_crc:
            hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
            raise _read_error(errors.DataLossError, f"corrupted record at {offset}{hint}")
        left = _remaining(f)
        body = f.read(length + 4) if left is None or left >= length + 4 else b""
        if len(body) < length + 4:
            raise _read_error(errors.DataLossError, f"truncated record at {offset}' failed with {eof}")
        data = body[:length]
        if mask(crc32c(data)) != _CRC.unpack(body[length:])[0]:
            raise _read_error(errors.DataLossError, f"corrupted record at {offset + 12}")
        yield data
        offset += 16 + length


class _FileDataset(Dataset):
    def _compute_spec(self):
        return st.TensorSpec(TensorShape(()), dtypes.string)

    def _card(self):
        return UNKNOWN


@tf_export("data.TFRecordDataset", partial="file names given as a dataset")
class TFRecordDataset(_FileDataset):
    """The records of TFRecord files (optionally "GZIP"/"ZLIB" compressed), as scalar strings, file by file (or
    interleaved, one record per file in turn, with `num_parallel_reads`)."""

    _tf_name = "TFRecordDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        self._files = _names(filenames)
        kind = _compression(compression_type)
        self._compression = kind if kind in ("GZIP", "ZLIB") else ""     # TF reads any other value uncompressed
        self._parallel_reads = parallel_reads(num_parallel_reads)

    def _elements(self):
        return read_files(self._files, self._records, self._parallel_reads)

    def _records(self, path):
        with _opened(path, self._compression) as f:
            for record in read_records(f):
                yield _string(record)


@tf_export("data.FixedLengthRecordDataset", partial="file names given as a dataset")
class FixedLengthRecordDataset(_FileDataset):
    """Records of `record_bytes` bytes from files, after `header_bytes` and before `footer_bytes` of each."""

    _tf_name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        self._files = _names(filenames)
        self._record = int(record_bytes)
        self._header = int(header_bytes or 0)
        self._footer = int(footer_bytes or 0)
        self._compression = _compression(compression_type)
        self._parallel_reads = parallel_reads(num_parallel_reads)

    def _elements(self):
        if self._compression not in ("", "GZIP", "ZLIB"):
            raise _read_error(errors.InvalidArgumentError, "Unsupported compression_type.")
        return read_files(self._files, self._records, self._parallel_reads)

    def _records(self, path):
        with _opened(path, self._compression) as f:
            records = self._stream(f, path) if isinstance(f, InflatingReader) else self._plain(f, path)
            for record in records:
                yield _string(record)

    def _length_error(self, cls, path, body):
        return _read_error(cls, (
            f"Excluding the header ({self._header} bytes) and footer ({self._footer} bytes), input file \"{path}\" "
            f"has body length {body % (1 << 64)} bytes, which is not an exact multiple of the record length "
            f"({self._record} bytes)."))

    def _plain(self, f, path):
        """The records of an uncompressed file: its body length is checked first (TF: InvalidArgumentError)."""
        n = self._record
        body = os.fstat(f.fileno()).st_size - self._header - self._footer
        if body % (1 << 64) % n:
            raise self._length_error(errors.InvalidArgumentError, path, body)
        f.seek(self._header)
        for _ in range(body // n):
            yield f.read(n)

    def _stream(self, f, path):
        """The records of a decompressing stream, read one at a time ahead of the footer; a body that is no
        multiple of the record length fails after its whole records (TF: DataLossError)."""
        n, footer = self._record, self._footer
        short = len(f.read(self._header)) < self._header
        body, pending = 0, b""
        while not short:
            pending += f.read(n + footer - len(pending))
            if len(pending) < n + footer:
                break
            yield pending[:n]
            pending, body = pending[n:], body + n
        if short or len(pending) < footer:       # TF's reader fails here with an internal error
            raise _read_error(errors.InternalError, 'Iterator "FixedLengthRecordV2" returned `OutOfRange`. This '
                              "indicates an implementation error as `OutOfRange` errors are not expected to be "
                              "returned here. Original message: EOF reached")
        if len(pending) > footer:
            raise self._length_error(errors.DataLossError, path, body + len(pending) - footer)
