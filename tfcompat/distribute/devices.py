"""TF's canonical names of a strategy's local devices, and the torch device they run on."""
import torch

from tfcompat.framework.device import DeviceSpec, _resolve


def canonical(name, job="localhost", task=0):
    """'/job:<job>/replica:0/task:<task>/device:<TYPE>:<i>' of a device string such as 'CPU:0' or '/gpu:1'."""
    spec = DeviceSpec.from_string(name)
    kind = spec.device_type or "CPU"
    index = spec.device_index or 0
    return f"/job:{job}/replica:0/task:{task}/device:{kind}:{index}"


def default_local_devices():
    """MirroredStrategy's default, as TF's: every CUDA GPU, else every logical CPU device (one unless split)."""
    from tfcompat.ops.config_ops import list_logical_devices
    n = torch.cuda.device_count() if torch.cuda.is_available() else 0
    return [f"/device:GPU:{i}" for i in range(n)] or [d.name for d in list_logical_devices("CPU")]


def check_local(names):
    """Rejects what one tfcompat process cannot mirror: GPUs and CPU devices together, duplicates."""
    gpus = [n for n in names if _kind(n) == "GPU"] if torch.cuda.is_available() else []
    if gpus and len(gpus) != len(names):     # (without CUDA, GPU names run on the CPU, as TF's soft placement)
        raise NotImplementedError("MirroredStrategy over a GPU and CPU devices together is not supported by tfcompat")
    if len(set(names)) != len(names):
        raise ValueError(f"No duplicates allowed in `devices` argument: {names}")


def replica_devices(names):
    """Each local replica's own CUDA device when the replicas are several GPUs (its variables' copies and compute
    live there), else None: logical CPU devices (and GPU names without CUDA) share the process's device."""
    if len(names) < 2 or not torch.cuda.is_available() or _kind(names[0]) != "GPU":
        return None
    return tuple(_resolve(DeviceSpec.from_string(n))[0] for n in names)     # soft placement, as tf.device


def _kind(name):
    return DeviceSpec.from_string(name).device_type or "CPU"
