"""`tf.experimental.dtensor` in one process: meshes of logical CPU devices, layouts, and DTensors.

One client (`num_clients() == 1`) on CPU meshes only (TPU/GPU meshes and multi-client setups raise
NotImplementedError). A DTensor holds its global value and its layout (`tensor.py`); `unpack` gives each device's
shard, `pack` assembles shards. Ops run once on the global values; the public ops of `propagation.py`'s tables and
the Python operators return DTensors with TF's output layout, other ops take DTensors as regular tensors and return
regular tensors. Importing this package installs that propagation (programs that never import it pay nothing).
"""
from tfcompat.dtensor import propagation as _propagation
from tfcompat.dtensor.layout import MATCH, UNSHARDED, Layout  # noqa: F401
from tfcompat.dtensor.mesh import (  # noqa: F401
    JOB as _JOB, Mesh, create_distributed_mesh, create_mesh, default_mesh, get_default_mesh, local_devices)
from tfcompat.dtensor.tensor import (  # noqa: F401
    DEVICE as _DEVICE, call_with_layout, check_layout, copy_to_mesh, fetch_layout, is_dtensor, pack, relayout,
    relayout_like, unpack)
from tfcompat.dtensor.variable import DVariable

_propagation.install(DVariable)


def num_clients():
    """The number of DTensor clients: 1 (tfcompat runs one client)."""
    return 1


def client_id():
    """This client's id: 0."""
    return 0


def job_name():
    return _JOB


def full_job_name(task_id=None):
    return f"/job:{_JOB}/replica:0/task:{0 if task_id is None else task_id}"


def jobs():
    """The job of each client (one)."""
    return [full_job_name()]


def device_name():
    """The name of the DTensor device."""
    return _DEVICE


def num_local_devices(device_type):
    return len(local_devices(device_type))


def num_global_devices(device_type):
    return num_local_devices(device_type)


def heartbeat_enabled():
    return False


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("experimental.dtensor", attr)
