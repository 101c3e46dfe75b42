"""TFRecord files: `tf.io.TFRecordOptions` and `tf.io.TFRecordWriter` (framing and compression as TF's)."""
import zlib

from tfcompat.framework.export import tf_export
from tfcompat.ops.io_ops.gfile import local_path, os_error
from tfcompat.util.atomic_file import AtomicFile
from tfcompat.util.records import frame

_COMPRESSION = {None: "", "": "", "GZIP": "GZIP", "ZLIB": "ZLIB"}


def _compression_name(compression_type):
    if isinstance(compression_type, TFRecordOptions):
        return compression_type.compression_type or ""
    if compression_type not in _COMPRESSION:
        raise ValueError(f'Not a valid compression_type: "{compression_type}"')
    return _COMPRESSION[compression_type]


@tf_export("io.TFRecordOptions")
class TFRecordOptions:
    """Compression options of TFRecord files: `compression_type` "", "ZLIB" or "GZIP", and zlib settings."""

    compression_type_map = {"ZLIB": 1, "GZIP": 2, "": 0}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        _compression_name(compression_type)
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """"", "ZLIB" or "GZIP" for an options object, a compression type string or None."""
        return _compression_name(options)

    def _compressor(self):
        kind = _compression_name(self)
        if not kind:
            return None
        if self.flush_mode is not None or self.compression_method is not None:
            raise NotImplementedError("TFRecordOptions(flush_mode=..., compression_method=...)")
        wbits = self.window_bits or zlib.MAX_WBITS
        level = -1 if self.compression_level is None else self.compression_level
        strategy = self.compression_strategy or zlib.Z_DEFAULT_STRATEGY
        return zlib.compressobj(level, zlib.DEFLATED, wbits + 16 if kind == "GZIP" else wbits,
                                self.mem_level or 9, strategy)


@tf_export("io.TFRecordWriter")
class TFRecordWriter:
    """Writes records (bytes) to a TFRecord file, framed and optionally compressed exactly as TF does.

    The records go to a temporary file beside `path` that `close()` fsyncs and renames to `path`: until then
    (TF: from the constructor on) `path` keeps its previous content, and a killed writer never leaves half a
    file there.
    """

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_type=options)
        self._zlib = options._compressor()
        p = local_path(path)
        try:
            self._out = AtomicFile(p)
        except OSError as e:
            raise os_error(e, p) from None
        self._f = self._out.file

    def write(self, record):
        """Appends one record (bytes or str)."""
        if isinstance(record, str):
            record = record.encode("utf-8")
        data = frame(bytes(record))
        self._f.write(self._zlib.compress(data) if self._zlib is not None else data)

    def flush(self):
        self._f.flush()

    def close(self):
        """Finishes the file and puts it at its path (fsync and rename)."""
        if self._f.closed:
            return
        try:
            if self._zlib is not None:
                self._f.write(self._zlib.flush())
            self._out.commit()
        except OSError as e:
            raise os_error(e, self._out.path) from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        f = getattr(self, "_f", None)
        if f is not None and not f.closed:
            self.close()

