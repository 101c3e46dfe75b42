"""TF's frequent-retracing warning: 5 traces within the last ~10 eager calls of one Python function."""
import weakref

from tfcompat.ops.misc_ops import get_logger

_HISTORY, _THRESHOLD, _MAX_WARNINGS = 10, 5, 2
_detectors = weakref.WeakKeyDictionary()      # Python function's code -> RetraceDetector


class RetraceDetector:
    """TF's frequent-tracing detector for one Python function (shared by every `tf.function` of it, so that
    `tf.function(f)` made in a loop is caught): it warns, at most twice, when 5 of its last ~10 calls traced."""

    __slots__ = ("calls_per_trace", "count", "warnings", "untraced")

    def __init__(self):
        self.calls_per_trace = []     # calls since each recent trace (that trace included)
        self.count = 0
        self.warnings = 0
        self.untraced = 0             # calls without tracing since the last trace, added in at the next one

    def traced(self, function):
        if self.untraced:
            if not self.calls_per_trace:
                self.calls_per_trace.append(0)
            self.calls_per_trace[-1] += self.untraced
            self.count += self.untraced
            self.untraced = 0
        self.count += 1
        self.calls_per_trace.append(1)
        while self.calls_per_trace and self.count - self.calls_per_trace[0] > _HISTORY:
            self.count -= self.calls_per_trace.pop(0)
        if self.warnings < _MAX_WARNINGS and len(self.calls_per_trace) >= _THRESHOLD:
            self.warnings += 1
            get_logger().warning(
                f"{len(self.calls_per_trace)} out of the last {self.count} calls to {function} triggered "
                "tf.function retracing. Tracing is expensive and the excessive number of tracings could be due to "
                "(1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
                "passing Python objects instead of tensors. For (1), please define your @tf.function outside of "
                "the loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary "
                "retracing. For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing "
                "and https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


def retrace_detector(python_function):
    """The detector of `python_function`'s code (TF's key: through `__wrapped__` and bound methods)."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", python_function)
    try:
        detector = _detectors.get(key)
        if detector is None:
            detector = _detectors[key] = RetraceDetector()
    except TypeError:         # not weakly referenceable: a detector of its own
        detector = RetraceDetector()
    return detector
