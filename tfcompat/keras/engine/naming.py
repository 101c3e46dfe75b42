"""Keras's automatic names: `Dense` -> "dense", "dense_1", ... (reset by `clear_session`)."""
import re
import threading

_uids = {}
_lock = threading.Lock()


def to_snake_case(name):
    name = re.sub(r"\W+", "", name)
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name)
    return name.lower()


def get_uid(prefix):
    """1 for the first use of `prefix`, then 2, 3, ..."""
    with _lock:
        n = _uids.get(prefix, 0) + 1
        _uids[prefix] = n
    return n


def unique_name(prefix):
    n = get_uid(prefix)
    return prefix if n == 1 else f"{prefix}_{n - 1}"


def reset():
    with _lock:
        _uids.clear()
