"""`tf.summary.experimental`: the default step, `summary_scope` and raw Summary protos."""
import contextlib
import re

import numpy as np

import tfcompat as _tf
from tfcompat.framework import context as _context
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import storage as _storage
from tfcompat.summary import _FALSE, _TRUE, _active_writer, _event, _proto, _step_value, get_step, set_step

tf_export("summary.experimental.get_step")(get_step)
tf_export("summary.experimental.set_step")(set_step)

_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


@tf_export("summary.experimental.summary_scope")
@contextlib.contextmanager
def summary_scope(name, default_name="summary", values=None):
    """Yields `(tag, scope)` for a custom summary op: `name` under the enclosing name scopes."""
    del values
    name = name or default_name
    current = "/".join(s for s in _context.state.name_scope if s)
    tag = current + "/" + name if current else name
    with _tf.name_scope(_INVALID_SCOPE_CHARACTERS.sub("", name) or default_name) as scope:
        yield tag, scope


@tf_export("summary.experimental.write_raw_pb")
def write_raw_pb(tensor, step=None, name=None):
    """Writes serialized `Summary` protos (a string tensor) as events at `step`."""
    del name
    if step is not None:
        step = _step_value(step)
    writer, step = _active_writer(step)
    if writer is None:
        return _FALSE
    protos = _storage(_tf.convert_to_tensor(tensor))
    for summary in np.asarray(protos, dtype=object).reshape(-1):
        writer._add(*_event(step, _proto.field(b"\x2a", summary)))
    return _TRUE
