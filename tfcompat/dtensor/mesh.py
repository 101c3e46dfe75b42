"""`dtensor.Mesh` and `create_mesh`: a named grid of this process's logical CPU devices (one client)."""
import collections
import contextlib
import threading

import numpy as np

from tfcompat.framework.device import DeviceSpec

MeshDimension = collections.namedtuple("MeshDimension", ["name", "size"])
JOB = "localhost"
_state = threading.local()


def full_device_name(name):
    """TF's full name of a local device string such as 'CPU:0' or '/device:CPU:3'."""
    spec = DeviceSpec.from_string(name)
    return f"/job:{JOB}/replica:0/task:0/device:{spec.device_type or 'CPU'}:{spec.device_index or 0}"


class Mesh:
    """A mesh of devices: named dimensions over the row-major grid of its global device ids (TF's `Mesh`)."""

    def __init__(self, dim_names, global_device_ids, local_device_ids, local_devices, mesh_name="",
                 global_devices=None, use_xla_spmd=False):
        if global_devices is not None or use_xla_spmd:
            raise NotImplementedError("dtensor.Mesh(global_devices/use_xla_spmd) is not supported by tfcompat "
                                      "(one client, CPU devices)")
        ids = np.asarray(global_device_ids)
        if len(dim_names) != ids.ndim:
            raise ValueError("Number of mesh dimensions does not match number of dimension names.")
        devices = [full_device_name(d.to_string() if isinstance(d, DeviceSpec) else d) for d in local_devices]
        if len(devices) != len(local_device_ids):
            raise ValueError("Number of local devices does not match number of local device ids.")
        types = {d.rsplit("/device:", 1)[1].split(":")[0] for d in devices}
        if types - {"CPU"}:
            raise NotImplementedError(f"dtensor meshes of {sorted(types - {'CPU'})[0]} devices are not supported "
                                      "by tfcompat (CPU meshes only)")
        self._dim_names = list(dim_names)
        self._ids = ids
        self._local_ids = [int(i) for i in local_device_ids]
        self._local_devices = devices
        self._name = mesh_name

    # -- structure -----------------------------------------------------------------
    @property
    def dim_names(self):
        return list(self._dim_names)

    @property
    def name(self):
        return self._name

    @property
    def size(self):
        return int(self._ids.size)

    def shape(self):
        return list(self._ids.shape)

    def dim_size(self, dim_name):
        return self[dim_name].size

    def __getitem__(self, dim_name):
        if dim_name not in self._dim_names:
            raise ValueError(f"Dimension {dim_name} does not exist in mesh.Available dimensions: "
                             f"{','.join(self._dim_names)}")
        return MeshDimension(dim_name, self._ids.shape[self._dim_names.index(dim_name)])

    def __contains__(self, dim_name):
        return dim_name in self._dim_names

    def device_type(self):
        return "CPU"

    def global_device_ids(self):
        return self._ids.copy()

    def local_device_ids(self):
        return list(self._local_ids)

    def local_devices(self):
        return list(self._local_devices)

    def num_local_devices(self):
        return len(self._local_devices)

    def min_global_device_id(self):
        return int(self._ids.min())

    def is_single_device(self):
        return False

    def use_xla_spmd(self):
        return False

    def host_mesh(self):
        return self

    def local_device_locations(self):
        """{dim name: coordinate} of each local device, in local device order."""
        out = []
        for device_id in self._local_ids:
            where = np.argwhere(self._ids == device_id)[0]
            out.append({n: int(i) for n, i in zip(self._dim_names, where)})
        return out

    # -- text and identity ---------------------------------------------------------
    def to_string(self):
        dims = ",".join(f"{n}={s}" for n, s in zip(self._dim_names, self._ids.shape))
        ids = ",".join(str(int(i)) for i in self._ids.reshape(-1))
        local = ",".join(str(i) for i in self._local_ids)
        return f"{self._name}|{dims}|{ids}|{local}|{','.join(self._local_devices)}"

    @staticmethod
    def from_string(mesh_str):
        parts = mesh_str.split("|")
        if len(parts) != 5:
            raise ValueError(f"Input string is invalid: {mesh_str}\ntensorflow/dtensor/cc/tensor_layout.cc:639 :: ")
        name, dims, ids, local, devices = parts
        names, sizes = zip(*(d.split("=") for d in dims.split(","))) if dims else ((), ())
        grid = np.array([int(i) for i in ids.split(",")]).reshape([int(s) for s in sizes])
        return Mesh(list(names), grid, [int(i) for i in local.split(",")], devices.split(","), name)

    def __repr__(self):
        return f"Mesh.from_string({self.to_string()})"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Mesh) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())


def local_devices(device_type, for_client_id=None):
    """The DeviceSpecs of this client's logical devices of `device_type`."""
    from tfcompat.ops.config_ops import list_logical_devices
    if for_client_id not in (None, 0):
        raise ValueError(f"for_client_id {for_client_id} is out of range (one client)")
    return [DeviceSpec.from_string(full_device_name(d.name)) for d in list_logical_devices(device_type.upper())]


def create_mesh(mesh_dims=None, mesh_name="", devices=None, device_type=None, use_xla_spmd=False):
    """A single-client mesh over `devices` (default: every logical device of `device_type`, CPU by default);
    `mesh_dims` is a list of (name, size) pairs or a dict (default: one dimension 'x' over all devices)."""
    if use_xla_spmd:
        raise NotImplementedError("dtensor.create_mesh(use_xla_spmd=True) is not supported by tfcompat")
    if devices is None:
        devices = [d.to_string() for d in local_devices(device_type or "CPU")]
    devices = [full_device_name(d.to_string() if isinstance(d, DeviceSpec) else d) for d in devices]
    if mesh_dims is None:
        mesh_dims = [("x", len(devices))]
    elif isinstance(mesh_dims, dict):
        mesh_dims = list(mesh_dims.items())
    names = [n for n, _ in mesh_dims]
    shape = [int(s) for _, s in mesh_dims]
    if len(devices) != int(np.prod(shape)):
        raise ValueError(f"length of devices ({len(devices)}) must be equal to total size of the mesh of shape "
                         f"{shape}")
    ids = np.arange(len(devices)).reshape(shape)
    return Mesh(names, ids, list(range(len(devices))), devices, mesh_name)


def create_distributed_mesh(mesh_dims, mesh_name="", local_devices=None, device_type=None, use_xla_spmd=False):
    """Multi-client meshes need several DTensor clients: not supported by tfcompat."""
    raise NotImplementedError("dtensor.create_distributed_mesh is not supported by tfcompat (one client only: "
                              "use dtensor.create_mesh)")


@contextlib.contextmanager
def default_mesh(mesh):
    """Within the block, `get_default_mesh()` is `mesh` and the DTensor-aware creation ops (`tf.ones`, `tf.zeros`,
    `tf.fill`, ...) return replicated DTensors on it."""
    if not isinstance(mesh, Mesh):
        raise ValueError(f"Expect `mesh` to be `Mesh`, got {type(mesh)}")
    stack = _stack()
    stack.append(mesh)
    try:
        yield
    finally:
        stack.pop()


def _stack():
    stack = getattr(_state, "meshes", None)
    if stack is None:
        stack = _state.meshes = []
    return stack


def get_default_mesh():
    """The mesh of the innermost `default_mesh` block, or None."""
    stack = _stack()
    return stack[-1] if stack else None
