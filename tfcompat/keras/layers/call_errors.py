"""An exception escaping `Layer.call`, re-raised as Keras 3 does: its class kept, "Exception encountered" context added."""

import inspect
import linecache
import os

import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.util import nest

_OWN_DIRS = (os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep,
             os.path.dirname(os.path.abspath(torch.__file__)) + os.sep)


def _format_argument(value):
    if isinstance(value, (Tensor, Variable)):
        return f"tf.Tensor(shape={value.shape}, dtype={dtypes.FROM_STORAGE[storage(value).dtype].name})"
    return repr(value)


def _arguments(layer, args, kwargs):
    """Keras's "Arguments received" lines: every parameter of `call`, bound or at its default (`**kwargs` unbound
    prints `<class 'inspect._empty'>`, as Keras's does), or None when the arguments do not bind."""
    signature = inspect.signature(layer.call)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return None
    lines = []
    for param in signature.parameters.values():
        value = (nest.map_structure(_format_argument, bound.arguments[param.name])
                 if param.name in bound.arguments else param.default)
        lines.append(f"  • {param.name}={value}")
    return "\n".join(lines)


def kernel_error(e):
    """A torch kernel's error escaping a layer's call (a shape or dtype the layer did not check), as the
    `InvalidArgumentError` TF's eager op raises there (TF's class, by the error's class and origin only).

    An error a `raise` statement made (the user's, or tfcompat's deliberate TF error) keeps its class."""
    if type(e) is not RuntimeError and not isinstance(e, (torch.OutOfMemoryError, torch.linalg.LinAlgError)):
        return e
    tb = e.__traceback__
    if tb is None:
        return e
    while tb.tb_next is not None:
        tb = tb.tb_next
    path = tb.tb_frame.f_code.co_filename
    if not path.startswith(_OWN_DIRS) or linecache.getline(path, tb.tb_lineno).lstrip().startswith("raise"):
        return e
    cls = errors.ResourceExhaustedError if isinstance(e, torch.OutOfMemoryError) else errors.InvalidArgumentError
    new = cls(None, None, str(e).split("\n")[0])
    return new.with_traceback(e.__traceback__)


def with_call_info(e, layer, args, kwargs):
    """The exception `e` raised in `layer.call`, with Keras 3's "Exception encountered when calling" context.

    Only the innermost layer adds it; the exception keeps its class (Keras re-raises the same type).
    """
    if getattr(e, "_keras_call_info_injected", False) or getattr(e, "_keras_input_spec_of", None) is layer:
        return e         # the layer's own input-spec error: Keras raises it before `call`, outer calls add info
    e = kernel_error(e)
    arguments = _arguments(layer, args, kwargs)
    if arguments is None:
        return e
    name = f"{type(layer).__name__}.call()"
    if isinstance(e, errors.OpError):
        text = e.message
    else:
        text = e.args[0] if e.args else ""
    message = (f"Exception encountered when calling {name}.\n\n\x1b[1m{text}\x1b[0m\n\n"
               f"Arguments received by {name}:\n{arguments}")
    try:
        new = type(e)(e.node_def, e.op, message) if isinstance(e, errors.OpError) else type(e)(message)
    except Exception:  # noqa: BLE001 - Keras's rule for an error class that takes no message
        new = RuntimeError(message)
    new._keras_call_info_injected = True
    new._keras_call_of = (layer, text)
    return new.with_traceback(e.__traceback__)


def call_error(layer, cls, text):
    """An error of `layer`'s call raised by tfcompat's own check (Keras raises it inside the call)."""
    e = cls(text)
    e._keras_call_of = (layer, text)
    return e


def _is_keras_tensor(x):
    from tfcompat.keras.engine.keras_tensor import KerasTensor
    return isinstance(x, KerasTensor)


def _call_takes(layer, name):
    try:
        return name in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False


def _symbolic_value(value):
    return _format_argument(value) if isinstance(value, (Tensor, Variable)) else repr(value)


def symbolic_call_info(e, layer, args, kwargs):
    """The exception `e` escaping `layer`'s call on KerasTensors, as Keras 3 reports it: Keras wraps
    `symbolic_call(*args, **kwargs)` there, so its "Arguments received" lists `args` (the KerasTensors' reprs) and
    `kwargs` (`<class 'inspect._empty'>` when none), not the parameters of `call`, whose error it was.

    Only an error of this layer's own `call` is restated (a build error carries no call information in Keras); a
    kernel error the symbolic run turned into a ValueError is found as that ValueError's context."""
    source = e
    if getattr(e, "_keras_call_of", None) is None and type(e) is ValueError:
        source = e.__context__
    of = getattr(source, "_keras_call_of", None)
    if of is None or of[0] is not layer:
        return e
    name = f"{type(layer).__name__}.call()"
    kwargs = dict(kwargs)
    tensor_arguments = [a for a in (*args, *kwargs.values()) if any(_is_keras_tensor(t) for t in nest.flatten(a))]
    if len(tensor_arguments) == 1 and kwargs.get("mask") is None and _call_takes(layer, "mask"):
        # Keras's __call__ passes the one tensor argument's mask (None when it has none) to a call taking `mask`
        kwargs["mask"] = nest.map_structure(lambda t: getattr(t, "_keras_mask", None), tensor_arguments[0])
    shown_kwargs = ({k: nest.map_structure(_symbolic_value, v) for k, v in kwargs.items()} if kwargs
                    else inspect.Parameter.empty)
    message = (f"Exception encountered when calling {name}.\n\n\x1b[1m{of[1]}\x1b[0m\n\n"
               f"Arguments received by {name}:\n  • args={nest.map_structure(_symbolic_value, tuple(args))}\n"
               f"  • kwargs={shown_kwargs}")
    try:
        new = type(e)(e.node_def, e.op, message) if isinstance(e, errors.OpError) else type(e)(message)
    except Exception:  # noqa: BLE001 - Keras's rule for an error class that takes no message
        new = RuntimeError(message)
    new._keras_call_info_injected = True
    return new.with_traceback(e.__traceback__)
