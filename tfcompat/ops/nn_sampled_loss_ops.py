"""`tf.nn.nce_loss` and `tf.nn.sampled_softmax_loss`: TF's `_compute_sampled_logits` and the two losses over it."""
import torch

from tfcompat.framework.export import tf_export
from tfcompat.framework import errors
from tfcompat.framework.op_def import broadcastable, input_storage, kernel_error, type_name, wrap
from tfcompat.ops import candidate_sampling_ops
from tfcompat.ops.nn_loss_ops import softmax_xent


def _table(params, dtype, partition_strategy="div"):
    """One [num_classes, ...] storage from a tensor, variable or list of shards (TF2's "div" partitioning)."""
    if isinstance(params, (list, tuple)):
        table = sharded_table([input_storage(p) for p in params], partition_strategy)
    else:
        table = input_storage(params)
    return table if table.dtype is dtype else table.to(dtype)


def sharded_table(parts, partition_strategy):
    """The full table of TF's sharded params: "div" shards hold consecutive ids, "mod" ones every P-th id (id i in
    shard i % P, row i // P)."""
    if len(parts) == 1:
        return parts[0]
    table = torch.cat(parts, 0)
    if partition_strategy == "div":
        return table
    if partition_strategy != "mod":
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}.Must be one of either `mod` or `div`.")
    offsets = torch.tensor([0] + [p.shape[0] for p in parts[:-1]]).cumsum(0)
    ids = torch.arange(table.shape[0])
    return table[(offsets[ids % len(parts)] + ids // len(parts)).to(table.device)]


def _dims(shape):
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _check_ids(ids, n):
    """TF's GatherV2 error for the first of the looked-up ids (labels, then samples) outside [0, n)."""
    bad = (ids < 0) | (ids >= n)
    if ids.numel() and bool(bad.any()):
        pos = int(torch.nonzero(bad)[0])
        raise kernel_error(errors.InvalidArgumentError, f"indices[{pos}] = {int(ids[pos])} is not in [0, {n})",
                           "GatherV2", ids)


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                    subtract_log_q, remove_accidental_hits, seed=None, partition_strategy="div"):
    """TF's `_compute_sampled_logits`: ([batch, num_true + num_sampled] logits, labels of 1/num_true then 0)."""
    x = input_storage(inputs)
    lab = input_storage(labels).to(torch.int64)
    if lab.ndim == 1:
        lab = lab.unsqueeze(-1)
    if sampled_values is None:
        sampled_values = candidate_sampling_ops.log_uniform_candidate_sampler(
            wrap(lab), num_true, num_sampled, True, num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (input_storage(v).detach().to(x.device) for v in sampled_values)
    sampled = sampled.to(torch.int64)
    flat = lab.reshape(-1)
    w = _table(weights, x.dtype, partition_strategy)
    b = _table(biases, x.dtype, partition_strategy)
    _check_ids(torch.cat([flat, sampled.to(flat.device)]), w.shape[0])
    true_w, sampled_w = w[flat], w[sampled]
    true_b, sampled_b = b[flat], b[sampled]
    num_true = int(num_true)
    rows = true_w.reshape(-1, num_true, true_w.shape[-1])
    if x.ndim != 2 or not broadcastable((x.shape[0], 1, x.shape[1]), tuple(rows.shape)):
        raise kernel_error(errors.InvalidArgumentError, f"Incompatible shapes: {_dims((x.shape[0], 1) + x.shape[1:])} "
                           f"vs. {_dims(rows.shape)}", "Mul", x)
    true_logits = (x.unsqueeze(1) * rows).sum(-1)
    true_logits = true_logits + true_b.reshape(-1, num_true)
    sampled_logits = x @ sampled_w.T + sampled_b
    if remove_accidental_hits:
        hits = candidate_sampling_ops.compute_accidental_hits(wrap(lab), wrap(sampled), num_true)
        rows, ids, hit_w = (input_storage(v) for v in hits)
        mask = torch.zeros(sampled_logits.shape, dtype=sampled_logits.dtype, device=sampled_logits.device)
        # TF's sparse_to_dense: a repeated position is set, not summed (always run: a traced step replays it)
        mask[rows.long().to(mask.device), ids.to(mask.device)] = hit_w.to(mask.dtype).to(mask.device)
        sampled_logits = sampled_logits + mask
    if subtract_log_q:
        if true_expected.dtype is not x.dtype:          # TF subtracts the float32 counts' logs without a cast
            raise errors.op_error(errors.InvalidArgumentError, f"cannot compute Sub as input #1(zero-based) was "
                                  f"expected to be a {type_name(x.dtype)} tensor but is a "
                                  f"{type_name(true_expected.dtype)} tensor", "Sub")
        true_logits = true_logits - torch.log(true_expected)
        sampled_logits = sampled_logits - torch.log(sampled_expected.to(x.dtype))
    logits = torch.cat([true_logits, sampled_logits], 1)
    targets = torch.cat([torch.ones_like(true_logits) / num_true, torch.zeros_like(sampled_logits)], 1)
    return logits, targets


@tf_export("nn.nce_loss")
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation: per example, the sum of the sigmoid cross-entropies of the true logits (label
    1/num_true) and the sampled ones (label 0), each logit less log(expected count)."""
    return nce_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                       remove_accidental_hits, "div")


def nce_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    """TF1's `tf.compat.v1.nn.nce_loss` (sharded weights split by `partition_strategy`, "mod" by default)."""
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                      sampled_values, True, remove_accidental_hits, None, partition_strategy)
    nonneg = logits >= 0      # TF's sigmoid_cross_entropy_with_logits
    losses = torch.where(nonneg, logits, 0.0) - logits * targets + torch.log1p(
        torch.exp(torch.where(nonneg, -logits, logits)))
    return wrap(losses.sum(1))


@tf_export("nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, seed=None, name="sampled_softmax_loss"):
    """The softmax cross-entropy over the true classes and `num_sampled` sampled classes, per example."""
    return sampled_softmax_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                                   remove_accidental_hits, "div", seed=seed)


def sampled_softmax_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                            sampled_values=None, remove_accidental_hits=True, partition_strategy="mod",
                            name="sampled_softmax_loss", seed=None):
    """TF1's `tf.compat.v1.nn.sampled_softmax_loss` (sharded weights split by `partition_strategy`)."""
    logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                      sampled_values, True, remove_accidental_hits, seed, partition_strategy)
    return wrap(softmax_xent(targets, logits, 1))

