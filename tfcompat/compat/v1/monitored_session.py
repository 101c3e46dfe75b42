"""TF1's monitored training loop in a TF1 graph: `MonitoredSession`, `SingularMonitoredSession`,
`MonitoredTrainingSession`, `Scaffold`, `Coordinator` and the basic hooks (`StopAtStepHook`, `LoggingTensorHook`,
`NanTensorHook`, `CheckpointSaverHook`, `StepCounterHook`, `FinalOpsHook`, `FeedFnHook`, `SecondOrStepTimer`).

As in TF: hooks' `begin` runs first, then the scaffold finalizes the graph (default init ops, and a `Saver` when
checkpoints are used), the session is created and initialized (restored from the newest checkpoint of
`checkpoint_dir` when there is one), and `after_create_session` runs; each `run` adds what the hooks' `before_run`
ask for to the fetches and feeds and hands the hooks their values in `after_run`; a hook's `request_stop` makes
`should_stop()` True; leaving the `with` block ends the hooks and closes the session, and an `OutOfRangeError`
(an exhausted input) ends the loop silently. Not supported: the summaries `MonitoredTrainingSession` writes to
`checkpoint_dir` (pass `save_summaries_steps=None, save_summaries_secs=None`), distributed sessions (`master`).
"""
import collections
import os
import threading
import time

import numpy as np

from tfcompat.compat.v1 import session as _session
from tfcompat.compat.v1.session_run_hook import SessionRunArgs, SessionRunHook
from tfcompat.framework import errors, graph_state
from tfcompat.ops.misc_ops import get_logger
from tfcompat.train import checkpoint_management

_log = get_logger()
USE_DEFAULT = object()


class SessionRunContext:
    """What a hook sees of a `run` call: its arguments, the session, and a way to ask the loop to stop."""

    def __init__(self, original_args, session):
        self._original_args, self._session, self._stop_requested = original_args, session, False

    @property
    def original_args(self):
        return self._original_args

    @property
    def session(self):
        return self._session

    @property
    def stop_requested(self):
        return self._stop_requested

    def request_stop(self):
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues", ["results", "options", "run_metadata"])):
    """The values fetched for one hook by a `run` call."""


class Coordinator:
    """Coordinates the termination of threads: `request_stop` (optionally with an exception), `should_stop`,
    `join`, `raise_requested_exception`."""

    def __init__(self, clean_stop_exception_types=None):
        self._clean = tuple(clean_stop_exception_types or (errors.OutOfRangeError,))
        self._lock, self._stop_event = threading.Lock(), threading.Event()
        self._exc_info, self._threads, self._joined = None, set(), False

    def request_stop(self, ex=None):
        with self._lock:
            if ex is not None and self._exc_info is None and not isinstance(ex, self._clean):
                self._exc_info = ex if isinstance(ex, BaseException) else ex[1]
            self._stop_event.set()

    def clear_stop(self):
        with self._lock:
            self._joined, self._exc_info = False, None
            self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    def wait_for_stop(self, timeout=None):
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        threads = set(threads or ()) | self._threads
        deadline = time.time() + stop_grace_period_secs
        for t in threads:
            t.join(max(0.0, deadline - time.time()))
        self._joined = True
        self._threads = set()
        self.raise_requested_exception()

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        with self._lock:
            if self._exc_info is not None:
                raise self._exc_info

    def stop_on_exception(self):
        coord = self

        class _Guard:
            def __enter__(self):
                return coord

            def __exit__(self, exc_type, exc, tb):
                if exc is not None:
                    coord.request_stop(exc)
                    return True
                return False
        return _Guard()


class SecondOrStepTimer:
    """Triggers at most once every `every_secs` seconds or every `every_steps` steps."""

    def __init__(self, every_secs=None, every_steps=None):
        self.reset()
        self._every_secs, self._every_steps = every_secs, every_steps
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self):
        self._last_triggered_step = self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and time.time() >= self._last_triggered_time + self._every_secs:
            return True
        return self._every_steps is not None and step >= self._last_triggered_step + self._every_steps

    def update_last_triggered_step(self, step):
        now = time.time()
        elapsed = (None, None) if self._last_triggered_time is None else (
            now - self._last_triggered_time, step - self._last_triggered_step)
        self._last_triggered_time, self._last_triggered_step = now, step
        return elapsed

    def last_triggered_step(self):
        return self._last_triggered_step


class _NeverTriggerTimer(SecondOrStepTimer):
    def __init__(self):
        self.reset()

    def should_trigger_for_step(self, step):
        return False


def _as_graph_element(x):
    graph = graph_state.default_graph()
    return graph.get_tensor_by_name(x if ":" in x else x + ":0") if isinstance(x, str) else x


def _global_step_or_raise(hook):
    from tfcompat.train.checkpoint_management import get_global_step
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook}.")
    return step


class StopAtStepHook(SessionRunHook):
    """Requests stop once the global step reaches `last_step` (or `num_steps` past its value at creation)."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self):
        self._global_step_tensor = _global_step_or_raise("StopAtStepHook")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = session.run(self._global_step_tensor) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        if run_values.results + 1 >= self._last_step:
            if run_context.session.run(self._global_step_tensor) >= self._last_step:
                run_context.request_stop()


class LoggingTensorHook(SessionRunHook):
    """Logs (INFO) the values of `tensors` every N local steps or seconds, and/or at the end."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False, formatter=None):
        only_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            self._tag_order = tensors
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors, self._formatter, self._log_at_end = tensors, formatter, at_end
        self._timer = _NeverTriggerTimer() if only_at_end else SecondOrStepTimer(every_n_secs, every_n_iter)

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, values):
        original = np.get_printoptions()
        np.set_printoptions(suppress=True)
        elapsed, _ = self._timer.update_last_triggered_step(self._iter_count)
        try:
            if self._formatter:
                _log.info(self._formatter(values))
            else:
                stats = ", ".join(f"{tag} = {values[tag]}" for tag in self._tag_order)
                if elapsed is not None:
                    _log.info("%s (%.3f sec)", stats, elapsed)
                else:
                    _log.info("%s", stats)
        finally:
            np.set_printoptions(**original)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class NanLossDuringTrainingError(RuntimeError):
    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Raises `NanLossDuringTrainingError` (or only requests stop) when `loss_tensor` is NaN."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor, self._fail_on_nan_loss = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            if self._fail_on_nan_loss:
                _log.error("Model diverged with loss = NaN.")
                raise NanLossDuringTrainingError
            _log.warning("Model diverged with loss = NaN.")
            run_context.request_stop()


class StepCounterHook(SessionRunHook):
    """Logs (INFO) the global steps per second every N steps or seconds (no summary file is written)."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None, summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        if output_dir is not None or summary_writer is not None:
            raise NotImplementedError("tf.compat.v1.train.StepCounterHook(output_dir/summary_writer): tfcompat "
                                      "does not write its summaries")
        self._timer = SecondOrStepTimer(every_n_secs, every_n_steps)

    def begin(self):
        self._global_step_tensor = _global_step_or_raise("StepCounterHook")

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        step = run_values.results
        if self._timer.should_trigger_for_step(step + 1):
            elapsed, steps = self._timer.update_last_triggered_step(step + 1)
            if elapsed is not None and elapsed > 0:
                _log.info("%s: %g", "global_step/sec", steps / elapsed)


class CheckpointSaverListener:
    """Called around the saves of a `CheckpointSaverHook`."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves `<checkpoint_dir>/model.ckpt-<step>` with a `Saver` when the session starts, every N seconds or
    steps, and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None, save_graph_def=True):
        _log.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver, self._scaffold, self._checkpoint_dir = saver, scaffold, checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = SecondOrStepTimer(save_secs, save_steps)
        self._listeners = listeners or []

    def begin(self):
        self._global_step_tensor = _global_step_or_raise("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        step = session.run(self._global_step_tensor)
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale = run_values.results
        if self._timer.should_trigger_for_step(stale + 1):
            step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                if self._save(run_context.session, step):
                    run_context.request_stop()

    def end(self, session):
        step = session.run(self._global_step_tensor)
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = _session.get_collection("savers")
        if not savers:
            raise RuntimeError("No items in collection savers. Please add a saver to the collection.")
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection savers. Please indicate which one to use by "
                               "passing it to the constructor.")
        self._saver = savers[0]
        return self._saver

    def _save(self, session, step):
        _log.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        _log.info("Saving checkpoints for %d into %s.", step, self._save_path)
        self._get_saver().save(session, self._save_path, global_step=step)
        _log.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                should_stop = True
        return should_stop


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` when the session ends; their values are `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops, self._final_ops_feed_dict, self._final_ops_values = final_ops, final_ops_feed_dict, None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._final_ops_feed_dict)


class FeedFnHook(SessionRunHook):
    """Feeds `feed_fn()` to every `run`."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class Scaffold:
    """The pieces a monitored session needs to create, initialize and checkpoint a session of the default graph;
    `finalize` fills in TF's defaults and finalizes the graph."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
                 copy_from_scaffold=None, local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            init_op = init_op or copy_from_scaffold.init_op
            init_feed_dict = init_feed_dict or copy_from_scaffold.init_feed_dict
            init_fn = init_fn or copy_from_scaffold._user_init_fn
            ready_op = ready_op or copy_from_scaffold.ready_op
            local_init_op = local_init_op or copy_from_scaffold.local_init_op
            local_init_feed_dict = local_init_feed_dict or copy_from_scaffold.local_init_feed_dict
            saver = saver or copy_from_scaffold.saver
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op, self._init_feed_dict, self._ready_op = init_op, init_feed_dict, ready_op
        self._ready_for_local_init_op, self._local_init_op = ready_for_local_init_op, local_init_op
        self._local_init_feed_dict, self._summary_op, self._saver = local_init_feed_dict, summary_op, saver

    def finalize(self):
        """TF's defaults for what was not given (`init_op`: the global variables' initializer, `local_init_op`:
        the local variables', `saver`: a `Saver` of the global variables, kept in collection `savers`), then the
        graph is finalized."""
        if self._init_op is None:
            self._init_op = _first("init_op") or _session.global_variables_initializer()
        if self._local_init_op is None:
            self._local_init_op = _first("local_init_op") or _session.local_variables_initializer()
        if self._saver is None:
            self._saver = _first("savers")
            if self._saver is None and _session.global_variables():
                from tfcompat.compat.v1.train import Saver
                self._saver = Saver(sharded=False, allow_empty=True)
                _session.add_to_collection("savers", self._saver)
        graph_state.default_graph().finalize()
        return self

    init_fn = property(lambda self: self._init_fn)
    init_op = property(lambda self: self._init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)
    init_feed_dict = property(lambda self: self._init_feed_dict)

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        value = _first(collection_key)
        if value is None:
            value = default_constructor()
            _session.add_to_collection(collection_key, value)
        return value


def _first(key):
    items = _session.get_collection(key)
    return items[0] if items else None


class ChiefSessionCreator:
    """Creates a session of the default graph and initializes it: restored from `checkpoint_dir`'s (or
    `checkpoint_filename_with_path`'s) newest checkpoint when there is one, else by the scaffold's init ops."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        if master:
            raise NotImplementedError("tf.compat.v1.train.ChiefSessionCreator(master=...): tfcompat has no "
                                      "distributed TF1 sessions")
        self._scaffold = scaffold or Scaffold()
        self._checkpoint_dir, self._checkpoint_path = checkpoint_dir, checkpoint_filename_with_path

    def create_session(self):
        self._scaffold.finalize()
        sess = _session.Session(graph=graph_state.default_graph())
        path = self._checkpoint_path or (checkpoint_management.latest_checkpoint(self._checkpoint_dir)
                                         if self._checkpoint_dir else None)
        if path:
            self._scaffold.saver.restore(sess, path)
        else:
            if self._scaffold.init_op is not None:
                sess.run(self._scaffold.init_op, feed_dict=self._scaffold.init_feed_dict)
            if self._scaffold.init_fn:
                self._scaffold.init_fn(sess)
        if self._scaffold.local_init_op is not None:
            sess.run(self._scaffold.local_init_op, feed_dict=self._scaffold.local_init_feed_dict)
        return sess


class _MonitoredSession:
    def __init__(self, session_creator, hooks, stop_grace_period_secs=120):
        if graph_state.default_graph() is None:
            raise NotImplementedError("tf.compat.v1.train.MonitoredSession outside a tf.Graph (TF1's global graph "
                                      "with eager execution disabled) is not supported by tfcompat")
        self._graph = graph_state.default_graph()
        self._graph_was_finalized = self._graph.finalized
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._session_creator = session_creator or ChiefSessionCreator()
        self._stop_grace_period_secs = stop_grace_period_secs
        self._coord = Coordinator()
        self._sess = self._session_creator.create_session()
        self._should_stop, self._closed = False, False
        for hook in self._hooks:
            hook.after_create_session(self._sess, self._coord)

    @property
    def graph(self):
        return self._graph

    def _tf_sess(self):
        return self._sess

    def should_stop(self):
        return self._closed or self._should_stop or self._coord.should_stop()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self._closed:
            raise RuntimeError("Session is already closed.")
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        context = SessionRunContext(SessionRunArgs(fetches, feed_dict), self._sess)
        feeds = dict(feed_dict or {})
        hook_fetches = []
        for hook in self._hooks:
            request = hook.before_run(context)
            if request is None:
                hook_fetches.append(None)
                continue
            if request.feed_dict:
                if set(request.feed_dict) & set(feeds):
                    raise RuntimeError("Same tensor is fed by a SessionRunHook and user." if feed_dict and set(
                        request.feed_dict) & set(feed_dict) else "Same tensor is fed by two hooks.")
                feeds.update(request.feed_dict)
            hook_fetches.append(request.fetches)
        wanted = [(h, f) for h, f in zip(self._hooks, hook_fetches) if f is not None]
        try:
            outputs = self._sess.run([fetches] + [f for _, f in wanted], feed_dict=feeds or None)
        except Exception as e:
            self._coord.request_stop(e)
            raise
        results = dict(zip((id(h) for h, _ in wanted), outputs[1:]))
        for hook in self._hooks:
            hook.after_run(context, SessionRunValues(results.get(id(hook)), options, run_metadata))
        self._should_stop = self._should_stop or context.stop_requested
        return outputs[0]

    def close(self):
        self._close(None)

    def _close(self, exception_type):
        if self._closed:
            return
        try:
            if exception_type is None:
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            self._coord.request_stop()
            self._sess.close()
            self._closed = True
            if not self._graph_was_finalized:       # TF un-finalizes the graph the scaffold finalized
                self._graph._finalized = False

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close(exception_type)
        return exception_type is None


class MonitoredSession(_MonitoredSession):
    """A session of the default graph that runs `hooks` around each `run` (see the module doc)."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A `MonitoredSession` made from a scaffold and a checkpoint directory; `raw_session()` is the session."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs)

    def raw_session(self):
        return self._sess


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None, hooks=None,  # noqa: N802
                             chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT, save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100, max_wait_secs=7200,
                             save_checkpoint_steps=USE_DEFAULT, summary_dir=None, save_graph_def=True):
    """TF1's training session: a `MonitoredSession` restoring from and checkpointing to `checkpoint_dir` (every 600
    seconds by default), logging the global steps per second every `log_step_count_steps` steps."""
    if not is_chief:
        raise NotImplementedError("tf.compat.v1.train.MonitoredTrainingSession(is_chief=False): tfcompat has no "
                                  "distributed TF1 sessions")
    summaries = summary_dir or checkpoint_dir
    if summaries and (save_summaries_steps is not None or save_summaries_secs is not None):
        raise NotImplementedError("tf.compat.v1.train.MonitoredTrainingSession: the summaries it writes to "
                                  "checkpoint_dir/summary_dir are not written by tfcompat; pass "
                                  "save_summaries_steps=None and save_summaries_secs=None")
    if save_checkpoint_secs is USE_DEFAULT and save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_secs, save_checkpoint_steps = 600, None
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    all_hooks = list(chief_only_hooks or [])
    if log_step_count_steps and log_step_count_steps > 0:
        all_hooks.append(StepCounterHook(every_n_steps=log_step_count_steps))
    if checkpoint_dir and (save_checkpoint_secs or save_checkpoint_steps):
        all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_secs=save_checkpoint_secs,
                                             save_steps=save_checkpoint_steps, scaffold=scaffold))
    all_hooks.extend(hooks or [])
    creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir)
    return MonitoredSession(session_creator=creator, hooks=all_hooks, stop_grace_period_secs=stop_grace_period_secs)
