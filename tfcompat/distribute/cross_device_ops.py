"""Cross-device and cross-worker reductions: TF's `CrossDeviceOps` classes and the torch.distributed collectives.

The local replicas' values are summed on the first replica's device (replicas on GPUs of their own: copied there),
so TF's choice of local algorithm (`NcclAllReduce`, `HierarchicalCopyAllReduce`, `ReductionToOneDevice`) gives
the same sums; they are accepted for that.
Across workers, `Collective` runs torch.distributed collectives on the strategy's process group (gloo on CPU,
NCCL on CUDA), gradients in buckets of `bytes_per_pack` (25 MiB by default, as torch's DDP).
"""
import enum

import torch

from tfcompat.eager.function import current_recorder
from tfcompat.eager.function._host import host_call
from tfcompat.framework import errors
from tfcompat.framework.export import tf_export

BUCKET_BYTES = 25 * 1024 * 1024


@tf_export("distribute.CrossDeviceOps")
class CrossDeviceOps:
    """How values of the local replicas are reduced (all algorithms give the same values here)."""

    def __init__(self):
        pass


@tf_export("distribute.ReductionToOneDevice")
class ReductionToOneDevice(CrossDeviceOps):
    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        super().__init__()


@tf_export("distribute.NcclAllReduce")
class NcclAllReduce(CrossDeviceOps):
    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"NCCL all-reduce requires num_packs >= 0, but {num_packs} is specified")
        super().__init__()


@tf_export("distribute.HierarchicalCopyAllReduce")
class HierarchicalCopyAllReduce(CrossDeviceOps):
    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"HierarchicalCopy requires num_packs >= 0, but {num_packs} is specified")
        super().__init__()


@tf_export("distribute.experimental.CommunicationImplementation",
           "distribute.experimental.CollectiveCommunication")
class CommunicationImplementation(enum.Enum):
    """Cross-worker collective implementation (tfcompat: gloo on CPU, NCCL on CUDA for AUTO)."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


@tf_export("distribute.experimental.CommunicationOptions")
class CommunicationOptions:
    """Options of cross-worker collectives: bucket size (`bytes_per_pack`), `timeout_seconds`, implementation."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}.")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        if not isinstance(implementation, CommunicationImplementation):
            raise ValueError("implementation should be a tf.distribute.experimental.CommunicationImplementation")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation


def _collective_error(e):
    return errors.UnavailableError(
        None, None, "Collective ops is aborted by: a peer worker died, or did not answer within the collective "
        f"timeout (CommunicationOptions.timeout_seconds) ({type(e).__name__} in torch.distributed); the whole job "
        "must be restarted (resume from a checkpoint, e.g. with tf.keras.callbacks.BackupAndRestore)")


class Collective:
    """Collectives over the workers' process group, with TF's `UnavailableError` when a worker is gone.

    Inside a `tf.function` trace each collective is recorded as a host callback, so every replay communicates."""

    def __init__(self, group=None, bytes_per_pack=0):
        self.group = group
        self.bucket_bytes = bytes_per_pack or BUCKET_BYTES

    def _call(self, fn, *args):
        try:
            return fn(*args, group=self.group)
        except RuntimeError as e:          # torch's DistBackendError and gloo's errors: by class, not by text
            raise _collective_error(e) from e

    def all_reduce(self, tensors):
        """The sums over workers of `tensors`, packed into buckets (one collective per bucket)."""
        return host_call(self._all_reduce, list(tensors))

    def broadcast(self, t, src=0):
        """Worker `src`'s value of `t` on every worker."""
        return host_call(lambda ts: [self._broadcast(ts[0], src)], [t])[0]

    def broadcast_untraced(self, t, src=0):
        """`broadcast` that a trace does not record (initial values of variables a trace creates)."""
        rec = current_recorder()
        if rec is None:
            return self._broadcast(t, src)
        rec.paused += 1
        try:
            return self._broadcast(t, src)
        finally:
            rec.paused -= 1

    def all_gather(self, t, axis):
        """Every worker's `t` concatenated along `axis`, in rank order (sizes along `axis` may differ)."""
        return host_call(lambda ts: [self._all_gather(ts[0], axis)], [t])[0]

    def _all_reduce(self, tensors):
        import torch.distributed as dist
        out = [None] * len(tensors)
        bucket, size = [], 0
        buckets = []
        for i, t in enumerate(tensors):
            if bucket and (size + t.numel() * t.element_size() > self.bucket_bytes or
                           t.dtype != tensors[bucket[0]].dtype or t.device != tensors[bucket[0]].device):
                buckets.append(bucket)
                bucket, size = [], 0
            bucket.append(i)
            size += t.numel() * t.element_size()
        if bucket:
            buckets.append(bucket)
        for b in buckets:
            flat = torch.cat([tensors[i].detach().reshape(-1) for i in b])
            self._call(dist.all_reduce, flat)
            offset = 0
            for i in b:
                n = tensors[i].numel()
                out[i] = flat[offset:offset + n].view(tensors[i].shape)
                offset += n
        return out

    def _broadcast(self, t, src):
        import torch.distributed as dist
        t = t.detach().clone()
        self._call(dist.broadcast, t, src)
        return t

    def _all_gather(self, t, axis):
        import torch.distributed as dist
        world = dist.get_world_size(self.group)
        size = torch.tensor([t.shape[axis]], dtype=torch.int64)
        sizes = [torch.zeros_like(size) for _ in range(world)]
        self._call(dist.all_gather, sizes, size)
        sizes = [int(s) for s in sizes]
        pad_shape = list(t.shape)
        pad_shape[axis] = max(sizes) - t.shape[axis]
        padded = torch.cat([t, t.new_zeros(pad_shape)], dim=axis) if pad_shape[axis] else t.contiguous()
        parts = [torch.empty_like(padded) for _ in range(world)]
        self._call(dist.all_gather, parts, padded)
        return torch.cat([p.narrow(axis, 0, n) for p, n in zip(parts, sizes)], dim=axis)
