"""TFRecord files: `tf.io.TFRecordOptions` and `tf.io.TFRecordWriter` (framing and compression as TF's)."""
import zlib

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.ops.io_ops.gfile import LOCAL_ONLY, local_path, os_error


@tf_export("io.TFRecordOptions", unsupported=("flush_mode", "compression_method"))
class TFRecordOptions:
    """Compression options of TFRecord files: `compression_type` "", "ZLIB" or "GZIP" (or TF's enum values 0, 1, 2),
    and zlib settings (the buffer sizes change no byte of the output: TF deflates without intermediate flushes)."""

    compression_type_map = {1: "ZLIB", 2: "GZIP", 0: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        self.get_compression_type_string(compression_type)
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
        """"", "ZLIB" or "GZIP" for an options object, a compression type (string or enum value) or None."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if options in cls.compression_type_map:
            return cls.compression_type_map[options]
        if options in cls.compression_type_map.values():
            return options
        raise ValueError(f'Not a valid compression_type: "{options}"')

    def _compressor(self):
        """A zlib compressor with TF's defaults (a given `window_bits` is used as is: GZIP adds 16 only to the
        default), or None without compression."""
        kind = self.get_compression_type_string(self)
        if not kind:
            return None
        wbits = zlib.MAX_WBITS + (16 if kind == "GZIP" else 0) if self.window_bits is None else self.window_bits
        level = zlib.Z_DEFAULT_COMPRESSION if self.compression_level is None else self.compression_level
        mem_level = 9 if self.mem_level is None else self.mem_level
        strategy = zlib.Z_DEFAULT_STRATEGY if self.compression_strategy is None else self.compression_strategy
        try:
            return zlib.compressobj(level, zlib.DEFLATED, wbits, mem_level, strategy)
        except ValueError:         # TF's writer aborts the process here (a failed CHECK on deflateInit's status)
            raise errors.InvalidArgumentError(None, None, "deflateInit failed with status-2") from None


@tf_export("io.TFRecordWriter", partial=LOCAL_ONLY)
class TFRecordWriter:
    """Writes records (bytes) to a TFRecord file, framed and optionally compressed exactly as TF does.

    The records go to a temporary file beside `path` that `close()` fsyncs and renames to `path`: until then
    (TF: from the constructor on) `path` keeps its previous content, and a killed writer never leaves half a
    file there.
    """

    def __init__(self, path, options=None):
        from tfcompat.util.atomic_file import AtomicFile      # imported on first use: `import tfcompat` stays lean
        from tfcompat.util.records import frame
        self._frame = frame
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
        data = self._frame(bytes(record))
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

