"""TF1 graph-mode gradients: `tf.gradients` inside a `tf.Graph` and `tf.compat.v1.train.GradientDescentOptimizer`.

A gradients node re-evaluates its targets under a `GradientTape` when a session runs it (the run's feeds, the
sources' values watched); one node per call, so every gradient of a `minimize` is computed before any update.
"""
from tfcompat.eager.tape import GradientTape
from tfcompat.framework import graph_state
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.graph import Operation, SymbolicTensor, evaluate_in_run, is_graph_value, no_op


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _reaches(ys, x):
    """Whether graph value `x` is an input (transitively) of one of `ys`."""
    stack, seen = list(ys), set()
    while stack:
        node = stack.pop()
        if node is x:
            return True
        if id(node) in seen or not is_graph_value(node) or getattr(node, "_graph_variable", False):
            continue
        seen.add(id(node))
        op = node.op if isinstance(node, SymbolicTensor) else node
        stack.extend(op.inputs + op.control_inputs)
    return False


def graph_gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
                    stop_gradients=None, unconnected_gradients="none"):
    """`tf.gradients` in a graph: the sum of `ys`'s gradients with respect to each of `xs` (None if unconnected)."""
    if stop_gradients is not None or aggregation_method is not None or str(unconnected_gradients) not in (
            "none", "UnconnectedGradients.NONE"):
        raise NotImplementedError("tf.gradients(stop_gradients/aggregation_method/unconnected_gradients) in a TF1 "
                                  "graph is not supported by tfcompat")
    ys, xs = _as_list(ys), _as_list(xs)
    seeds = _as_list(grad_ys) if grad_ys is not None else None
    graph = graph_state.default_graph()

    def run(session):
        sources = evaluate_in_run(xs, session)
        seed_values = evaluate_in_run(seeds, session) if seeds is not None else None
        with GradientTape() as tape:
            for source in sources:
                tape.watch(source)
            targets = evaluate_in_run(ys, session, {id(x): s for x, s in zip(xs, sources)})
        return tape.gradient(targets, sources, output_gradients=seed_values)
    connected = [_reaches(ys, x) for x in xs]
    op = Operation(graph, None, "SymbolicGradient", lambda session, *_: run(session), (), output_spec=())
    return [Operation(graph, None, "Identity", lambda session, grads, i=i: grads[i], (op.output,),
                      output_spec=(x.dtype, x.shape)).output if c else None
            for i, (x, c) in enumerate(zip(xs, connected))]


class GradientDescentOptimizer:
    """TF1's plain gradient descent: `var -= learning_rate * grad`; graph ops inside a graph, applied now eagerly."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        self._learning_rate, self._name = learning_rate, name

    @property
    def _lr(self):
        """The learning rate; a callable one (TF1's decay functions return one eagerly) is called, as TF does."""
        lr = self._learning_rate
        return lr() if callable(lr) else lr

    def compute_gradients(self, loss, var_list=None, gate_gradients=1, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """[(gradient, variable)] of `loss` (a tensor in a graph, a callable eagerly)."""
        if graph_state.default_graph() is not None:
            var_list = list(var_list) if var_list is not None else graph_state.default_graph().get_collection(
                "trainable_variables")
            return list(zip(graph_gradients(loss, var_list, grad_ys=grad_loss), var_list))
        if not callable(loss):
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a function when eager "
                               "execution is enabled.")
        with GradientTape() as tape:
            value = loss()
        var_list = list(var_list) if var_list is not None else list(tape.watched_variables())
        return list(zip(tape.gradient(value, var_list, output_gradients=grad_loss), var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Subtracts `learning_rate * gradient` from each variable (a graph operation inside a graph)."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in grads_and_vars]}.")
        # update nodes are named under the optimizer's scope (unique in a graph), the training op is the scope
        with EXPORTS["name_scope"](name or self._name) as scope:
            updates = [v.assign_sub(g * self._lr) for g, v in pairs]
            if global_step is not None:
                updates.append(global_step.assign_add(1))
        graph = graph_state.default_graph()
        return no_op(graph, scope, updates) if graph is not None else None

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        return self.apply_gradients(self.compute_gradients(loss, var_list, grad_loss=grad_loss), global_step, name)

    def get_name(self):
        return self._name
