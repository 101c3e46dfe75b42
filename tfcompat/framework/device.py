"""`tf.device` and `tf.DeviceSpec`: TF device names, and the device scope new tensors are placed in.

As in TF, an unavailable device (a GPU on a CPU-only machine) falls back to the CPU
while soft device placement is on (the default).
"""
import torch

from tfcompat.framework.context import state
from tfcompat.framework.export import tf_export

_soft_placement = lambda: True                      # noqa: E731  (replaced by tf.config)
_gpu_visible = lambda index: index < torch.cuda.device_count()  # noqa: E731

_DEVICE_TYPES = {"CPU", "GPU", "TPU", "TPU_SYSTEM", "XLA_CPU", "XLA_GPU", "CUSTOM"}


def _parse(spec):
    """(job, replica, task, device_type, device_index) of a TF device string."""
    job = replica = task = device_type = device_index = None
    for part in spec.split("/"):
        fields = part.split(":")
        n = len(fields)
        if not part:
            continue
        key = fields[0]
        if n == 2 and key == "job":
            job = fields[1]
        elif n == 2 and key == "replica":
            replica = int(fields[1])
        elif n == 2 and key == "task":
            task = int(fields[1])
        elif n in (1, 2) and key.upper() in _DEVICE_TYPES:
            if device_type is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
            device_type = key.upper()
            if n == 2 and fields[1] != "*":
                device_index = int(fields[1])
        elif n == 3 and key == "device":
            if device_type is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
            device_type = fields[1]
            if fields[2] != "*":
                device_index = int(fields[2])
        elif key:
            raise ValueError(f"Unknown attribute '{key}' is encountered while parsing the device spec: '{spec}'.")
    return job, replica, task, device_type, device_index


@tf_export("DeviceSpec")
class DeviceSpec:
    """A (partial) device specification: job, replica, task, device type and index."""

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index", "_hash")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self._job = job
        self._replica = None if replica is None else int(replica)
        self._task = None if task is None else int(task)
        if isinstance(device_type, str) and device_type.upper() in ("CPU", "GPU"):
            device_type = device_type.upper()
        self._device_type = device_type
        self._device_index = None if device_index is None else int(device_index)
        self._hash = hash(self.to_string())

    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    @classmethod
    def from_string(cls, spec):
        """The DeviceSpec of a TF device string such as '/job:localhost/device:GPU:0' or 'cpu:0'."""
        return cls(*_parse(spec))

    def to_string(self):
        out = ""
        if self._job is not None:
            out += f"/job:{self._job}"
        if self._replica is not None:
            out += f"/replica:{self._replica}"
        if self._task is not None:
            out += f"/task:{self._task}"
        if self._device_type is not None:
            index = "*" if self._device_index is None else self._device_index
            out += f"/device:{self._device_type}:{index}"
        return out

    def replace(self, **kwargs):
        """A copy with the given fields replaced."""
        fields = dict(job=self._job, replica=self._replica, task=self._task, device_type=self._device_type,
                      device_index=self._device_index)
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def make_merged_spec(self, dev):
        """This spec with the fields `dev` sets overriding it."""
        return DeviceSpec(*(b if b is not None else a for a, b in zip(self._fields(), dev._fields())))

    def _fields(self):
        return self._job, self._replica, self._task, self._device_type, self._device_index

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return (f"<DeviceSpec(job={self._job}, replica={self._replica}, task={self._task}, "
                f"device_type={self._device_type}, device_index={self._device_index})>")


_CPU = torch.device("cpu")
_CPU_NAME = "/job:localhost/replica:0/task:0/device:CPU:0"


def _resolve(spec):
    """(torch device, TF device name) for a merged device spec, applying soft placement."""
    kind = spec.device_type
    index = spec.device_index or 0
    if kind == "GPU" and _gpu_visible(index):
        return torch.device("cuda", index), f"/job:localhost/replica:0/task:0/device:GPU:{index}"
    if kind in (None, "CPU") or _soft_placement():
        if kind is None:
            from tfcompat.framework.context import default_device
            from tfcompat.framework.tensor import device_name
            d = default_device()
            return d, device_name(d)
        return _CPU, _CPU_NAME
    from tfcompat.framework import errors
    raise errors.InvalidArgumentError(
        None, None, f"Could not satisfy device specification '/job:localhost/replica:0/task:0/device:{kind}:{index}'. "
        "enable_soft_placement=0. Supported device types [CPU]. All available devices "
        f"[{_CPU_NAME}].")


class _DeviceScope:
    """The context manager `tf.device` returns."""

    __slots__ = ("_name", "_saved")

    def __init__(self, name):
        self._name = name
        self._saved = []

    def __repr__(self):
        return f"<tensorflow.python.eager.context._EagerDeviceContext object at {hex(id(self))}>"

    def __enter__(self):
        self._saved.append((state.device, state.device_name))
        name = self._name
        if name is None:
            state.device, state.device_name = None, None
        elif name:
            spec = DeviceSpec.from_string(name)
            if state.device_name:
                spec = DeviceSpec.from_string(state.device_name).make_merged_spec(spec)
            state.device, state.device_name = _resolve(spec)
        return None

    def __exit__(self, *exc):
        state.device, state.device_name = self._saved.pop()
        return False


@tf_export("device")
def device(device_name):
    """A context placing the tensors made inside on `device_name` ('/GPU:0', '/cpu:0', ...).

    Fields not given are inherited from the enclosing scope; None resets to the default
    device; '' changes nothing. A GPU that does not exist means the CPU (soft placement).
    """
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions when eager execution is enabled.")
    if isinstance(device_name, DeviceSpec):
        device_name = device_name.to_string()
    elif hasattr(device_name, "name") and hasattr(device_name, "device_type"):    # LogicalDevice
        device_name = device_name.name
    elif device_name is not None and not isinstance(device_name, str):
        raise ValueError(f"Expecting a string device name. Got {type(device_name)}({device_name})")
    return _DeviceScope(device_name)
