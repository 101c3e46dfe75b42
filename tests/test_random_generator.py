"""tf.random.Generator as a checkpointable object (TF 2.21's checkpoint keys and state restore)."""
import numpy as np
import pytest

import tfcompat as tf


def test_checkpoint_saves_and_restores_the_state(tmp_path):
    g = tf.random.Generator.from_seed(1)
    assert repr(g.state) == "<tf.Variable 'StateVar:0' shape=(3,) dtype=int64, numpy=array([1, 0, 0])>"
    ckpt = tf.train.Checkpoint(gen=g)
    path = ckpt.save(str(tmp_path / "ck"))
    # TF 2.21 lists these keys for the same checkpoint
    assert [name for name, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "gen/_state_var/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    first = g.normal([4]).numpy()
    assert g.state.numpy().tolist() != [1, 0, 0]
    ckpt.restore(path)
    assert g.state.numpy().tolist() == [1, 0, 0]
    np.testing.assert_array_equal(g.normal([4]).numpy(), first)      # the same draws again, as in TF
    other = tf.random.Generator.from_seed(7)
    tf.train.Checkpoint(gen=other).restore(path)
    assert other.state.numpy().tolist() == [1, 0, 0]


def test_generator_inside_a_module_is_tracked(tmp_path):
    module = tf.Module()
    module.rng = tf.random.Generator.from_seed(3)
    path = tf.train.Checkpoint(model=module).write(str(tmp_path / "m"))
    assert "model/rng/_state_var/.ATTRIBUTES/VARIABLE_VALUE" in [n for n, _ in tf.train.list_variables(path)]


def test_generator_api():
    g = tf.random.Generator.from_seed(1)
    assert g.state.name == "StateVar:0" and not g.state.trainable and g.algorithm == 1
    assert g.normal([2, 3]).shape == (2, 3) and g.uniform([2], dtype=tf.float64).dtype == tf.float64
    assert g.truncated_normal([5]).shape == (5,)
    seeds = g.make_seeds(3)
    assert seeds.shape == (2, 3) and seeds.dtype == tf.int64
    children = g.split(2)
    assert len(children) == 2 and type(children[0]).__name__ == "Generator"
    assert tf.random.Generator.from_non_deterministic_state().state.shape == (3,)
    assert tf.random.Generator.from_seed(1, alg="auto_select").algorithm == 3
    tf.random.set_global_generator(tf.random.Generator.from_seed(5))
    assert tf.random.get_global_generator().state.numpy().tolist() == [5, 0, 0]


def test_threefry_is_declared_unsupported():
    with pytest.raises(NotImplementedError, match="alg=THREEFRY"):
        tf.random.Generator.from_seed(1, alg="threefry")


def test_state_advances_as_tfs_philox_counter():
    # TF 2.21: each op moves the 128-bit counter (state[0], state[1]) on by 256 per output value
    lines = []

    def after(f):
        g = tf.random.Generator.from_seed(1)
        f(g)
        return g.state.numpy().tolist()
    for name, f in [("normal5", lambda g: g.normal([5])), ("normal64", lambda g: g.normal([64], dtype=tf.float64)),
                    ("uniform3", lambda g: g.uniform([3])),
                    ("uniformint", lambda g: g.uniform([3], maxval=10, dtype=tf.int32)),
                    ("trunc", lambda g: g.truncated_normal([3])), ("make_seeds", lambda g: g.make_seeds(3)),
                    ("split", lambda g: g.split(2)), ("full", lambda g: g.uniform_full_int([3], dtype=tf.int64)),
                    ("skip", lambda g: g.skip(3)), ("two", lambda g: (g.normal([2, 2]), g.uniform([])))]:
        lines.append(f"{name} {after(f)}")
    g = tf.random.Generator.from_state([-1, 0, 5], "philox")
    g.normal([1])
    lines.append(str(g.state.numpy().tolist()))
    g = tf.random.Generator.from_seed(1)
    lines.append(str([x.state.numpy().tolist()[:2] for x in g.split(2)]))
    assert "\n".join(lines) + "\n" == 'normal5 [1281, 0, 0]\nnormal64 [16385, 0, 0]\nuniform3 [769, 0, 0]\nuniformint [769, 0, 0]\ntrunc [769, 0, 0]\nmake_seeds [769, 0, 0]\nsplit [513, 0, 0]\nfull [769, 0, 0]\nskip [769, 0, 0]\ntwo [1281, 0, 0]\n[255, 1, 5]\n[[0, 0], [0, 0]]\n'
