"""`tf.image.non_max_suppression_padded`: TF's tiled hard NMS over batches, with its padding and index rules."""
import math

import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, int_value, wrap


def _overlap(a, b):
    """IoU of [B, N, 4] boxes with [B, M, 4] boxes as TF's _bbox_overlap computes it (1e-8 added to unions)."""
    ay0, ax0, ay1, ax1 = a.unbind(2)
    by0, bx0, by1, bx1 = b.unbind(2)
    iw = (torch.minimum(ax1[:, :, None], bx1[:, None]) - torch.maximum(ax0[:, :, None], bx0[:, None])).clamp_min(0)
    ih = (torch.minimum(ay1[:, :, None], by1[:, None]) - torch.maximum(ay0[:, :, None], by0[:, None])).clamp_min(0)
    inter = iw * ih
    area_a, area_b = (ay1 - ay0) * (ax1 - ax0), (by1 - by0) * (bx1 - bx0)
    return inter / (area_a[:, :, None] + area_b[:, None] - inter + 1e-8)


def _self_suppress(box_slice, threshold):
    """Boxes of one tile suppressed by unsuppressed boxes of the same tile, iterated to a fixed point."""
    iou = _overlap(box_slice, box_slice)
    n = iou.shape[1]
    later = torch.arange(n)[None, :] > torch.arange(n)[:, None]
    iou = iou * (later & (iou >= threshold)).to(iou.dtype)
    total, changed = iou.sum((1, 2)), True
    while changed:
        can_suppress = (iou.amax(1) < threshold).to(iou.dtype)[:, :, None]
        iou = ((can_suppress * iou).amax(1) < threshold).to(iou.dtype)[:, :, None] * iou
        new_total = iou.sum((1, 2))
        changed = bool((total - new_total > threshold).any())
        total = new_total
    return box_slice * (1.0 - (iou.sum(1) > 0).to(box_slice.dtype))[:, :, None]


def _tiled_nms(boxes, max_output, threshold, tile):
    """Boxes left non-zero by TF's tile-by-tile suppression, and the number kept per batch."""
    batch, n_tiles = boxes.shape[0], boxes.shape[1] // tile
    kept = torch.zeros(batch, dtype=torch.int32)
    for idx in range(n_tiles):
        if int(kept.min()) >= max_output:
            break
        box_slice = boxes[:, idx * tile:(idx + 1) * tile]
        for inner in range(idx):
            iou = _overlap(boxes[:, inner * tile:(inner + 1) * tile], box_slice)
            box_slice = (iou < threshold).all(1).to(boxes.dtype)[:, :, None] * box_slice
        box_slice = _self_suppress(box_slice, threshold)
        boxes = torch.cat([boxes[:, :idx * tile], box_slice, boxes[:, (idx + 1) * tile:]], 1)
        kept += (box_slice > 0).any(2).sum(1, dtype=torch.int32)
    return boxes, kept


@tf_export("image.non_max_suppression_padded")
def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """Hard NMS of [..., num_boxes, 4] `boxes` by [..., num_boxes] `scores` as TF's tiled algorithm does:
    (indices [..., max_output_size] padded with 0, or [num_valid] unpadded for one image; num_valid [batch]).
    As in TF, the y/x orientation of every box is taken from the first box, and a kept box all of whose
    coordinates are <= 0 does not count as kept."""
    b = input_storage(boxes)
    s = input_storage(scores)
    if not pad_to_max_output_size and b.dim() > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched input")
    max_output = int_value(max_output_size)
    batch_shape, n = list(b.shape[:-2]), b.shape[-2]
    b, s = b.reshape(-1, n, 4), s.reshape(-1, n)
    if score_threshold != float("-inf"):
        mask = s > score_threshold
        s = s * mask.to(s.dtype)
        b = b * mask.to(b.dtype)[:, :, None]
    if not canonicalized_coordinates:
        y1, x1, y2, x2 = b.unbind(2)
        y0, y1 = (y1, y2) if bool(y1[0, 0] <= y2[0, 0]) else (y2, y1)
        x0, x1 = (x1, x2) if bool(x1[0, 0] <= x2[0, 0]) else (x2, x1)
        b = torch.stack([y0, x0, y1, x1], 2)
    order = None
    if not sorted_input:
        order = torch.sort(s, dim=1, descending=True, stable=True).indices
        b = b.gather(1, order[:, :, None].expand(-1, -1, 4))
    padded = math.ceil(float(max(n, max_output)) / tile_size) * tile_size
    b = torch.nn.functional.pad(b.float(), (0, 0, 0, padded - n))
    kept_boxes, kept = _tiled_nms(b, max_output, float(iou_threshold), tile_size)
    num_valid = torch.minimum(kept, torch.tensor(max_output, dtype=torch.int32))
    rank = (kept_boxes > 0).any(2).int() * torch.arange(padded, 0, -1, dtype=torch.int32)[None]
    idx = (padded - rank.topk(max_output, 1).values).clamp_max(n - 1)
    if order is not None:
        idx = order.gather(1, idx.long()).int()
    idx = torch.where(torch.arange(max_output)[None] < num_valid[:, None], idx.int(), 0)
    idx = idx[0, :int(num_valid[0])] if not pad_to_max_output_size else idx.reshape(batch_shape + [max_output])
    return wrap(idx.to(dtypes.int32.torch_dtype)), wrap(num_valid.reshape(batch_shape))
