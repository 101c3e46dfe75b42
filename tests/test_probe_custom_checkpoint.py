"""tf.train.Checkpoint probes: TF 2.21's warning for saved values left unrestored, the status reprs."""
import gc
import logging
import re

import pytest

import tfcompat as tf

_HEAD = ("Detecting that an object or model or tf.train.Checkpoint is being deleted with unrestored values. See the "
         "following logs for the specific values in question. To silence these warnings, use "
         "`status.expect_partial()`. See https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restorefor "
         "details about the status object returned by the restore function.")
_VALUE = "Value in checkpoint could not be found in the restored object: "


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def records():
    handler = _Records()
    logger = logging.getLogger("tensorflow")
    logger.addHandler(handler)
    yield handler.messages
    logger.removeHandler(handler)


class _Two(tf.Module):
    def __init__(self, shape=(2,)):
        super().__init__()
        self.a = tf.Variable(tf.ones(shape))
        self.b = tf.Variable(2.0)


class _One(tf.Module):
    def __init__(self):
        super().__init__()
        self.a = tf.Variable(tf.zeros([2]))


@pytest.fixture
def path(tmp_path):
    return tf.train.Checkpoint(model=_Two(), step=tf.Variable(3)).save(str(tmp_path / "ck"))


def test_partial_restore_warns_when_the_status_goes(path, records):
    # TF 2.21: nothing until the status is let go, then the saved nodes no object matched, in node order
    status = tf.train.Checkpoint(model=_One()).restore(path)
    assert records == []
    del status
    gc.collect()
    assert records == [_HEAD, _VALUE + "(root).step", _VALUE + "(root).model.b"]


def test_expect_partial_and_full_restores_are_silent(path, records):
    status = tf.train.Checkpoint(model=_One()).restore(path).expect_partial()
    del status
    status = tf.train.Checkpoint(model=_Two(), step=tf.Variable(0)).restore(path)
    status.assert_consumed()
    del status
    gc.collect()
    assert records == []


def test_failed_restore_lists_what_it_had_not_matched(path, records):
    # TF 2.21: the shape error is raised; model.a and model.b were matched, the counter (made after reading) was not
    with pytest.raises(ValueError, match=re.escape("Received incompatible tensor with shape (2,) when attempting to "
                                                   "restore variable with shape (3,)")):
        tf.train.Checkpoint(model=_Two(shape=(3,))).restore(path)
    gc.collect()
    assert records == [_HEAD, _VALUE + "(root).step", _VALUE + "(root).save_counter"]


def test_deferred_values_warn_when_their_object_goes(path, records):
    class Lazy(tf.Module):
        pass

    lazy = Lazy()
    status = tf.train.Checkpoint(model=lazy).restore(path)
    del status
    gc.collect()
    assert records == []                     # model.a and model.b wait for lazy's children
    lazy.a = tf.Variable(tf.zeros([2]))
    assert lazy.a.numpy().tolist() == [1.0, 1.0]
    del lazy
    gc.collect()
    assert records == [_HEAD, _VALUE + "(root).step", _VALUE + "(root).model.b"]


def test_status_reprs(path):
    ck = tf.train.Checkpoint(model=_Two(), step=tf.Variable(0))
    text = re.sub("0x[0-9a-f]+", "ADDR", repr(ck.restore(path)))
    assert text == "<tensorflow.python.checkpoint.checkpoint.CheckpointLoadStatus object at ADDR>"
    text = re.sub("0x[0-9a-f]+", "ADDR", repr(ck.restore(None)))
    assert text == "<tensorflow.python.checkpoint.checkpoint.InitializationOnlyStatus object at ADDR>"
