"""`tf.test`: `TestCase` (TF's and absltest's assertions), `main`, the gradient checker, `Benchmark` and the
build/device queries. Imported on first use of `tf.test` (it loads `unittest`).

One job per module: `test_case` (TestCase: TF's assertions, evaluate, sessions eager and TF1), `_absl_asserts`
(absltest's assertions), `_tempfiles` (absltest's create_tempdir/create_tempfile), `_proto_compare`
(assertProtoEquals), `_values` (what `evaluate` returns), `runner` (`main`: absl's flags and reporter),
`gradient_checker` (`compute_gradient`), `benchmark`, `experimental` (`sync_devices`).
"""
import functools

from tfcompat.framework.export import tf_export
from tfcompat.testing import experimental  # noqa: F401
from tfcompat.testing.benchmark import Benchmark  # noqa: F401
from tfcompat.testing.gradient_checker import compute_gradient  # noqa: F401
from tfcompat.testing.runner import main  # noqa: F401
from tfcompat.testing.test_case import TestCase

tf_export("test.TestCase")(TestCase)


def _cuda_devices():
    import torch
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


@tf_export("test.is_gpu_available")
def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """Deprecated: whether a GPU (with at least `min_cuda_compute_capability`, a (major, minor) pair) is visible."""
    from tfcompat.ops.deprecation import warn_deprecated
    warn_deprecated("is_gpu_available", "tensorflow.python.framework.test_util",
                    "Use `tf.config.list_physical_devices('GPU')` instead.")
    import torch
    for i in range(_cuda_devices()):
        cc = tuple(torch.cuda.get_device_capability(i)) or (0, 0)
        if not min_cuda_compute_capability or cc >= tuple(min_cuda_compute_capability):
            return True
    return False


@tf_export("test.gpu_device_name")
def gpu_device_name():
    """The name of the first GPU device ('/device:GPU:0'), or '' without one."""
    return "/device:GPU:0" if _cuda_devices() else ""


@tf_export("test.is_built_with_cuda")
def is_built_with_cuda():
    """Whether the runtime (torch) was built with CUDA."""
    import torch
    return torch.version.cuda is not None


@tf_export("test.is_built_with_rocm")
def is_built_with_rocm():
    """Whether the runtime (torch) was built with ROCm."""
    import torch
    return getattr(torch.version, "hip", None) is not None


@tf_export("test.is_built_with_gpu_support")
def is_built_with_gpu_support():
    """Whether the runtime was built with CUDA or ROCm."""
    return is_built_with_cuda() or is_built_with_rocm()


@tf_export("test.is_built_with_xla")
def is_built_with_xla():
    """True, as TF's release builds: `tf.function(jit_compile=True)` compiles (with torch.compile here)."""
    return True


_CPU_TARGETS = ("arm", "aarch64", "ppc", "powerpc", "x86", "s390x")


@tf_export("test.is_cpu_target_available")
def is_cpu_target_available(target):
    """Whether `target` is one of the CPU targets TF's release build knows (arm, aarch64, ppc/powerpc, x86, s390x)."""
    if not target.startswith(_CPU_TARGETS):
        raise AssertionError("Unknown CPU target: " + target)
    return True


@tf_export("test.disable_with_predicate")
def disable_with_predicate(pred, skip_message):
    """Decorator: the test method skips itself with `skip_message` when `pred()` is true."""
    def decorator_disable_with_predicate(func):
        @functools.wraps(func)
        def wrapper_disable_with_predicate(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            else:
                return func(self, *args, **kwargs)
        return wrapper_disable_with_predicate
    return decorator_disable_with_predicate


@tf_export("test.with_eager_op_as_function")
def with_eager_op_as_function(cls=None, only_as_function=False):
    """Returns the class unchanged (as TF, where the decorator is kept only for old code)."""
    def decorator(cls):
        return cls
    if cls is not None:
        return decorator(cls)
    return decorator



def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("test", attr)
