"""`tf.compat.v1.train.SessionRunHook` and `SessionRunArgs`: TF1's training-loop hook interface (no-op base methods)."""
import collections


class SessionRunHook:
    """A hook into a TF1 session's training loop: each method is called at its point and does nothing here."""

    def begin(self):
        """Called once before the session is used."""

    def after_create_session(self, session, coord):
        """Called when the session has been created."""

    def before_run(self, run_context):
        """Called before each `run`; may return a `SessionRunArgs` to add fetches."""
        return None

    def after_run(self, run_context, run_values):
        """Called after each `run` with the values fetched for this hook."""

    def end(self, session):
        """Called at the end of the session."""


class SessionRunArgs(collections.namedtuple("SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook's `before_run` adds to a `run` call: fetches, a feed dict and run options."""

    __slots__ = ()

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)
