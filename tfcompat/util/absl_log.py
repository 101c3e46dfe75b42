"""absl's module-level logging functions: records of the `absl` logger, Python's basic stderr setup made first as
absl makes it (so a warning prints `WARNING:absl:<message>`, as Keras's warnings do under TF)."""
import logging


def warning(message):
    """`absl.logging.warning(message)`: with no root handler yet, Python's `logging.basicConfig()` comes first."""
    if not logging.root.handlers:
        logging.basicConfig()
    logging.getLogger("absl").warning(message)
