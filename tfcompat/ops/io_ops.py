"""`tf.io`: local file I/O (`tf.io.gfile`, `read_file`), TFRecord writing, `tf.train.Example` parsing,
tensor serialization, CSV and PNG/JPEG codecs.

Only the local file system is supported (paths without a scheme, or `file://`).
"""
import collections
import glob as _glob
import os
import re
import shutil
import struct
import zlib

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.ops import example_wire
from tfcompat.ops.string_ops import _strings
from tfcompat.util import encoders

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def _kernel_error(cls, message, op, function=None, name=None):
    """TF's eager kernel error: `{{function_node __wrapped__<function>_device_<cpu>}} <message> [Op:<op>]`."""
    return errors.op_error(cls, f"{{{{function_node __wrapped__{function or op}_device_{_CPU}}}}} {message}", op, name)


def _path(path):
    """A local file system path from a str/bytes/PathLike/scalar string tensor."""
    if isinstance(path, Tensor):
        path = path._array()[()]
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    scheme, sep, rest = path.partition("://")
    if sep and "/" not in scheme:
        if scheme != "file":
            raise NotImplementedError(f"file system scheme '{scheme}' (file: '{path}'): tfcompat's tf.io supports "
                                      "local files only")
        return rest
    return path


def _os_error(e, path):
    """TF's error for a failed local file system call."""
    if isinstance(e, FileNotFoundError) or isinstance(e, NotADirectoryError):
        return errors.NotFoundError(None, None, f"{path}; No such file or directory")
    if isinstance(e, IsADirectoryError):
        return errors.FailedPreconditionError(None, None, f"{path}; Is a directory")
    if isinstance(e, PermissionError):
        return errors.PermissionDeniedError(None, None, f"{path}; Permission denied")
    if isinstance(e, FileExistsError):
        return errors.AlreadyExistsError(None, None, f"{path}; File exists")
    return errors.UnknownError(None, None, f"{path}; {e.strerror}")


def _string(value):
    out = np.empty((), dtype=object)
    out[()] = value
    return wrap(out)


def _string_vector(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return wrap(out)


# ---------------------------------------------------------------------------------------------- tf.io.gfile

@tf_export("io.gfile.exists")
def exists(path):
    """Whether `path` exists."""
    return os.path.exists(_path(path))


@tf_export("io.gfile.isdir")
def isdir(path):
    """Whether `path` is a directory."""
    return os.path.isdir(_path(path))


@tf_export("io.gfile.makedirs")
def makedirs(path):
    """Creates a directory and its missing parents (no error if it exists)."""
    p = _path(path)
    try:
        os.makedirs(p, exist_ok=True)
    except OSError as e:
        raise _os_error(e, p) from None


@tf_export("io.gfile.mkdir")
def mkdir(path):
    """Creates a directory whose parent exists (no error if it exists)."""
    p = _path(path)
    if os.path.isdir(p):
        return
    try:
        os.mkdir(p)
    except OSError as e:
        raise _os_error(e, p) from None


@tf_export("io.gfile.listdir")
def listdir(path):
    """The names of the entries of directory `path`."""
    p = _path(path)
    if not os.path.isdir(p):
        raise errors.NotFoundError(None, None, f"Could not find directory {p}")
    return os.listdir(p)


@tf_export("io.gfile.glob")
def glob(pattern):
    """The sorted paths matching a pattern (or a list of patterns); `*` also matches dot files."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else pattern
    out = []
    for p in patterns:
        out.extend(sorted(_glob.glob(_path(p), include_hidden=True)))
    return out


@tf_export("io.gfile.remove")
def remove(path):
    """Deletes the file `path`."""
    p = _path(path)
    try:
        os.remove(p)
    except OSError as e:
        raise _os_error(e, p) from None


@tf_export("io.gfile.rmtree")
def rmtree(path):
    """Deletes `path` and everything under it."""
    p = _path(path)
    if not os.path.lexists(p):
        raise errors.NotFoundError(None, None, f"{p} not found")
    if os.path.isdir(p) and not os.path.islink(p):
        shutil.rmtree(p)
    else:
        os.remove(p)


def _check_target(path, overwrite):
    if not overwrite and os.path.exists(path):
        raise errors.AlreadyExistsError(None, None, "file already exists")


@tf_export("io.gfile.rename")
def rename(src, dst, overwrite=False):
    """Renames `src` to `dst` (AlreadyExistsError if `dst` exists, unless `overwrite`)."""
    s, d = _path(src), _path(dst)
    _check_target(d, overwrite)
    try:
        os.replace(s, d)
    except OSError as e:
        raise _os_error(e, s) from None


@tf_export("io.gfile.copy")
def copy(src, dst, overwrite=False):
    """Copies file `src` to `dst` (AlreadyExistsError if `dst` exists, unless `overwrite`)."""
    s, d = _path(src), _path(dst)
    _check_target(d, overwrite)
    try:
        shutil.copyfile(s, d)
    except OSError as e:
        raise _os_error(e, s) from None


FileStatistics = collections.namedtuple("FileStatistics", ["length", "mtime_nsec", "is_directory"])


@tf_export("io.gfile.stat")
def stat(path):
    """`length` (bytes), `mtime_nsec` and `is_directory` of `path`."""
    p = _path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        raise _os_error(e, p) from None
    is_dir = os.path.isdir(p)
    return FileStatistics(0 if is_dir else st.st_size, st.st_mtime_ns, is_dir)


@tf_export("io.gfile.walk")
def walk(top, topdown=True, onerror=None):
    """`(dirname, subdirectory names, file names)` for each directory under `top`, as `os.walk`."""
    return os.walk(_path(top), topdown=topdown, onerror=onerror)


@tf_export("io.gfile.join")
def join(path, *paths):
    """Joins path components (an absolute component restarts the path)."""
    return os.path.join(path, *paths)


@tf_export("io.gfile.get_registered_schemes")
def get_registered_schemes():
    """The file system schemes tfcompat supports: local files only."""
    return ["file", ""]


_MODES = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}


@tf_export("io.gfile.GFile")
class GFile:
    """A local file with TF's `GFile` API; opened on first use, text modes read `str` (UTF-8)."""

    def __init__(self, name, mode="r"):
        plain = mode.replace("b", "")
        if plain not in _MODES:
            raise errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name = name
        self._path = _path(name)
        self._mode = mode
        self._binary = "b" in mode
        self._readable = plain[0] == "r" or "+" in plain
        self._writable = plain[0] != "r" or "+" in plain
        self._f = None

    name = property(lambda self: self._name)
    mode = property(lambda self: self._mode)

    def _file(self):
        if self._f is None:
            try:
                self._f = open(self._path, _MODES[self._mode.replace("b", "")])
            except OSError as e:
                raise _os_error(e, self._path) from None
        return self._f

    def _reader(self):
        if not self._readable:
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        return self._file()

    def _out(self, data):
        return data if self._binary else data.decode("utf-8")

    def read(self, n=-1):
        """Up to `n` bytes (all when `n` is -1): `bytes` in binary modes, `str` in text modes."""
        return self._out(self._reader().read(-1 if n is None else n))

    def readline(self):
        return self._out(self._reader().readline())

    def readlines(self):
        return [self._out(line) for line in self._reader().readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self._reader().readline()
        if not line:
            raise StopIteration
        return self._out(line)

    next = __next__

    def write(self, file_content):
        """Appends `file_content` (str, encoded as UTF-8, or bytes)."""
        if not self._writable:
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        if isinstance(file_content, str):
            file_content = file_content.encode("utf-8")
        self._file().write(file_content)

    def tell(self):
        return self._file().tell()

    def seek(self, offset=None, whence=0, position=None):
        """Moves to `offset` (or the deprecated `position`) relative to `whence` (0, 1 or 2)."""
        self._file().seek(position if offset is None else offset, whence)

    def seekable(self):
        return True

    def size(self):
        """The file's size in bytes."""
        if self._f is not None:
            self._f.flush()
        return stat(self._path).length

    def flush(self):
        if self._f is not None:
            self._f.flush()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ------------------------------------------------------------------------------------------ file tensor ops

@tf_export("io.read_file")
def read_file(filename, name=None):
    """The contents of file `filename` as a scalar string tensor."""
    p = _path(filename)
    try:
        with open(p, "rb") as f:
            return _string(f.read())
    except OSError as e:
        err = _os_error(e, p)
        raise _kernel_error(type(err), err.message, "ReadFile") from None


@tf_export("io.write_file")
def write_file(filename, contents, name=None):
    """Writes the scalar string `contents` to `filename`, creating missing parent directories."""
    p = _path(filename)
    data = _strings(contents, "WriteFile")[()]
    parent = os.path.dirname(p)
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    except OSError as e:
        err = _os_error(e, p)
        raise _kernel_error(type(err), err.message, "WriteFile") from None


@tf_export("io.matching_files")
def matching_files(pattern, name=None):
    """The files matching a glob pattern (or each of a vector of patterns), sorted per pattern."""
    patterns = _strings(pattern, "MatchingFiles").reshape(-1)
    found = []
    for p in patterns:
        found.extend(f.encode() for f in sorted(_glob.glob(_path(p), include_hidden=True)))
    return _string_vector(found)


# ------------------------------------------------------------------------------------------------ TFRecord

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
        from tfcompat.util.atomic_file import AtomicFile
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_type=options)
        self._zlib = options._compressor()
        p = _path(path)
        try:
            self._out = AtomicFile(p)
        except OSError as e:
            raise _os_error(e, p) from None
        self._f = self._out.file

    def write(self, record):
        """Appends one record (bytes or str)."""
        from tfcompat.util.records import frame
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
            raise _os_error(e, self._out.path) from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        f = getattr(self, "_f", None)
        if f is not None and not f.closed:
            self.close()


# ------------------------------------------------------------------------------------ tf.train.Example parsing

@tf_export("io.FixedLenFeature")
class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature of fixed `shape` and `dtype` (float32, int64 or string); required unless `default_value`."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


@tf_export("io.VarLenFeature")
class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A variable-length feature, parsed to a `tf.SparseTensor`."""


@tf_export("io.FixedLenSequenceFeature")
class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature holding a sequence of items of `shape` (a dense `[n, *shape]` tensor; padded in batches)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


_KIND = {"float32": ("float_list", "float"), "int64": ("int64_list", "int64"), "string": ("bytes_list", "string")}


def _feature_spec(features):
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    sparse, dense = [], []
    for key in sorted(features):
        spec = features[key]
        if isinstance(spec, VarLenFeature):
            sparse.append(key)
        elif isinstance(spec, (FixedLenFeature, FixedLenSequenceFeature)):
            if isinstance(spec, FixedLenSequenceFeature) and not spec.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            dense.append(key)
        else:
            raise NotImplementedError(f"parsing features of type {type(spec).__name__}")
        dt = dtypes.as_dtype(spec.dtype).name
        if dt not in _KIND:
            attr = "sparse_types" if key in sparse else "Tdense"
            raise errors.op_error(errors.InvalidArgumentError, f"Value for attr '{attr}' of {dt} is not in the list "
                                  "of allowed values: float, int64, string", "ParseExampleV2", None)
    return sparse, dense


class _Parser:
    """Parses serialized `tf.train.Example`s with TF's checks and messages."""

    def __init__(self, serialized, features):
        self.arr = _strings(serialized, "ParseExampleV2")
        self.sparse, self.dense = _feature_spec(features)
        self.features = features
        ns = len(self.sparse)
        self.fn = (f"ParseExampleV2_Tdense_{len(self.dense)}_num_sparse_{ns}_ragged_split_types_0_"
                   f"ragged_value_types_0_sparse_types_{ns}")
        if self.arr.ndim > 1:
            raise self.error(f"Expected serialized to be a scalar or vector, got shape: "
                             f"[{','.join(map(str, self.arr.shape))}]")
        self.single = self.arr.ndim == 0
        self.examples = []
        for s in self.arr.reshape(-1):
            feats = example_wire.parse_example(s)
            if feats is None:
                raise self.error(f"Could not parse example input, value: '{repr(s)[2:-1]}'")
            self.examples.append(feats)

    def error(self, message):
        return _kernel_error(errors.InvalidArgumentError, message, "ParseExampleV2", self.fn)

    def where(self, key, index):
        return f"Key: {key}." if self.single else f"Name: <unknown>, Key: {key}, Index: {index}."

    def values(self, key, index, feats, dense):
        """The values of feature `key` in example `index`, or None if absent."""
        spec = self.features[key]
        kind, tname = _KIND[dtypes.as_dtype(spec.dtype).name]
        f = feats.get(key.encode())
        try:
            has = example_wire.feature_kind(f)
        except ValueError as e:
            raise self.error(str(e)) from None
        if has is None:
            return None
        if has != kind:
            actual = _KIND[{"float_list": "float32", "int64_list": "int64", "bytes_list": "string"}[has]][1]
            if dense:
                msg = f"Data types don't match. Data type: {actual} but expected type: {tname}"
            else:
                msg = f"Data types don't match. Expected type: {tname}, Actual type: {actual}"
            raise self.error(f"{self.where(key, index)}  {msg}")
        try:
            return example_wire.feature_values(f, kind)
        except example_wire.BadFeature:
            raise self.error(f"{self.where(key, index)}  Can't parse serialized Example.") from None

    def parse(self):
        out = {}
        for key in self.sparse:
            out[key] = self.parse_sparse(key)
        for key in self.dense:
            spec = self.features[key]
            if isinstance(spec, FixedLenSequenceFeature):
                out[key] = self.parse_sequence(key, spec)
            else:
                out[key] = self.parse_dense(key, spec)
        return out

    def parse_sparse(self, key):
        from tfcompat.framework.sparse import SparseTensor
        rows = [self.values(key, i, feats, False) for i, feats in enumerate(self.examples)]
        dt = dtypes.as_dtype(self.features[key].dtype)
        rows = [np.empty(0, dtype=object if dt == dtypes.string else dt.as_numpy_dtype) if r is None else r
                for r in rows]
        values = np.concatenate(rows) if rows else np.empty(0, dtype=np.float32)
        width = max((len(r) for r in rows), default=0)
        cols = np.concatenate([np.arange(len(r), dtype=np.int64) for r in rows]) if rows else np.empty(0, np.int64)
        if self.single:
            indices, shape = cols[:, None], [width]
        else:
            batch = np.repeat(np.arange(len(rows), dtype=np.int64), [len(r) for r in rows])
            indices, shape = np.stack([batch, cols], axis=1), [len(rows), width]
        return SparseTensor(wrap(torch.from_numpy(indices.reshape(-1, 1 if self.single else 2))),
                            _wrap_np(values, dt), wrap(torch.tensor(shape, dtype=torch.int64)))

    def parse_dense(self, key, spec):
        dt = dtypes.as_dtype(spec.dtype)
        shape = tuple(int(d) for d in spec.shape)
        size = int(np.prod(shape))
        default = None if spec.default_value is None else _np_array(spec.default_value, dt).reshape(shape)
        out = []
        for i, feats in enumerate(self.examples):
            v = self.values(key, i, feats, True)
            if v is None or (len(v) == 0 and default is not None):
                if default is None:
                    where = "" if self.single else "Name: <unknown>, "
                    raise self.error(f"{where}Feature: {key} (data type: {_KIND[dt.name][1]}) is required but "
                                     "could not be found.")
                out.append(default)
                continue
            if len(v) != size:
                kind = _KIND[dt.name][0]
                if self.single:
                    msg = f"Can't parse serialized Example: Some {kind} slice was not parsed."
                else:
                    msg = (f"Number of {_KIND[dt.name][1]} values != expected.  Values size: {len(v)} but output "
                           f"shape: [{','.join(map(str, shape))}]")
                raise self.error(f"{self.where(key, i)}  {msg}")
            out.append(v.reshape(shape))
        return _wrap_np(_stack(out, shape, dt, self.single), dt)

    def parse_sequence(self, key, spec):
        dt = dtypes.as_dtype(spec.dtype)
        shape = tuple(int(d) for d in spec.shape)
        size = max(int(np.prod(shape)), 1)
        rows = []
        for i, feats in enumerate(self.examples):
            v = self.values(key, i, feats, True)
            v = _np_array([], dt) if v is None else v
            if len(v) % size:
                raise self.error(f"{self.where(key, i)}  Number of values is not a multiple of stride length. "
                                 f"Saw {len(v)} values but output shape is: [?,{','.join(map(str, shape))}]")
            rows.append(v.reshape((-1,) + shape))
        if self.single:
            return _wrap_np(rows[0], dt)
        n = max((len(r) for r in rows), default=0)
        pad = spec.default_value if spec.default_value is not None else (b"" if dt == dtypes.string else 0)
        out = np.empty((len(rows), n) + shape, dtype=rows[0].dtype if rows else object)
        out[...] = _np_array(pad, dt)
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
        return _wrap_np(out, dt)


def _np_array(value, dt):
    if dt == dtypes.string:
        arr = np.asarray(value, dtype=object)
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr) \
            if arr.size else arr
    return np.asarray(value, dtype=dt.as_numpy_dtype)


def _stack(rows, shape, dt, single):
    if single:
        return rows[0]
    if not rows:
        return np.empty((0,) + shape, dtype=object if dt == dtypes.string else dt.as_numpy_dtype)
    return np.stack(rows)


def _wrap_np(arr, dt):
    if dt == dtypes.string:
        return wrap(np.asarray(arr, dtype=object))
    return wrap(torch.from_numpy(np.ascontiguousarray(arr, dtype=dt.as_numpy_dtype)).reshape(arr.shape))


@tf_export("io.parse_example", partial="RaggedFeature and SparseFeature are not supported")
def parse_example(serialized, features, example_names=None, name=None):
    """Parses a vector of serialized `tf.train.Example`s into a dict of batched tensors / SparseTensors."""
    if example_names is not None:
        raise NotImplementedError("tf.io.parse_example(example_names=...)")
    return _Parser(serialized, features).parse()


@tf_export("io.parse_single_example", partial="RaggedFeature and SparseFeature are not supported")
def parse_single_example(serialized, features, example_names=None, name=None):
    """Parses one serialized `tf.train.Example` (a scalar string) into a dict of tensors / SparseTensors."""
    if example_names is not None:
        raise NotImplementedError("tf.io.parse_single_example(example_names=...)")
    arr = _strings(serialized, "ParseExampleV2")
    if arr.ndim != 0:
        raise ValueError(f"Shape {tuple(arr.shape)} must have rank 0")
    return _Parser(arr, features).parse()


# ----------------------------------------------------------------------------------- tensor serialization

_VAL_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
               "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "bool": "bool_val",
               "float16": "half_val", "bfloat16": "half_val", "uint32": "uint32_val", "uint64": "uint64_val",
               "complex64": "scomplex_val", "complex128": "dcomplex_val"}


@tf_export("io.serialize_tensor")
def serialize_tensor(tensor, name=None):
    """A `TensorProto` of `tensor` serialized to a scalar string (TF's bytes)."""
    from tensorboard.compat.proto import tensor_pb2
    t = tensor if isinstance(tensor, Tensor) else wrap(to_storage(tensor))
    proto = tensor_pb2.TensorProto(dtype=t.dtype.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    for d in t.shape.as_list():
        proto.tensor_shape.dim.add(size=d)
    storage = t._t
    if t.dtype == dtypes.string:
        proto.string_val.extend(storage.reshape(-1).tolist())
    else:
        flat = storage.detach().cpu().contiguous().reshape(-1)
        proto.tensor_content = flat.view(torch.uint8).numpy().tobytes()
    return _string(proto.SerializeToString())


@tf_export("io.parse_tensor")
def parse_tensor(serialized, out_type, name=None):
    """The tensor of a serialized `TensorProto`; its dtype must be `out_type`."""
    from tensorboard.compat.proto import tensor_pb2
    import base64
    data = _strings(serialized, "ParseTensor")[()]
    proto = tensor_pb2.TensorProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # noqa: BLE001 - protobuf's decode errors vary by implementation
        raise _kernel_error(errors.InvalidArgumentError, "Could not parse `serialized` as TensorProto, base64: "
                            f"{base64.b64encode(data).decode()}", "ParseTensor") from None
    want = dtypes.as_dtype(out_type)
    shape = tuple(d.size for d in proto.tensor_shape.dim)
    n = 1
    for d in shape:
        n *= d
    if min(shape, default=0) < 0 or n >= 1 << 63:
        raise _kernel_error(errors.InvalidArgumentError, "Could not parse `serialized` as TensorProto, base64: "
                            f"{base64.b64encode(data).decode()}", "ParseTensor", name=None)
    got = _proto_dtype(proto, n)
    if got is None:
        raise _kernel_error(errors.InvalidArgumentError, "Cannot parse tensor from proto: goo.gle/debugproto  \n"
                            f"{proto}", "ParseTensor", name=None)
    if got != want:
        raise _kernel_error(errors.InvalidArgumentError, f"Type mismatch between parsed tensor ({_c_name(got)}) and "
                            f"dtype ({_c_name(want)})", "ParseTensor", name="")
    if want == dtypes.string:
        return _wrap_np(_filled(list(proto.string_val), n, object).reshape(shape), want)
    torch_dt = want._torch
    if proto.tensor_content:
        flat = torch.frombuffer(bytearray(proto.tensor_content), dtype=torch.uint8).view(torch_dt)
        return wrap(flat.reshape(shape))
    vals = list(getattr(proto, _VAL_FIELDS[want.name]))
    if want.name in ("float16", "bfloat16"):
        raw = torch.tensor(_filled(vals, n, np.int64).astype(np.int16), dtype=torch.int16)
        return wrap(raw.view(torch_dt).reshape(shape))
    if want.is_complex:
        vals = [complex(a, b) for a, b in zip(vals[0::2], vals[1::2])]
    return wrap(torch.from_numpy(_filled(vals, n, want.as_numpy_dtype)).reshape(shape))


def _proto_dtype(proto, n):
    """The DType of a `TensorProto` holding `n` elements, or None when TF cannot make a tensor of it (invalid
    dtype, `tensor_content` of the wrong size, more values than elements)."""
    try:
        dt = dtypes.as_dtype(proto.dtype) if proto.dtype else None
    except (TypeError, ValueError):
        return None
    if dt is None or (dt != dtypes.string and dt.name not in _VAL_FIELDS):
        return None
    if dt == dtypes.string:
        return dt if len(proto.string_val) <= n else None
    if proto.tensor_content:
        return dt if len(proto.tensor_content) == n * dt.size else None
    count = len(getattr(proto, _VAL_FIELDS[dt.name])) // (2 if dt.is_complex else 1)
    return dt if count <= n else None


def _c_name(dt):
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dt.name, dt.name)


def _filled(vals, n, np_dtype):
    """TF's compact repeated values: fewer than `n` values repeat the last one."""
    out = np.empty(n, dtype=np_dtype)
    if n:
        k = len(vals)
        out[:k] = vals[:n]
        if k < n:
            out[k:] = vals[-1] if k else 0
    return out


# -------------------------------------------------------------------------------------------------------- CSV

_CSV_TYPES = ("float32", "float64", "int32", "int64", "string")


@tf_export("io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """Splits CSV lines into one tensor per column; an empty (or `na_value`) field takes the column default."""
    arr = _strings(records, "DecodeCSV")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    defaults = [d if isinstance(d, Tensor) else wrap(to_storage(d)) for d in record_defaults]
    for d in defaults:
        if d.dtype.name not in _CSV_TYPES:
            raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'OUT_TYPE' of {d.dtype.name} is not "
                                  "in the list of allowed values: float, double, int32, int64, string", "DecodeCSV",
                                  None)
    fn = f"DecodeCSV_OUT_TYPE_{len(defaults)}"
    cols = list(select_cols) if select_cols is not None else list(range(len(defaults)))
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    out = [[] for _ in defaults]
    for r, line in enumerate(arr.reshape(-1)):
        try:
            fields = _csv_split(line, delim, use_quote_delim)
        except ValueError as e:
            raise _kernel_error(errors.InvalidArgumentError, str(e), "DecodeCSV", fn) from None
        if select_cols is None and len(fields) != len(defaults):
            raise _kernel_error(errors.InvalidArgumentError, f"Expect {len(defaults)} fields but have {len(fields)} "
                                f"in record {r}", "DecodeCSV", fn)
        for j, (c, d) in enumerate(zip(cols, defaults)):
            field = fields[c] if c < len(fields) else b""
            out[j].append(_csv_field(field, d, na, j, r, fn))
    with np.errstate(over="ignore"):      # 1e39 in a float column is inf, as TF's strtof gives
        return [_wrap_np(_np_array(values, d.dtype).reshape(arr.shape), d.dtype) for values, d in zip(out, defaults)]


def _csv_split(line, delim, quotes):
    """The fields of one CSV record (bytes, any encoding), with TF's rules: a field may start after line breaks;
    a quoted field ends with a quote then the delimiter or the end, `""` inside it is a quote; an unquoted field
    holds no quote or line break. Raises ValueError with TF's message."""
    fields, i, n, d = [], 0, len(line), delim[0]
    while i < n:
        if line[i] in b"\r\n":
            i += 1
            continue
        if not (quotes and line[i] == 34):
            j = i
            while j < n and line[j] != d:
                if (quotes and line[j] == 34) or line[j] in b"\r\n":
                    raise ValueError("Unquoted fields cannot have quotes/CRLFs inside")
                j += 1
            fields.append(line[i:j])
            i = j + 1
            continue
        i += 1
        field = bytearray()
        while i < n - 1 and not (line[i] == 34 and line[i + 1] == d):
            if line[i] != 34:
                field.append(line[i])
                i += 1
            elif line[i + 1] == 34:
                field.append(34)
                i += 2
            else:
                raise ValueError("Quote inside a string has to be escaped by another quote")
        if not (i < n and line[i] == 34 and (i == n - 1 or line[i + 1] == d)):
            raise ValueError("Quoted field has to end with quote followed by delim or end")
        fields.append(bytes(field))
        i += 2
    if line and line[-1] == d:
        fields.append(b"")
    return fields


_CSV_INT = re.compile(rb"\s*[+-]?\d+\s*")
_CSV_FLOAT = re.compile(rb"\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|infinity|nan)\s*", re.I)
_CSV_HEX = re.compile(rb"\s*[+-]?0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(p[+-]?\d+)?\s*", re.I)


def _csv_number(field, dt):
    """A CSV number as TF's strto* parse it (hex floats, inf/nan, surrounding spaces), or None."""
    if dt.is_integer:
        if not _CSV_INT.fullmatch(field):
            return None
        v = int(field)
        bits = 31 if dt == dtypes.int32 else 63
        return v if -(1 << bits) <= v < 1 << bits else None
    if _CSV_FLOAT.fullmatch(field):
        v = float(field)
    elif _CSV_HEX.fullmatch(field):
        text = field.strip().decode()
        v = float.fromhex(text if "p" in text.lower() else text + "p0")
    else:
        return None
    return v


def _csv_field(field, default, na_value, col, row, fn):
    dt = default.dtype
    if field == b"" or field == na_value:
        if default.shape.num_elements() == 0:
            raise _kernel_error(errors.InvalidArgumentError, f"Field {col} is required but missing in record {row}!",
                                "DecodeCSV", fn)
        return default._array().reshape(-1)[0]
    if dt == dtypes.string:
        return field
    v = _csv_number(field, dt)
    if v is None:
        text = field.split(b"\0")[0].decode("utf-8", "backslashreplace")
        raise _kernel_error(errors.InvalidArgumentError, f"Field {col} in record {row} is not a valid "
                            f"{_c_name(dt)}: {text}", "DecodeCSV", fn)
    return v


# ------------------------------------------------------------------------------------------------ image codecs

_PNG_SIG = b"\x89PNG\r\n\x1a\n"
_UNKNOWN_FORMAT = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."
_ADAM7 = ((0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2), (1, 0, 2, 1))
_PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}          # colour type -> samples per pixel
_GRAY_R, _GRAY_G = 9797, 19234                         # libpng's fixed-point weights for (0.299, 0.587)
_GRAY_B = 32768 - _GRAY_R - _GRAY_G


class _BadPng(Exception):
    """A PNG that fails to decode; `init` says whether it failed before the image data."""

    def __init__(self, init):
        super().__init__()
        self.init = init


def _image_format(data):
    if data.startswith(_PNG_SIG):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith(b"GIF8"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"\xff\x0a") or data.startswith(b"\x00\x00\x00\x0cJXL \r\n\x87\n"):
        return "jxl"
    return None


def _png_chunks(data):
    """IHDR fields, PLTE, tRNS and the concatenated IDAT data of a PNG (critical chunks' CRCs checked)."""
    pos, ihdr, plte, trns, idat = 8, None, None, None, []
    while True:
        if pos + 8 > len(data):
            raise _BadPng(not idat)
        n, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        body, crc = data[pos + 8:pos + 8 + n], data[pos + 8 + n:pos + 12 + n]
        pos += 12 + n
        critical = not kind[0] & 0x20
        if len(crc) < 4 or (zlib.crc32(kind + body) != int.from_bytes(crc, "big")):
            if critical or len(crc) < 4:
                raise _BadPng(not idat and kind != b"IDAT")
            continue
        if ihdr is None:
            if kind != b"IHDR" or n != 13:
                raise _BadPng(True)
            ihdr = struct.unpack(">IIBBBBB", body)
            _check_ihdr(*ihdr)
        elif kind == b"PLTE":
            plte = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            if not idat or (ihdr[3] == 3 and plte is None):
                raise _BadPng(not idat)
            return ihdr, plte, trns, b"".join(idat)


def _check_ihdr(w, h, depth, ctype, comp, filt, interlace):
    ok_depths = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
    if (not w or not h or depth not in ok_depths.get(ctype, ()) or comp or filt or interlace > 1
            or w >= 1 << 31 or h >= 1 << 31):
        raise _BadPng(True)


def _unfilter(raw, rows, rowbytes, bpp):
    """Reverses PNG row filters of `rows` rows of `rowbytes` bytes, along anti-diagonals of pixels."""
    data = np.frombuffer(raw, np.uint8).reshape(rows, rowbytes + 1)
    kinds = data[:, 0]
    if kinds.max(initial=0) > 4:
        raise _BadPng(False)
    if not kinds.any():
        return data[:, 1:].copy()
    w = rowbytes // bpp
    x = data[:, 1:].reshape(rows, w, bpp).astype(np.int16)
    out = np.zeros((rows + 1, w + 1, bpp), np.int16)
    for d in range(rows + w - 1):
        ys = np.arange(max(0, d - w + 1), min(rows, d + 1))
        xs = d - ys
        a, b, c = out[ys + 1, xs], out[ys, xs + 1], out[ys, xs]
        p = a + b - c
        pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
        paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
        pred = np.stack([np.zeros_like(a), a, b, (a + b) >> 1, paeth])[kinds[ys], np.arange(len(ys))]
        out[ys + 1, xs + 1] = (x[ys, xs] + pred) & 0xFF
    return out[1:, 1:].astype(np.uint8).reshape(rows, rowbytes)


def _samples(raw, w, h, depth, spp):
    """The (h, w, spp) samples of one non-interlaced image (or Adam7 pass) and the bytes it used."""
    bits = w * spp * depth
    rowbytes = (bits + 7) // 8
    size = h * (rowbytes + 1)
    if len(raw) < size:
        raise _BadPng(False)
    rows = _unfilter(raw[:size], h, rowbytes, max(1, spp * depth // 8))
    if depth == 16:
        vals = rows.view(">u2").astype(np.uint16)
    elif depth == 8:
        vals = rows
    else:
        shifts = np.arange(8 - depth, -1, -depth, dtype=np.uint8)
        vals = ((rows[:, :, None] >> shifts) & ((1 << depth) - 1)).reshape(h, -1)[:, :w * spp]
    return vals.reshape(h, w, spp), size


def _png_raw_size(w, h, depth, spp, interlace):
    """Bytes of filtered scanlines an image (all its Adam7 passes) holds."""
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    total = 0
    for y0, x0, dy, dx in passes:
        pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
        if pw > 0 and ph > 0:
            total += ph * ((pw * spp * depth + 7) // 8 + 1)
    return total


def _png_pixels(raw, w, h, depth, spp, interlace):
    """All samples of the image, de-interlacing Adam7 passes."""
    if not interlace:
        return _samples(raw, w, h, depth, spp)[0]
    img = np.zeros((h, w, spp), np.uint16 if depth == 16 else np.uint8)
    pos = 0
    for y0, x0, dy, dx in _ADAM7:
        pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
        if pw > 0 and ph > 0:
            img[y0::dy, x0::dx], used = _samples(raw[pos:], pw, ph, depth, spp)
            pos += used
    return img


def _to_gray(rgb, depth):
    """libpng's rgb_to_gray with weights (0.299, 0.587): truncating at 8 bits, rounding at 16."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    gray = (_GRAY_R * r + _GRAY_G * g + _GRAY_B * b + (16384 if depth == 16 else 0)) >> 15
    return gray.astype(rgb.dtype)[..., None]


def _decode_png(data, channels, wide):
    """(h, w, channels) uint8 (uint16 if `wide`) array of a PNG, transformed as TF's libpng setup does."""
    (w, h, depth, ctype, _, _, interlace), plte, trns, idat = _png_chunks(data)
    spp = _PNG_SAMPLES[ctype]
    need = _png_raw_size(w, h, depth, spp, interlace)
    try:
        raw = zlib.decompressobj().decompress(idat, need)     # never inflates past what the header declares
    except zlib.error:
        raise _BadPng(False) from None
    if len(raw) < need:            # checked before any pixel array is allocated
        raise _BadPng(False)
    img = _png_pixels(raw, w, h, depth, spp, interlace)
    src_channels = {0: 1, 2: 3, 3: 4 if trns else 3, 4: 2, 6: 4}[ctype]
    channels = channels or src_channels
    full = (1 << min(depth, 8)) - 1 if depth < 16 else 0xFFFF     # libpng's filler for a missing alpha
    if ctype == 3:
        pal = np.zeros((256, 4), np.uint8)
        pal[:, 3] = 255 if trns else full
        pal[:len(plte), :3] = plte[:256]
        if trns:
            pal[:len(trns), 3] = np.frombuffer(trns[:256], np.uint8)
        img, depth, trns = pal[img[..., 0]], 8, None
    elif ctype == 0 and depth < 8:
        key = img == int.from_bytes(trns[:2], "big") if trns and channels == 4 else None
        img = img * np.uint8(255 // ((1 << depth) - 1))
        if key is not None:
            img, trns = np.concatenate([img, np.where(key, 0, 255).astype(np.uint8)], axis=2), None
    if trns and channels == 4 and ctype in (0, 2):
        key = np.frombuffer(trns[:2 * img.shape[2]], ">u2").astype(np.int64)
        opaque = 0xFFFF if depth == 16 else 255
        alpha = np.where((img.astype(np.int64) == key).all(axis=2, keepdims=True), 0, opaque)
        img = np.concatenate([img, alpha.astype(img.dtype)], axis=2)
    img = _convert_channels(img, channels, depth, full)
    if wide and img.dtype == np.uint8:
        return img.astype(np.uint16) * np.uint16(257)
    if not wide and img.dtype == np.uint16:
        return (img >> 8).astype(np.uint8)
    return img


def _convert_channels(img, channels, depth, full):
    """Gray/RGB with or without alpha to `channels` samples per pixel (1, 2 from gray+alpha, 3 or 4)."""
    have = img.shape[2]
    if have == channels:
        return img
    color, alpha = img[..., :3 if have >= 3 else 1], img[..., have - 1:] if have in (2, 4) else None
    if channels == 1:
        return _to_gray(color, depth) if color.shape[2] == 3 else color
    if color.shape[2] == 1:
        color = np.repeat(color, 3, axis=2)
    if channels == 3:
        return np.ascontiguousarray(color)
    if alpha is None:
        alpha = np.full(color.shape[:2] + (1,), full, color.dtype)
    return np.concatenate([color, alpha], axis=2)


def _decode_jpeg_pil(data, channels, op):
    """A JPEG decoded by PIL's libjpeg (ISLOW DCT, while TF's default is IFAST: pixels may differ by a few)."""
    try:
        from PIL import Image
    except ImportError:
        raise NotImplementedError(f"{op}: decoding JPEG needs PIL (pip install pillow)") from None
    import io as _io
    try:
        if b"\xff\xd9" not in data:      # cut before its end marker: TF's reader fails at the end of the input
            raise ValueError("truncated JPEG")
        im = Image.open(_io.BytesIO(data))
        if channels == 1:
            im.draft("L", im.size)
        im.load()
    except Exception:  # noqa: BLE001 - PIL's decode errors vary by format and version
        raise _kernel_error(errors.InvalidArgumentError, "jpeg::Uncompress failed. Invalid JPEG data or crop window.",
                            op, name=None) from None
    mode = {1: "L", 3: "RGB"}.get(channels) or ("L" if im.mode == "L" else "RGB")
    if channels == 4:
        raise NotImplementedError(f"{op}: channels=4 for a JPEG")
    return np.array(im.convert(mode) if im.mode != mode else im)


def _contents(contents, op):
    arr = _strings(contents, op)
    if arr.shape != ():
        raise _kernel_error(errors.InvalidArgumentError,
                            f"`contents` must be scalar but got shape{list(arr.shape)}", op, name=None)
    return arr[()]


def _decode(contents, channels, dtype, op):
    """Decodes a PNG or JPEG (detected from its bytes, as TF's decode ops do) to an (h, w, c) array."""
    data = _contents(contents, op)
    channels = int(channels or 0)
    if channels not in (0, 1, 3, 4):
        raise _kernel_error(errors.InvalidArgumentError, f"`channels` must be 0, 1, 3 or 4 but got {channels}",
                            op, name=None)
    if not data:
        raise _kernel_error(errors.InvalidArgumentError, "Input is empty.", op, name=None)
    kind = _image_format(data)
    if kind == "png":
        try:
            return _decode_png(data, channels, dtype is dtypes.uint16)
        except _BadPng as e:
            msg = "Invalid PNG. Failed to initialize decoder." if e.init else f"Invalid PNG data, size {len(data)}"
            raise _kernel_error(errors.InvalidArgumentError, msg, op, name=None) from None
    if kind == "jpeg":
        img = _decode_jpeg_pil(data, channels, op)
        img = img[..., None] if img.ndim == 2 else img
        return img.astype(np.uint16) * np.uint16(257) if dtype is dtypes.uint16 else img
    if kind is None:
        raise _kernel_error(errors.InvalidArgumentError, _UNKNOWN_FORMAT, op, name=None)
    raise NotImplementedError(f"{op}: decoding {kind.upper()} images is not supported (PNG and JPEG are)")


def _decode_dtype(dtype, op, allowed):
    dt = dtypes.as_dtype(dtype)
    if dt not in allowed:
        names = ", ".join(d.name for d in allowed)
        sig = ("contents:string -> image:dtype; attr=channels:int,default=0; attr=dtype:type,default=DT_UINT8,"
               f"allowed=[{', '.join('DT_' + d.name.upper() for d in allowed)}]")
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'dtype' of {_c_name(dt)} is not in the list of allowed values: "
                              f"{names}\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={sig}>", op,
                              name=None)
    return dt


@tf_export("io.decode_png", "image.decode_png")
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """Decodes a PNG (JPEG too, as TF) to a uint8/uint16 (height, width, channels) tensor."""
    dt = _decode_dtype(dtype, "DecodePng", (dtypes.uint8, dtypes.uint16))
    return wrap(torch.from_numpy(_decode(contents, channels, dt, "DecodePng")))


@tf_export("io.decode_jpeg", "image.decode_jpeg")
def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """Decodes a JPEG (PNG too, as TF) to a uint8 (height, width, channels) tensor; JPEG needs PIL."""
    if ratio != 1 or not fancy_upscaling or try_recover_truncated or acceptable_fraction != 1 or dct_method:
        raise NotImplementedError("decode_jpeg: ratio, fancy_upscaling, try_recover_truncated, "
                                  "acceptable_fraction and dct_method other than their defaults")
    return wrap(torch.from_numpy(_decode(contents, channels, dtypes.uint8, "DecodeJpeg")))


@tf_export("io.decode_image", "image.decode_image")
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Decodes a PNG or JPEG to (height, width, channels); non-uint8 dtypes rescale as convert_image_dtype."""
    from tfcompat.ops.image_ops import _convert
    dt = dtypes.as_dtype(dtype)
    wide = dt is not dtypes.uint8
    img = torch.from_numpy(_decode(contents, channels, dtypes.uint16 if wide else dt, "DecodeImage"))
    return wrap(img if dt is dtypes.uint16 or not wide else _convert(img, dt))


@tf_export("io.encode_png", "image.encode_png")
def encode_png(image, compression=-1, name=None):
    """PNG bytes of a uint8/uint16 (height, width, channels) image; leading batch dims give a string tensor."""
    op = "EncodePng"
    t = image._t if isinstance(image, Tensor) else to_storage(image)
    if t.dtype not in (torch.uint8, torch.uint16):
        sig = ("image:T -> contents:string; attr=compression:int,default=-1; attr=T:type,default=DT_UINT8,"
               "allowed=[DT_UINT8, DT_UINT16]")
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'T' of {_c_name(dtypes.FROM_STORAGE[t.dtype])} is not in the list "
                              f"of allowed values: uint8, uint16\n\t; NodeDef: {{{{node {op}}}}}; "
                              f"Op<name={op}; signature={sig}>", op)
    level = int(compression)
    if not -1 <= level <= 9:
        raise _kernel_error(errors.InvalidArgumentError, f"compression should be in [-1,9], got {level}", op, name="")
    if t.dim() < 3:
        raise _kernel_error(errors.InvalidArgumentError,
                            "images must be at least rank 3[" + ",".join(map(str, t.shape)) + "]", op, name="")
    if t.shape[-1] not in (1, 2, 3, 4):
        raise _kernel_error(errors.InvalidArgumentError,
                            f"image must have 1, 2, 3, or 4 channels, got {t.shape[-1]}", op, name="")
    arr = t.detach().cpu().numpy() if t.dtype == torch.uint8 else t.detach().cpu().view(torch.int16).numpy().view(np.uint16)
    batch = arr.reshape((int(np.prod(arr.shape[:-3])),) + arr.shape[-3:])
    if 0 in arr.shape[-3:-1]:
        failed = ", ".join(map(str, range(len(batch))))
        raise _kernel_error(errors.InternalError,
                            f"PNG encoding failed at the following flattened batch indices: {failed}", op, name="")
    level = 6 if level == -1 else level
    out = np.empty(len(batch), dtype=object)
    out[:] = [encoders.encode_png(img, level) for img in batch]
    return wrap(out.reshape(arr.shape[:-3]))


@tf_export("io.encode_jpeg", "image.encode_jpeg")
def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                density_unit="in", x_density=300, y_density=300, xmp_metadata="", name=None):
    """JPEG bytes of a uint8 (height, width, 1 or 3) image, written by PIL (bytes differ from TF's libjpeg)."""
    try:
        from PIL import Image
    except ImportError:
        raise NotImplementedError("encode_jpeg needs PIL (pip install pillow)") from None
    if density_unit != "in" or xmp_metadata:
        raise NotImplementedError("encode_jpeg: density_unit other than 'in' and xmp_metadata")
    t = image._t if isinstance(image, Tensor) else to_storage(image)
    if t.dtype != torch.uint8:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {_c_name(dtypes.FROM_STORAGE[t.dtype])} is not in the list of "
            "allowed values: uint8")
    if t.dim() != 3:
        raise _kernel_error(errors.InvalidArgumentError,
                            f"image must be 3-dimensional[{','.join(map(str, t.shape))}]", "EncodeJpeg")
    arr = t.detach().cpu().numpy()
    shape = "[" + ",".join(map(str, arr.shape)) + "]"
    channels = {"": arr.shape[2], "grayscale": 1, "rgb": 3}[format]
    if channels not in (1, 3):
        raise _kernel_error(errors.InvalidArgumentError, f"image must have 1 or 3 channels, got {shape}",
                            "EncodeJpeg", name="")
    if arr.shape[2] != channels:
        raise _kernel_error(errors.InvalidArgumentError, f"format {format} expects {channels} channels, got {shape}",
                            "EncodeJpeg", name="")
    import io as _io
    buf = _io.BytesIO()
    Image.fromarray(arr[..., 0] if channels == 1 else arr).save(
        buf, format="JPEG", quality=int(quality), progressive=bool(progressive), optimize=bool(optimize_size),
        subsampling=2 if chroma_downsampling else 0, dpi=(int(x_density), int(y_density)))
    return _string(buf.getvalue())
