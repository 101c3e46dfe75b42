"""The public queries of the distribution context: `get_strategy`, `has_strategy`, `get_replica_context`, ..."""
from tfcompat.distribute import context
from tfcompat.framework.export import tf_export


@tf_export("distribute.get_strategy")
def get_strategy():
    """The strategy in effect: the innermost `scope()` or `run`, else the default strategy."""
    return context.current()[0]


@tf_export("distribute.has_strategy")
def has_strategy():
    """Whether a non-default strategy is in effect."""
    return context.scoped_strategy() is not None


@tf_export("distribute.in_cross_replica_context")
def in_cross_replica_context():
    """True inside a strategy's `scope()` (outside `run`); False in a replica and outside any strategy."""
    return context.current()[1] is None


@tf_export("distribute.get_replica_context")
def get_replica_context():
    """The replica context running now (the default one outside strategies), None in cross-replica context."""
    return context.current()[1]


@tf_export("distribute.experimental_set_strategy")
def experimental_set_strategy(strategy):
    """Makes `strategy` the one in effect outside any scope, in every thread (None: the default again)."""
    if context.state.stack:
        raise RuntimeError('Must not be called inside a `tf.distribute.Strategy` scope.')
    context._global[:] = [] if strategy is None else [(strategy, None)]


def _on_variable(v):
    """The variable-creation hook: a variable created under a strategy becomes that strategy's."""
    strategy = context.scoped_strategy()
    if strategy is not None:
        strategy.extended._on_variable_created(v)


def replicas_for_loss(api):
    """`tf.nn`'s loss scaling: the replica count, or TF's RuntimeError in cross-replica context."""
    strategy, ctx = context.current()
    if ctx is None:
        raise RuntimeError(f"You are calling `{api}` in cross replica context, while it was expected to be called "
                           "in replica context.")
    return strategy.num_replicas_in_sync
