"""`tf.io`: local file I/O (`tf.io.gfile`, `read_file`), TFRecord writing, `tf.train.Example` parsing,
tensor serialization, CSV and PNG/JPEG codecs.

Only the local file system is supported (paths without a scheme, or `file://`).
"""
import collections
import csv
import glob as _glob
import os
import shutil
import zlib

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.ops.string_ops import _strings

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
    """Writes records (bytes) to a TFRecord file, framed and optionally compressed exactly as TF does."""

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_type=options)
        p = _path(path)
        try:
            self._f = open(p, "wb")
        except OSError as e:
            raise _os_error(e, p) from None
        self._zlib = options._compressor()

    def write(self, record):
        """Appends one record (bytes or str)."""
        from tfcompat.summary._records import frame
        if isinstance(record, str):
            record = record.encode("utf-8")
        data = frame(bytes(record))
        self._f.write(self._zlib.compress(data) if self._zlib is not None else data)

    def flush(self):
        self._f.flush()

    def close(self):
        if self._f.closed:
            return
        if self._zlib is not None:
            self._f.write(self._zlib.flush())
        self._f.close()

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


def _np_values(feature, kind):
    if kind == "bytes_list":
        out = np.empty(len(feature.bytes_list.value), dtype=object)
        out[:] = list(feature.bytes_list.value)
        return out
    return np.array(getattr(feature, kind).value, dtype=np.float32 if kind == "float_list" else np.int64)


class _Parser:
    """Parses serialized `tf.train.Example`s with TF's checks and messages."""

    def __init__(self, serialized, features):
        from tfcompat.train.example import Example
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
            ex = Example()
            try:
                ex.ParseFromString(s)
            except Exception:
                raise self.error(f"Could not parse example input, value: '{repr(s)[2:-1]}'") from None
            self.examples.append(ex.features.feature)

    def error(self, message):
        return _kernel_error(errors.InvalidArgumentError, message, "ParseExampleV2", self.fn)

    def where(self, key, index):
        return f"Key: {key}." if self.single else f"Name: <unknown>, Key: {key}, Index: {index}."

    def values(self, key, index, feats, dense):
        """The values of feature `key` in example `index`, or None if absent."""
        spec = self.features[key]
        kind, tname = _KIND[dtypes.as_dtype(spec.dtype).name]
        f = feats.get(key)
        if f is None:
            return None
        has = f.WhichOneof("kind")
        if has is not None and has != kind:
            actual = _KIND[{"float_list": "float32", "int64_list": "int64", "bytes_list": "string"}[has]][1]
            if dense:
                msg = f"Data types don't match. Data type: {actual} but expected type: {tname}"
            else:
                msg = f"Data types don't match. Expected type: {tname}, Actual type: {actual}"
            raise self.error(f"{self.where(key, index)}  {msg}")
        return _np_values(f, kind)

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
    except Exception:
        raise _kernel_error(errors.InvalidArgumentError, "Could not parse `serialized` as TensorProto, base64: "
                            f"{base64.b64encode(data).decode()}", "ParseTensor") from None
    want = dtypes.as_dtype(out_type)
    got = dtypes.as_dtype(proto.dtype)
    if got != want:
        raise _kernel_error(errors.InvalidArgumentError, f"Type mismatch between parsed tensor ({_c_name(got)}) and "
                            f"dtype ({_c_name(want)})", "ParseTensor", name="")
    shape = tuple(d.size for d in proto.tensor_shape.dim)
    n = int(np.prod(shape))
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
    flat = arr.reshape(-1)
    out = [[] for _ in defaults]
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    for r, line in enumerate(flat):
        fields = next(csv.reader([line.decode("utf-8")], delimiter=field_delim, quoting=quoting), [""])
        if select_cols is None and len(fields) != len(defaults):
            raise _kernel_error(errors.InvalidArgumentError, f"Expect {len(defaults)} fields but have {len(fields)} "
                                f"in record {r}", "DecodeCSV", fn)
        for j, (c, d) in enumerate(zip(cols, defaults)):
            field = fields[c] if c < len(fields) else ""
            out[j].append(_csv_field(field, d, na_value, j, r, fn))
    results = []
    for values, d in zip(out, defaults):
        results.append(_wrap_np(_np_array(values, d.dtype).reshape(arr.shape), d.dtype))
    return results


def _csv_field(field, default, na_value, col, row, fn):
    dt = default.dtype
    if field == "" or field == na_value:
        if default.shape.num_elements() == 0:
            raise _kernel_error(errors.InvalidArgumentError, f"Field {col} is required but missing in record {row}!",
                                "DecodeCSV", fn)
        return default._array().reshape(-1)[0]
    if dt == dtypes.string:
        return field.encode("utf-8")
    try:
        return float(field) if dt.is_floating else int(field)
    except ValueError:
        raise _kernel_error(errors.InvalidArgumentError, f"Field {col} in record {row} is not a valid {dt.name}: "
                            f"{field}", "DecodeCSV", fn) from None
