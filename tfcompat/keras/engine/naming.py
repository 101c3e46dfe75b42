"""Keras's automatic names: `Dense` -> "dense", "dense_1", ... (counters in `keras._config`, reset by `clear_session`)."""
import re

from tfcompat.keras._config import config, uid_lock


def to_snake_case(name):
    name = re.sub(r"\W+", "", name)
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name)
    return name.lower()


def get_uid(prefix):
    """1 for the first use of `prefix`, then 2, 3, ..."""
    with uid_lock:
        n = config.uids.get(prefix, 0) + 1
        config.uids[prefix] = n
    return n


def unique_name(prefix):
    n = get_uid(prefix)
    return prefix if n == 1 else f"{prefix}_{n - 1}"
