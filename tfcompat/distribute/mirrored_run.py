"""`strategy.run`: calls the function once per local replica, each in its replica context.

One local replica runs in the calling thread. Several run in one thread each, in lock-step as TF's
MirroredStrategy runs them: one replica at a time runs until it ends or calls `merge_call`; when all wait in
`merge_call`, the merge function runs once in the calling thread (cross-replica context) on their arguments
regrouped as `PerReplica`, and each replica resumes with its part of the result. While a `tf.function` traces,
the replica threads record into its trace (they never run at the same time). Replicas with devices of their own
(several GPUs) compute there: their inputs and merge results are moved to it, their variable reads are copies.
"""
import threading

from tfcompat.distribute import context, values
from tfcompat.distribute.values import regroup, select_replica
from tfcompat.framework.context import state as eager_state
from tfcompat.framework.tensor import Tensor, _wrap, device_name, storage
from tfcompat.util import nest


def call_for_each_replica(strategy, fn, args, kwargs):
    from tfcompat.distribute.strategy import ReplicaContext
    ext = strategy.extended
    first = ext._rank * ext._num_local
    if ext._num_local == 1:
        with context.enter(strategy, ReplicaContext(strategy, first)):
            return fn(*select_replica(0, args), **select_replica(0, kwargs))
    return _Runner(strategy, fn, args, kwargs).run(first)


class _Aborted(BaseException):
    """Ends a replica waiting in merge_call after another replica failed."""


class _Replica(threading.Thread):
    def __init__(self, runner, index, ctx):
        super().__init__(daemon=True, name=f"replica_{index}")
        self.runner, self.index, self.ctx = runner, index, ctx
        self.go, self.paused = threading.Event(), threading.Event()
        self.done, self.result, self.error = False, None, None
        self.merge = None            # (merge_fn, args, kwargs) while waiting in merge_call
        self.merge_result = None

    def run(self):
        runner = self.runner
        self.go.wait()
        self.go.clear()
        device = runner.devices[self.index] if runner.devices else None
        try:
            with _ThreadSetup(runner.parent_state, device), context.enter(runner.strategy, self.ctx):
                self.result = runner.fn(*to_device(select_replica(self.index, runner.args), device),
                                        **to_device(select_replica(self.index, runner.kwargs), device))
        except _Aborted:
            pass
        except BaseException as e:      # noqa: BLE001 - re-raised in the calling thread
            self.error = e
        finally:
            self.done = True
            self.paused.set()


def to_device(structure, device):
    """`structure` with its tensors on `device` (unchanged when None: the replicas share the process's device)."""
    if device is None:
        return structure

    def move(x):
        if isinstance(x, Tensor) and getattr(storage(x), "device", device) != device:
            return _wrap(storage(x).to(device))
        return x
    return nest.map_structure(move, structure)


class _ThreadSetup:
    """The calling thread's eager scopes (device, name scope) and tf.function trace, in a replica thread; the
    replica's own device (several GPUs) instead of the calling thread's."""

    def __init__(self, parent, device=None):
        self.parent = parent
        self.device = device
        self.modes = []

    def __enter__(self):
        device, name, name_scope, recorder = self.parent
        if self.device is not None:
            device, name = self.device, device_name(self.device)
            values.replica.device = self.device
        eager_state.device, eager_state.device_name = device, name
        eager_state.name_scope = list(name_scope)
        if recorder is not None:
            from tfcompat.eager.function._guards import HostReads
            from tfcompat.eager.function._state import tls
            tls.recorder = recorder
            self.modes = [recorder, HostReads(recorder)]
            for m in self.modes:
                m.__enter__()

    def __exit__(self, *exc):
        for m in reversed(self.modes):
            m.__exit__(None, None, None)
        values.replica.device = None


class _Runner:
    def __init__(self, strategy, fn, args, kwargs):
        from tfcompat.eager.function import current_recorder
        self.strategy, self.fn, self.args, self.kwargs = strategy, fn, args, kwargs
        self.parent_state = (eager_state.device, eager_state.device_name, list(eager_state.name_scope),
                             current_recorder())
        self.devices = strategy.extended._replica_devices
        self.threads = []

    def run(self, first):
        from tfcompat.distribute.strategy import ReplicaContext
        n = self.strategy.extended._num_local
        self.threads = [_Replica(self, i, ReplicaContext(self.strategy, first + i, i, self)) for i in range(n)]
        for t in self.threads:
            t.start()
        try:
            self._loop()
        finally:
            for t in self.threads:
                t.join()
        errors = [t.error for t in self.threads if t.error is not None]
        if errors:
            raise errors[0]
        return regroup([t.result for t in self.threads])

    def _step_all(self):
        for t in self.threads:
            if not t.done:
                t.go.set()
                t.paused.wait()
                t.paused.clear()

    def _loop(self):
        self._step_all()
        while not all(t.done for t in self.threads):
            if any(t.error is not None for t in self.threads) or any(t.done for t in self.threads):
                self._abort()
                if not any(t.error is not None for t in self.threads):
                    raise RuntimeError("merge_call called while defining a new graph or a tf.function. "
                                       "Not all replicas called merge_call: each replica must call it the same "
                                       "number of times")
                return
            merge_fn = self.threads[0].merge[0]
            args = regroup([t.merge[1] for t in self.threads])
            kwargs = regroup([t.merge[2] for t in self.threads])
            try:
                with context.enter(self.strategy, None), self.strategy.extended._primary_device():
                    result = merge_fn(self.strategy, *args, **kwargs)
            except BaseException as e:     # noqa: BLE001 - raised in the calling thread once replicas ended
                self.threads[0].error = e
                self._abort()
                return
            for t in self.threads:
                t.merge_result = select_replica(t.index, result)
                t.merge = None
            self._step_all()

    def _abort(self):
        for t in self.threads:
            if not t.done:
                t.merge = _Aborted
        self._step_all()

    def merge_call(self, merge_fn, args, kwargs):
        """Called in a replica thread: waits until every replica reached this merge, returns its share."""
        me = threading.current_thread()
        me.merge = (merge_fn, args, kwargs)
        me.paused.set()
        me.go.wait()
        me.go.clear()
        if me.merge is _Aborted:
            raise _Aborted()
        return to_device(me.merge_result, values.replica.device)
