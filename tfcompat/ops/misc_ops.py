"""Top-level runtime names: `tf.executing_eagerly`, `tf.get_logger`, `tf.name_scope`, eager no-ops, `tf.TypeSpec`s."""
import logging as _logging
import sys

from tfcompat.framework import dtypes
from tfcompat.framework import indexed_slices as _indexed_slices
from tfcompat.framework import ragged as _ragged
from tfcompat.framework import sparse as _sparse
from tfcompat.framework import graph_state as _graph_state
from tfcompat.framework.context import state
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable


# -- eager / logging ------------------------------------------------------------------------------------------------
@tf_export("executing_eagerly")
def executing_eagerly():
    """True: tfcompat always runs eagerly (inside `tf.function` too, as with `run_functions_eagerly`)."""
    return True


_logger = []


@tf_export("get_logger")
def get_logger():
    """TF's Python logger, "tensorflow", with TF's stderr handler when the root logger has none."""
    if _logger:
        return _logger[0]
    logger = _logging.getLogger("tensorflow")
    if not _logging.getLogger().handlers and not logger.handlers:
        interactive = bool(getattr(sys, "ps1", sys.flags.interactive))
        if interactive:
            logger.setLevel(_logging.INFO)
        handler = _logging.StreamHandler(sys.stdout if interactive else sys.stderr)
        handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    _logger.append(logger)
    return logger


get_logger()        # TF configures its logger on import: a root logger configured later prints its records twice


# -- graph-construction helpers that are trivial in eager mode ---------------------------------------------------------
@tf_export("name_scope")
class name_scope:
    """A name scope: names of variables made inside start with "<scope>/". A name ending in "/" is absolute."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._saved = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        old = state.name_scope
        self._saved.append(old)
        name = self._name
        if not name:
            new = []
        elif name.endswith("/"):
            new = [name[:-1]]
        else:
            graph = _graph_state.default_graph()
            if graph is not None:           # TF's graphs make scope names unique among their op and scope names
                prefix = "/".join(s for s in old if s)
                name = graph.unique_name(f"{prefix}/{name}" if prefix else name).rsplit("/", 1)[-1]
            new = old + [name]
        state.name_scope = new
        scope = "/".join(s for s in new if s)
        return scope + "/" if scope else ""

    def __exit__(self, *exc):
        state.name_scope = self._saved.pop()
        return False


class _NullContext:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@tf_export("control_dependencies")
def control_dependencies(control_inputs):
    """A no-op context in eager mode (ops run in program order); callables in `control_inputs` are called."""
    if control_inputs is not None:
        for c in control_inputs:
            if callable(c):
                c()
    return _NullContext()


@tf_export("is_tensor")
def is_tensor(x):
    """True for tf.Tensor, tf.Variable, SparseTensor, RaggedTensor and IndexedSlices values."""
    return isinstance(x, (Tensor, Variable, _sparse.SparseTensor, _ragged.RaggedTensor,
                          _indexed_slices.IndexedSlices))


@tf_export("is_symbolic_tensor")
def is_symbolic_tensor(tensor):
    """False: tfcompat tensors are never graph tensors."""
    return False


@tf_export("no_op")
def no_op(name=None):
    """Does nothing (None in eager mode)."""
    return None


@tf_export("group")
def group(*inputs, **kwargs):
    """Groups ops; None in eager mode (the ops have already run)."""
    unknown = set(kwargs) - {"name"}
    if unknown:
        raise TypeError(f"Unknown keyword arguments: {sorted(unknown)}")
    return None


# -- TypeSpec / TensorSpec --------------------------------------------------------------------------------------------
@tf_export("TypeSpec")
class TypeSpec:
    """Base class of the specs that describe a tensor-like value's type (`tf.TensorSpec`, ...)."""

    __slots__ = ()

    @property
    def value_type(self):
        raise NotImplementedError("TypeSpec.value_type")

    def is_compatible_with(self, spec_or_value):
        raise NotImplementedError("TypeSpec.is_compatible_with")


@tf_export("TensorSpec")
class TensorSpec(TypeSpec):
    """Describes a tf.Tensor: its shape (possibly partial), dtype and an optional name."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)
    value_type = property(lambda self: Tensor)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of a tensor (or variable)."""
        if isinstance(tensor, (Tensor, Variable)):
            return cls(tensor.shape, tensor.dtype, name)
        tensor = convert_to_tensor(tensor)
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name=None):
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    def is_compatible_with(self, spec_or_tensor):
        """True if the dtypes match and the shapes are compatible."""
        other = spec_or_tensor
        if not isinstance(other, (TensorSpec, Tensor, Variable)):
            other = convert_to_tensor(other)
        return self._dtype == other.dtype and self._shape.is_compatible_with(other.shape)

    def most_specific_common_supertype(self, others):
        """The most specific TensorSpec compatible with this spec and all `others` (None if dtypes differ)."""
        shape = self._shape
        for o in others:
            if type(o) is not type(self) or o.dtype != self._dtype:
                return None
            shape = shape.most_specific_compatible_shape(o.shape)
        names = {self._name} | {o.name for o in others}
        return TensorSpec(shape, self._dtype, self._name if len(names) == 1 else None)

    def _key(self):
        return (self._shape.as_list() if self._shape.rank is not None else None, self._dtype, self._name)

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        dims = self._shape.as_list() if self._shape.rank is not None else None
        return hash((tuple(dims) if dims is not None else None, self._dtype, self._name))

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"

    def __reduce__(self):
        return TensorSpec, (self._shape, self._dtype, self._name)


@tf_export("SparseTensorSpec")
class SparseTensorSpec(TypeSpec):
    """The spec of a `tf.SparseTensor` element: its dense shape (possibly partial) and dtype."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: _sparse.SparseTensor)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        return (isinstance(other, (SparseTensorSpec, _sparse.SparseTensor)) and self._dtype == other.dtype
                and self._shape.is_compatible_with(other.shape))

    def _key(self):
        return self._shape.as_list() if self._shape.rank is not None else None, self._dtype

    def __eq__(self, other):
        return type(other) is SparseTensorSpec and self._key() == other._key()

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"
