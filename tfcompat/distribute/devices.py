"""TF's canonical names of a strategy's local devices, and the torch device they run on."""
import torch

from tfcompat.framework.device import DeviceSpec


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
    """Rejects what one tfcompat process cannot mirror: several CUDA GPUs (one storage per variable)."""
    gpus = [n for n in names if n.rsplit("/device:", 1)[-1].startswith("GPU")] if torch.cuda.is_available() else []
    if len(gpus) > 1:         # (without CUDA, GPU names run on the CPU, as TF's soft placement)
        raise NotImplementedError(
            "MirroredStrategy over several GPUs in one process is not supported by tfcompat (its replicas share "
            "one copy of each variable): use tf.distribute.MultiWorkerMirroredStrategy with one process per GPU, "
            "launched by `python -m tfcompat run --nproc-per-node N script.py`")
    if gpus and len(names) > 1:
        raise NotImplementedError("MirroredStrategy over a GPU and CPU devices together is not supported by tfcompat")
    if len(set(names)) != len(names):
        raise ValueError(f"No duplicates allowed in `devices` argument: {names}")
