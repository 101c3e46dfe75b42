"""`Dataset.rejection_resample`: elements kept or dropped by class so that their class distribution becomes a
target one (TF's mixing of the original stream with a rejection-filtered one)."""
import sys

import numpy as np

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.ops import gather_ops, random_ops
from tfcompat.ops.deprecation import warn_deprecated

_PRINT_INSTRUCTIONS = (
    "Use tf.print instead of tf.Print. Note that tf.print returns a no-output operator that directly prints the "
    "output. Outside of defuns or eager mode, this operator will not be executed unless it is directly specified in "
    "session.run or used as a control dependency for other operators. This is only a concern in graph mode. Below is "
    "an example of how to ensure tf.print executes in graph mode:\n")


def _g(*values):
    """Values as TF's tf.Print writes float32 values (9 significant digits)."""
    return " ".join("%.9g" % v for v in values)


def acceptance(initial, target):
    """(per-class acceptance probabilities of the filtered stream, probability of taking the original stream)."""
    ratio = target / (initial + np.finfo(np.float32).tiny)
    low, high = ratio.min(), ratio.max()
    accept = (ratio - low) / (high - low) if high > low else np.ones_like(ratio)
    return accept.astype(np.float32), float(low)


def rejection_resample(dataset, class_func, target_dist, initial_dist, seed):
    """`(class, element)` pairs whose classes follow `target_dist`, given the input's `initial_dist`."""
    from tfcompat.data.dataset import Dataset
    if initial_dist is None:
        raise NotImplementedError("tf.data.Dataset.rejection_resample without initial_dist (TF estimates it while "
                                  "iterating) is not supported by tfcompat")
    target = np.asarray(convert_to_tensor(target_dist), dtype=np.float32)
    initial = np.asarray(convert_to_tensor(initial_dist), dtype=np.float32)
    accept, p_original = acceptance(initial, target)
    accept_t = convert_to_tensor(accept)
    warn_deprecated("Print", "tensorflow.python.ops.logging_ops", _PRINT_INSTRUCTIONS, date="2018-08-20")
    rejected = float(((1 - accept) * initial).sum())
    warned = [0]

    def keep(c, _):
        if rejected >= 0.5 and warned[0] < 10:     # TF's tf.Print(first_n=10) on a high rejection rate
            warned[0] += 1
            print(f"Proportion of examples rejected by sampler is high: [{_g(rejected)}][{_g(*initial)}]"
                  f"[{_g(*accept)}]", file=sys.stderr)
        return random_ops.uniform([], seed=seed) < gather_ops.gather(accept_t, c)

    paired = dataset.map(lambda *x: (class_func(*x), x if len(x) > 1 else x[0]))
    filtered = paired.filter(keep)
    if np.isclose(p_original, 0.0):
        return filtered
    if np.isclose(p_original, 1.0):
        return paired
    return Dataset.sample_from_datasets([paired, filtered], [p_original, 1.0 - p_original], seed=seed,
                                                stop_on_empty_dataset=True)
