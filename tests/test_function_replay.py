"""tf.function's no-tape replay program (`_program.fast_source`): bit-identical to the plain program, and constant
folding that never shares a value the program writes, returns or assigns."""
import numpy as np
import torch

import tfcompat as tf
from tfcompat.eager.function._program import fast_source, folded_steps
from tfcompat.framework.tensor import storage

_ONES = torch.ops.aten.ones.default
_ADD_ = torch.ops.aten.add_.Tensor
_MUL = torch.ops.aten.mul.Tensor
_VIEW = torch.ops.aten.view.default


def _mlp_step():
    rng = np.random.default_rng(0)
    params = [tf.Variable(rng.normal(size=(8, 4)).astype("float32")), tf.Variable(np.zeros(4, "float32"))]

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, params[0]) + params[1]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.1 * g)
        return loss
    return step, params


def test_fast_program_is_bit_identical_to_the_plain_program():
    rng = np.random.default_rng(1)
    x = tf.constant(rng.normal(size=(16, 8)).astype("float32"))
    y = tf.constant(rng.integers(0, 4, size=16).astype("int32"))
    step, params = _mlp_step()
    step(x, y)
    prog = next(iter(step._concrete[0]._programs.values()))
    assert prog.fast is not None
    ins = [storage(x), storage(y)]
    fast_outs, fast_new = prog.fast(ins, prog.vars)
    outs, new = prog.run(ins, prog.vars)
    assert all(torch.equal(a, b) for a, b in zip(fast_outs + fast_new, outs + new))
    losses = [float(step(x, y)) for _ in range(3)]      # replays: the loss decreases, the program is reused
    assert losses[0] > losses[1] > losses[2]
    assert step.experimental_get_tracing_count() == 1


def test_a_returned_constant_is_not_shared_between_calls():
    @tf.function
    def f():
        return tf.ones(3) * 2.0
    a, b = f(), f()
    assert storage(a) is not storage(b)
    storage(a).add_(1.0)        # a caller changing its result in place changes no later call's result
    assert f().numpy().tolist() == [2.0, 2.0, 2.0]


def test_a_constant_assigned_to_a_variable_is_recomputed_on_each_call():
    v = tf.Variable([5.0, 5.0])

    @tf.function
    def reset():
        v.assign(tf.zeros(2) + 1.0)
    for _ in range(3):
        reset()
        assert v.numpy().tolist() == [1.0, 1.0]
        storage(v).add_(5.0)    # as an optimizer updates its own slot variables in place


def test_no_folding_when_a_static_value_is_written_in_place():
    steps = [{"op": "call", "f": 0, "args": [[3]], "kwargs": {}, "out": "o0"},
             {"op": "call", "f": 1, "args": [{"ref": "o0"}, [3]], "kwargs": {}, "out": "o1"},
             {"op": "call", "f": 2, "args": [{"ref": "o1"}, {"ref": "I[0]"}], "kwargs": {}, "out": "o2"},
             {"op": "call", "f": 3, "args": [{"ref": "I[0]"}, {"ref": "o0"}], "kwargs": {}, "out": "o3"}]
    funcs = [_ONES, _VIEW, _ADD_, _MUL]
    assert folded_steps(steps, funcs, [{"ref": "o3"}], []) == []          # o1 views o0 and is written
    assert folded_steps(steps[:1] + steps[3:], funcs, [{"ref": "o3"}], []) == [0]
    source = fast_source(1, 0, steps[:1] + steps[3:], [{"ref": "o3"}], [], funcs, 0)
    assert "    o0 = f0([3])" in source.splitlines()      # computed once, in `make`


def _adam_step(opt, params):
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.matmul(x, params[0]) + params[1]))
        opt.apply_gradients(zip(tape.gradient(loss, params), params))
        return loss
    return step


def _params():
    rng = np.random.default_rng(2)
    return [tf.Variable(rng.normal(size=(3, 2)).astype("float32")), tf.Variable(np.zeros(2, "float32"))]


def test_a_replay_updates_the_optimizer_slots_in_place_as_the_eager_step_does():
    x = tf.constant(np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3))
    opt, params = tf.keras.optimizers.Adam(0.1), _params()
    step = _adam_step(opt, params)
    step(x)
    step(x)                         # the first replay copies the slots once (the trace's copies were restored)
    slots = [storage(v) for v in opt.variables[2:]]
    for _ in range(3):
        step(x)
    assert all(storage(v) is t for v, t in zip(opt.variables[2:], slots))      # updated in place, no copies
    eager_opt, eager_params = tf.keras.optimizers.Adam(0.1), _params()
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.matmul(x, eager_params[0]) + eager_params[1]))
        eager_opt.apply_gradients(zip(tape.gradient(loss, eager_params), eager_params))
    for a, b in zip(params + opt.variables, eager_params + eager_opt.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())                     # bit for bit


def test_a_replay_copies_a_slot_assigned_from_outside_before_updating_it():
    x = tf.constant(np.ones((4, 3), "float32"))
    opt, params = tf.keras.optimizers.Adam(0.1), _params()
    step = _adam_step(opt, params)
    for _ in range(3):
        step(x)
    value = tf.constant(np.full((3, 2), 0.5, "float32"))
    momentum = opt.variables[2]
    momentum.assign(value)
    held = momentum.value           # a value read before the update keeps it (TF's copy-on-write)
    step(x)
    assert value.numpy().tolist() == [[0.5, 0.5]] * 3 and held.numpy().tolist() == [[0.5, 0.5]] * 3
    assert momentum.numpy().tolist() != [[0.5, 0.5]] * 3


def test_slot_copies_stay_when_a_guard_follows_or_the_read_is_used_again():
    from tfcompat.eager.function._program import claimed_copies
    clone = {"op": "call", "f": 0, "args": [{"ref": "r0"}], "kwargs": {}, "out": "o0"}
    update = {"op": "call", "f": 1, "args": [[{"ref": "o0"}], 1.0], "kwargs": {}, "out": "o1"}
    guard = {"op": "guard", "f": 2, "args": [{"ref": "I[0]"}], "kwargs": {}, "value": "C[1]"}
    use = {"op": "call", "f": 3, "args": [{"ref": "r0"}], "kwargs": {}, "out": "o2"}
    owned = {"o0": 0}
    assert claimed_copies([clone, update], owned, [], [{"ref": "o0"}]) == {0: 0}
    assert claimed_copies([guard, clone, update], owned, [], [{"ref": "o0"}]) == {1: 0}
    assert claimed_copies([clone, update, guard], owned, [], [{"ref": "o0"}]) == {}
    assert claimed_copies([clone, update, use], owned, [{"ref": "o2"}], [{"ref": "o0"}]) == {}


def test_a_trace_that_creates_variables_builds_no_program(monkeypatch):
    from tfcompat.eager.function import _trace
    built = []
    build = _trace.build_program
    monkeypatch.setattr(_trace, "build_program", lambda *a: built.append(1) or build(*a))
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(2.0))
        return x * holder[0]
    assert [float(f(tf.constant(3.0))) for _ in range(3)] == [6.0, 6.0, 6.0]
    assert f.experimental_get_tracing_count() == 2 and built == [1]      # TF traces twice; one program


def test_the_fast_program_frees_values_after_their_last_use_and_can_skip_the_outputs_own_ops():
    steps = [{"op": "call", "f": 0, "args": [[3]], "kwargs": {}, "out": "o0"},             # folded: kept in `make`
             {"op": "call", "f": 1, "args": [{"ref": "I[0]"}, {"ref": "o0"}], "kwargs": {}, "out": "o1"},
             {"op": "call", "f": 1, "args": [{"ref": "o1"}, {"ref": "o1"}], "kwargs": {}, "out": "o2"},
             {"op": "call", "f": 1, "args": [{"ref": "o2"}, {"ref": "I[0]"}], "kwargs": {}, "out": "o3"},
             {"op": "call", "f": 1, "args": [{"ref": "o2"}, {"ref": "o0"}], "kwargs": {}, "out": "o4"}]
    source = fast_source(1, 1, steps, [{"ref": "o3"}], [{"ref": "o2"}], [_ONES, _MUL], 0).splitlines()
    body = [line.strip() for line in source[source.index("    def program(I, V, W=True):") + 1:]]
    assert body == ["i0 = I[0]", "r0 = V[0]._read()", "o1 = f1(i0, o0)", "o2 = f1(o1, o1)", "del o1",
                    "if W: o3 = f1(o2, i0)", "if W: o4 = f1(o2, o0)", "if W: del o4",
                    "return ([o3] if W else None), [o2]", "return program"]


def test_a_call_for_effects_returns_none_and_writes_the_same_values():
    v, w = tf.Variable(1.0), tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign(v * x)
        return tf.reduce_sum(v * 3.0 + x)
    x = tf.constant(2.0)
    assert float(f(x)) == 8.0
    assert f._call_for_effects(x) is None and float(v) == 4.0          # a replay skips mul, add and sum
    assert float(f(x)) == 26.0 and float(v) == 8.0
    g = tf.function(lambda x: w.assign(w * x) * 1.0)
    assert float(g._call_for_effects(x)) == 2.0                        # a trace returns its outputs


def test_a_function_whose_replays_claim_optimizer_slots_saves_and_loads(tmp_path):
    class Trainer(tf.Module):
        def __init__(self):
            super().__init__()
            self.params = _params()
            self.opt = tf.keras.optimizers.Adam(0.1)

        @tf.function(input_signature=[tf.TensorSpec((4, 3), tf.float32)])
        def step(self, x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(tf.matmul(x, self.params[0]) + self.params[1]))
            self.opt.apply_gradients(zip(tape.gradient(loss, self.params), self.params))
            return loss
    x = tf.constant(np.ones((4, 3), "float32"))
    module = Trainer()
    losses = [float(module.step(x)) for _ in range(3)]
    tf.saved_model.save(module, str(tmp_path))         # the claims are no recorded constants
    loaded = tf.saved_model.load(str(tmp_path))
    assert float(loaded.step(x)) == float(module.step(x)) < losses[-1]


def test_positional_tensor_calls_share_the_traces_of_the_general_path():
    """The common call (eager tensors passed positionally) finds its trace by the same keys as every other form."""
    @tf.function
    def f(a, b=2):
        return a * b

    x = tf.constant([1.0, 2.0])
    assert f(x, tf.constant(3.0)).numpy().tolist() == [3.0, 6.0]
    assert f(a=x, b=tf.constant(4.0)).numpy().tolist() == [4.0, 8.0]
    assert f(x, tf.constant(5.0)).numpy().tolist() == [5.0, 10.0]
    assert f.experimental_get_tracing_count() == 1
    assert f(x).numpy().tolist() == [2.0, 4.0]                     # the default: a Python value, another trace
    assert f(tf.constant([1.0, 2.0, 3.0]), tf.constant(1.0)).numpy().tolist() == [1.0, 2.0, 3.0]   # another shape
    assert f(tf.constant([1, 2]), tf.constant(2)).numpy().tolist() == [2, 4]                        # another dtype
    assert f.experimental_get_tracing_count() == 4
    assert f(tf.constant([7.0, 8.0]), tf.constant(1.0)).numpy().tolist() == [7.0, 8.0]
    assert f.experimental_get_tracing_count() == 4
