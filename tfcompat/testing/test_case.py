"""`tf.test.TestCase`: a `unittest.TestCase` with TF's assertions (tolerances, structure walks and failure texts of
TF 2.21's `TensorFlowTestCase`) and absltest's, eager sessions and per-test temporary directories."""
import collections.abc
import contextlib
import functools
import itertools
import math
import os
import random
import re
import sys
import tempfile
import threading
import time
import unittest

import numpy as np

from tfcompat.framework import errors
from tfcompat.framework.export import partial_api, unsupported_args
from tfcompat.testing import _absl_asserts
from tfcompat.testing._tempfiles import TempFilesMixin
from tfcompat.testing._values import as_ndarray, eval_structure, is_bfloat16, is_tensor_like

DEFAULT_GRAPH_SEED = 87654321
_temp_root = []


def _process_temp_dir():
    """googletest's `GetTempDir`: one directory per process (from $TEST_TMPDIR, else named after the main script),
    deleted at exit."""
    if not _temp_root:
        if os.environ.get("TEST_TMPDIR"):
            path = tempfile.mkdtemp(prefix=os.environ["TEST_TMPDIR"])
        else:
            frame = sys._getframe()
            while frame.f_back is not None:      # the outermost frame's file, as TF names the directory
                frame = frame.f_back
            base = os.path.join(tempfile.gettempdir(), os.path.basename(frame.f_code.co_filename))
            path = tempfile.mkdtemp(prefix=base.rstrip(".py"))
        import atexit
        import shutil
        atexit.register(shutil.rmtree, path, True)
        _temp_root.append(path)
    return _temp_root[0]


_depth = threading.local()


def _inside_function():
    """Whether a tf.function body (or a function tf.data traces) is running: TF runs the assertions there as a
    `py_func` node."""
    from tfcompat.framework import op_def
    return any(check() for check in op_def.GRAPH_BUILDING)


def _py_func_if_in_function(f):
    """TF's `py_func_if_in_function`: inside a traced function an assertion's failure reaches the caller as the
    PyFunc node's UnknownError (the outermost assertion only: nested ones still see AssertionError)."""
    @functools.wraps(f)
    def decorated(*args, **kwargs):
        depth = getattr(_depth, "n", 0)
        _depth.n = depth + 1
        try:
            return f(*args, **kwargs)
        except AssertionError as e:
            if depth or not _inside_function():
                raise
            raise errors.UnknownError(None, None, "Graph execution error:\n\nDetected at node PyFunc defined at (most "
                                      f"recent call last):\n\nAssertionError: {e}\n\n\t [[{{{{node PyFunc}}}}]]") from e
        finally:
            _depth.n = depth
    return decorated


def _np_where(condition):
    """The indices where `condition` holds (a 0-d condition as a 1-element array, as TF's `np_where`)."""
    return np.atleast_1d(condition).nonzero()


class EagerSessionWarner:
    """What `session()` yields eagerly: any use raises TF's AttributeError."""

    def __getattr__(self, attr):
        raise AttributeError(
            "Trying to access properties or call methods on the result of self.session(), self.cached_session(), "
            "etc while eager execution is enabled. If you're porting this test case to TF 2.0, either adapt the test "
            "to work with eager execution or insert a call to tf.disable_eager_execution() in the main() function "
            "of this test file.")


class FakeEagerSession:
    """What `cached_session()` yields eagerly: `run(fetches)` is `evaluate(fetches)`."""

    def __init__(self, test_case):
        self._test_case = test_case

    def run(self, fetches, *args, **kwargs):
        feed_dict = kwargs.pop("feed_dict", {})
        if feed_dict:
            raise RuntimeError("feed_dict is not supported when eager execution is enabled (in this case, "
                               "sess.run(t) is shorthand for t.numpy()")
        if args or kwargs:
            raise RuntimeError("Optional args are not supported when eager execution is enabled (in this case, "
                               "sess.run(t) is shorthand for t.numpy()")
        return self._test_case.evaluate(fetches)


class CapturedWrites:
    """The writes `captureWritesToStream` captured: `contents()`."""

    def __init__(self, capture_location):
        self.capture_location = capture_location

    def contents(self):
        with open(self.capture_location) as f:
            return f.read()


class _CheckedThread:
    """A thread whose exception fails the test at `join()`; `tearDown` fails the test if it was never joined."""

    def __init__(self, testcase, target, args=None, kwargs=None):
        self._testcase = testcase
        self._target = target
        self._args = () if args is None else args
        self._kwargs = {} if kwargs is None else kwargs
        self._thread = threading.Thread(target=self._protected_run)
        self._exception = None
        self._is_thread_joined = False

    def _protected_run(self):
        try:
            self._target(*self._args, **self._kwargs)
        except Exception as e:  # noqa: BLE001  (any failure of the target fails the test at join, as in TF)
            self._exception = e

    def start(self):
        self._thread.start()

    def join(self):
        self._is_thread_joined = True
        self._thread.join()
        if self._exception is not None:
            self._testcase.fail("Error in checkedThread: %s" % str(self._exception))

    def is_alive(self):
        return self._thread.is_alive()

    def check_termination(self):
        if self._is_thread_joined:
            if self.is_alive():
                raise RuntimeError("Thread was not joined with main thread, and is still running when the test "
                                   "finished.")
        else:
            self._testcase.fail("A checked thread was not joined.")


def _warn_test_session(gen):
    def deprecated(*args, **kwargs):
        from tfcompat.ops.deprecation import warn_deprecated
        warn_deprecated("TensorFlowTestCase.test_session", "tensorflow.python.framework.test_util",
                        "Use `self.session()` or `self.cached_session()` instead.")
        return gen(*args, **kwargs)
    deprecated.__name__ = gen.__name__
    deprecated.__doc__ = gen.__doc__
    return deprecated


def _graph_mode():
    """Whether a TF1 graph is being built (tf.compat.v1.disable_eager_execution or a `Graph.as_default()`)."""
    from tfcompat.framework import graph_state
    return bool(graph_state.state.graphs)


@partial_api("assertProtoEqualsVersion (no GraphDef) is not supported; sessions in TF1 graph mode ignore `config`")
class TestCase(_absl_asserts.AbslAssertions, TempFilesMixin, unittest.TestCase):
    """Base class for tests that need to test TensorFlow."""

    def __init__(self, methodName="runTest"):  # noqa: N803  (unittest's name)
        super().__init__(methodName)
        from tfcompat.ops.debugging_ops import disable_traceback_filtering
        disable_traceback_filtering()       # as TF: unfiltered tracebacks in tests
        self._threads = []
        self._tempdir = None
        self._cached_session = None
        self._test_start_time = None
        self._set_default_seed = True

    # -- fixture -----------------------------------------------------------------------------------------------------
    def setUp(self):
        super().setUp()
        self._ClearCachedSession()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        from tfcompat.framework import graph_state
        if graph_state.global_graph is not None:
            from tfcompat.framework.graph import Graph
            graph_state.set_global_graph(Graph())
        if self._set_default_seed:
            from tfcompat.ops.random_ops import set_seed
            set_seed(DEFAULT_GRAPH_SEED)
        summary = sys.modules.get("tfcompat.summary")
        if summary is not None:
            summary._state.writer = None
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")
        self._test_start_time = time.time()

    def tearDown(self):
        if self._test_start_time is not None:
            from tfcompat.ops.misc_ops import get_logger
            get_logger().info("time(%s): %ss", self.id(), round(time.time() - self._test_start_time, 2))
        for thread in self._threads:
            thread.check_termination()
        self._ClearCachedSession()
        super().tearDown()

    def _ClearCachedSession(self):  # noqa: N802  (TF's name)
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None

    def get_temp_dir(self):
        """A temporary directory for this test (the same one on every call within the test)."""
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp(dir=_process_temp_dir())
        return self._tempdir

    @contextlib.contextmanager
    def captureWritesToStream(self, stream):  # noqa: N802
        """Captures the writes to `stream` (which must have a file descriptor) in a `CapturedWrites`."""
        stream.flush()
        fd = stream.fileno()
        tmp_file, tmp_file_path = tempfile.mkstemp(dir=self.get_temp_dir())
        orig_fd = os.dup(fd)
        os.dup2(tmp_file, fd)
        try:
            yield CapturedWrites(tmp_file_path)
        finally:
            os.close(tmp_file)
            os.dup2(orig_fd, fd)
            os.close(orig_fd)

    # -- evaluation and sessions ------------------------------------------------------------------------------------
    def evaluate(self, tensors):
        """The NumPy values of a tensor or a nested structure of tensors (run in the default or a test session while
        a TF1 graph is built)."""
        if not _graph_mode():
            return eval_structure(tensors)
        from tfcompat.framework import graph_state
        from tfcompat.util import nest
        flat = nest.flatten(tensors)
        sess = graph_state.default_session()
        if sess is None:
            with self.test_session() as sess:
                results = sess.run(flat)
        else:
            results = sess.run(flat)
        return nest.pack_sequence_as(tensors, results)

    def evaluate_if_both_tensors(self, a, b):
        """Both values in one session run when both are TF1 graph tensors (else unchanged)."""
        if _graph_mode():
            from tfcompat.framework.graph import is_graph_value
            if is_graph_value(a) and is_graph_value(b):
                return self.evaluate((a, b))
        return (a, b)

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Eagerly an object whose every use raises (TF 2's `EagerSessionWarner`); while a TF1 graph is built, a
        new `tf.compat.v1.Session` of `graph` (the default graph if None), made the default and closed at exit."""
        if not _graph_mode():
            yield EagerSessionWarner()
        else:
            with self._create_session(graph, config, force_gpu) as sess:
                with self._constrain_devices_and_set_default(sess, use_gpu, force_gpu):
                    yield sess

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Eagerly a session-like object whose `run(fetches)` evaluates them (TF 2's `FakeEagerSession`); while a
        TF1 graph is built, the test's one `tf.compat.v1.Session` (closed at tearDown), made the default."""
        if not _graph_mode():
            yield FakeEagerSession(self)
        else:
            sess = self._get_cached_session(graph, config, force_gpu, crash_if_inconsistent_args=True)
            with self._constrain_devices_and_set_default(sess, use_gpu, force_gpu) as cached:
                yield cached

    @contextlib.contextmanager
    @_warn_test_session
    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """Deprecated: eagerly yields None; while a TF1 graph is built, `cached_session` (or `session` for a given
        graph)."""
        if self.id().endswith(".test_session"):
            self.skipTest("Tests that have the name \"test_session\" are automatically skipped by TensorFlow test "
                          "fixture, as the name is reserved for creating sessions within tests. Please rename your "
                          "test if you have a test with this name.")
        if not _graph_mode():
            yield None
        elif graph is None:
            sess = self._get_cached_session(graph, config, force_gpu, crash_if_inconsistent_args=False)
            with self._constrain_devices_and_set_default(sess, use_gpu, force_gpu) as cached:
                yield cached
        else:
            with self.session(graph, config, use_gpu, force_gpu) as sess:
                yield sess

    @contextlib.contextmanager
    def _constrain_devices_and_set_default(self, sess, use_gpu, force_gpu):
        from tfcompat.framework.device import device
        with sess.graph.as_default(), sess.as_default():
            if force_gpu:
                from tfcompat.testing import gpu_device_name
                with device(gpu_device_name() or "/device:GPU:0"):
                    yield sess
            elif use_gpu:
                yield sess
            else:
                with device("/device:CPU:0"):
                    yield sess

    def _create_session(self, graph, config, force_gpu):
        from tfcompat.compat.v1.session import Session
        return Session(graph=graph)

    def _get_cached_session(self, graph=None, config=None, force_gpu=False, crash_if_inconsistent_args=True):
        if self._cached_session is None:
            sess = self._create_session(graph=graph, config=config, force_gpu=force_gpu)
            self._cached_session = sess
            self._cached_graph = graph
            self._cached_config = config
            self._cached_force_gpu = force_gpu
            return sess
        for what, cached, given in (("graph", self._cached_graph, graph), ("config", self._cached_config, config),
                                    ("force_gpu value", self._cached_force_gpu, force_gpu)):
            if crash_if_inconsistent_args and cached is not given:
                raise ValueError(f"The {what} used to get the cached session is different than the one that was used "
                                 "to create the session. Maybe create a new session with self.session()")
        return self._cached_session

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802
        """A thread wrapper whose `join()` fails the test if `target` raised."""
        ret = _CheckedThread(self, target, args, kwargs)
        self._threads.append(ret)
        return ret

    # -- TF's assertions --------------------------------------------------------------------------------------------
    @unsupported_args("relative_tolerance")
    def assertProtoEquals(self, expected_message_maybe_ascii, validate_message, msg=None,  # noqa: N802
                          relative_tolerance=None):
        """`validate_message` equals the expected message (or its text format); numbers are normalised in place."""
        from tfcompat.testing._proto_compare import assert_proto_equals
        assert_proto_equals(self, expected_message_maybe_ascii, validate_message, msg=msg)

    def assertProtoEqualsVersion(self, expected, actual, producer=None, min_consumer=None, msg=None):  # noqa: N802
        raise NotImplementedError("TestCase.assertProtoEqualsVersion is not supported by tfcompat (it compares "
                                  "GraphDefs, which tfcompat does not build)")

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        if not actual.startswith(expected_start):
            fail_msg = "%r does not start with %r" % (actual, expected_start)
            fail_msg += " : %r" % (msg) if msg else ""
            self.fail(fail_msg)

    @_py_func_if_in_function
    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """|f1 - f2| <= err (or f1 == f2)."""
        f1 = np.squeeze(f1)
        f2 = np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s"
                            % (f1, f2, err, diff, " (%s)" % msg if msg is not None else ""))

    @_py_func_if_in_function
    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def _NDArrayNear(self, ndarray1, ndarray2, err):  # noqa: N802
        return np.linalg.norm(ndarray1 - ndarray2) < err

    @_py_func_if_in_function
    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        self.assertTrue(self._NDArrayNear(ndarray1, ndarray2, err), msg=msg)

    def _GetNdArray(self, a):  # noqa: N802
        """`a` as an ndarray: a tensor's value (a TF1 graph tensor's from a session run), else `np.array(a)`."""
        if _graph_mode():
            from tfcompat.framework.graph import is_graph_value
            if is_graph_value(a):
                a = self.evaluate(a)
        return as_ndarray(a)

    def _assertArrayLikeAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        bf16 = is_bfloat16(a)
        a, b = self.evaluate_if_both_tensors(a, b)
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            shape_mismatch_msg = "Shape mismatch: expected %s, got %s with contents %s." % (a.shape, b.shape, b)
        else:
            shape_mismatch_msg = "Shape mismatch: expected %s, got %s." % (a.shape, b.shape)
        self.assertEqual(a.shape, b.shape, shape_mismatch_msg)
        msgs = [msg]
        a_dtype = "bfloat16" if bf16 else a.dtype
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b), np.isnan(a) != np.isnan(b))
            if a.ndim:
                where = _np_where(cond)
                x = a[where]
                y = b[where]
                msgs.append("not close where = {}".format(where))
            else:
                x, y = a, b
            msgs.append("not close lhs = {}".format(x))
            msgs.append("not close rhs = {}".format(y))
            msgs.append("not close dif = {}".format(np.abs(x - y)))
            msgs.append("not close tol = {}".format(atol + rtol * np.abs(y)))
            msgs.append("dtype = {}, shape = {}".format(a_dtype, a.shape))
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(msgs), equal_nan=True)

    def _assertAllCloseRecursive(self, a, b, rtol=1e-6, atol=1e-6, path=None, msg=None):  # noqa: N802
        from tfcompat.framework.ragged import RaggedTensor
        if isinstance(a, RaggedTensor) or isinstance(b, RaggedTensor):
            return self._assertRaggedClose(a, b, rtol, atol, msg)
        path = path or []
        path_str = ("[" + "][".join(str(p) for p in path) + "]") if path else ""
        msg = msg if msg else ""
        if hasattr(a, "_asdict"):
            a = a._asdict()
        if hasattr(b, "_asdict"):
            b = b._asdict()
        a_is_dict = isinstance(a, collections.abc.Mapping)
        if a_is_dict != isinstance(b, collections.abc.Mapping):
            raise ValueError("Can't compare dict to non-dict, a%s vs b%s. %s" % (path_str, path_str, msg))
        if a_is_dict:
            self.assertItemsEqual(a.keys(), b.keys(), msg="mismatched keys: a%s has keys %s, but b%s has keys %s. %s"
                                  % (path_str, a.keys(), path_str, b.keys(), msg))
            for k in a:
                path.append(k)
                self._assertAllCloseRecursive(a[k], b[k], rtol=rtol, atol=atol, path=path, msg=msg)
                del path[-1]
        elif isinstance(a, (list, tuple)):
            try:
                a_as_ndarray = self._GetNdArray(a)
                b_as_ndarray = self._GetNdArray(b)
                self._assertArrayLikeAllClose(a_as_ndarray, b_as_ndarray, rtol=rtol, atol=atol,
                                              msg="Mismatched value: a%s is different from b%s. %s"
                                              % (path_str, path_str, msg))
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError("Mismatched length: a%s has %d items, but b%s has %d items. %s"
                                     % (path_str, len(a), path_str, len(b), msg)) from None
                for idx, (a_ele, b_ele) in enumerate(zip(a, b)):
                    path.append(str(idx))
                    self._assertAllCloseRecursive(a_ele, b_ele, rtol=rtol, atol=atol, path=path, msg=msg)
                    del path[-1]
        else:
            try:
                self._assertArrayLikeAllClose(a, b, rtol=rtol, atol=atol,
                                              msg="Mismatched value: a%s is different from b%s. %s"
                                              % (path_str, path_str, msg))
            except TypeError as e:
                msg = "Error: a%s has %s, but b%s has %s. %s" % (path_str, type(a), path_str, type(b), msg)
                e.args = ((e.args[0] + " : " + msg,) + e.args[1:])
                raise

    @_py_func_if_in_function
    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Asserts that two structures of arrays or tensors have near values (numpy.allclose's test, per leaf)."""
        self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, msg=msg)

    @_py_func_if_in_function
    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,  # noqa: N802
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2,
                                      bfloat16_atol=1e-2, msg=None):
        """assertAllClose with the tolerances raised to the lowest precision among float32, float16, bfloat16."""
        bf16 = is_bfloat16(a) or is_bfloat16(b)
        a, b = self.evaluate_if_both_tensors(a, b)
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if a.dtype == np.float32 or b.dtype == np.float32 or a.dtype == np.complex64 or b.dtype == np.complex64:
            rtol = max(rtol, float_rtol)
            atol = max(atol, float_atol)
        if a.dtype == np.float16 or b.dtype == np.float16:
            rtol = max(rtol, half_rtol)
            atol = max(atol, half_atol)
        if bf16:
            rtol = max(rtol, bfloat16_rtol)
            atol = max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    @_py_func_if_in_function
    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        msg = msg or ""
        raise AssertionError("The two values are close at all elements. %s" % msg)

    @_py_func_if_in_function
    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """Asserts that two arrays or tensors have the same shape and values (NaNs equal)."""
        from tfcompat.framework.ragged import RaggedTensor
        if isinstance(a, RaggedTensor) or isinstance(b, RaggedTensor):
            return self._assertRaggedEqual(a, b, msg)
        msg = msg if msg else ""
        a, b = self.evaluate_if_both_tensors(a, b)
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if b.ndim <= 3 or b.size < 500:
            self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s. Contents: %r. \n%s."
                             % (a.shape, b.shape, b, msg))
        else:
            self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s. %s" % (a.shape, b.shape, msg))
        same = a == b
        if a.dtype.kind == "f":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        msgs = [msg]
        if not np.all(same):
            diff = np.logical_not(same)
            if a.ndim:
                where = _np_where(diff)
                x = a[where]
                y = b[where]
                msgs.append("not equal where = {}".format(where))
            else:
                x, y = a, b
            msgs.append("not equal lhs = %r" % x)
            msgs.append("not equal rhs = %r" % y)
            if a.dtype.kind != b.dtype.kind and {a.dtype.kind, b.dtype.kind}.issubset({"U", "S", "O"}):
                a_list, b_list = [], []
                for out_list, flat_arr in [(a_list, a.flat), (b_list, b.flat)]:
                    for item in flat_arr:
                        out_list.append(item.encode("utf-8") if isinstance(item, str) else item)
                a = np.array(a_list)
                b = np.array(b_list)
            np.testing.assert_array_equal(a, b, err_msg="\n".join(msgs))

    @_py_func_if_in_function
    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        msg = msg or ""
        raise AssertionError("The two values are equal at all elements. %s" % msg)

    @_py_func_if_in_function
    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self.assertGreater(np.min(self._GetNdArray(a)), comparison_target)

    @_py_func_if_in_function
    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self.assertLess(np.max(self._GetNdArray(a)), comparison_target)

    @_py_func_if_in_function
    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self.assertGreaterEqual(np.min(self._GetNdArray(a)), comparison_target)

    @_py_func_if_in_function
    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self.assertLessEqual(np.max(self._GetNdArray(a)), comparison_target)

    def _format_subscripts(self, subscripts, value, limit=10, indent=2):
        lines = []
        subscripts = np.transpose(subscripts)
        prefix = " " * indent
        if np.ndim(value) == 0:
            return [prefix + "[0] : " + str(value)]
        for subscript in itertools.islice(subscripts, limit):
            lines.append(prefix + str(subscript) + " : " + str(value[tuple(subscript)]))
        if len(subscripts) > limit:
            lines.append(prefix + "...")
        return lines

    @_py_func_if_in_function
    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        """Every element within [lower_bound, upper_bound] (open ends as asked); NaN fails."""
        target = self._GetNdArray(target)
        if not (np.issubdtype(target.dtype, np.floating) or np.issubdtype(target.dtype, np.integer)):
            raise AssertionError("The value of %s does not have an ordered numeric type, instead it has type: %s"
                                 % (target, target.dtype))
        nan_subscripts = _np_where(np.isnan(target))
        if np.size(nan_subscripts):
            raise AssertionError("%d of the %d element(s) are NaN. Subscripts(s) and value(s) of the NaN "
                                 "element(s):\n" % (len(nan_subscripts[0]), np.size(target))
                                 + "\n".join(self._format_subscripts(nan_subscripts, target)))
        range_str = (("(" if open_lower_bound else "[") + str(lower_bound) + ", " + str(upper_bound)
                     + (")" if open_upper_bound else "]"))
        violations = np.less_equal(target, lower_bound) if open_lower_bound else np.less(target, lower_bound)
        violations = np.logical_or(violations, np.greater_equal(target, upper_bound) if open_upper_bound
                                   else np.greater(target, upper_bound))
        violation_subscripts = _np_where(violations)
        if np.size(violation_subscripts):
            raise AssertionError("%d of the %d element(s) are outside the range %s. "
                                 % (len(violation_subscripts[0]), np.size(target), range_str)
                                 + "Subscript(s) and value(s) of the offending elements:\n"
                                 + "\n".join(self._format_subscripts(violation_subscripts, target)))

    @_py_func_if_in_function
    def assertAllInSet(self, target, expected_set):  # noqa: N802
        target = self._GetNdArray(target)
        diff = np.setdiff1d(target.flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError("%d unique element(s) are not in the set %s: %s" % (np.size(diff), expected_set, diff))

    @_py_func_if_in_function
    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        target = self._GetNdArray(target)
        self.assertEqual(target.dtype, expected_dtype)

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """A context expecting `exception_type` whose message matches a regex (or which satisfies a predicate)."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                err_str = e.message if isinstance(e, errors.OpError) else str(e)
                return re.search(expected_err_re_or_predicate, err_str)
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # noqa: BLE001  (TF's context turns any mismatch, its own failure too, into this)
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError("Exception of type %s: %s" % (str(type(e)), str(e)))  # noqa: B904  (TF chains it)

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(self, exception_type=errors.InvalidArgumentError):  # noqa: N802
        return self.assertRaisesWithPredicateMatch(
            exception_type, r"Incompatible shapes|Dimensions must be equal|required broadcastable shapes")

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        from tfcompat.framework.tensor import Tensor
        if not isinstance(input_a, (np.ndarray, np.generic, Tensor)):
            raise TypeError("input_a must be a Numpy ndarray, Numpy scalar, or a Tensor."
                            f"Instead received {type(input_a)}")
        if not isinstance(input_b, (np.ndarray, np.generic, Tensor)):
            raise TypeError("input_b must be a Numpy ndarray, Numpy scalar, or a Tensor."
                            f"Instead received {type(input_b)}")
        shape_a = input_a.get_shape().as_list() if isinstance(input_a, Tensor) else input_a.shape
        shape_b = input_b.get_shape().as_list() if isinstance(input_b, Tensor) else input_b.shape
        self.assertAllEqual(shape_a, shape_b, msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        from tfcompat.framework.device import DeviceSpec

        def canonical(d):
            return d.to_string() if isinstance(d, DeviceSpec) else DeviceSpec.from_string(d or "").to_string()
        device1 = canonical(device1)
        device2 = canonical(device2)
        self.assertEqual(device1, device2, "Devices %s and %s are not equal. %s" % (device1, device2, msg))

    @_py_func_if_in_function
    def assertDictEqual(self, a, b, msg=None):  # noqa: N802
        """unittest's test first; if it fails, keys as sets and values with assertAllClose/assertAllEqual."""
        try:
            super().assertDictEqual(a, b, msg)
        except Exception:  # noqa: BLE001  (TF retries any failure, a tensor's ambiguous truth value too)
            self.assertSameElements(a.keys(), b.keys())
            for k, v in a.items():
                a_k = self._GetNdArray(v)
                self._GetNdArray(b[k])
                if np.issubdtype(a_k.dtype, np.floating):
                    self.assertAllClose(v, b[k], msg=k)
                else:
                    self.assertAllEqual(v, b[k], msg=k)

    def _GetPyList(self, a):  # noqa: N802
        from tfcompat.framework.ragged import RaggedTensor
        from tfcompat.framework.tensor import Tensor
        from tfcompat.testing._values import RaggedTensorValue
        if isinstance(a, RaggedTensor):
            return self.evaluate(a).to_list()
        if isinstance(a, Tensor):
            a = self.evaluate(a)
            return a.tolist() if isinstance(a, np.ndarray) else a
        if isinstance(a, np.ndarray):
            return a.tolist()
        if isinstance(a, RaggedTensorValue):
            return a.to_list()
        return np.array(a, dtype=object).tolist()

    def _assertRaggedEqual(self, a, b, msg):  # noqa: N802
        self.assertEqual(self._GetPyList(a), self._GetPyList(b), msg)
        if not (isinstance(a, (list, tuple)) or isinstance(b, (list, tuple))):
            self.assertEqual(getattr(a, "ragged_rank", 0) if is_tensor_like(a) else 0,
                             getattr(b, "ragged_rank", 0) if is_tensor_like(b) else 0, msg)

    def _assertRaggedClose(self, a, b, rtol, atol, msg=None):  # noqa: N802
        self._assertListCloseRecursive(self._GetPyList(a), self._GetPyList(b), rtol, atol, msg)
        if not (isinstance(a, (list, tuple)) or isinstance(b, (list, tuple))):
            self.assertEqual(getattr(a, "ragged_rank", 0) if is_tensor_like(a) else 0,
                             getattr(b, "ragged_rank", 0) if is_tensor_like(b) else 0, msg)

    def _assertListCloseRecursive(self, a, b, rtol, atol, msg, path="value"):  # noqa: N802
        self.assertEqual(type(a), type(b))
        if isinstance(a, (list, tuple)):
            self.assertLen(a, len(b), "Length differs for %s" % path)
            for i in range(len(a)):
                self._assertListCloseRecursive(a[i], b[i], rtol, atol, msg, "%s[%s]" % (path, i))
        else:
            self._assertAllCloseRecursive(a, b, rtol, atol, path, msg)

    assertRaisesRegexp = unittest.TestCase.assertRaisesRegex
    assertItemsEqual = unittest.TestCase.assertCountEqual
