"""DTensors: tensors carrying a `Layout`, held as their global value and split into shards on request.

A DTensor's storage is the whole (global) value; its components (`unpack`) are the slices each mesh device would
hold. Ops run once on the global value (tfcompat has one CPU torch device) and their results carry the layout TF's
layout propagation gives (`dtensor.propagation`).
"""
import numpy as np
import torch

from tfcompat.dtensor.mesh import default_mesh
from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import EagerTensor, Tensor, storage, wrap
from tfcompat.framework.variables import Variable
from tfcompat.ops.string_ops import _summarize

DEVICE = "/job:localhost/replica:0/task:0/device:CUSTOM:0"


class DTensor(EagerTensor):
    """An eager tensor with a layout (TF's DTensor: `tf.Tensor` placed on the DTensor device)."""

    __slots__ = ("_layout",)

    @property
    def device(self):
        return DEVICE

    @property
    def backing_device(self):
        return DEVICE

    def numpy(self):
        if not self._layout.is_fully_replicated():
            raise errors.UnimplementedError(
                None, None, "Trying to copy a non-single-device and non-replicated DTensor is not supported. Input "
                f"tensor is: DTensor({value_text(storage(self), self._layout)}, layout=\"{self._layout.to_string()}\", "
                f"shape=[{','.join(str(d) for d in storage(self).shape)}], type={self.dtype.name})")
        return super().numpy()

    def __array__(self, dtype=None, copy=None):
        self.numpy()                           # TF's error for sharded DTensors
        return super().__array__(dtype, copy)

    def __repr__(self):
        return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, value={value_text(storage(self), self._layout)}, "
                f"layout=\"{self._layout.to_string()}\">")

    def __str__(self):
        return (f"tf.Tensor({value_text(storage(self), self._layout)}, layout=\"{self._layout.to_string()}\", "
                f"shape={self.shape}, dtype={self.dtype.name})")


class Component(EagerTensor):
    """One device's shard of a DTensor (`unpack`): a plain tensor that reports the mesh device it belongs to."""

    __slots__ = ("_device",)

    @property
    def device(self):
        return self._device

    @property
    def backing_device(self):
        return self._device


def make(t, layout):
    """A DTensor of global storage `t` with `layout`."""
    d = object.__new__(DTensor)
    d._set_storage(t)
    d._layout = layout
    return d


def shard_slices(shape, layout):
    """Per local device (in mesh order), the tuple of slices of the global value that device holds."""
    out = []
    for location in layout.mesh.local_device_locations():
        index = []
        for dim, spec in zip(shape, layout.sharding_specs):
            if spec == "unsharded":
                index.append(slice(None))
            else:
                size = dim // layout.mesh.dim_size(spec)
                index.append(slice(location[spec] * size, (location[spec] + 1) * size))
        out.append(tuple(index))
    return out


def _array(t):
    return wrap(t)._array()


def value_text(t, layout):
    """TF's DTensor value text: the global value when replicated, else `{"CPU:i": shard, ...}`."""
    if layout.is_fully_replicated():
        return _summarize(_array(t), 3)
    shards = [_summarize(_array(t[index]), 3) for index in shard_slices(t.shape, layout)]
    names = [d.rsplit("/device:", 1)[1] for d in layout.mesh.local_devices()]
    return "{" + ", ".join(f"\"{n}\": {s}" for n, s in zip(names, shards)) + "}"


def _check_fits(t, layout, op):
    if t.ndim != layout.rank:
        raise errors.UnknownError(None, None, f"<unknown>:0: error: loc(fused[\"{op}:\", \"eager_operation\"]): "
                                  "'tf.DTensorLayout' op requires matching rank for layout and input, but got "
                                  f"{layout.rank} as suggested rank from layout but {t.ndim} from shape.")
    for i, dim in enumerate(t.shape):
        n = layout.num_shards(i)
        if dim % n:
            raise errors.UnknownError(
                None, None, f"<unknown>:0: error: loc(fused[\"{op}:\", \"eager_operation\"]): 'tf.DTensorLayout' op "
                f"requires dimension {i} to be divisible by sharding specified in DTensorLayout, but got dimension "
                f"size={dim} is not divisible by number of shards in layout for this dimension={n}.")


def is_dtensor(tensor):
    """Whether `tensor` is a DTensor (or a DVariable)."""
    return isinstance(tensor, DTensor) or layout_of(tensor) is not None


def layout_of(x):
    """The layout of a DTensor or DVariable, else None."""
    if type(x) is DTensor:
        return x._layout
    return getattr(x, "_dtensor_layout", None) if isinstance(x, Variable) else None


def fetch_layout(tensor):
    """The layout of a DTensor or DVariable (None for a value that is no tensor)."""
    layout = layout_of(tensor)
    if layout is None and isinstance(tensor, (Tensor, Variable)):
        raise errors.InvalidArgumentError(None, None, "FetchLayout expects a tensor placed on the layout device.")
    return layout


def check_layout(tensor, layout):
    """Raises ValueError unless `tensor` has `layout`."""
    if fetch_layout(tensor) != layout:
        raise ValueError(f"Layout of tensor: {fetch_layout(tensor)}, did not match expected layout: {layout}")


def _global_storage(tensor):
    t = storage(tensor) if isinstance(tensor, Tensor) else storage(convert_to_tensor(tensor))
    return t.detach() if isinstance(t, torch.Tensor) and t.requires_grad else t


def copy_to_mesh(tensor, layout, source_layout=None):
    """A DTensor of the value of regular tensor `tensor` with `layout`."""
    if source_layout is not None:
        raise NotImplementedError("dtensor.copy_to_mesh(source_layout=...) is not supported by tfcompat")
    t = _global_storage(tensor)
    _check_fits(t, layout, "CopyToMesh")
    return make(t, layout)


def relayout(tensor, layout, name=None):
    """`tensor` (a DTensor, or a regular tensor) with `layout`, on the same global value."""
    t = _global_storage(tensor)
    _check_fits(t, layout, "Relayout")
    return make(t, layout)


def relayout_like(tensor, layout_tensor, name=None):
    """`tensor` with the layout of DTensor `layout_tensor`."""
    return relayout(tensor, fetch_layout(layout_tensor))


def unpack(tensor):
    """The components of a DTensor: one tensor per local mesh device, placed on it."""
    layout = layout_of(tensor)
    if layout is None:
        raise errors.InvalidArgumentError(
            None, None, f"DTensorUnpack expects a tensor placed on the DTensor device: {DEVICE}, but input was placed "
            f"on device: {tensor.device if isinstance(tensor, (Tensor, Variable)) else ''}")
    t = _global_storage(tensor)
    out = []
    for device, index in zip(layout.mesh.local_devices(), shard_slices(t.shape, layout)):
        c = object.__new__(Component)
        c._set_storage(t[index] if index else t)
        c._device = device
        out.append(c)
    return out


def pack(tensors, layout):
    """The DTensor whose components (one per local mesh device, in mesh order) are `tensors`."""
    if isinstance(tensors, Tensor):
        raise errors.UnimplementedError(
            None, None, "The op/function StridedSlice got a regular tensor for input 0 (shape "
            f"[{','.join(str(d) for d in tensors.shape)}]) but was expecting a DTensor. Currently only scalars and "
            "small integer/string tensors are auto-broadcast to DTensors. For other tensors, please use copy_to_mesh "
            "to make a DTensor explicitly; note that this may be slow if it happens frequently. [Op:StridedSlice] "
            "name: strided_slice/")
    parts = [_global_storage(t) for t in tensors]
    n = layout.mesh.num_local_devices()
    if len(parts) != n:
        raise errors.InvalidArgumentError(None, None, f"The dtensor device {DEVICE} expected {n} inputs to "
                                          f"DTensorPack, but got {len(parts)}")
    if any(tuple(p.shape) != tuple(parts[0].shape) or p.dtype != parts[0].dtype for p in parts):
        raise errors.UnimplementedError(None, None, "Components of a PackedTensor must currently all have the same "
                                        "shape")
    if parts[0].ndim != layout.rank:
        raise errors.InvalidArgumentError(
            None, None, "Packed layout should have the same rank as the rank for each component. The rank of each "
            f"component is: {parts[0].ndim}, while layout has rank: {layout.rank}\nLayout: {layout.to_string()}\n")
    shape = [d * layout.num_shards(i) for i, d in enumerate(parts[0].shape)]
    if isinstance(parts[0], np.ndarray):
        whole = np.empty(shape, dtype=object)
    else:
        whole = torch.empty(shape, dtype=parts[0].dtype, device=parts[0].device)
    for part, index in zip(parts, shard_slices(shape, layout)):
        whole[index] = part
    return make(whole, layout)


def call_with_layout(fn, layout, *args, **kwargs):
    """`fn(*args, **kwargs)` as a DTensor with `layout` (a regular result when `layout` is None)."""
    if layout is None:
        return fn(*args, **kwargs)
    with default_mesh(layout.mesh):
        return relayout(fn(*args, **kwargs), layout)

