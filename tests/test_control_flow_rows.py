"""tf.map_fn / scan / foldl / foldr take the rows of `elems` with one unstack per tensor: the backward stacks the rows'
gradients once (row-by-row indexing made each row's gradient a full-size zero tensor, quadratic in the rows)."""
import collections

import numpy as np
import pytest

import tfcompat as tf


@pytest.mark.parametrize("loop", [lambda x: tf.map_fn(lambda r: r * r, x),
                                  lambda x: tf.scan(lambda a, r: a * r, x),
                                  lambda x: tf.foldl(lambda a, r: a * 0.5 + r, x),
                                  lambda x: tf.foldr(lambda a, r: a * 0.5 + r, x, initializer=tf.zeros(3))])
def test_a_differentiated_loop_over_rows_records_no_per_row_select(loop):
    v = tf.Variable(np.arange(24, dtype=np.float32).reshape(8, 3) / 10)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(loop(v))
        return tape.gradient(loss, v)

    eager = step.python_function()
    np.testing.assert_array_equal(step().numpy(), eager.numpy())
    program = next(iter(step._concrete[0]._programs.values()))
    ops = collections.Counter(str(program.funcs[s["f"]]) for s in program.steps if s["op"] != "guard_array")
    assert ops["aten.select_backward.default"] == 0 and ops["aten.unbind.int"] == 1
