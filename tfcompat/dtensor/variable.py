"""`dtensor.DVariable`: a variable whose value is a DTensor with a fixed layout."""
import itertools

from tfcompat.dtensor.tensor import copy_to_mesh, layout_of, make, relayout
from tfcompat.framework import errors
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.variables import ResourceVariable, _UnreadVariable

_handles = itertools.count(1)


class DVariable(ResourceVariable):
    """A `tf.Variable` holding a DTensor: reads are DTensors of its layout; assigned values keep that layout."""

    def __init__(self, initial_value, *args, dtype=None, **kwargs):
        layout = kwargs.pop("layout", None)
        if callable(initial_value) and not isinstance(initial_value, Tensor):
            initial_value = initial_value()
        if layout is None:
            layout = layout_of(initial_value)
            if layout is None:
                raise errors.InvalidArgumentError(None, None, "Neither layout nor DTensor initial value are provided.")
        elif layout_of(initial_value) is None:
            initial_value = relayout(copy_to_mesh(initial_value, layout.replicated(layout.mesh, layout.rank)), layout)
        super().__init__(initial_value, *args, dtype=dtype, **kwargs)
        self._dtensor_layout = layout
        self._handle_id = next(_handles)

    @property
    def layout(self):
        return self._dtensor_layout

    def read_value(self):
        return make(self._read(), self._dtensor_layout)

    value = read_value

    def read_value_no_copy(self):
        return self.read_value()

    @property
    def handle(self):
        return _Handle(self)

    def _check_mesh(self, value, op):
        layout = layout_of(value)
        if layout is not None and layout.mesh != self._dtensor_layout.mesh:
            raise errors.UnknownError(None, None, f"<unknown>:0: error: loc(fused[\"{op}:\", \"eager_operation\"]): "
                                      "'tf_device.cluster' op failed during mesh propagation. All inputs to "
                                      "`tf_device.Cluster` must have same mesh configuration.")

    def assign(self, value, use_locking=None, name=None, read_value=True):
        self._check_mesh(value, "AssignVariableOp")
        super().assign(value, use_locking, name, False)
        return _UnreadDVariable(self) if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        self._check_mesh(delta, "AssignAddVariableOp")
        super().assign_add(delta, use_locking, name, False)
        return _UnreadDVariable(self) if read_value else None

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        self._check_mesh(delta, "AssignSubVariableOp")
        super().assign_sub(delta, use_locking, name, False)
        return _UnreadDVariable(self) if read_value else None

    def __repr__(self):
        return _text(self, self.name)


def _text(variable, name):
    value = repr(make(storage(variable), variable.layout)).split(", value=", 1)[1]
    return f"<tf.Variable '{name}' shape={variable.shape} dtype={variable.dtype.name}, value={value}"


class _UnreadDVariable(_UnreadVariable):
    """What a DVariable's `assign*` returns: the variable, shown as 'UnreadVariable' with its layout."""

    def read_value(self):
        return self._parent.read_value()

    value = read_value

    def __repr__(self):
        return _text(self._parent, "UnreadVariable")


class _Handle:
    """A DVariable's resource handle, printed as TF prints it (a scalar `resource` DTensor)."""

    def __init__(self, variable):
        self._variable = variable

    def __str__(self):
        v = self._variable
        shape = ",".join(str(d) for d in v.shape)
        return (f"tf.Tensor(<ResourceHandle(name=\"Variable/{v._handle_id}\", device=\"{v.layout.mesh.local_devices()[0]}"
                f"\", container=\"Anonymous\", type=\"tensorflow::Var\", dtype and shapes : \"[ DType enum: "
                f"{v.dtype.as_datatype_enum}, Shape: [{shape}] ]\")>, layout=\"{v.layout.to_string()}\", shape=(), "
                "dtype=resource)")

    __repr__ = __str__
