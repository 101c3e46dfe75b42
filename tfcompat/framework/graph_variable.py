"""TF1 graph variables: `tf.Variable`/`get_variable` inside a `tf.Graph`, holding one value per Session.

A graph variable has no value of its own: each session holds one, absent (reading raises FailedPreconditionError, as
TF) until its `initializer` runs. Ops on it are deferred like any graph tensor. Checkpoints reach its value through
`storage(v)`/`_set_storage(t)` only while a session is lent for that (`session_io`), as TF's save and restore ops run
in a session; `Checkpoint.restore` collects its writes for `run_restore_ops` (`collect_restores`).
"""
import contextlib

from tfcompat.framework import convert, dtypes, graph_state
from tfcompat.framework.context import state as eager_state
from tfcompat.framework.graph import Operation, SymbolicTensor, add_operators, deferred, graph_of, refuse
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable, VariableSynchronization, _ids

_io = graph_state.state   # `io_session` / `restores` live beside the default graph and session stacks


class GraphVariable(Variable):
    """A variable of a TF1 graph (TF's graph-mode `ResourceVariable`)."""

    _graph_variable = True

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None, name=None,
                 variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO, aggregation=None, shape=None,
                 experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except when you are not "
                             "providing a `variable_def`. You provided neither.")
        if variable_def is not None or constraint is not None or caching_device is not None:
            raise NotImplementedError("tf.Variable(variable_def/constraint/caching_device) in a TF1 graph is not "
                                      "supported by tfcompat")
        dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        value = initial_value() if callable(initial_value) else initial_value
        if not isinstance(value, SymbolicTensor):
            value = convert.convert_to_tensor(value, dtype=dtype)
        elif dtype is not None and value.dtype is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        scope = "/".join(s for s in eager_state.name_scope if s)
        base = name if name is not None else "Variable"
        graph = graph_state.default_graph()
        self._setup(graph, graph.unique_name(scope + "/" + base if scope else base, mark_as_used=False), value,
                    value.dtype, TensorShape(shape) if shape is not None else value.shape,
                    synchronization != VariableSynchronization.ON_READ if trainable is None else bool(trainable))

    @classmethod
    def make(cls, graph, name, initial_value, dtype, shape, trainable=True):
        """A variable named exactly `name` whose initializer evaluates `initial_value` (a tensor, or a callable
        called each time the initializer runs)."""
        v = object.__new__(cls)
        v._setup(graph, name, initial_value, dtype, TensorShape(shape), trainable)
        return v

    def _setup(self, graph, name, initial_value, dtype, shape, trainable):
        self.graph, self._dtype, self._shape, self._trainable = graph, dtype, shape, trainable
        self._name = name + ":0"
        self._unique_id = next(_ids)
        self._constraint, self._synchronization, self._aggregation = None, VariableSynchronization.AUTO, None
        self.op = Operation(graph, name, "VarHandleOp", lambda session: None)
        self._set_initial_value(initial_value)
        graph.add_to_collection("variables", self)
        if trainable:
            graph.add_to_collection("trainable_variables", self)

    def _set_initial_value(self, initial_value):
        """Makes `initializer` assign `initial_value` (what `init_from_checkpoint` changes)."""
        if callable(initial_value) and not isinstance(initial_value, SymbolicTensor):
            make = initial_value
            initial_value = Operation(self.graph, None, "Initializer", lambda session: make(), (),
                                      output_spec=(self._dtype, self._shape)).output
        self._initial_value = initial_value
        name = self.op.name + "/Assign"
        if name in self.graph._by_name:
            del self.graph._by_name[name]
        self._initializer = Operation(self.graph, name, "AssignVariableOp",
                                      lambda session, value: session.write(self, value), (initial_value,))

    # -- graph-mode API -------------------------------------------------------------
    @property
    def initializer(self):
        return self._initializer

    @property
    def initial_value(self):
        value = self._initial_value
        return value if isinstance(value, SymbolicTensor) else deferred(lambda v: v, (value, self), "Identity")

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return ""

    def read_value(self):
        return deferred(lambda v: v, (self,), "ReadVariableOp")

    value = read_value

    def _read(self):
        refuse(self)

    def numpy(self):
        raise NotImplementedError("numpy() is only available when eager execution is enabled.")

    def eval(self, session=None):
        return self.read_value().eval(session=session)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._update(value, read_value, lambda session, old, new: new)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, read_value, lambda session, old, new: old() + new)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, read_value, lambda session, old, new: old() - new)

    def _update(self, value, read_value, combine):
        def run(session, new):
            return session.write(self, combine(session, lambda: session.read(self), new))
        if isinstance(value, SymbolicTensor) or graph_of((value,)) is not None:
            inputs = (value,)
            known = value._shape if isinstance(value, SymbolicTensor) and value._dtype is not None else None
        else:
            inputs = (convert.convert_to_tensor(value, dtype=self._dtype),)
            known = inputs[0].shape
        if known is not None and not self._shape.is_compatible_with(known):
            raise ValueError(f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable shape "
                             f"{self._shape}, and the assigned value shape {known} are incompatible.")
        op = Operation(self.graph, None, "AssignVariableOp", run, inputs, output_spec=(self._dtype, self._shape))
        return op.output if read_value else op

    # -- storage, lent to checkpoints through a session -------------------------------
    @property
    def _t(self):
        if _io.io_session is None:
            refuse(self)
        return _io.io_session.read_storage(self)

    def _set_storage(self, t):
        if _io.restores is not None:
            _io.restores.append((self, t))
        elif _io.io_session is not None:
            _io.io_session.write_storage(self, t)
        else:
            refuse(self)

    def __repr__(self):
        return f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}>"


add_operators(GraphVariable)


def create(*args, **kwargs):
    """`tf.Variable(...)` inside a graph (variables.Variable.__new__'s graph-mode branch)."""
    return object.__new__(GraphVariable)


@contextlib.contextmanager
def session_io(session):
    """Lends `session` to checkpoint code: graph variables' `storage`/`_set_storage` read and write its values."""
    saved, _io.io_session = _io.io_session, session
    try:
        yield
    finally:
        _io.io_session = saved


@contextlib.contextmanager
def collect_restores(into):
    """Collects the values a checkpoint restore gives graph variables into `into` (TF's restore ops, run later)."""
    saved, _io.restores = _io.restores, into
    try:
        yield into
    finally:
        _io.restores = saved


def apply_restores(writes, session=None):
    """Runs collected restores (`run_restore_ops`): each graph variable gets its value in `session` (else the
    default session)."""
    if writes:
        session = session if session is not None else graph_state.default_session()
        if session is None:
            raise ValueError("run_restore_ops needs a session: pass one or call it inside `with Session()`")
        for var, t in writes:
            session.write_storage(var, t)
