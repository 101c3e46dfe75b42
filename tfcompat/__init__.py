"""tfcompat: the TensorFlow 2 Python API on PyTorch.

`import tfcompat as tf` and TF 2 code runs on torch tensors and autograd. The
op namespaces (`tf.math`, `tf.nn`, ...) are built from the ops' own export
declarations; the heavy parts (`tf.keras`, `tf.data`, `tf.summary`,
`tf.train`, ...) are imported on first use.
"""
from tfcompat import _thread_policy  # noqa: F401  (first: it must run before torch loads)
from tfcompat import _alloc_policy  # noqa: F401  (glibc's thresholds for tensor buffers)

import gc as _gc
import importlib as _importlib
import sys as _sys
import types as _types

import torch as _torch  # noqa: F401  (torch's own import runs as it would without tfcompat)

# The cyclic collector pauses while tfcompat's modules load: they add ~10,000 long-lived objects and no garbage,
# yet the first full collection torch's import leaves due would fall inside them and scan torch's ~165,000
# objects for nothing (45 ms, more than the 30 ms the modules take, on 2 cores). That collection runs when the
# program next allocates, as after `import torch` alone; a collector the program disabled stays disabled.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from tfcompat.framework import dtypes as _dtypes, errors, tensor_shape as _tensor_shape  # noqa: F401
    from tfcompat.framework import convert as _convert, variables as _variables  # noqa: F401
    from tfcompat.framework import graph as _graph  # noqa: F401  (tf.Graph)
    from tfcompat.framework import graph_state as _graph_state
    from tfcompat.eager import tape as _tape  # noqa: F401
    from tfcompat import ops as _ops  # noqa: F401  (registers the op library)
    from tfcompat import _api

    __version__ = "2.21.0"          # the TF API version tfcompat follows

    _api.build(_importlib.import_module(__name__))
    _api.constants(_importlib.import_module(__name__), "version", VERSION=__version__, GIT_VERSION="tfcompat",
                   COMPILER_VERSION="", GRAPH_DEF_VERSION=0)
finally:
    if _collecting:
        _gc.enable()
del _importlib, _torch, _collecting


class _TFModule(_types.ModuleType):
    """tfcompat's module class: `tf.keras` is always TF's view of Keras (see tfcompat/_tf_keras.py)."""

    @property
    def keras(self):
        from tfcompat._tf_keras import tf_keras
        return tf_keras()

    @keras.setter
    def keras(self, value):
        """Importing the `tfcompat.keras` package sets this attribute; `tf.keras` stays the view."""


_sys.modules[__name__].__class__ = _TFModule


def __getattr__(attr):
    if attr in _api.LAZY:
        module = _api.load(attr)
        globals()[attr] = module
        return module
    if attr.startswith("__"):
        raise AttributeError(attr)
    raise _api.missing("", attr)


def __dir__():
    return sorted(set(globals()) | set(_api.LAZY))


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """TF 1.x's switch (gone in TF 2): tfcompat always executes eagerly, so this only checks its arguments."""
    from tfcompat.compat.v1 import enable_eager_execution as enable
    enable(config, device_policy, execution_mode)


def enable_tensorflow_alias():
    """Makes `import tensorflow` (and `import keras`) resolve to tfcompat in this process."""
    from tfcompat._alias import install
    install()


def _tf1_graph_mode():
    """The first tf.Graph switches TF1 graph mode on (compat.v1 rebinds the public ops), even before tf.compat.v1
    is used."""
    import tfcompat.compat.v1  # noqa: F401


_graph_state.on_first_graph(_tf1_graph_mode)
