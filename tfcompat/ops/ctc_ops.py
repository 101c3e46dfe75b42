"""`tf.nn.ctc_loss`, `ctc_greedy_decoder`, `ctc_unique_labels`: TF's CTC ops.

Dense labels follow TF's `ctc_loss_dense` step for step (the batched forward-backward of Sim et al. in log space, its
`log(1e-307)` stand-in for log 0 and its gradient `softmax - exp(posterior)`), so an impossible alignment gives TF's
large finite loss. Sparse labels run TF's `CTCLoss` kernel's exact likelihood (torch's `ctc_loss`): inf when no
alignment exists, and TF's error when a label sequence is longer than its logits.
"""
import heapq
import math

import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export, unsupported_args
from tfcompat.framework.op_def import FLOAT, check_dtype, input_storage, kernel_error, type_name, wrap
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor
from tfcompat.ops.gather_ops import one_hot_rows

_LOG_0 = float(torch.tensor(math.log(1e-307), dtype=torch.float32))     # TF's log_0, a float32


def _kernel(cls, op, message):
    return errors.kernel_error(cls, message, op, name=None if op == "CTCGreedyDecoder" else "")


def _decoder_lengths(sequence_length, batch, op):
    """A decoder's `sequence_length` storage, one per batch row (TF's FailedPrecondition otherwise)."""
    seq = _int_storage(sequence_length)
    if seq.ndim != 1 or seq.shape[0] != batch:
        raise _kernel(errors.FailedPreconditionError, op, "len(sequence_length) != batch_size.  "
                      f"len(sequence_length):  {seq.shape[0] if seq.ndim else 1} batch_size: {batch}")
    return seq


def _lengths_within(lengths, frames, op):
    """The decoder's lengths as a list, each checked against the number of frames (at run time, as TF's kernel)."""
    seq_list = lengths.tolist()
    for b, n in enumerate(seq_list):
        if n > frames:
            raise _kernel(errors.FailedPreconditionError, op, f"sequence_length({b}) <= {frames}")
    return seq_list


def _int_storage(x):
    t = input_storage(x)
    return t.to(torch.int64) if t.dtype is not torch.int64 else t


def _rotate_blank(logits, blank, to_front):
    """TF's reordering of the classes so that `blank` is first (dense) or last (sparse)."""
    blank_col = logits[..., blank:blank + 1]
    rest = [logits[..., :blank], logits[..., blank + 1:]]
    return torch.cat([blank_col] + rest if to_front else rest + [blank_col], -1)


@tf_export("nn.ctc_loss")
def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
             name=None):
    """-log p(labels | logits) per batch element; `logits` are unnormalised ([frames, batch, classes] when
    `logits_time_major`). `unique` (from `ctc_unique_labels`) is TF's TPU speed-up: the values do not change."""
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a `SparseTensor`.")
        return _ctc_loss_sparse(labels, logits, logit_length, logits_time_major, int(blank_index))
    return _ctc_loss_dense(labels, logits, label_length, logit_length, logits_time_major,
                           0 if blank_index is None else int(blank_index))


def _time_major_float(logits, time_major):
    x = input_storage(logits)
    orig = x.dtype
    if orig in (torch.float16, torch.bfloat16):
        x = x.to(torch.float32)
    if not time_major:
        x = x.transpose(0, 1)
    return x, orig


def _ctc_loss_dense(labels, logits, label_length, logit_length, time_major, blank):
    x, orig = _time_major_float(logits, time_major)
    if x.ndim < 3:
        raise IndexError("tuple index out of range")        # TF reads the static dims of [frames, batch, classes]
    if x.dtype is torch.float64:      # TF's dense CTC mixes its float32 constants in and fails so
        raise errors.op_error(errors.InvalidArgumentError, "cannot compute Mul as input #1(zero-based) was expected "
                              "to be a double tensor but is a float tensor", "Mul")
    if x.dtype not in FLOAT:
        raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'T' of {type_name(x.dtype)} is not in the "
                              "list of allowed values: half, bfloat16, float, double\n\t; NodeDef: {{node LogSoftmax}}"
                              "; Op<name=LogSoftmax; signature=logits:T -> logsoftmax:T; attr=T:type,allowed=[DT_HALF, "
                              "DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]>", "LogSoftmax")
    lab = _int_storage(labels)
    lengths = _int_storage(label_length)
    if lengths.ndim == 1 and lab.ndim == 2 and lengths.shape[0] not in (1, lab.shape[0]):
        s = 2 * (lab.shape[1] + 1)
        raise kernel_error(errors.InvalidArgumentError, f"Incompatible shapes: [{lengths.shape[0]},1,{s}] vs. "
                           f"[{lab.shape[0]},{s},{s}]", "AddV2", x)
    if lab.ndim == 2 and x.ndim == 3 and lab.shape[0] != x.shape[1]:     # TF fails where it joins label and blank
        raise errors.InvalidArgumentError(                                # log-probabilities
            None, None, "{{function_node __wrapped__ConcatV2_N_2_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
            " ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = "
            f"[{x.shape[0]},{lab.shape[0]},{lab.shape[1]}] vs. shape[1] = [{x.shape[0]},{x.shape[1]},"
            f"{lab.shape[1] + 1}] [Op:ConcatV2] name: concat")
    if blank != 0:
        if blank < 0:
            blank += x.shape[2]
        x = _rotate_blank(x, blank, True)
        lab = torch.where(lab < blank, lab + 1, lab)
    loss = _DenseCTC.apply(x, lab.to(x.device), lengths.to(x.device),
                           _int_storage(logit_length).to(x.device))
    return wrap(loss.to(orig) if orig is not loss.dtype else loss)


def _logsumexp(t, dim, keepdim=False):
    """TF's reduce_logsumexp: max + log(sum(exp(t - max))), the max taken as 0 where it is not finite."""
    m = t.amax(dim, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    out = torch.log(torch.exp(t - m).sum(dim, keepdim=True)) + m
    return out if keepdim else out.squeeze(dim)


def _transitions(lab):
    """TF's `_ctc_state_trans`: [batch, states, states], entry [i, j] is 1 where state j may move to state i."""
    b, n = lab.shape
    nl = n + 1
    s = 2 * nl
    trans = torch.eye(s, dtype=torch.float32, device=lab.device)
    trans[1, 0] += 1
    k = torch.arange(n, device=lab.device)
    trans[k + 1, nl + k] += 1                       # blank -> next label
    k = torch.arange(nl, device=lab.device)
    trans[nl + k, k] += 1                           # label -> blank
    trans = trans.expand(b, s, s).clone()
    if n >= 2:
        differ = 1.0 - (lab[:, :-1] == lab[:, 1:]).to(torch.float32)     # label -> next label unless repeated
        k = torch.arange(2, nl, device=lab.device)
        trans[:, k, k - 1] += differ
    return trans


class _DenseCTC(torch.autograd.Function):
    """TF's `ctc_loss_and_grad`: the loss, and its gradient saved for the backward pass (TF's custom gradient)."""

    @staticmethod
    def forward(ctx, logits, lab, label_length, logit_length):
        frames, batch, classes = logits.shape
        n = lab.shape[1]
        nl = n + 1
        lp = torch.log_softmax(logits, -1)
        valid = (lab >= 0) & (lab < classes)
        gathered = torch.gather(lp, 2, lab.clamp(0, classes - 1).unsqueeze(0).expand(frames, batch, n))
        gathered = torch.where(valid, gathered, torch.zeros_like(gathered))
        blank = lp[:, :, :1].expand(frames, batch, nl)
        pad = torch.full((frames, batch, 1), float("-inf"), dtype=lp.dtype, device=lp.device)
        obs = torch.cat([pad, gathered, blank], 2)                       # [frames, batch, states]
        trans = torch.log(_transitions(lab).to(lp.dtype))
        bwd_trans = trans.transpose(1, 2)
        s = 2 * nl
        init = torch.full((batch, s), _LOG_0, dtype=lp.dtype, device=lp.device)
        init[:, 0] = 0.0
        final_mask = one_hot_rows(label_length.clamp(0, nl), nl + 1)[:, :nl].to(lp.dtype)   # past the end: none
        final = ((1.0 - torch.cat([final_mask, final_mask], 1)) * _LOG_0)
        fwd = [init]
        state = init
        for t in range(frames):
            state = _logsumexp(state.unsqueeze(1) + trans, -1) + obs[t]
            state = state - _logsumexp(state, -1, True)
            fwd.append(state)
        mask = (torch.arange(frames, device=lp.device).unsqueeze(1) < logit_length.unsqueeze(0)).to(lp.dtype)
        bwd = [None] * (frames + 1)
        bwd[frames] = final
        state, cum = final, torch.zeros(batch, dtype=lp.dtype, device=lp.device)
        for t in range(frames - 1, -1, -1):
            st = state + obs[t]
            st = _logsumexp(st.unsqueeze(1) + bwd_trans, -1)
            total = _logsumexp(st, -1, True)
            st = st - total
            cum = cum + total.squeeze(-1) * mask[t]
            m = mask[t].unsqueeze(1)
            state = st * m + final * (1.0 - m)
            bwd[t] = state
        if frames:
            fb = torch.stack(fwd[1:]) + torch.stack(bwd[1:])
            fb = fb - _logsumexp(fb, 2, True)
            fb = fb + torch.log(mask.unsqueeze(2))
            loss = -(bwd[0][:, 0] + cum)
        else:
            fb = torch.zeros((0, batch, s), dtype=lp.dtype, device=lp.device)
            loss = -(final[:, 0] + cum)
        olabel = _state_to_olabel(lab, classes, fb)
        grad = (torch.exp(lp) - torch.exp(olabel)) * mask.unsqueeze(2)
        ctx.save_for_backward(grad)
        return loss

    @staticmethod
    def backward(ctx, grad_loss):
        (grad,) = ctx.saved_tensors
        return grad_loss.reshape(1, -1, 1) * grad, None, None, None


def _state_to_olabel(lab, classes, states):
    """TF's `_state_to_olabel`: per class, the log-sum of the posteriors of the states that emit it."""
    frames, batch, _ = states.shape
    n = lab.shape[1]
    label_states = states[:, :, 1:n + 1]
    blank = _logsumexp(states[:, :, n + 1:], 2, True)
    target = lab - 1                                  # classes 1.. (0, the blank, is summed apart)
    ok = (target >= 0) & (target < classes - 1)
    m = label_states.amax(2, keepdim=True)
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = torch.where(ok.unsqueeze(0), torch.exp(label_states - m), torch.zeros_like(label_states))
    sums = torch.zeros((frames, batch, classes - 1), dtype=states.dtype, device=states.device)
    sums.scatter_add_(2, target.clamp(0, max(classes - 2, 0)).unsqueeze(0).expand(frames, batch, n), e)
    return torch.cat([blank, torch.log(sums) + m], 2)


def _ctc_loss_sparse(labels, logits, logit_length, time_major, blank):
    """TF's `CTCLoss` kernel (blank moved last, labels above it shifted down, as TF's wrapper does)."""
    x, orig = _time_major_float(logits, time_major)
    check_dtype(x, "CTCLoss", frozenset([torch.float32, torch.float64]))
    if blank < 0:
        blank += x.shape[2]
    x = _rotate_blank(x, blank, False)
    values = input_storage(labels.values)
    loss = _ctc_kernel(x, input_storage(labels.indices), torch.where(values < blank, values, values - 1),
                       _int_storage(logit_length), False, False)
    return wrap(loss.to(orig) if orig is not loss.dtype else loss)


@unsupported_args("ctc_merge_repeated", api_name="tf.compat.v1.nn.ctc_loss")
def ctc_loss_v1(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                ignore_longer_outputs_than_inputs=False, time_major=True, logits=None):
    """TF1's `tf.compat.v1.nn.ctc_loss`: SparseTensor labels, the blank is the last class of `inputs` (logits)."""
    if not isinstance(labels, SparseTensor):
        raise TypeError("Expected argument `labels` to be a SparseTensor. Received labels="
                        f"{labels} of type: {type(labels).__name__}")
    if logits is not None:
        if inputs is not None:
            raise ValueError("Cannot specify both 'logits' and 'inputs'.")
        inputs = logits
    x, orig = _time_major_float(inputs, time_major)
    check_dtype(x, "CTCLoss", frozenset([torch.float32, torch.float64]))
    loss = _ctc_kernel(x, input_storage(labels.indices), input_storage(labels.values), _int_storage(sequence_length),
                       bool(preprocess_collapse_repeated), bool(ignore_longer_outputs_than_inputs))
    return wrap(loss.to(orig) if orig is not loss.dtype else loss)


def _ctc_kernel(x, idx, values, seq, collapse, ignore_longer):
    """The CTCLoss kernel over time-major logits `x` whose last class is the blank."""
    op = "CTCLoss"
    frames, batch, classes = x.shape
    if values.dtype is not torch.int32:
        raise ValueError(f"Tensor conversion requested dtype int32 for Tensor with dtype "
                         f"{dtypes.FROM_STORAGE[values.dtype].name}: {wrap(values)!r}")
    if seq.ndim != 1:
        raise _kernel(errors.InvalidArgumentError, op, "sequence_length is not a vector")
    if seq.shape[0] != batch:
        raise errors.kernel_error(errors.InvalidArgumentError, "len(sequence_length) != batch_size.  "
                                  f"len(sequence_length):  {seq.shape[0] if seq.ndim else 1} batch_size: {batch}", op,
                                  name=None)

    def prepare(inputs):
        """The kernel's label checks on the host: (targets, label lengths, 1/0 kept rows); a host callback, so a
        traced step reads each call's labels."""
        i, v, sq = inputs
        rows = i[:, 0].tolist() if i.numel() else []
        per_row = [[] for _ in range(batch)]
        for r, val in zip(rows, v.tolist()):
            if not 0 <= r < batch:
                raise _kernel(errors.InvalidArgumentError, op, "labels batch index must be between 0 and "
                              f"{batch - 1} but saw: {r}")
            per_row[r].append(val)
        seq_list = sq.tolist()
        keep = [1.0] * batch
        for b, row in enumerate(per_row):
            if seq_list[b] > frames:
                raise errors.kernel_error(errors.InvalidArgumentError, f"sequence_length({b}) <= {frames}", op,
                                          name=None)
            if len(row) > seq_list[b]:
                if not ignore_longer:
                    raise _kernel(errors.InvalidArgumentError, op, "Not enough time for target transition sequence "
                                  f"(required: {len(row)}, available: {seq_list[b]}){b}You can turn this error into "
                                  "a warning by using the flag ignore_longer_outputs_than_inputs")
                keep[b] = 0.0           # TF: a loss of 0 (and no gradient) for it
                per_row[b] = row = []
            for val in row:
                if not 0 <= val < classes - 1:
                    raise _kernel(errors.InvalidArgumentError, op, f"Saw a non-null label (index >= num_classes - 1) "
                                  f"following a null label, batch: {b} num_classes: {classes} labels: "
                                  f"{','.join(str(u) for u in row)} labels seen so far: ")
            if collapse:
                per_row[b] = [val for j, val in enumerate(row) if j == 0 or val != row[j - 1]]
        return [torch.tensor([val for r in per_row for val in r], dtype=torch.int64),
                torch.tensor([len(r) for r in per_row], dtype=torch.int64), torch.tensor(keep)]
    targets, lengths, keep = _host[0](prepare, [idx, values, seq])
    loss = _SparseCTC.apply(x, targets, seq.cpu(), lengths, classes - 1)
    return loss * keep.to(loss.dtype).to(loss.device)


# set by tf.function (eager/function/_host.py): `fn(callback, storages) -> storages`, a host callback in a trace
_host = [lambda fn, inputs: fn(inputs)]


def register_host_call(fn):
    _host[0] = fn


class _SparseCTC(torch.autograd.Function):
    """The exact CTC likelihood; the gradient `softmax - posterior` (the softmax alone where no alignment exists)."""

    @staticmethod
    def forward(ctx, logits, targets, seq, lengths, blank):
        with torch.enable_grad():
            z = logits.detach().requires_grad_()
            lp = torch.log_softmax(z, -1)
            loss = F.ctc_loss(lp, targets.to(lp.device), seq, lengths, blank=blank, reduction="none",
                              zero_infinity=True)
            (grad,) = torch.autograd.grad(loss.sum(), z)
            raw = F.ctc_loss(lp.detach(), targets.to(lp.device), seq, lengths, blank=blank, reduction="none")
        impossible = torch.isinf(raw)             # no alignment: the gradient is the softmax (no host read)
        frames = logits.shape[0]
        mask = (torch.arange(frames).unsqueeze(1) < seq.unsqueeze(0)).to(lp.dtype).to(lp.device)
        soft = torch.softmax(logits.detach(), -1) * mask.unsqueeze(2)
        grad = torch.where(impossible.to(lp.device).reshape(1, -1, 1), soft, grad)
        ctx.save_for_backward(grad)
        return raw.detach()

    @staticmethod
    def backward(ctx, grad_loss):
        (grad,) = ctx.saved_tensors
        return grad_loss.reshape(1, -1, 1) * grad, None, None, None, None


@tf_export("nn.ctc_greedy_decoder")
def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best path decoding: the argmax class of each frame, blanks dropped (and repeats merged if
    `merge_repeated`); returns ([SparseTensor of int64 classes], -sum of the frames' max logits [batch, 1])."""
    op = "CTCGreedyDecoder"
    x = _decoder_input(inputs, op)
    if x.ndim != 3:
        raise _kernel(errors.InvalidArgumentError, op, "inputs is not a 3-Tensor")
    frames, batch, classes = x.shape
    blank = classes - 1 if blank_index is None else int(blank_index)
    if not -classes <= blank < classes:
        raise _kernel(errors.InvalidArgumentError, op,
                      f"blank_index expected to be between {-classes} and {classes - 1} but was {blank}")
    if blank < 0:
        blank += classes
    seq = _decoder_lengths(sequence_length, batch, op)

    def decode(inputs):
        """The kernel on the host (a host callback: a traced function decodes each call's logits)."""
        xs, sq = inputs
        seq_list = _lengths_within(sq, frames, op)
        arg = xs.argmax(-1) if xs.numel() else torch.zeros((frames, batch), dtype=torch.int64)
        best = torch.gather(xs, 2, arg.unsqueeze(-1)).squeeze(-1) if xs.numel() else xs.sum(-1)
        steps = torch.arange(frames, device=xs.device).unsqueeze(1) < sq.to(xs.device).unsqueeze(0)
        neg_sum = torch.zeros(batch, dtype=xs.dtype, device=xs.device)
        for t in range(frames):               # TF's kernel: log_prob -= max, frame after frame
            neg_sum = neg_sum - torch.where(steps[t], best[t], torch.zeros_like(best[t]))
        arg_rows = arg.T.tolist()
        indices, values = [], []
        longest = 0
        for b in range(batch):
            prev, out = -1, []
            for c in arg_rows[b][:seq_list[b]]:
                if c != blank and not (merge_repeated and c == prev):
                    out.append(c)
                prev = c
            indices.extend([b, i] for i in range(len(out)))
            values.extend(out)
            longest = max(longest, len(out))
        return [torch.tensor(indices, dtype=torch.int64).reshape(-1, 2), torch.tensor(values, dtype=torch.int64),
                torch.tensor([batch, longest], dtype=torch.int64), neg_sum.unsqueeze(1)]
    indices, values, shape, neg_sum = _host[0](decode, [x.detach(), seq])
    return [SparseTensor(wrap(indices), wrap(values), wrap(shape))], wrap(neg_sum)


@tf_export("nn.ctc_unique_labels")
def ctc_unique_labels(labels, name=None):
    """Per row: the unique labels in order of first appearance padded with 0 (int64), and each label's index among
    them (int32), as TF's `map_fn` over `tf.unique`."""
    t = input_storage(labels)
    ids = torch.zeros(t.shape, dtype=torch.int64)
    idx = torch.zeros(t.shape, dtype=torch.int32)
    for r, row in enumerate(t.tolist()):
        seen = {}
        for j, v in enumerate(row):
            k = seen.setdefault(v, len(seen))
            idx[r, j] = k
        ids[r, :len(seen)] = torch.tensor(list(seen), dtype=torch.int64)
    return [wrap(ids), wrap(idx)]


# -- beam search (TF's CTCBeamSearchDecoder: prefix beams over a tree of entries, default scorer) ----------------------

_LOG_ZERO = float("-inf")


def _log_sum_exp(a, b):
    if a == _LOG_ZERO:
        return b
    if b == _LOG_ZERO:
        return a
    return a + math.log1p(math.exp(b - a)) if a > b else b + math.log1p(math.exp(a - b))


class _Prob:
    __slots__ = ("total", "blank", "label")

    def __init__(self):
        self.total = self.blank = self.label = _LOG_ZERO

    def reset(self):
        self.total = self.blank = self.label = _LOG_ZERO

    def copy_from(self, other):
        self.total, self.blank, self.label = other.total, other.blank, other.label


class _Entry:
    __slots__ = ("parent", "label", "children", "newp", "oldp")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.newp, self.oldp = _Prob(), _Prob()

    def active(self):
        return self.newp.total != _LOG_ZERO

    def child(self, label):
        c = self.children.get(label)
        if c is None:
            c = self.children[label] = _Entry(self, label)
        return c

    def label_seq(self, merge_repeated):
        labels, prev, c = [], -1, self
        while c.parent is not None:
            if not merge_repeated or c.label != prev:
                labels.append(c.label)
            prev = c.label
            c = c.parent
        return labels[::-1]


class _Leaves:
    """TF's TopN of beam entries by `newp.total` (the `width` best; a push into a full set replaces the worst if
    better), a min-heap keyed by the score at push time (only the worst entry's score changes while it is held: TF
    resets it just before replacing it)."""

    def __init__(self, width):
        self.width, self.heap, self.count = width, [], 0

    def __len__(self):
        return len(self.heap)

    def bottom(self):
        return self.heap[0][2]

    def push(self, e):
        self.count += 1
        if len(self.heap) < self.width:
            heapq.heappush(self.heap, (e.newp.total, self.count, e))
        elif e.newp.total > self.heap[0][2].newp.total:
            heapq.heapreplace(self.heap, (e.newp.total, self.count, e))

    def extract(self):
        out = sorted((item[2] for item in self.heap), key=lambda e: -e.newp.total)
        self.heap = []
        return out


def _beam_search(frames, beam_width, blank):
    """The beams of one batch element after its `frames` (per-frame lists of log-softmax values)."""
    root = _Entry(None, -1)
    root.newp.total = root.newp.blank = 0.0
    leaves = _Leaves(beam_width)
    leaves.push(root)
    for logits in frames:
        branches = leaves.extract()
        for b in branches:
            b.oldp.copy_from(b.newp)
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    previous = b.parent.oldp.blank if b.label == b.parent.label else b.parent.oldp.total
                    b.newp.label = _log_sum_exp(b.newp.label, previous)
                b.newp.label += logits[b.label]
            b.newp.blank = b.oldp.total + logits[blank]
            b.newp.total = _log_sum_exp(b.newp.blank, b.newp.label)
            leaves.push(b)

        def candidate(prob):
            return prob.total > _LOG_ZERO and (len(leaves) < beam_width or
                                              prob.total > leaves.bottom().newp.total)
        for b in branches:
            if not candidate(b.oldp):
                continue
            children = b.children
            for label in range(len(logits) - 1):
                c = children.get(label)
                if c is not None and c.active():
                    continue
                score = logits[label] + (b.oldp.blank if label == b.label else b.oldp.total)
                if score > _LOG_ZERO and (len(leaves) < beam_width or score > leaves.bottom().newp.total):
                    if c is None:
                        c = b.child(label)
                    c.newp.blank = _LOG_ZERO
                    c.newp.label = c.newp.total = score
                    if len(leaves) == beam_width:
                        leaves.bottom().newp.reset()
                    leaves.push(c)
                elif c is not None:         # TF deactivates it (a child never made stays unmade: the same state)
                    c.oldp.reset()
                    c.newp.reset()
    return leaves.extract()


_BEAM_SIGNATURE = ("inputs:T, sequence_length:int32 -> decoded_indices:top_paths*int64, decoded_values:top_paths*int64, "
                   "decoded_shape:top_paths*int64, log_probability:T; attr=beam_width:int,min=1; "
                   "attr=top_paths:int,min=1; attr=merge_repeated:bool,default=true; "
                   "attr=T:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_DOUBLE]")


def _decoder_input(inputs, op):
    """The decoders' float32/float64 logits: other values convert to float32 (the op's default type), as TF's
    wrapper converts them; a tensor of another dtype is refused."""
    if isinstance(inputs, Tensor) or hasattr(inputs, "_read"):
        x = input_storage(inputs)
        check_dtype(x, op, frozenset([torch.float32, torch.float64]))
        return x
    x = input_storage(inputs)
    return x if x.dtype is torch.float64 else x.to(torch.float32)


def _beam_error(op, wrapped, message):
    return errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{wrapped}_device_/job:localhost/"
                                       f"replica:0/task:0/device:CPU:0}}}} {message} [Op:{op}]")


def _beam_search_decoder(inputs, sequence_length, beam_width, top_paths, merge_repeated):
    op = "CTCBeamSearchDecoder"
    for attr in ("beam_width", "top_paths"):
        value = int(beam_width if attr == "beam_width" else top_paths)
        if value < 1:
            raise errors.op_error(errors.InvalidArgumentError, f"Value for attr '{attr}' of {value} must be at least "
                                  f"minimum 1\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={_BEAM_SIGNATURE}>",
                                  op, name=None)
    x = _decoder_input(inputs, op)
    if x.ndim != 3:
        raise _kernel(errors.InvalidArgumentError, op, "inputs is not a 3-Tensor")
    frames, batch, classes = x.shape
    beam_width, top_paths = int(beam_width), int(top_paths)
    wrapped = f"{op}_top_paths_{top_paths}"        # TF's eager kernel name carries the attr
    if top_paths > beam_width:
        raise _beam_error(op, wrapped, "requested more paths than the beam width.")
    seq = _decoder_lengths(sequence_length, batch, op)

    def decode(inputs):
        """The search on the host (a host callback: a traced function decodes each call's logits)."""
        xs, sq = inputs
        seq_list = _lengths_within(sq, frames, op)
        values = torch.log_softmax(xs.cpu().to(torch.float32), -1).transpose(0, 1).tolist()
        paths = [[] for _ in range(top_paths)]
        log_probs = torch.zeros((batch, top_paths), dtype=xs.dtype)
        for b in range(batch):
            beams = _beam_search(values[b][:seq_list[b]], beam_width, classes - 1)
            if len(beams) < top_paths:
                raise _beam_error(op, wrapped, "Less leaves in the beam search than requested.")
            for i in range(top_paths):
                paths[i].append(beams[i].label_seq(merge_repeated))
                log_probs[b, i] = beams[i].newp.total
        out = []
        for per_batch in paths:
            indices = [[b, j] for b, seq_b in enumerate(per_batch) for j in range(len(seq_b))]
            longest = max((len(p) for p in per_batch), default=0)
            out += [torch.tensor(indices, dtype=torch.int64).reshape(-1, 2),
                    torch.tensor([v for seq_b in per_batch for v in seq_b], dtype=torch.int64),
                    torch.tensor([batch, longest], dtype=torch.int64)]
        return out + [log_probs.to(xs.device)]
    out = _host[0](decode, [x.detach(), seq])
    decoded = [SparseTensor(wrap(out[3 * i]), wrap(out[3 * i + 1]), wrap(out[3 * i + 2])) for i in range(top_paths)]
    return decoded, wrap(out[-1])


@tf_export("nn.ctc_beam_search_decoder")
def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """Beam search decoding of logits [max_time, batch, classes] (the last class is the blank): `top_paths`
    SparseTensors of int64 labels and their [batch, top_paths] log-probabilities, as TF's kernel."""
    return _beam_search_decoder(inputs, sequence_length, beam_width, top_paths, False)


def ctc_beam_search_decoder_v1(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """TF1's `tf.compat.v1.nn.ctc_beam_search_decoder` (`merge_repeated` collapses repeated labels of a path)."""
    return _beam_search_decoder(inputs, sequence_length, beam_width, top_paths, bool(merge_repeated))
