"""Runtime namespaces: `tf.config`, `tf.debugging`, logging, `tf.name_scope`, `tf.TensorSpec` and friends."""
import collections
import logging as _logging
import sys

import numpy as np
import torch

from tfcompat.framework import context, dtypes, errors
from tfcompat.framework import device as _device  # registers tf.device, tf.DeviceSpec
from tfcompat.framework import indexed_slices as _indexed_slices
from tfcompat.framework import ragged as _ragged
from tfcompat.framework import sparse as _sparse
from tfcompat.framework.context import state
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops import math_ops


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


# -- tf.config ------------------------------------------------------------------------------------------------------
PhysicalDevice = tf_export("config.PhysicalDevice")(
    collections.namedtuple("PhysicalDevice", ["name", "device_type"]))
LogicalDevice = tf_export("config.LogicalDevice")(
    collections.namedtuple("LogicalDevice", ["name", "device_type"]))


@tf_export("config.LogicalDeviceConfiguration", "config.experimental.VirtualDeviceConfiguration")
class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """Configuration of one logical device (memory limit, priority, ordinal)."""

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


class _Config:
    soft_placement = True
    memory_growth = {}
    visible = None            # list of visible PhysicalDevices, None = all
    intra_threads = 0
    inter_threads = 0
    jit = False
    optimizer_options = {"disable_model_pruning": False, "disable_meta_optimizer": False}


def _physical_devices():
    out = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    out += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(torch.cuda.device_count())]
    return out


@tf_export("config.list_physical_devices", "config.experimental.list_physical_devices")
def list_physical_devices(device_type=None):
    """The physical devices (CPU, and the CUDA GPUs torch sees), optionally of one `device_type`."""
    return [d for d in _physical_devices() if device_type is None or d.device_type == device_type]


@tf_export("config.list_logical_devices", "config.experimental.list_logical_devices")
def list_logical_devices(device_type=None):
    """The logical devices ops can run on: the visible physical devices, one logical device each."""
    return [LogicalDevice("/device:" + d.name.split(":", 1)[1], d.device_type)
            for d in get_visible_devices(device_type)]


@tf_export("config.get_visible_devices", "config.experimental.get_visible_devices")
def get_visible_devices(device_type=None):
    """The physical devices the runtime may use."""
    devices = _Config.visible if _Config.visible is not None else _physical_devices()
    return [d for d in devices if device_type is None or d.device_type == device_type]


@tf_export("config.set_visible_devices", "config.experimental.set_visible_devices")
def set_visible_devices(devices, device_type=None):
    """Restricts the devices the runtime uses; tfcompat can hide all GPUs (new tensors then go to CPU)."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    physical = _physical_devices()
    for d in devices:
        if d not in physical:
            raise ValueError(f"Unrecognized device: {d!r}")
    kept = [d for d in physical if d in devices or (device_type is not None and d.device_type != device_type)]
    if not any(d.device_type == "CPU" for d in kept):
        raise NotImplementedError("tfcompat cannot hide the CPU device (set_visible_devices)")
    gpus = [d for d in kept if d.device_type == "GPU"]
    all_gpus = [d for d in physical if d.device_type == "GPU"]
    if gpus and gpus != all_gpus:
        raise NotImplementedError("tfcompat can hide all GPUs or none with set_visible_devices, "
                                  "not a subset (use CUDA_VISIBLE_DEVICES)")
    _Config.visible = kept
    context.default_device()
    context._default_device[:] = [torch.device("cuda", 0) if gpus else torch.device("cpu")]


def _gpu_visible(index):
    return any(d.name == f"/physical_device:GPU:{index}" for d in get_visible_devices("GPU"))


def _check_physical(device):
    if device not in _physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")


@tf_export("config.experimental.set_memory_growth")
def set_memory_growth(device, enable):
    """Records memory growth for a GPU (torch's caching allocator always grows on demand)."""
    _check_physical(device)
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    _Config.memory_growth[device] = bool(enable)


@tf_export("config.experimental.get_memory_growth")
def get_memory_growth(device):
    """The memory growth recorded for a GPU (None when never set); KeyError for a CPU, as TF."""
    _check_physical(device)
    if device.device_type != "GPU":
        raise KeyError(device)
    return _Config.memory_growth.get(device)


@tf_export("config.get_logical_device_configuration", "config.experimental.get_virtual_device_configuration")
def get_logical_device_configuration(device):
    """None: tfcompat has one logical device per physical device."""
    _check_physical(device)
    return None


@tf_export("config.set_logical_device_configuration", "config.experimental.set_virtual_device_configuration")
def set_logical_device_configuration(device, logical_devices):
    """Splitting a device into logical devices is not supported."""
    raise NotImplementedError("tfcompat does not support logical (virtual) device configurations "
                              "(set_logical_device_configuration)")


@tf_export("config.experimental.get_memory_info")
def get_memory_info(device):
    """{'current', 'peak'} bytes allocated on a device (`'GPU:0'`); CPU reports 0 as TF does."""
    spec = _device.DeviceSpec.from_string(device)
    if spec.device_type == "CPU":
        return {"current": 0, "peak": 0}
    if spec.device_type != "GPU" or not _gpu_visible(spec.device_index or 0):
        raise ValueError(f"Failed parsing device name: '{device}'")
    index = spec.device_index or 0
    return {"current": torch.cuda.memory_allocated(index), "peak": torch.cuda.max_memory_allocated(index)}


@tf_export("config.experimental.reset_memory_stats")
def reset_memory_stats(device):
    """Resets the peak memory statistic of a GPU."""
    spec = _device.DeviceSpec.from_string(device)
    if spec.device_type != "GPU":
        raise ValueError(f"Failed parsing device name: '{device}'")
    torch.cuda.reset_peak_memory_stats(spec.device_index or 0)


@tf_export("config.experimental.get_device_details")
def get_device_details(device):
    """{'device_name', 'compute_capability'} for a GPU, {} for a CPU."""
    _check_physical(device)
    if device.device_type != "GPU":
        return {}
    index = int(device.name.rsplit(":", 1)[1])
    return {"device_name": torch.cuda.get_device_name(index),
            "compute_capability": torch.cuda.get_device_capability(index)}


@tf_export("config.threading.set_intra_op_parallelism_threads")
def set_intra_op_parallelism_threads(num_threads):
    """Threads used inside one op (torch.set_num_threads; 0 lets the system choose)."""
    if num_threads:
        torch.set_num_threads(int(num_threads))
    _Config.intra_threads = int(num_threads)


@tf_export("config.threading.get_intra_op_parallelism_threads")
def get_intra_op_parallelism_threads():
    return _Config.intra_threads


@tf_export("config.threading.set_inter_op_parallelism_threads")
def set_inter_op_parallelism_threads(num_threads):
    """Threads running independent ops (torch.set_num_interop_threads, only before any parallel work)."""
    if num_threads and num_threads != torch.get_num_interop_threads():
        try:
            torch.set_num_interop_threads(int(num_threads))
        except RuntimeError:
            raise RuntimeError("Inter op parallelism cannot be modified after initialization.") from None
    _Config.inter_threads = int(num_threads)


@tf_export("config.threading.get_inter_op_parallelism_threads")
def get_inter_op_parallelism_threads():
    return _Config.inter_threads


@tf_export("config.set_soft_device_placement")
def set_soft_device_placement(enabled):
    """With soft placement (the default) an unavailable device in `tf.device` falls back to CPU."""
    _Config.soft_placement = bool(enabled)


@tf_export("config.get_soft_device_placement")
def get_soft_device_placement():
    return _Config.soft_placement


_device._soft_placement = get_soft_device_placement
_device._gpu_visible = _gpu_visible


@tf_export("config.experimental.enable_op_determinism")
def enable_op_determinism():
    """Makes ops deterministic (torch.use_deterministic_algorithms); nondeterministic kernels then raise."""
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False


@tf_export("config.experimental.enable_tensor_float_32_execution")
def enable_tensor_float_32_execution(enabled):
    """Allows TensorFloat-32 in CUDA matmuls and convolutions."""
    torch.backends.cuda.matmul.allow_tf32 = bool(enabled)
    torch.backends.cudnn.allow_tf32 = bool(enabled)


@tf_export("config.experimental.tensor_float_32_execution_enabled")
def tensor_float_32_execution_enabled():
    return bool(torch.backends.cuda.matmul.allow_tf32)


@tf_export("config.optimizer.set_jit")
def set_jit(enabled):
    """Records the XLA JIT setting (tfcompat compiles nothing; the setting is reported by get_jit)."""
    if enabled not in (True, False, "autoclustering"):
        raise ValueError(f"Invalid value for jit: {enabled!r}")
    _Config.jit = bool(enabled)


@tf_export("config.optimizer.get_jit")
def get_jit():
    return "autoclustering" if _Config.jit else ""


@tf_export("config.optimizer.set_experimental_options")
def set_experimental_options(options):
    """Records Grappler options (tfcompat runs eagerly and has no graph optimizer)."""
    _Config.optimizer_options.update(options)


@tf_export("config.optimizer.get_experimental_options")
def get_experimental_options():
    return dict(_Config.optimizer_options)


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


# -- tf.debugging -----------------------------------------------------------------------------------------------------
def _tensor(x):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, TensorShape):
        x = x.as_list()
    return convert_to_tensor(x)


def _shape_dtype(t):
    return f"shape={t.shape} dtype={t.dtype.name}"


def _prefix(message):
    return f"{message}.  " if message else ""


def _flat(t):
    return t._array().reshape(-1)


def _pretty(item, summarize):
    """One item of an assert message: tensors as a list of their first `summarize` values' texts."""
    if isinstance(item, Tensor):
        a = item._array()
        if a.ndim == 0:
            return str(a[()])
        flat = a.reshape(-1)
        items = [str(v) for v in flat[:summarize]]
        if len(items) < flat.size:
            items.append("...")
        return str(items)
    return str(item)


def _binary_assert(sym, op, x, y, data, summarize, message):
    x, y = _tensor(x), _tensor(y)
    test = op(x, y)
    t = storage(test)
    passed = t.all() if type(t) is torch.Tensor else np.all(t)
    if bool(passed):
        return None
    if summarize is None:
        summarize = 3
    elif summarize < 0:
        summarize = sys.maxsize
    if data is None:
        data = [f"Condition x {sym} y did not hold."]
        if summarize > 0:
            if x.shape == y.shape and storage(x).ndim:
                failed = ~test._array()
                idx = np.argwhere(failed)
                n = min(summarize, idx.shape[0])
                data += [f"Indices of first {n} different values:", idx[:n],
                         "Corresponding x values:", x._array()[failed].reshape(-1)[:n],
                         "Corresponding y values:", y._array()[failed].reshape(-1)[:n]]
            xf, yf = _flat(x), _flat(y)
            nx, ny = min(xf.size, summarize), min(yf.size, summarize)
            data += [f"First {nx} elements of x:", xf[:nx], f"First {ny} elements of y:", yf[:ny]]
    if message is not None:
        data = [message] + list(data)
    raise errors.InvalidArgumentError(None, None, "\n".join(_pretty(d, summarize) for d in data))


def _binary(sym, op_name):
    op = getattr(math_ops, op_name)

    def check(x, y, message=None, summarize=None, name=None):
        return _binary_assert(sym, op, x, y, None, summarize, message)

    check.__doc__ = f"Raises InvalidArgumentError unless `x {sym} y` holds elementwise (None in eager mode)."
    return check


assert_equal = tf_export("debugging.assert_equal", "assert_equal")(_binary("==", "equal"))
assert_none_equal = tf_export("debugging.assert_none_equal")(_binary("!=", "not_equal"))
assert_less = tf_export("debugging.assert_less", "assert_less")(_binary("<", "less"))
assert_less_equal = tf_export("debugging.assert_less_equal")(_binary("<=", "less_equal"))
assert_greater = tf_export("debugging.assert_greater", "assert_greater")(_binary(">", "greater"))
assert_greater_equal = tf_export("debugging.assert_greater_equal")(_binary(">=", "greater_equal"))
for _f, _n in ((assert_equal, "assert_equal"), (assert_none_equal, "assert_none_equal"),
               (assert_less, "assert_less"), (assert_less_equal, "assert_less_equal"),
               (assert_greater, "assert_greater"), (assert_greater_equal, "assert_greater_equal")):
    _f.__name__ = _f.__qualname__ = _n


def _sign_assert(x, message, summarize, zero_first, op, text):
    x = _tensor(x)
    zero = wrap(torch.zeros((), dtype=storage(x).dtype))
    data = [_prefix(message), text, f"x ({_shape_dtype(x)}) = ", x]
    if op is math_ops.less_equal and not zero_first:    # TF's assert_non_positive message lacks this newline
        data = [data[0], data[1] + data[2], x]
    return _binary_assert("", op, *((zero, x) if zero_first else (x, zero)), data, summarize, None)


@tf_export("debugging.assert_positive")
def assert_positive(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x > 0`."""
    return _sign_assert(x, message, summarize, True, math_ops.less, "Condition x > 0 did not hold element-wise:")


@tf_export("debugging.assert_negative")
def assert_negative(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x < 0`."""
    return _sign_assert(x, message, summarize, False, math_ops.less, "Condition x < 0 did not hold element-wise:")


@tf_export("debugging.assert_non_negative")
def assert_non_negative(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x >= 0`."""
    return _sign_assert(x, message, summarize, True, math_ops.less_equal,
                        "Condition x >= 0 did not hold element-wise:")


_ragged.register_ops(assert_equal=assert_equal, assert_non_negative=assert_non_negative)


@tf_export("debugging.assert_non_positive")
def assert_non_positive(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x <= 0`."""
    return _sign_assert(x, message, summarize, False, math_ops.less_equal,
                        "Condition x <= 0 did not hold element-wise:")


def _summarize_values(t, summarize):
    a = t._array()
    if a.ndim == 0:
        return str(a[()]) if summarize != 0 else ""
    flat = a.reshape(-1)
    items = [str(v) for v in flat[:summarize]]
    if len(items) < flat.size:
        items.append("...")
    return ", ".join(items)


@tf_export("debugging.Assert", "Assert")
def Assert(condition, data, summarize=None, name=None):
    """Raises InvalidArgumentError listing `data` when `condition` is False (None in eager mode)."""
    if isinstance(condition, Tensor):
        ok = bool(condition._array())
    else:
        ok = bool(condition)
    if ok:
        return None
    summarize = 3 if summarize is None else summarize
    text = "\n".join(_summarize_values(_tensor(d), summarize) for d in data)
    raise errors.InvalidArgumentError(None, None, f"Expected '{condition!s}' to be true. Summarized data: {text}")


@tf_export("debugging.assert_near")
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless `|x - y| <= atol + rtol * |y|` elementwise."""
    x, y = _tensor(x), _tensor(y)
    dt = x.dtype
    if not (dt.is_floating or dt.is_complex):
        raise ValueError(f"data type {np.dtype(dt.as_numpy_dtype).type} not inexact")
    eps = 10 * float(np.finfo(dt.real_dtype.as_numpy_dtype if dt.is_complex else dt.as_numpy_dtype).eps)
    real = dt.real_dtype if dt.is_complex else dt
    rtol = convert_to_tensor(eps if rtol is None else rtol, dtype=real)
    atol = convert_to_tensor(eps if atol is None else atol, dtype=real)
    diff = torch.abs(storage(x) - storage(y))
    ok = bool((diff <= storage(atol) + storage(rtol) * torch.abs(storage(y))).all())
    if ok:
        return None
    data = [_prefix(message), f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
            f"x ({_shape_dtype(x)}) = ", x, f"y ({_shape_dtype(y)}) = ", y]
    return Assert(wrap(torch.tensor(False)), data, summarize=summarize)


def _rank_of(x):
    return x.shape.rank if isinstance(x, (Tensor, Variable)) else _tensor(x).shape.rank


def _rank_error(x, message, what):
    x = x if isinstance(x, (Tensor, Variable)) else _tensor(x)
    dims = tuple(x.shape.as_list())
    return ValueError(f"{_prefix(message)}Tensor  must have rank {what}.  Received rank {len(dims)}, shape {dims}")


@tf_export("debugging.assert_rank", "assert_rank")
def assert_rank(x, rank, message=None, name=None):
    """Raises ValueError unless `x` has rank `rank`."""
    rank = int(rank)
    if _rank_of(x) != rank:
        raise _rank_error(x, message, str(rank))


@tf_export("debugging.assert_rank_at_least")
def assert_rank_at_least(x, rank, message=None, name=None):
    """Raises ValueError unless `x` has rank at least `rank`."""
    rank = int(rank)
    if _rank_of(x) < rank:
        raise _rank_error(x, message, f"at least {rank}")


@tf_export("debugging.assert_rank_in")
def assert_rank_in(x, ranks, message=None, name=None):
    """Raises ValueError unless the rank of `x` is one of `ranks`."""
    ranks = tuple(int(r) for r in ranks)
    if _rank_of(x) not in ranks:
        raise _rank_error(x, message, f"in {ranks}")


@tf_export("debugging.assert_scalar")
def assert_scalar(tensor, message=None, name=None):
    """Raises ValueError unless `tensor` is a scalar; returns it."""
    t = _tensor(tensor) if not isinstance(tensor, (Tensor, Variable)) else tensor
    if t.shape.rank != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {t.shape}.")
    return tensor


@tf_export("debugging.assert_shapes")
def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Checks tensors against symbolic shapes: ints are exact sizes, strings name sizes shared across tensors."""
    items = shapes.items() if isinstance(shapes, dict) else shapes
    sizes = {}
    for x, spec in items:
        x = x if isinstance(x, (Tensor, Variable)) else _tensor(x)
        spec = tuple(spec.as_list()) if isinstance(spec, TensorShape) else tuple(spec)
        dims = x.shape.as_list()
        if spec and spec[0] == "...":
            spec = spec[1:]
            assert_rank_at_least(x, len(spec), message)
            dims = dims[len(dims) - len(spec):]
        elif len(spec) <= 1:
            assert_rank_in(x, (0, 1), message)
        else:
            assert_rank(x, len(spec), message)
        offset = len(x.shape.as_list()) - len(dims)
        for i, (s, d) in enumerate(zip(spec, dims)):
            if s is None or s == "." or s == "*":
                continue
            if isinstance(s, str):
                if s not in sizes:
                    sizes[s] = (d, f"Specified by tensor {_shape_dtype(x)} dimension {i + offset}")
                    continue
                want, origin = sizes[s]
            else:
                want, origin = int(s), "Specified explicitly"
            if d != want:
                raise ValueError(f"{_prefix(message)}{origin}.  Tensor {_shape_dtype(x)} dimension {i + offset} "
                                 f"must have size {want}.  Received size {d}, shape {tuple(x.shape.as_list())}")


@tf_export("debugging.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
    """Raises TypeError unless `tensor` has dtype `tf_type`."""
    tf_type = dtypes.as_dtype(tf_type)
    if tensor.dtype != tf_type:
        raise TypeError(f"{_prefix(message)}tensor must be of type {tf_type!r}; got {tensor.dtype!r}")


@tf_export("debugging.assert_integer")
def assert_integer(x, message=None, name=None):
    """Raises TypeError unless `x` has an integer dtype."""
    x = x if isinstance(x, (Tensor, Variable)) else _tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype {x.dtype}')


_CHECK_NUMERICS_TYPES = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


@tf_export("debugging.check_numerics")
def check_numerics(tensor, message, name=None):
    """Returns `tensor`; raises InvalidArgumentError if it holds NaN or Inf values."""
    t = _tensor(tensor) if not isinstance(tensor, (Tensor, Variable)) else tensor
    if t.dtype not in _CHECK_NUMERICS_TYPES:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'T' of {t.dtype.name} is not in the list of allowed values: bfloat16, half, float, "
            "double\n\t; NodeDef: {{node CheckNumerics}}; Op<name=CheckNumerics; signature=tensor:T -> output:T; "
            "attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE]; attr=message:string; "
            "is_stateful=true>", "CheckNumerics")
    v = storage(t) if isinstance(t, Tensor) else t._read()
    has_inf = bool(torch.isinf(v).any())
    has_nan = bool(torch.isnan(v).any())
    if has_inf or has_nan:
        what = "Inf and NaN" if has_inf and has_nan else ("Inf" if has_inf else "NaN")
        raise errors.op_error(errors.InvalidArgumentError, f"{message} : Tensor had {what} values", "CheckNumerics")
    return t if isinstance(t, Tensor) else wrap(v)


@tf_export("debugging.assert_all_finite")
def assert_all_finite(x, message, name=None):
    """Returns `x`; raises InvalidArgumentError if it holds NaN or Inf values."""
    return check_numerics(x, message, name)


@tf_export("debugging.enable_check_numerics")
def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Checking every op's output for NaN/Inf is not supported."""
    raise NotImplementedError("tf.debugging.enable_check_numerics is not supported by tfcompat "
                              "(use tf.debugging.check_numerics on the tensors to check)")


@tf_export("debugging.disable_check_numerics")
def disable_check_numerics():
    """Nothing to disable: tfcompat never enables per-op numeric checks."""
    return None


@tf_export("debugging.assert_proper_iterable")
def assert_proper_iterable(values):
    """Raises TypeError if `values` is a tensor, array or string, or not iterable."""
    bad = (Tensor, _sparse.SparseTensor, np.ndarray, bytes, str)
    if isinstance(values, bad) or not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')


@tf_export("debugging.assert_same_float_dtype")
def assert_same_float_dtype(tensors=None, dtype=None):
    """The common floating dtype of `tensors` (and `dtype`); float32 when there is none."""
    if tensors:
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
        first = None
        for t in tensors:
            if t is None:
                continue
            if dtype is None:
                dtype, first = t.dtype, t
            elif t.dtype != dtype:
                raise ValueError(f"{t!s}, type={t.dtype}, must be of the same type ({dtype})"
                                 f"{f' as {first!s}' if first is not None else ''}.")
    if dtype is None:
        return dtypes.float32
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


@tf_export("debugging.is_numeric_tensor")
def is_numeric_tensor(tensor):
    """True for a tensor of a numeric (integer, floating or complex) dtype."""
    return isinstance(tensor, Tensor) and (tensor.dtype.is_integer or tensor.dtype.is_floating or
                                           tensor.dtype.is_complex or tensor.dtype.is_quantized)


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
