"""`tf.config`: devices (physical, logical, visible), memory, threading, soft placement, determinism, JIT and Grappler
options, and the placement-logging switch of `tf.debugging`."""
import collections

import torch

from tfcompat.framework import context
from tfcompat.framework import device as _device  # registers tf.device, tf.DeviceSpec
from tfcompat.framework.export import partial_api, tf_export


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
    logical = {}              # PhysicalDevice -> its list of LogicalDeviceConfiguration (when split)
    visible = None            # list of visible PhysicalDevices, None = all
    intra_threads = 0
    inter_threads = 0
    jit = False
    optimizer_options = {}    # what set_experimental_options was given (TF keeps the dict and reads known keys)
    log_device_placement = False


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
    """The logical devices ops can run on: one per visible physical device, or as many as it was split into.

    As in TF, listing them initializes the runtime (logical devices can no longer be configured).
    """
    context.default_device()
    out, counts = [], {}
    for d in get_visible_devices(device_type):
        for _ in _Config.logical.get(d) or [None]:
            index = counts[d.device_type] = counts.get(d.device_type, -1) + 1
            out.append(LogicalDevice(f"/device:{d.device_type}:{index}", d.device_type))
    return out


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
    """The logical device configurations `device` was split into (None when it never was)."""
    _check_physical(device)
    configs = _Config.logical.get(device)
    return None if configs is None else list(configs)


_CPU_UNSUPPORTED = (("memory_limit", "Setting memory limit on CPU virtual devices is currently not supported"),
                    ("experimental_priority", "Setting experimental_priority on CPU virtual  devices is currently "
                                              "not supported"),
                    ("experimental_device_ordinal", "Setting experimental_device_ordinal on CPU virtual  devices is "
                                                    "currently not supported"))


@tf_export("config.set_logical_device_configuration", "config.experimental.set_virtual_device_configuration",
           partial="CPU only (a GPU cannot be split); ops on logical CPU:n run on the one torch CPU device and their "
                   "tensors report device CPU:0")
def set_logical_device_configuration(device, logical_devices):
    """Splits physical `device` into `len(logical_devices)` logical devices (`/device:CPU:0`, `/device:CPU:1`, ...).

    Only before the runtime is initialized (the first op, or `list_logical_devices`), as TF.
    """
    _check_physical(device)
    configs = list(logical_devices)
    for config in configs:
        if not isinstance(config, LogicalDeviceConfiguration):
            raise AttributeError(f"'{type(config).__name__}' object has no attribute 'memory_limit'")
    if device.device_type != "CPU":
        raise NotImplementedError(f"tfcompat cannot split {device.device_type} devices into logical devices "
                                  "(set_logical_device_configuration)")
    for field, message in _CPU_UNSUPPORTED:
        if any(getattr(config, field) is not None for config in configs):
            raise ValueError(message)
    if context._default_device and configs != _Config.logical.get(device):
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _Config.logical[device] = configs


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
    """Threads used inside one op (torch.set_num_threads; 0 lets the system choose). As TF, only a value that
    changes nothing once the runtime is initialized (the first op, or `list_logical_devices`)."""
    if int(num_threads) == _Config.intra_threads:
        return
    if context._default_device:
        raise RuntimeError("Intra op parallelism cannot be modified after initialization.")
    if num_threads:
        torch.set_num_threads(int(num_threads))
    _Config.intra_threads = int(num_threads)


@tf_export("config.threading.get_intra_op_parallelism_threads")
def get_intra_op_parallelism_threads():
    return _Config.intra_threads


@tf_export("config.threading.set_inter_op_parallelism_threads")
def set_inter_op_parallelism_threads(num_threads):
    """Threads running independent ops (torch.set_num_interop_threads, only before any parallel work); as TF, only
    a value that changes nothing once the runtime is initialized."""
    if int(num_threads) == _Config.inter_threads:
        return
    if context._default_device:
        raise RuntimeError("Inter op parallelism cannot be modified after initialization.")
    if num_threads and num_threads != torch.get_num_interop_threads():
        try:
            torch.set_num_interop_threads(int(num_threads))
        except RuntimeError:
            raise RuntimeError("Inter op parallelism cannot be modified after initialization.") from None
    _Config.inter_threads = int(num_threads)


_DEVICE_POLICIES = ("silent", "warn", "explicit", "silent_for_int32")


@tf_export("config.experimental.get_device_policy")
def get_device_policy():
    """How tensors are copied between devices when an op needs them elsewhere: tfcompat copies silently."""
    return "silent"


@tf_export("config.experimental.set_device_policy")
@partial_api("only the 'silent' policy (None): tfcompat copies tensors between devices silently")
def set_device_policy(device_policy):
    if device_policy is None or device_policy == "silent":
        return None
    if device_policy in _DEVICE_POLICIES:
        raise NotImplementedError(f"tf.config.experimental.set_device_policy({device_policy!r}) is not supported by "
                                  "tfcompat: only 'silent' (cross-device copies are always made silently)")
    raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
                     "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_device_policy for valid "
                     "`device_policy` arguments.")


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


# Grappler's options as TF's RewriterConfig holds them: on/off toggles and plain booleans, in TF's order
_REWRITER_OPTIONS = (
    ("layout_optimizer", "toggle"), ("constant_folding", "toggle"), ("shape_optimization", "toggle"),
    ("remapping", "toggle"), ("arithmetic_optimization", "toggle"), ("dependency_optimization", "toggle"),
    ("loop_optimization", "toggle"), ("function_optimization", "toggle"), ("debug_stripper", "toggle"),
    ("disable_model_pruning", "bool"), ("scoped_allocator_optimization", "toggle"),
    ("pin_to_host_optimization", "toggle"), ("implementation_selector", "toggle"),
    ("auto_mixed_precision", "toggle"), ("use_plugin_optimizers", "toggle"), ("disable_meta_optimizer", "bool"),
    ("auto_mixed_precision_onednn_bfloat16", "toggle"), ("auto_mixed_precision_mkl", "toggle"))


@tf_export("config.optimizer.set_experimental_options",
           partial="the options are kept and reported; tfcompat has no Grappler: only `debug_stripper` changes what "
                   "runs (asserts, CheckNumerics and tf.print inside tf.functions)")
def set_experimental_options(options):
    """Sets Grappler options (merged into those set before, as TF does)."""
    _Config.optimizer_options.update(options)


def debug_stripper():
    """Whether Grappler's `debug_stripper` is on (tf.function bodies then run no assert, CheckNumerics or print)."""
    return bool(_Config.optimizer_options.get("debug_stripper"))


@tf_export("config.optimizer.get_experimental_options")
def get_experimental_options():
    """The Grappler options set, as TF reads them back: known keys only, toggles as booleans, in TF's order."""
    given, out = _Config.optimizer_options, {}
    for option, kind in _REWRITER_OPTIONS:
        value = given.get(option)
        if kind == "bool":
            out[option] = False if value is None else value
        elif value is not None:
            out[option] = bool(value)
    if given.get("min_graph_nodes"):
        out["min_graph_nodes"] = given["min_graph_nodes"]
    return out


@tf_export("debugging.set_log_device_placement",
           partial="the setting is kept and reported; tfcompat does not log op placements")
def set_log_device_placement(enabled):
    """Turns logging of each op's device placement on or off (TF logs it to stderr)."""
    if not isinstance(enabled, bool):
        raise TypeError("TFE_ContextSetLogDevicePlacement(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (arg0: object, arg1: bool) -> None\n\nInvoked with: "
                        f"<capsule object NULL>, {enabled!r}")
    _Config.log_device_placement = enabled


@tf_export("debugging.get_log_device_placement")
def get_log_device_placement():
    """Whether op placements are logged (False unless set)."""
    return _Config.log_device_placement
