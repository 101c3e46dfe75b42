"""`tf.random.Generator` draws under the strategy whose scope made the generator, as TF's MirroredStrategy.

In TF each replica has its own copy of the state, advanced alike by every draw, and hashes the state's key with
its replica id: the replicas draw different streams while the state moves once per draw. tfcompat's replicas of
one process share the state variable, so a draw in a replica meets the others in `merge_call` (each replica
must draw as often as the others, as TF's copies must), the state advances once and each replica keys its draw.
"""
from tfcompat.distribute import context


def _read_and_advance(generator, outputs):
    state = generator._state_var._read().tolist()
    generator._advance(outputs)
    return state


def _merge(strategy, generators, outputs):
    ext = strategy.extended
    states = {}
    for g, n in zip(ext._local_values(generators), ext._local_values(outputs)):
        if id(g) not in states:             # a generator the replicas share advances once
            states[id(g)] = _read_and_advance(g, n)
    from tfcompat.distribute.values import PerReplica
    return PerReplica([states[id(g)] for g in ext._local_values(generators)])


def replica_draw(generator, outputs):
    """(the state a draw of `outputs` values starts from, the replica id keying it or None); advances the state."""
    strategy, ctx = context.current()
    if ctx is None or strategy is not generator._state_var._distribute_strategy:
        return _read_and_advance(generator, outputs), None
    if ctx._runner is not None:             # several local replicas, each in its thread
        return ctx.merge_call(_merge, args=(generator, outputs)), ctx._replica_id
    return _read_and_advance(generator, outputs), ctx._replica_id
