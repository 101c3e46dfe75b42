"""File tensor ops: `tf.io.read_file`, `write_file`, `matching_files`."""
import glob as _glob
import os

from tfcompat.framework.export import tf_export
from tfcompat.ops.io_ops._common import kernel_error, string_scalar, string_vector
from tfcompat.ops.io_ops.gfile import LOCAL_ONLY, local_path, os_error
from tfcompat.ops.string_ops import _strings

@tf_export("io.read_file", partial=LOCAL_ONLY)
def read_file(filename, name=None):
    """The contents of file `filename` as a scalar string tensor."""
    p = local_path(filename)
    try:
        with open(p, "rb") as f:
            return string_scalar(f.read())
    except OSError as e:
        err = os_error(e, p)
        raise kernel_error(type(err), err.message, "ReadFile") from None


@tf_export("io.write_file", partial=LOCAL_ONLY)
def write_file(filename, contents, name=None):
    """Writes the scalar string `contents` to `filename`, creating missing parent directories."""
    p = local_path(filename)
    data = _strings(contents, "WriteFile")[()]
    parent = os.path.dirname(p)
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    except OSError as e:
        err = os_error(e, p)
        raise kernel_error(type(err), err.message, "WriteFile") from None


@tf_export("io.matching_files", partial=LOCAL_ONLY)
def matching_files(pattern, name=None):
    """The files matching a glob pattern (or each of a vector of patterns), sorted per pattern."""
    patterns = _strings(pattern, "MatchingFiles").reshape(-1)
    found = []
    for p in patterns:
        found.extend(f.encode() for f in sorted(_glob.glob(local_path(p), include_hidden=True)))
    return string_vector(found)

