"""`tf.errors`: TensorFlow's exception classes and status codes.

Every runtime error tfcompat raises for an op is one of these classes, with
TF's message text, so `except tf.errors.InvalidArgumentError` works unchanged.
"""
from tfcompat.framework.export import tf_export

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS = 10, 11, 12, 13, 14, 15
UNAUTHENTICATED = 16

for _name, _code in list(globals().items()):
    if _name.isupper() and isinstance(_code, int):
        tf_export("errors." + _name)(_code)


@tf_export("errors.OpError")
class OpError(Exception):
    """Base class of the errors an op raises: `(node_def, op, message)` as in TF."""

    error_code = UNKNOWN

    def __init__(self, node_def=None, op=None, message="", *args, **kwargs):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        if args or "error_code" in kwargs:
            code = kwargs.get("error_code", args[0] if args else None)
            if code is not None:
                self.error_code = code
        self.experimental_payloads = kwargs.get("experimental_payloads", {})

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self):
        return self._message


def _error_class(name, code):
    cls = type(name, (OpError,), {
        "__doc__": f"TF's `{name}` (status code {code}).",
        "__module__": __name__,
        "error_code": code,
    })

    def __init__(self, node_def=None, op=None, message="", *args, **kwargs):
        OpError.__init__(self, node_def, op, message, **kwargs)

    cls.__init__ = __init__
    return tf_export("errors." + name)(cls)


CancelledError = _error_class("CancelledError", CANCELLED)
UnknownError = _error_class("UnknownError", UNKNOWN)
InvalidArgumentError = _error_class("InvalidArgumentError", INVALID_ARGUMENT)
DeadlineExceededError = _error_class("DeadlineExceededError", DEADLINE_EXCEEDED)
NotFoundError = _error_class("NotFoundError", NOT_FOUND)
AlreadyExistsError = _error_class("AlreadyExistsError", ALREADY_EXISTS)
PermissionDeniedError = _error_class("PermissionDeniedError", PERMISSION_DENIED)
ResourceExhaustedError = _error_class("ResourceExhaustedError", RESOURCE_EXHAUSTED)
FailedPreconditionError = _error_class("FailedPreconditionError", FAILED_PRECONDITION)
AbortedError = _error_class("AbortedError", ABORTED)
OutOfRangeError = _error_class("OutOfRangeError", OUT_OF_RANGE)
UnimplementedError = _error_class("UnimplementedError", UNIMPLEMENTED)
InternalError = _error_class("InternalError", INTERNAL)
UnavailableError = _error_class("UnavailableError", UNAVAILABLE)
DataLossError = _error_class("DataLossError", DATA_LOSS)
UnauthenticatedError = _error_class("UnauthenticatedError", UNAUTHENTICATED)


@tf_export("errors.OperatorNotAllowedInGraphError")
class OperatorNotAllowedInGraphError(TypeError):
    """Raised when a graph tensor is used as a Python `bool` or iterated."""


def op_error(cls, message, op_name, name=""):
    """An eager op failure with TF's message tail: `<message> [Op:<OpName>] name: <name>`.

    `name=None` leaves out the ` name: ` part, as TF's kernels that report without it.
    """
    if name is None:
        return cls(None, None, f"{message} [Op:{op_name}]")
    return cls(None, None, f"{message} [Op:{op_name}] name: {name}")


# set by tf.function (eager/function/_shape_checks.py): `fn(node, op_type, attrs, inputs)` is the failing op's NodeDef
# text (`{{node add}} = AddV2[T=DT_FLOAT](a, b)`) while a body traces on fully known input shapes, else None
graph_node = [lambda node, op_type, attrs, inputs: None]


def static_shape_error(eager_error, message, node, op_type, attrs, inputs, tail=""):
    """An op's failed static shape check: `eager_error` when executing eagerly; while a tf.function body traces on
    known shapes, the ValueError of TF's shape function, raised as TF builds the graph. `inputs` are the op's storages
    (or (name, shape) pairs of the constants TF makes of Python arguments, `{node}` standing for the op's name)."""
    text = graph_node[0](node, op_type, attrs, inputs)
    if text is None:
        return eager_error
    shapes = ", ".join("[" + ",".join(str(d) for d in (x[1] if isinstance(x, tuple) else x.shape)) + "]"
                       for x in inputs)
    return ValueError(f"{message} for '{text}' with input shapes: {shapes}{tail}.")


def kernel_error(cls, message, op_name, device="/job:localhost/replica:0/task:0/device:CPU:0", name=""):
    """An error from an op's kernel, with TF's eager prefix naming the wrapped function and its device."""
    return op_error(cls, f"{{{{function_node __wrapped__{op_name}_device_{device}}}}} {message}", op_name, name)


class NotImplementedYet(NotImplementedError, AttributeError):
    """A TF API name tfcompat does not provide yet.

    It is an `AttributeError` too, so `hasattr(tf, name)` stays False.
    """
