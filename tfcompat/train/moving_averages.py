"""`tf.train.ExponentialMovingAverage`: shadow variables tracking exponential moving averages, as TF 2's eager API.

Each `apply` creates (once per variable) a non-trainable shadow variable initialised to the variable's value, named
`<variable>/<ema name>` and made unique process-wide as TF's variable scopes make it (`..._1`, `..._2`), then
moves every shadow towards its variable: `avg -= (avg - var) * (1 - decay)`, with
`decay = min(decay, (1 + num_updates) / (10 + num_updates))` when `num_updates` is given.
Not supported: `apply` inside a `tf.function` (NotImplementedError).
"""
import sys

from tfcompat.framework import dtypes, variables
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.ops import math_ops

_USED_SCOPES = set()          # variable-scope names taken by shadow variables (TF's per-process scope counts)
_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def _unique_scope(base):
    name, i = base, 0
    while name in _USED_SCOPES:
        i += 1
        name = f"{base}_{i}"
    _USED_SCOPES.add(name)
    return name


class ExponentialMovingAverage:
    """Maintains moving averages of variables by employing an exponential decay."""

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias      # TF applies it to averages of tensors, which eager mode refuses
        self._name = name
        self._averages = {}                  # id(variable) -> (variable, shadow variable)

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Creates the shadow variables of `var_list` if needed and updates them once; returns None."""
        state = sys.modules.get("tfcompat.eager.function._state")      # loaded once a tf.function exists
        if state is not None and state.current_recorder() is not None:
            raise NotImplementedError("tf.train.ExponentialMovingAverage.apply inside a tf.function is not supported "
                                      "by tfcompat (TF reads a new shadow variable's initial value before the "
                                      "function's ops run): call apply eagerly")
        # None: TF's trainable-variables collection, empty when executing eagerly
        var_list = [] if var_list is None else list(var_list)
        for v in var_list:
            if isinstance(v, Tensor):
                raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable tensors when eager "
                                "execution is enabled.")
        for var in var_list:
            if var.dtype.base_dtype not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if id(var) not in self._averages:
                with variables._init_scope[0]():
                    scope = _unique_scope(var.name[:-2] + "/" + self._name)
                    avg = Variable(var.read_value(), trainable=False, name=scope)
                    avg._name = scope + ":0"          # variable scopes ignore name scopes
                self._averages[id(var)] = (var, avg)
        # public ops: inside a tf.function the updates are recorded and replayed
        decay = convert_to_tensor(self._decay, dtype=dtypes.float32)
        if self._num_updates is not None:
            n = math_ops.cast(self._num_updates, dtypes.float32)
            decay = math_ops.minimum(decay, (1.0 + n) / (10.0 + n))
        for var in var_list:
            avg = self._averages[id(var)][1]
            rate = 1.0 - decay
            if rate.dtype != avg.dtype:
                rate = math_ops.cast(rate, avg.dtype)
            avg.assign_sub((avg - var) * rate)
        return None

    def average(self, var):
        """The shadow variable of `var`, or None."""
        entry = self._averages.get(id(var))
        return entry[1] if entry is not None and entry[0] is var else None

    def average_name(self, var):
        """The name of `var`'s shadow variable (the name it would get when it has none yet)."""
        avg = self.average(var)
        if avg is not None:
            return avg.name[:-2]
        base = var.name[:-2] + "/" + self._name
        name, i = base, 0
        while name in _USED_SCOPES:
            i += 1
            name = f"{base}_{i}"
        return name

    def variables_to_restore(self, moving_avg_variables=None):
        """{shadow name: variable} for the averaged variables (TF's collections hold only those eagerly)."""
        if moving_avg_variables is None:
            moving_avg_variables = [var for var, _ in self._averages.values()]
        return {self.average_name(v): v for v in moving_avg_variables}
