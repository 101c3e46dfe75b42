"""TF1's stateful optimizers (`tf.compat.v1.train.AdamOptimizer`, `MomentumOptimizer`, `AdagradOptimizer`,
`RMSPropOptimizer`): their update rules and slot variables, as graph ops inside a `tf.Graph` and applied now eagerly.

They share `GradientDescentOptimizer`'s `compute_gradients`/`minimize`; slots are variables made on first use (inside
a graph, initialized by `global_variables_initializer` as in TF), named as TF names them (`<var>/Adam`, ...).
"""
from tfcompat.compat.v1.graph_gradients import GradientDescentOptimizer
from tfcompat.framework import graph_state
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.graph import no_op
from tfcompat.framework.variables import Variable


def _op(name):
    return EXPORTS[name]        # the public op (TF1 graph mode's wrapper of it once a graph exists)


class _SlotOptimizer(GradientDescentOptimizer):
    """A TF1 optimizer with per-variable slots; subclasses give `_slots` (name -> initial fill) and `_update`."""

    _slots = {}

    def __init__(self, learning_rate, use_locking=False, name=None):
        super().__init__(learning_rate, use_locking, name or type(self)._default_name)
        self._slot_vars = {}
        self._non_slot = {}

    def _slot(self, var, key):
        slots = self._slot_vars.setdefault(id(var), {})
        if key not in slots:
            base = var.name.split(":")[0]
            suffix = self._name if not slots else f"{self._name}_{len(slots)}"
            fill = self._slots[key]
            slots[key] = Variable(_op("fill")(var.shape.as_list(), _op("cast")(fill, var.dtype)), trainable=False,
                                  name=f"{base}/{suffix}")
        return slots[key]

    def get_slot(self, var, name):
        return self._slot_vars.get(id(var), {}).get(name)

    def get_slot_names(self):
        return sorted(self._slots)

    def _prepare(self, pairs):
        """Creates, once, the variables every update reads (TF's non-slot variables)."""

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in grads_and_vars]}.")
        self._prepare(pairs)            # TF creates the non-slot variables (beta1_power...) before the slots
        for _, v in pairs:
            for key in self._slots:
                self._slot(v, key)
        graph = graph_state.default_graph()
        # update nodes are named under the optimizer's scope (unique in a graph), the training op is the scope
        with _op("name_scope")(name or self._name) as scope:
            updates = [self._update(g, v) for g, v in pairs]
            finish = self._finish(updates, graph)
            if global_step is not None:
                finish.append(global_step.assign_add(1))
        return no_op(graph, scope, updates + finish) if graph is not None else None

    def _finish(self, updates, graph):
        return []


class AdamOptimizer(_SlotOptimizer):
    """TF1's Adam: `lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)`, `var -= lr_t * m_t / (sqrt(v_t) + epsilon)`."""

    _default_name = "Adam"
    _slots = {"m": 0.0, "v": 0.0}

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08, use_locking=False, name="Adam"):
        super().__init__(learning_rate, use_locking, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._powers = None

    def _prepare(self, pairs):
        if self._powers is None:
            dtype = pairs[0][1].dtype
            self._powers = (Variable(_op("cast")(self._beta1, dtype), trainable=False, name="beta1_power"),
                            Variable(_op("cast")(self._beta2, dtype), trainable=False, name="beta2_power"))

    def _update(self, grad, var):
        b1p, b2p = self._powers
        m, v = self._slot(var, "m"), self._slot(var, "v")
        lr = self._lr * _op("math.sqrt")(1 - b2p) / (1 - b1p)
        m_t = m.assign(self._beta1 * m + (1 - self._beta1) * grad)
        v_t = v.assign(self._beta2 * v + (1 - self._beta2) * grad * grad)
        return var.assign_sub(lr * m_t / (_op("math.sqrt")(v_t) + self._epsilon))

    def _finish(self, updates, graph):
        b1p, b2p = self._powers
        if graph is None:
            return [b1p.assign(b1p * self._beta1), b2p.assign(b2p * self._beta2)]
        with graph.control_dependencies(updates):
            return [b1p.assign(b1p * self._beta1), b2p.assign(b2p * self._beta2)]


class MomentumOptimizer(_SlotOptimizer):
    """TF1's momentum: `accum = momentum * accum + grad`, `var -= lr * accum` (Nesterov:
    `var -= lr * (grad + momentum * accum)`)."""

    _default_name = "Momentum"
    _slots = {"momentum": 0.0}

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(learning_rate, use_locking, name)
        self._momentum, self._nesterov = momentum, use_nesterov

    def _update(self, grad, var):
        accum = self._slot(var, "momentum")
        a_t = accum.assign(self._momentum * accum + grad)
        step = grad + self._momentum * a_t if self._nesterov else a_t
        return var.assign_sub(self._lr * step)


class AdagradOptimizer(_SlotOptimizer):
    """TF1's Adagrad: `accum += grad**2`, `var -= lr * grad / sqrt(accum)` (accumulators start at 0.1)."""

    _default_name = "Adagrad"

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(learning_rate, use_locking, name)
        self._slots = {"accumulator": initial_accumulator_value}

    def _update(self, grad, var):
        accum = self._slot(var, "accumulator")
        a_t = accum.assign_add(grad * grad)
        return var.assign_sub(self._lr * grad / _op("math.sqrt")(a_t))


class AdadeltaOptimizer(_SlotOptimizer):
    """TF1's Adadelta: `accum = rho * accum + (1 - rho) * grad**2`,
    `update = sqrt(accum_update + eps) / sqrt(accum + eps) * grad`,
    `accum_update = rho * accum_update + (1 - rho) * update**2`, `var -= lr * update`."""

    _default_name = "Adadelta"
    _slots = {"accum": 0.0, "accum_update": 0.0}

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-08, use_locking=False, name="Adadelta"):
        super().__init__(learning_rate, use_locking, name)
        self._rho, self._epsilon = rho, epsilon

    def _update(self, grad, var):
        accum, accum_update = self._slot(var, "accum"), self._slot(var, "accum_update")
        sqrt = _op("math.sqrt")
        a_t = accum.assign(self._rho * accum + (1 - self._rho) * grad * grad)
        update = sqrt(accum_update + self._epsilon) / sqrt(a_t + self._epsilon) * grad
        u_t = accum_update.assign(self._rho * accum_update + (1 - self._rho) * update * update)
        var_t = var.assign_sub(self._lr * update)
        return var_t if graph_state.default_graph() is None else _op("group")(var_t, u_t)


class FtrlOptimizer(_SlotOptimizer):
    """TF1's FTRL-Proximal (ApplyFtrlV2): `new_accum = accum + g**2`,
    `linear += g' - (new_accum**-p - accum**-p) / lr * var` (g' = g + 2 * l2_shrinkage * var),
    `var = (sign(linear) * l1 - linear) / (new_accum**-p / lr + 2 * (l2 + beta / (2 * lr)))` where |linear| > l1,
    else 0."""

    _default_name = "Ftrl"

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0, beta=None):
        checks = [(initial_accumulator_value < 0.0, "initial_accumulator_value", initial_accumulator_value),
                  (learning_rate_power > 0.0, "learning_rate_power", learning_rate_power),
                  (l1_regularization_strength < 0.0, "l1_regularization_strength", l1_regularization_strength),
                  (l2_regularization_strength < 0.0, "l2_regularization_strength", l2_regularization_strength),
                  (l2_shrinkage_regularization_strength < 0.0, "l2_shrinkage_regularization_strength",
                   l2_shrinkage_regularization_strength)]
        for bad, what, value in checks:
            if bad:
                sign = "negative" if what == "learning_rate_power" else "positive"
                raise ValueError(f"{what} {value:f} needs to be {sign} or zero")
        if accum_name is not None or linear_name is not None:
            raise NotImplementedError("tf.compat.v1.train.FtrlOptimizer(accum_name/linear_name) is not supported by "
                                      "tfcompat")
        super().__init__(learning_rate, use_locking, name)
        self._slots = {"accum": initial_accumulator_value, "linear": 0.0}
        self._power, self._l1, self._l2 = learning_rate_power, l1_regularization_strength, l2_regularization_strength
        self._shrinkage, self._beta = l2_shrinkage_regularization_strength, 0.0 if beta is None else beta

    def _update(self, grad, var):
        accum, linear = self._slot(var, "accum"), self._slot(var, "linear")
        lr, p = self._lr, -self._power
        shrunk = grad + 2.0 * self._shrinkage * var if self._shrinkage else grad
        new_accum = accum + grad * grad
        pow_new, pow_old = _op("pow")(new_accum, p), _op("pow")(accum, p)
        linear_t = linear.assign(linear + shrunk - (pow_new - pow_old) / lr * var)
        quadratic = pow_new / lr + 2.0 * (self._l2 + self._beta / (2.0 * lr))
        l1 = self._l1
        new_var = _op("where")(_op("abs")(linear_t) > l1, (_op("sign")(linear_t) * l1 - linear_t) / quadratic,
                               _op("zeros_like")(linear_t))
        accum_t = accum.assign(new_accum)
        var_t = var.assign(new_var)
        return var_t if graph_state.default_graph() is None else _op("group")(var_t, accum_t)


class RMSPropOptimizer(_SlotOptimizer):
    """TF1's RMSProp: `ms = decay * ms + (1 - decay) * grad**2`, `mom = momentum * mom + lr * grad / sqrt(ms + eps)`,
    `var -= mom` (centered: `ms - mg**2` under the root, `mg = decay * mg + (1 - decay) * grad`)."""

    _default_name = "RMSProp"

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False, centered=False,
                 name="RMSProp"):
        super().__init__(learning_rate, use_locking, name)
        self._decay, self._momentum, self._epsilon, self._centered = decay, momentum, epsilon, centered
        self._slots = {"rms": 1.0, "momentum": 0.0, **({"mg": 0.0} if centered else {})}

    def _update(self, grad, var):
        rms, mom = self._slot(var, "rms"), self._slot(var, "momentum")
        ms_t = rms.assign(self._decay * rms + (1 - self._decay) * grad * grad)
        denom = ms_t
        if self._centered:
            mg = self._slot(var, "mg")
            mg_t = mg.assign(self._decay * mg + (1 - self._decay) * grad)
            denom = ms_t - mg_t * mg_t
        mom_t = mom.assign(self._momentum * mom + self._lr * grad / _op("math.sqrt")(denom + self._epsilon))
        return var.assign_sub(mom_t)
