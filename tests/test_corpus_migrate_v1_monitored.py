"""TF1's monitored training loop (`tf.compat.v1.train.MonitoredTrainingSession`, `MonitoredSession`, hooks) in a
TF1 graph: the hook protocol, stopping, checkpoints and restore, errors.

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import os

import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1
T = v1.train


def test_monitored_training_session_runs_hooks_and_stops():
    events = []
    with tf.Graph().as_default() as g:
        gs = T.get_or_create_global_step()
        x = v1.placeholder(tf.float32, [None, 2])
        y = v1.placeholder(tf.float32, [None, 1])
        w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer(0.5))
        loss = v1.losses.mean_squared_error(y, tf.matmul(x, w))
        train = T.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs)
        feed = {x: [[1., 2.], [3., 4.]], y: [[1.], [2.]]}

        class Recorder(T.SessionRunHook):
            def begin(self):
                events.append("begin")

            def after_create_session(self, session, coord):
                events.append(("created", type(coord).__name__, int(session.run(gs))))

            def before_run(self, run_context):
                return T.SessionRunArgs({"loss": loss})

            def after_run(self, run_context, run_values):
                events.append(("after_run", round(float(run_values.results["loss"]), 4),
                               type(run_context.original_args).__name__))

            def end(self, session):
                events.append(("end", int(session.run(gs))))

        hooks = [T.StopAtStepHook(last_step=3), T.LoggingTensorHook({"loss": loss}, every_n_iter=1), Recorder(),
                 T.NanTensorHook(loss)]
        losses = []
        with T.MonitoredTrainingSession(hooks=hooks) as sess:
            assert g.finalized
            while not sess.should_stop():
                losses.append(sess.run([train, loss], feed)[1])
            assert sess.should_stop()
            with pytest.raises(RuntimeError, match="Run called even after should_stop requested."):
                sess.run(train, feed)
        assert not g.finalized          # TF un-finalizes the graph when the session closes
    # TF 2.21
    np.testing.assert_allclose(losses, [1.25, 0.6204999, 0.31084853], rtol=1e-5)
    assert events == ["begin", ("created", "Coordinator", 0), ("after_run", 1.25, "SessionRunArgs"),
                      ("after_run", 0.6205, "SessionRunArgs"), ("after_run", 0.3108, "SessionRunArgs"), ("end", 3)]


def test_monitored_training_session_checkpoints_and_restores(tmp_path):
    d = str(tmp_path)
    starts, files = [], []
    for _ in range(2):
        with tf.Graph().as_default():
            gs = T.get_or_create_global_step()
            w = v1.get_variable("w", [], initializer=v1.constant_initializer(1.0))
            inc = tf.group(w.assign_add(1.0), gs.assign_add(1))
            with T.MonitoredTrainingSession(checkpoint_dir=d, save_summaries_steps=None, save_summaries_secs=None,
                                            save_checkpoint_steps=2, hooks=[T.StopAtStepHook(num_steps=3)]) as sess:
                starts.append([float(v) for v in sess.run([w, gs])])
                while not sess.should_stop():
                    sess.run(inc)
            files.append(sorted(f for f in os.listdir(d) if f.endswith(".index")))
    # TF 2.21
    assert starts == [[1.0, 0.0], [4.0, 3.0]]
    assert files == [['model.ckpt-0.index', 'model.ckpt-2.index', 'model.ckpt-3.index'],
                     ['model.ckpt-0.index', 'model.ckpt-2.index', 'model.ckpt-3.index', 'model.ckpt-5.index',
                      'model.ckpt-6.index']]
    assert T.latest_checkpoint(d).endswith("model.ckpt-6")


def test_out_of_range_ends_the_loop_and_hook_feeds():
    with tf.Graph().as_default():
        gs = T.get_or_create_global_step()
        x = v1.placeholder(tf.float32, [])
        y = x * 3.
        seen = []

        def body():
            raise tf.errors.OutOfRangeError(None, None, "End of sequence")
        with T.MonitoredSession(hooks=[T.FeedFnHook(lambda: {x: 2.0})]) as sess:
            seen.append(float(sess.run(y)))
            body()
        assert seen == [6.0]
        with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified."):
            with T.MonitoredSession():
                x * 2.
        final = T.FinalOpsHook(gs + 10)
        with T.SingularMonitoredSession(hooks=[final]) as sess:
            assert sess.raw_session() is not None
        assert final.final_ops_values == 10


def test_hook_argument_errors():
    # TF 2.21
    with pytest.raises(ValueError, match="One of num_steps or last_step must be specified."):
        T.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step can be specified."):
        T.StopAtStepHook(1, 2)
    with pytest.raises(ValueError, match="either at_end and/or exactly one of every_n_iter and every_n_secs must be "
                                         "provided."):
        T.LoggingTensorHook({})
    with pytest.raises(ValueError, match="Either every_secs or every_steps should be provided."):
        T.SecondOrStepTimer()
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="Global step should be created to use StopAtStepHook."):
            T.MonitoredSession(hooks=[T.StopAtStepHook(3)])


def test_nan_tensor_hook_raises():
    with tf.Graph().as_default():
        T.get_or_create_global_step()
        x = v1.placeholder(tf.float32, [])
        with pytest.raises(T.NanLossDuringTrainingError, match="NaN loss during training."):
            with T.MonitoredSession(hooks=[T.NanTensorHook(x)]) as sess:
                sess.run(x, {x: float("nan")})
