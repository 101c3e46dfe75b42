"""`tf.test.Benchmark`: benchmark classes register themselves; `report_benchmark` prints TF's `BenchmarkEntries`
text (the name is `<Class>.<outermost benchmark method>`), and `tf.test.main` runs those matching
`--benchmark_filter=<regex>`."""
import inspect
import math
import numbers
import os
import re
import time

from tfcompat.framework.export import tf_export

_REGISTRY = set()


def _double(v):
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def _string(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _report(name, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None, metrics=None):
    from tfcompat.ops.misc_ops import get_logger
    get_logger().info(
        "Benchmark [%s] iters: %d, wall_time: %g, cpu_time: %g,throughput: %g, extras: %s, metrics: %s", name,
        iters if iters is not None else -1, wall_time if wall_time is not None else -1,
        cpu_time if cpu_time is not None else -1, throughput if throughput is not None else -1,
        str(extras) if extras else "None", str(metrics) if metrics else "None")
    lines = ["entry {", f"  name: {_string(name)}"]
    if iters is not None:
        lines.append(f"  iters: {int(iters)}")
    for field, value in (("cpu_time", cpu_time), ("wall_time", wall_time), ("throughput", throughput)):
        if value is not None:
            lines.append(f"  {field}: {_double(value)}")
    if extras is not None:
        if not isinstance(extras, dict):
            raise TypeError("extras must be a dict")
        entries = {}
        for k, v in extras.items():
            if isinstance(v, numbers.Number):
                entries[k] = f"double_value: {_double(v)}"
            else:
                entries[k] = f"string_value: {_string(v)}"
        for k in sorted(entries, reverse=True):
            lines += ["  extras {", f"    key: {_string(k)}", "    value {", f"      {entries[k]}", "    }", "  }"]
    if metrics is not None:
        if not isinstance(metrics, list):
            raise TypeError("metrics must be a list")
        for metric in metrics:
            if "name" not in metric:
                raise TypeError("metric must has a 'name' field")
            if "value" not in metric:
                raise TypeError("metric must has a 'value' field")
            lines += ["  metrics {", f"    name: {_string(metric['name'])}", f"    value: {_double(metric['value'])}"]
            for bound in ("min_value", "max_value"):
                if bound in metric:
                    lines += [f"    {bound} {{", f"      value: {_double(metric[bound])}", "    }"]
            lines.append("  }")
    lines.append("}")
    if os.environ.get("TEST_REPORT_FILE_PREFIX") is not None:
        raise NotImplementedError("tf.test.Benchmark.report_benchmark with TEST_REPORT_FILE_PREFIX set (a serialized "
                                  "BenchmarkEntries file) is not supported by tfcompat")
    print("\n".join(lines) + "\n")


class _BenchmarkRegistrar(type):
    def __new__(mcs, clsname, base, attrs):
        newclass = type.__new__(mcs, clsname, base, attrs)
        if not newclass.is_abstract():
            _REGISTRY.add(newclass)
        return newclass


@tf_export("test.Benchmark", partial="run_op_benchmark's store_trace/store_memory_usage (session traces) are not "
                                     "recorded; report files (TEST_REPORT_FILE_PREFIX) are not written")
class Benchmark(metaclass=_BenchmarkRegistrar):
    """Abstract class that provides helpers for TensorFlow benchmarks; its `benchmark*` methods are benchmarks."""

    @classmethod
    def is_abstract(cls):
        return len(cls.mro()) <= 2

    def _get_name(self, overwrite_name=None):
        calling_class = None
        name = None
        for frame in inspect.stack()[::-1]:
            f_self = frame[0].f_locals.get("self", None)
            if isinstance(f_self, Benchmark):
                calling_class = f_self
                name = frame[3]
                break
        if calling_class is None:
            raise ValueError("Unable to determine calling Benchmark class.")
        name = overwrite_name or name
        return "%s.%s" % (type(calling_class).__name__, name)

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None, name=None,
                         metrics=None):
        """Reports (prints) one benchmark entry."""
        name = self._get_name(overwrite_name=name)
        _report(name=name, iters=iters, cpu_time=cpu_time, wall_time=wall_time, throughput=throughput,
                extras=extras, metrics=metrics)

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10, store_trace=False,
                         store_memory_usage=True, name=None, extras=None, mbs=0):
        """Times `sess.run(op_or_tensor)` (`min_iters` runs after `burn_iters`) and reports the median wall time."""
        if store_trace:
            raise NotImplementedError("tf.test.Benchmark.run_op_benchmark(store_trace=True) is not supported by "
                                      "tfcompat (no session step traces)")
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = [None] * min_iters
        for i in range(min_iters):
            start_time = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas[i] = time.time() - start_time
        extras = extras if extras is not None else {}
        median_delta = _median(deltas)
        benchmark_values = {"iters": min_iters, "wall_time": median_delta, "extras": extras, "name": name,
                            "throughput": mbs / median_delta}
        self.report_benchmark(**benchmark_values)
        mean_delta, stdev_delta = _mean_and_stdev(deltas)
        benchmark_values["extras"].update({"wall_time_mean": mean_delta, "wall_time_stdev": stdev_delta})
        return benchmark_values


    def evaluate(self, tensors):
        """The values of `tensors` from the default TF1 session (TF's Benchmark has no session of its own: without
        one it fails looking for `cached_session`)."""
        from tfcompat.framework import graph_state
        sess = graph_state.default_session()
        if sess is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'cached_session'")
        return sess.run(tensors)


def _median(x):
    if not x:
        return -1
    s = sorted(x)
    n = len(x)
    return (s[n // 2] + s[(n - 1) // 2]) / 2.0


def _mean_and_stdev(x):
    if not x:
        return -1, -1
    n = len(x)
    mean = sum(x) / n
    if n == 1:
        return mean, -1
    return mean, math.sqrt(sum((e - mean) * (e - mean) for e in x) / (n - 1))


def run_benchmarks(regex):
    """Runs the registered benchmarks whose `<module>.<Class>.<method>` matches `regex` ("all": every one)."""
    selected = []
    for benchmark in list(_REGISTRY):
        benchmark_name = "%s.%s" % (benchmark.__module__, benchmark.__name__)
        instance = None
        for attr in dir(benchmark):
            if not attr.startswith("benchmark"):
                continue
            fn = getattr(benchmark, attr)
            if not callable(fn):
                continue
            full_name = "%s.%s" % (benchmark_name, attr)
            if regex == "all" or re.search(regex, full_name):
                selected.append(full_name)
                instance = instance or benchmark()
                getattr(instance, attr)()
    if not selected:
        raise ValueError("No benchmarks matched the pattern: '{}'".format(regex))
