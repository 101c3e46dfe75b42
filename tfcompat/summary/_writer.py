"""The event file behind `tf.summary.create_file_writer`: TF's file name, queue and flush policy.

Events queue in memory and reach the file, framed as TFRecords, when the queue
holds more than `max_queue` events, when `flush_millis` have passed since the last
flush (checked on each write, as TF does, and by one background thread for idle
writers), on `flush()`/`close()`, when the writer is garbage-collected and at exit.
"""
import itertools
import os
import socket
import threading
import time
import weakref

from tfcompat.summary import _proto
from tfcompat.util.records import frame

_file_ids = itertools.count()        # TF's process-wide sequence number in event file names


class EventFile:
    """One `events.out.tfevents.*` file and its queue of serialized events; thread-safe."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        os.makedirs(logdir, exist_ok=True)
        wall = int(time.time())
        name = (f"events.out.tfevents.{wall:010d}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_file_ids)}{filename_suffix}")
        self.path = os.path.join(logdir, name)
        self.max_queue = max_queue
        self.flush_secs = flush_millis / 1000.0
        self._lock = threading.Lock()
        self._queue = []
        self._file = open(self.path, "wb")
        self._file.write(frame(_proto.file_version_event(float(wall))))
        self._file.flush()
        self.last_flush = time.time()
        self.closed = False
        _flusher.add(self)

    def add(self, data, now):
        """Queues one serialized Event (written at `now`, seconds since the epoch)."""
        with self._lock:
            if self.closed:
                raise RuntimeError(f"the event file {self.path} is closed")
            queue = self._queue
            queue.append(data)
            if len(queue) > self.max_queue or now - self.last_flush > self.flush_secs:
                self._flush_locked()

    def flush(self):
        with self._lock:
            if not self.closed:
                self._flush_locked()

    def _flush_locked(self):
        queue = self._queue
        if queue:
            self._file.write(b"".join([frame(d) for d in queue]))
            queue.clear()
        self._file.flush()
        self.last_flush = time.time()

    def close(self):
        with self._lock:
            if not self.closed:
                self._flush_locked()
                self._file.close()
                self.closed = True


class _Flusher:
    """A daemon thread flushing every live event file at least every `flush_millis`."""

    def __init__(self):
        self._files = weakref.WeakSet()
        self._cond = threading.Condition()
        self._thread = None

    def add(self, event_file):
        with self._cond:
            self._files.add(event_file)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tfcompat-summary-flush", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self):
        while True:
            for f in self._due():
                f.flush()

    def _due(self):
        """Waits until some file is due for its periodic flush; returns the due files."""
        with self._cond:
            while True:
                due, wait = self._scan(time.time())
                if due:
                    return due
                self._cond.wait(wait)     # holds no reference to any file while waiting

    def _scan(self, now):
        due, wait = [], None
        for f in list(self._files):
            if f.closed:
                continue
            left = f.last_flush + f.flush_secs - now
            if left <= 0:
                due.append(f)
            elif wait is None or left < wait:
                wait = left
        return due, wait

_flusher = _Flusher()
