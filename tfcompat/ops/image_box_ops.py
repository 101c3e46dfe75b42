"""`tf.image` ops over bounding boxes: `crop_and_resize`, `draw_bounding_boxes`, non-max suppression, and the
stateless random flips and crop.

Boxes are TF's normalized [y1, x1, y2, x2]. The kernels follow TF's CPU kernels step by step (float32 sampling
positions, greedy suppression in descending score order with ties to the lower index).
"""
import collections
import heapq

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor, to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import check_dtype, input_storage, int_list, wrap
from tfcompat.framework.tensor import Tensor, device_name, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops import random_ops

_STATELESS_NOTE = "draws are a deterministic function of `seed` but not TF's Philox values"


def _fail(message, op, t, cls=errors.InvalidArgumentError, name=""):
    return errors.kernel_error(cls, message, op, device_name(t.device), name=name)


_CAR_SIG = ("Op<name=CropAndResize; signature=image:T, boxes:float, box_ind:int32, crop_size:int32 -> crops:float; "
            "attr=T:type,allowed=[DT_UINT8, DT_UINT16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_HALF, DT_FLOAT, "
            "DT_DOUBLE]; attr=method:string,default=\"bilinear\",allowed=[\"bilinear\", \"nearest\"]; "
            "attr=extrapolation_value:float,default=0>")
_CAR_TYPES = frozenset([torch.uint8, torch.uint16, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
                        torch.float32, torch.float64])
_DRAW_SIG = {"DrawBoundingBoxes": "Op<name=DrawBoundingBoxes; signature=images:T, boxes:float -> output:T; "
                                  "attr=T:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_HALF]>",
             "DrawBoundingBoxesV2": "Op<name=DrawBoundingBoxesV2; signature=images:T, boxes:float, colors:float -> "
                                    "output:T; attr=T:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_HALF]>"}
_C_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _attr_error(attr, got, allowed, op, sig):
    return errors.op_error(errors.InvalidArgumentError, f"Value for attr '{attr}' of {got} is not in the list of "
                           f"allowed values: {allowed}\n\t; NodeDef: {{{{node {op}}}}}; {sig}", op, None)


def _image_input(x, op, allowed, allowed_text, sig):
    """The image storage; non-tensor input converts to float32, the op's default type (TF's fast path)."""
    if not isinstance(x, (Tensor, Variable)):
        x = to_storage(np.asarray(x, dtype=np.float32))
    t = input_storage(x)
    if t.dtype not in allowed:
        name = dtypes.FROM_STORAGE[t.dtype].name
        raise _attr_error("T", _C_NAMES.get(name, name), allowed_text, op, sig)
    return t


def _dims(t):
    return "[" + ",".join(map(str, t.shape)) + "]"


# -- crop_and_resize --------------------------------------------------------------------------------------

def _sample_positions(lo, hi, n_in, n_out):
    """(n_boxes, n_out) float32 source coordinates of TF's CropAndResize along one axis."""
    if n_out > 1:
        scale = (hi - lo) * (n_in - 1) / (n_out - 1)
        steps = torch.arange(n_out, dtype=torch.float32, device=lo.device)
        return lo[:, None] * (n_in - 1) + steps[None, :] * scale[:, None]
    return (0.5 * (lo + hi).double() * (n_in - 1)).float()[:, None]


@tf_export("image.crop_and_resize")
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    """Crops each box from image[box_indices[i]] and resizes it to `crop_size` (float32 output; TF's kernel
    messages here carry no ` name: `)."""

    op = "CropAndResize"
    if method not in ("bilinear", "nearest"):
        raise _attr_error("method", f'"{method}"', '"bilinear", "nearest"', op, _CAR_SIG)
    img = _image_input(image, op, _CAR_TYPES, "uint8, uint16, int8, int16, int32, int64, half, float, double", _CAR_SIG)
    b = input_storage(boxes, dtypes.float32) if not hasattr(boxes, "dtype") else input_storage(boxes)
    idx = input_storage(box_indices, dtypes.int32) if not hasattr(box_indices, "dtype") else input_storage(box_indices)
    size = input_storage(crop_size, dtypes.int32) if not hasattr(crop_size, "dtype") else input_storage(crop_size)
    if img.ndim != 4:
        raise _fail(f"input image must be 4-D{_dims(img)}", op, img, name=None)
    n_batch, h, w, _ = img.shape
    if h <= 0 or w <= 0:
        raise _fail("image dimensions must be positive", op, img, name=None)
    if b.ndim != 2:
        raise _fail(f"boxes must be 2-D, got: {_dims(b)}", op, img, name=None)
    if idx.ndim != 1:
        raise _fail(f"box_indices must be rank 1 but is shape {_dims(idx)}", op, img, name=None)
    if b.shape[1] != 4:
        raise _fail("boxes must have 4 columns", op, img, name=None)
    if idx.shape[0] != b.shape[0]:
        raise _fail("box_index has incompatible shape", op, img, name=None)
    if size.ndim != 1:
        raise _fail(f"crop_size must be 1-D{_dims(size)}", op, img, name=None)
    if size.shape[0] != 2:
        raise _fail(f"crop_size must have two elements{_dims(size)}", op, img, name=None)
    ch, cw = (int(v) for v in size.tolist())
    if ch <= 0 or cw <= 0:
        raise _fail("crop dimensions must be positive", op, img, name=None)
    if bool(((idx < 0) | (idx >= n_batch)).any()):
        raise _fail("box_index has values outside [0, batch_size)", op, img, errors.OutOfRangeError, None)
    if not bool(torch.isfinite(b).all()):
        raise _fail("Boxes contains at least one element that is not finite", op, img, name=None)
    x = img if img.dtype is torch.float32 else img.float()
    b = b.float()
    in_y = _sample_positions(b[:, 0], b[:, 2], h, ch)
    in_x = _sample_positions(b[:, 1], b[:, 3], w, cw)
    ok = ((in_y >= 0) & (in_y <= h - 1))[:, :, None] & ((in_x >= 0) & (in_x <= w - 1))[:, None, :]
    bi = idx.long()[:, None, None]
    if method == "nearest":
        rows = torch.floor(in_y + 0.5).long().clamp(0, h - 1)      # roundf: half away from zero (coords >= 0)
        cols = torch.floor(in_x + 0.5).long().clamp(0, w - 1)
        out = x[bi, rows[:, :, None], cols[:, None, :]]
    else:
        top, left = torch.floor(in_y), torch.floor(in_x)
        y_lerp = (in_y - top)[:, :, None, None]
        x_lerp = (in_x - left)[:, None, :, None]
        t_i, bot_i = top.long().clamp(0, h - 1)[:, :, None], torch.ceil(in_y).long().clamp(0, h - 1)[:, :, None]
        l_i, r_i = left.long().clamp(0, w - 1)[:, None, :], torch.ceil(in_x).long().clamp(0, w - 1)[:, None, :]
        tl, tr, bl, br = x[bi, t_i, l_i], x[bi, t_i, r_i], x[bi, bot_i, l_i], x[bi, bot_i, r_i]
        upper = tl + (tr - tl) * x_lerp
        lower = bl + (br - bl) * x_lerp
        out = upper + (lower - upper) * y_lerp
    fill = torch.tensor(float(extrapolation_value), dtype=torch.float32, device=x.device)
    return wrap(torch.where(ok[..., None], out, fill))


# -- draw_bounding_boxes ----------------------------------------------------------------------------------

_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
                   [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


@tf_export("image.draw_bounding_boxes")
def draw_bounding_boxes(images, boxes, colors, name=None):
    """Draws each box's one-pixel outline on float images (colors cycle per box; TF's default table if None)."""
    op = "DrawBoundingBoxesV2" if colors is not None else "DrawBoundingBoxes"
    img = _image_input(images, op, {torch.float16, torch.float32}, "float, half", _DRAW_SIG[op])
    bx = input_storage(boxes, dtypes.float32) if not hasattr(boxes, "dtype") else input_storage(boxes)
    if img.ndim != 4:
        raise _fail("The rank of the images should be 4", op, img)
    if bx.ndim != 3:
        raise _fail("The rank of the boxes tensor should be 3", op, img)
    if img.shape[0] != bx.shape[0]:
        raise _fail("The batch sizes should be the same", op, img)
    n, h, w, depth = img.shape
    if depth not in (1, 3, 4):
        raise _fail("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)", op, img)
    if bx.shape[2] != 4:
        raise _fail(f"The size of the third dimension of the box must be 4. Received: {bx.shape[2]}", op, img)
    table = []
    if colors is not None:
        c = input_storage(colors, dtypes.float32) if not hasattr(colors, "dtype") else input_storage(colors)
        if c.ndim != 2:
            raise _fail(f"colors must be a 2-D matrix{_dims(c)}", op, img)
        if c.shape[1] < depth:
            raise _fail(f"colors must have equal or more channels than the image provided: {_dims(c)}", op, img)
        table = [row[:depth] for row in c.float().tolist()]
    if not table:
        table = [([1.0] + row[1:] if depth == 1 else row)[:depth] for row in _DEFAULT_COLORS]
    canvas = img.detach().clone()            # TF registers DrawBoundingBoxes as not differentiable
    coords = bx.float().cpu().numpy()
    for bi in range(n):
        for k in range(coords.shape[1]):
            color = torch.tensor(table[k % len(table)], dtype=img.dtype, device=img.device)
            _outline(canvas, bi, coords[bi, k], h, w, color)
    return wrap(canvas)


def _outline(canvas, bi, box, h, w, color):
    """TF's DrawBoundingBoxes for one box: rows and columns truncated toward zero, clipped lines, inverted or
    outside boxes skipped."""
    r0, c0, r1, c1 = (int(np.float32(v) * np.float32(s - 1)) for v, s in zip(box, (h, w, h, w)))
    if r0 > r1 or c0 > c1 or r0 >= h or r1 < 0 or c0 >= w or c1 < 0:
        return
    rr0, rr1, cc0, cc1 = max(r0, 0), min(r1, h - 1), max(c0, 0), min(c1, w - 1)
    if r0 >= 0:
        canvas[bi, r0, cc0:cc1 + 1] = color
    if r1 < h:
        canvas[bi, r1, cc0:cc1 + 1] = color
    if c0 >= 0:
        canvas[bi, rr0:rr1 + 1, c0] = color
    if c1 < w:
        canvas[bi, rr0:rr1 + 1, c1] = color


# -- non-max suppression ------------------------------------------------------------------------------------

def _iou_matrix(boxes):
    """(n, n) IoU of TF's kernel in float32: corners in any order, 0 where either box has no area."""
    b = boxes.float()
    y0, y1 = torch.minimum(b[:, 0], b[:, 2]), torch.maximum(b[:, 0], b[:, 2])
    x0, x1 = torch.minimum(b[:, 1], b[:, 3]), torch.maximum(b[:, 1], b[:, 3])
    area = (y1 - y0) * (x1 - x0)
    ih = torch.clamp(torch.minimum(y1[:, None], y1[None]) - torch.maximum(y0[:, None], y0[None]), min=0.0)
    iw = torch.clamp(torch.minimum(x1[:, None], x1[None]) - torch.maximum(x0[:, None], x0[None]), min=0.0)
    inter = ih * iw
    iou = inter / (area[:, None] + area[None] - inter)
    return torch.where((area[:, None] <= 0) | (area[None] <= 0), torch.zeros_like(iou), iou)


def _greedy(similarity, scores, max_out, threshold, score_threshold, sigma=0.0):
    """TF's DoNonMaxSuppressionOp: (selected indices, their scores), soft-NMS when sigma > 0."""
    s = scores.cpu().numpy()
    dt = s.dtype.type
    sim = similarity.cpu().numpy().astype(s.dtype)
    threshold, score_threshold = dt(threshold), dt(score_threshold)
    soft = sigma > 0
    scale = dt(-0.5) / dt(sigma) if soft else dt(0)
    heap = [(-s[i], i, s[i], 0) for i in range(len(s)) if s[i] > score_threshold]
    heapq.heapify(heap)                    # best score first, ties to the lower index
    selected, kept = [], []
    while len(selected) < max_out and heap:
        _, i, score, begin = heapq.heappop(heap)
        original = score
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            v = sim[i, selected[j]]
            score = dt(score * (np.exp(scale * v * v) if soft or v <= threshold else dt(0)))
            if not soft and v > threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == original:
            selected.append(i)
            kept.append(score)
        elif score > score_threshold:
            heapq.heappush(heap, (-score, i, score, len(selected)))
    return selected, kept


def _nms_inputs(boxes, scores, max_output_size, op):
    """(boxes, scores, max_output_size) checked as TF's NonMaxSuppressionV3/V5 kernels."""
    b = input_storage(boxes, dtypes.float32) if not hasattr(boxes, "dtype") else input_storage(boxes)
    s = input_storage(scores, dtypes.float32) if not hasattr(scores, "dtype") else input_storage(scores)
    check_dtype(b, op, {torch.float16, torch.float32})
    if b.ndim != 2:
        raise _fail(f"boxes must be 2-D{_dims(b)} (Shape must be rank 2 but is rank {b.ndim})", op, b)
    if b.shape[1] != 4:
        raise _fail(f"boxes must have 4 columns (Dimension must be 4 but is {b.shape[1]})", op, b)
    if s.ndim != 1:
        raise _fail(f"scores must be 1-D{_dims(s)} (Shape must be rank 1 but is rank {s.ndim})", op, b)
    if s.shape[0] != b.shape[0]:
        raise _fail(f"scores has incompatible shape (Dimensions must be equal, but are {b.shape[0]} and "
                    f"{s.shape[0]})", op, b)
    m = input_storage(max_output_size, dtypes.int32) if not hasattr(max_output_size, "dtype") \
        else input_storage(max_output_size)
    if m.ndim != 0:
        rank = f" (Shape must be rank 0 but is rank {m.ndim})" if op == "NonMaxSuppressionV3" else ""
        raise _fail(f"max_output_size must be 0-D, got shape {_dims(m)}{rank}", op, b)
    m = int(m)
    if m < 0:
        raise _fail("output size must be non-negative", op, b)
    return b, s, m


def _threshold(value, op, t, what="iou_threshold"):
    v = float(storage(convert_to_tensor(value)))
    if what == "iou_threshold" and not 0 <= v <= 1:
        raise _fail("iou_threshold must be in [0, 1]", op, t)
    return v


@tf_export("image.non_max_suppression")
def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"), name=None):
    """Indices (int32) of at most `max_output_size` boxes kept by greedy IoU suppression, best score first."""
    op = "NonMaxSuppressionV3"
    b, s, m = _nms_inputs(boxes, scores, max_output_size, op)
    iou = _threshold(iou_threshold, op, b)
    keep, _ = _greedy(_iou_matrix(b), s, m, iou, _threshold(score_threshold, op, b, ""))
    return wrap(torch.tensor(keep, dtype=torch.int32, device=b.device))


@tf_export("image.non_max_suppression_with_scores")
def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """(indices, scores) of greedy suppression; with soft_nms_sigma > 0, overlaps decay scores by a Gaussian."""
    op = "NonMaxSuppressionV5"
    b, s, m = _nms_inputs(boxes, scores, max_output_size, op)
    iou = _threshold(iou_threshold, op, b)
    sigma = _threshold(soft_nms_sigma, op, b, "")
    if sigma < 0:
        raise _fail("soft_nms_sigma must be non-negative", op, b)
    keep, kept = _greedy(_iou_matrix(b), s, m, iou, _threshold(score_threshold, op, b, ""), sigma)
    return (wrap(torch.tensor(keep, dtype=torch.int32, device=b.device)),
            wrap(torch.tensor(np.array(kept, dtype=s.cpu().numpy().dtype), device=b.device)))


@tf_export("image.non_max_suppression_overlaps")
def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Greedy suppression by a given (n, n) overlap matrix instead of IoU: int32 indices."""
    op = "NonMaxSuppressionWithOverlaps"
    o = input_storage(overlaps, dtypes.float32) if not hasattr(overlaps, "dtype") else input_storage(overlaps)
    s = input_storage(scores, dtypes.float32) if not hasattr(scores, "dtype") else input_storage(scores)
    if o.ndim != 2:
        raise _fail(f"overlaps must be 2-D{_dims(o)}", op, o)
    if o.shape[1] != o.shape[0]:
        raise _fail(f"overlaps must be square{_dims(o)}", op, o)
    if s.ndim != 1:
        raise _fail(f"scores must be 1-D{_dims(s)} (Shape must be rank 1 but is rank {s.ndim})", op, o)
    if s.shape[0] != o.shape[0]:
        raise _fail(f"scores has incompatible shape (Dimensions must be equal, but are {o.shape[0]} and "
                    f"{s.shape[0]})", op, o)
    m = int(input_storage(max_output_size, dtypes.int32) if not hasattr(max_output_size, "dtype")
            else input_storage(max_output_size))
    if m < 0:
        raise _fail("output size must be non-negative", op, o)
    keep, _ = _greedy(o.float(), s, m, _threshold(overlap_threshold, op, o, ""),
                      _threshold(score_threshold, op, o, ""))
    return wrap(torch.tensor(keep, dtype=torch.int32, device=o.device))


CombinedNonMaxSuppression = collections.namedtuple(
    "CombinedNonMaxSuppression", ["nmsed_boxes", "nmsed_scores", "nmsed_classes", "valid_detections"])


def _scalar_arg(value, op, what, t, dtype=dtypes.int32):
    v = input_storage(value, dtype) if not hasattr(value, "dtype") else input_storage(value)
    if v.ndim != 0:
        raise _fail(f"{what} must be 0-D, got shape {_dims(v)}", op, t)
    return v.item()


@tf_export("image.combined_non_max_suppression")
def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """Per-class greedy NMS over a batch, then the best `max_total_size` detections of each image, zero-padded."""
    op = "CombinedNonMaxSuppression"
    b = input_storage(boxes, dtypes.float32) if not hasattr(boxes, "dtype") else input_storage(boxes)
    s = input_storage(scores, dtypes.float32) if not hasattr(scores, "dtype") else input_storage(scores)
    if b.ndim != 4:
        raise _fail(f"boxes must be 4-D [batch, num_boxes, q, 4], got shape {_dims(b)}", op, b)
    if s.ndim != 3:
        raise _fail(f"scores must be 3-D [batch, num_boxes, num_classes], got shape {_dims(s)}", op, b)
    n_batch, n_boxes, q, _ = b.shape
    n_classes = s.shape[2]
    if q not in (1, n_classes):
        raise _fail("third dimension of boxes must be either 1 or num classes", op, b)
    if b.shape[3] != 4:
        raise _fail("boxes must have 4 columns", op, b)
    if s.shape[1] != n_boxes:
        raise _fail("scores has incompatible shape", op, b)
    if b.shape[0] != s.shape[0]:
        raise _fail("boxes and scores must have same batch size", op, b)
    per_class = _scalar_arg(max_output_size_per_class, op, "max_size_per_class", b)
    if per_class <= 0:
        raise _fail("max_size_per_class must be positive", op, b)
    total = _scalar_arg(max_total_size, op, "max_total_size", b)
    if total <= 0:
        raise _fail("max_total_size must be > 0", op, b)
    iou = _scalar_arg(iou_threshold, op, "iou_threshold", b, dtypes.float32)
    score_min = _scalar_arg(score_threshold, op, "score_threshold", b, dtypes.float32)
    if not 0 <= iou <= 1:
        raise _fail("iou_threshold must be in [0, 1]", op, b)
    size_per_class = min(per_class, n_boxes)
    width = min(total, min(2 ** 31 - 1, per_class * n_classes)) if pad_per_class else total
    out = torch.zeros(n_batch, width, 6, dtype=torch.float32)
    valid = torch.zeros(n_batch, dtype=torch.int32)
    b, s = b.float().cpu(), s.float().cpu()
    for bi in range(n_batch):
        found = []                                   # (score, class, box coordinates) in TF's slot order
        sims = [_iou_matrix(b[bi, :, k]) for k in range(q)]
        for c in range(n_classes):
            k = c if q > 1 else 0
            keep, kept = _greedy(sims[k], s[bi, :, c], size_per_class, iou, score_min)
            found += [(score, c, b[bi, i, k]) for i, score in zip(keep, kept)]
        found.sort(key=lambda f: -f[0])             # stable: ties stay in class order
        count = min(len(found), width)
        valid[bi] = count
        for j, (score, c, box) in enumerate(found[:count]):
            out[bi, j, :4] = torch.clamp(box, 0.0, 1.0) if clip_boxes else box
            out[bi, j, 4], out[bi, j, 5] = float(score), float(c)
    out = out.to(b.device)
    return CombinedNonMaxSuppression(wrap(out[..., :4].contiguous()), wrap(out[..., 4].contiguous()),
                                     wrap(out[..., 5].contiguous()), wrap(valid))


# -- sample_distorted_bounding_box ------------------------------------------------------------------------

def _rint(v):
    """C's lrintf: round half to even of a float32 value."""
    return int(round(float(np.float32(v))))


def _random_crop_rect(width, height, min_area_frac, max_area_frac, aspect, draw):
    """TF's GenerateRandomCrop: a (x0, y0, x1, y1) rectangle of area within the fractions and width ~ aspect *
    height, or None when the constraints cannot be met; `draw(n)` is uniform over 0..n-1."""
    f32 = np.float32
    if max_area_frac <= 0 or aspect <= 0 or width <= 0 or height <= 0 or min_area_frac > max_area_frac:
        return None
    min_area = f32(min_area_frac) * f32(width) * f32(height)
    max_area = f32(max_area_frac) * f32(width) * f32(height)
    h = _rint(np.sqrt(f32(min_area / aspect)))
    max_h = _rint(np.sqrt(f32(max_area / aspect)))
    if _rint(f32(max_h) * aspect) > width:
        max_h = int((width + 0.5 - 0.0000001) / float(aspect))
        if _rint(f32(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += draw(max_h - h + 1)
    w = _rint(f32(h) * aspect)
    area = f32(w * h)
    if area < min_area:
        h += 1
        w = _rint(f32(h) * aspect)
        area = f32(w * h)
    if area > max_area:
        h -= 1
        w = _rint(f32(h) * aspect)
        area = f32(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = draw(height - h) if h < height else 0
    x = draw(width - w) if w < width else 0
    return x, y, x + w, y + h


def _rect_area(r):
    return float((r[2] - r[0]) * (r[3] - r[1]))


def _covers(crop, min_covered, rects):
    """TF's SatisfiesOverlapConstraints: the crop holds pixels and covers `min_covered` of some object."""
    if _rect_area(crop) < 1.0:
        return False
    for r in rects:
        area = _rect_area(r)
        if area < 1.0:
            continue
        inter = (max(crop[0], r[0]), max(crop[1], r[1]), min(crop[2], r[2]), min(crop[3], r[3]))
        covered = 0.0 if inter[0] > inter[2] or inter[1] > inter[3] else _rect_area(inter)
        if np.float32(covered) / np.float32(area) >= np.float32(min_covered):
            return True
    return False


def _sample_box(image_size, bounding_boxes, gen, min_object_covered, aspect_ratio_range, area_range, max_attempts,
                use_image_if_no_bounding_boxes, op):
    """(begin, size, bboxes) of TF's SampleDistortedBoundingBox kernel, drawing from torch generator `gen`."""
    size = input_storage(image_size, dtypes.int32) if not hasattr(image_size, "dtype") else input_storage(image_size)
    boxes = input_storage(bounding_boxes, dtypes.float32) if not hasattr(bounding_boxes, "dtype") \
        else input_storage(bounding_boxes)
    aspect = [float(v) for v in (aspect_ratio_range or (0.75, 1.33))]
    areas = [float(v) for v in (area_range or (0.05, 1.0))]
    attempts = 100 if max_attempts is None else int(max_attempts)
    covered = float(storage(convert_to_tensor(min_object_covered, dtype=dtypes.float32)))
    checks = [(len(aspect) == 2, "Aspect ratio range field must specify 2 dimensions"),
              (aspect[0] > 0 and aspect[1] > 0, f"Aspect ratio range must be non-negative: [{aspect[0]:g}, "
                                                f"{aspect[1]:g}]"),
              (len(areas) == 2, "Area range field must specify 2 dimensions"),
              (areas[0] > 0 and areas[1] > 0, f"Area range must be non-negative: [{areas[0]:g}, {areas[1]:g}]"),
              (areas[0] <= 1 and areas[1] <= 1, f"Area range must be less then or equal to 1.0: [{areas[0]:g}, "
                                                f"{areas[1]:g}]"),
              (attempts > 0, f"Max attempts must be non-negative: {attempts}"),
              (size.ndim == 1, f"image_size must be 1-dimensional{_dims(size)}"),
              (size.ndim != 1 or size.shape[0] == 3, f"image_size must contain 3 elements{_dims(size)}"),
              (boxes.ndim == 3, f"input boxes must be 3-dimensional [batch, num_boxes, coords]: {_dims(boxes)}"),
              (boxes.ndim == 0 or boxes.shape[-1] == 4, f"bounding boxes must have shape [4] or [*, 4], got "
                                                        f"{_dims(boxes)}"),
              (covered >= 0, f"Min object covered must be non-negative: {covered:g}")]
    for ok, message in checks:
        if not ok:
            raise _fail(message, op, size, name=None)
    height, width = int(size[0]), int(size[1])
    rects = []
    for row in boxes.reshape(-1, 4).float().tolist():
        for v in row:
            if not 0.0 <= v <= 1.0:
                raise _fail(f"All bounding box coordinates must be in [0.0, 1.0]: {v:g}", op, size, name=None)
        f32 = np.float32
        rects.append((int(f32(row[1]) * f32(width)), int(f32(row[0]) * f32(height)),
                      int(f32(row[3]) * f32(width)), int(f32(row[2]) * f32(height))))
    image_rect = (0, 0, width, height)
    if not rects:
        if not use_image_if_no_bounding_boxes:
            raise _fail("No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes if "
                        "you wish to not provide any bounding boxes.", op, size, name=None)
        rects.append(image_rect)

    def draw(n):
        return int(torch.randint(0, n, (), generator=gen))
    crop = image_rect
    for _ in range(attempts):
        ratio = float(torch.rand((), generator=gen)) * (aspect[1] - aspect[0]) + aspect[0]
        rect = _random_crop_rect(width, height, areas[0], areas[1], np.float32(ratio), draw)
        if rect is not None and _covers(rect, covered, rects):
            crop = rect
            break
    x0, y0, x1, y1 = crop
    begin = torch.tensor([y0, x0, 0], dtype=size.dtype)
    extent = torch.tensor([y1 - y0, x1 - x0, -1], dtype=size.dtype)
    f32 = np.float32
    bbox = torch.tensor([[[f32(y0) / f32(height), f32(x0) / f32(width), f32(y1) / f32(height),
                           f32(x1) / f32(width)]]], dtype=torch.float32)
    return wrap(begin), wrap(extent), wrap(bbox)


@tf_export("image.sample_distorted_bounding_box", partial="draws are tfcompat's random streams, not TF's")
def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1, aspect_ratio_range=None,
                                  area_range=None, max_attempts=None, use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes) of a random crop covering `min_object_covered` of some box, as TF's kernel samples it."""
    return _sample_box(image_size, bounding_boxes, random_ops.generator_for(seed or None, "cpu"), min_object_covered,
                       aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes,
                       "SampleDistortedBoundingBoxV2")


@tf_export("image.stateless_sample_distorted_bounding_box", partial=_STATELESS_NOTE)
def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed, min_object_covered=0.1,
                                            aspect_ratio_range=None, area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """sample_distorted_bounding_box as a deterministic function of `seed`."""
    return _sample_box(image_size, bounding_boxes, random_ops.stateless_generator(seed, "cpu"), min_object_covered,
                       aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes,
                       "StatelessSampleDistortedBoundingBox")


# -- stateless random flips and crop ----------------------------------------------------------------------

def _stateless_flip(image, seed, axis):
    """TF's _random_flip with a stateless draw: one coin for a 3-D image, one per image of a batch."""
    t = input_storage(image)
    if t.ndim < 3:
        raise ValueError(f"'image' (shape {tuple(t.shape)}) must be at least three-dimensional.")
    if t.ndim == 3:
        coin = random_ops.stateless_uniform([], seed=seed)
        return wrap(torch.flip(t, [axis]) if float(storage(coin)) < 0.5 else t)
    if t.ndim != 4:
        raise ValueError(f"'image' (shape {tuple(t.shape)}) must have either 3 or 4 dimensions.")
    coins = storage(random_ops.stateless_uniform([t.shape[0]], seed=seed))
    flips = torch.round(coins).reshape(-1, 1, 1, 1).to(t.dtype)
    return wrap(flips * torch.flip(t, [axis + 1]) + (1 - flips) * t)


@tf_export("image.stateless_random_flip_left_right", partial=_STATELESS_NOTE)
def stateless_random_flip_left_right(image, seed):
    """Flips each image left-right with probability 1/2, a deterministic function of `seed`."""
    return _stateless_flip(image, seed, 1)


@tf_export("image.stateless_random_flip_up_down", partial=_STATELESS_NOTE)
def stateless_random_flip_up_down(image, seed):
    """Flips each image up-down with probability 1/2, a deterministic function of `seed`."""
    return _stateless_flip(image, seed, 0)


@tf_export("image.stateless_random_crop", partial=_STATELESS_NOTE)
def stateless_random_crop(value, size, seed, name=None):
    """A window of shape `size` at offsets drawn uniformly from `seed` (one per axis)."""
    t = input_storage(value)
    dims = int_list(size)
    if len(dims) != t.ndim:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Incompatible shapes: [{t.ndim}] vs. [{len(dims)}]", "GreaterEqual")
    if any(s < d for s, d in zip(t.shape, dims)):
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            "b'Need value.shape >= size, got '\n" + ", ".join(map(str, t.shape)) + "\n" + ", ".join(map(str, dims)))
    limit = [s - d + 1 for s, d in zip(t.shape, dims)]
    draws = storage(random_ops.stateless_uniform([len(dims)], seed=seed, minval=0, maxval=2**31 - 1,
                                                 dtype=dtypes.int32))     # TF: uniform in [0, int32 max) % limit
    offsets = [int(v) % lim for v, lim in zip(draws.tolist(), limit)]
    return wrap(t[tuple(slice(o, o + d) for o, d in zip(offsets, dims))])


def _proposal_input(value, dtype):
    """Whether TF's eager fast path takes `value` for a `dtype` input (a Python value converts to it, strictly; an
    array or tensor must already be of it); TF's fallback path, which the others take, ends its error in ` name: `."""
    if isinstance(value, (Tensor, Variable, np.ndarray)):
        return convert_to_tensor(value).dtype is dtype
    to_storage(value, dtype)
    return True


@tf_export("image.generate_bounding_box_proposals", partial="no CPU kernel in TF 2.21 (raises TF's NotFoundError); "
           "GPU not supported")
def generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors, nms_threshold=0.7, pre_nms_topn=6000,
                                    min_size=16, post_nms_topn=300, name=None):
    """TF 2.21's GenerateBoundingBoxProposals: TF registers no CPU kernel (GPU only), so on CPU it raises TF's
    NotFoundError after converting its arguments as TF does."""
    if isinstance(post_nms_topn, (str, bytes)) or not isinstance(post_nms_topn, (int, float, np.number)):
        raise TypeError(f"Expected int for argument 'post_nms_topn' not {post_nms_topn!r}.")
    fast = [_proposal_input(v, dt) for v, dt in ((scores, dtypes.float32), (bbox_deltas, dtypes.float32),
                                                 (image_info, dtypes.float32), (anchors, dtypes.float32),
                                                 (nms_threshold, dtypes.float32), (pre_nms_topn, dtypes.int32),
                                                 (min_size, dtypes.float32))]
    op = "GenerateBoundingBoxProposals"
    raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node {op}}}}} = {op}"
                          f"[post_nms_topn={int(post_nms_topn)}]\nAll kernels registered for op {op}:\n  "
                          "<no registered kernels>\n", op, name=None if all(fast) else "")
