"""`model.summary()`: Keras 3.15's table of layers, output shapes, parameter counts and connections.

Keras renders it with `rich` (no colours when not a terminal); this reproduces the plain-text layout: fixed
column widths squeezed evenly to the table width, word wrapping with words too long for a column cut with "…",
lines cropped at the console width.
"""
import math
import re
import shutil

from tfcompat.framework.tensor import storage
from tfcompat.util import nest


def _ratio_reduce(total, ratios, maximums, values):
    ratios = [r if m else 0 for r, m in zip(ratios, maximums)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining, out = total, []
    for ratio, maximum, value in zip(ratios, maximums, values):
        if ratio and total_ratio > 0:
            d = min(maximum, round(ratio * remaining / total_ratio))
            out.append(value - d)
            remaining -= d
            total_ratio -= ratio
        else:
            out.append(value)
    return out


def _wrap_text(text, width):
    """`text` in lines of at most `width` characters, broken at spaces; a word longer than `width` gets a line of
    its own, cut to `width - 1` characters and "…" (rich's "ellipsis" overflow)."""
    lines = []
    for para in text.split("\n"):
        line = None
        for word in para.split(" "):
            if line is None:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line or "")
    return [line if len(line) <= width else line[:width - 1] + "…" for line in lines]


def _aligned(text, width, align):
    if align == "right":
        return text.rjust(width)
    if align == "center":
        left = (width - len(text)) // 2
        return " " * left + text + " " * (width - len(text) - left)
    return text.ljust(width)


def _render_table(header, alignment, rows, column_widths, line_length):
    extra = len(header) + 1
    widths = [min(w + 2, line_length - extra) for w in column_widths]
    if sum(widths) > line_length - extra:
        widths = _ratio_reduce(sum(widths) - (line_length - extra), [1] * len(widths), widths, widths)
    inner = [w - 2 for w in widths]

    def row_lines(cells, left, sep, right, bottom=False):
        wrapped = [_wrap_text(c, w) for c, w in zip(cells, inner)]
        height = max(len(c) for c in wrapped)
        if bottom:      # rich aligns header cells to the bottom of the header row, body cells to the top
            wrapped = [[""] * (height - len(c)) + c for c in wrapped]
        out = []
        for i in range(height):
            parts = []
            for lines, w, align in zip(wrapped, inner, alignment):
                parts.append(" " + _aligned(lines[i] if i < len(lines) else "", w, align) + " ")
            out.append(left + sep.join(parts) + right)
        return out

    def rule(left, fill, sep, right):
        return left + sep.join(fill * w for w in widths) + right

    lines = [rule("┏", "━", "┳", "┓")] + row_lines(header, "┃", "┃", "┃", bottom=True) + [rule("┡", "━", "╇", "┩")]
    for i, row in enumerate(rows):
        if i:
            lines.append(rule("├", "─", "┼", "┤"))
        lines += row_lines(row, "│", "│", "│")
    lines.append(rule("└", "─", "┴", "┘"))
    return lines


def _format_shape(shape):
    if isinstance(shape, (list, tuple)) and shape and isinstance(shape[0], (list, tuple)):
        return "[" + ", ".join(_format_shape(s) for s in shape) + "]"
    if isinstance(shape, dict):
        return "{" + ", ".join(f"{k}: {_format_shape(v)}" for k, v in shape.items()) + "}"
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _keras_computes_shape(layer):
    """Whether Keras 3 knows this layer's output shape without a call: it (or a built-in layer it extends)
    implements `compute_output_shape`; a custom layer relying on the base class's shows "?"."""
    from tfcompat.keras.layers.base import Layer
    for cls in type(layer).__mro__:
        if cls is Layer:
            return False
        if "compute_output_shape" in cls.__dict__ or cls.__module__.startswith("tfcompat.keras.layers."):
            return True
    return False


def _layer_output_shape(layer):
    """Keras's `format_layer_shape`: the outputs of the layer's last symbolic call, else the shape computed from
    the shape it was built with, else "?"."""
    nodes = layer.__dict__.get("_inbound_nodes") or []
    if nodes:
        shapes = [tuple(kt._shape) for kt in nest.flatten(nodes[-1].outputs)]
        return _format_shape(shapes[0] if len(shapes) == 1 else shapes)
    build_shape = layer.__dict__.get("_build_input_shape")
    if build_shape is None or not layer.built:
        return "?"
    try:
        if getattr(layer, "_output_spec", None) is not None or getattr(layer, "_outputs_struct", None) is not None:
            return _format_shape(layer.output_shape)
        if not _keras_computes_shape(layer):
            return "?"
        return _format_shape(layer.compute_output_shape(build_shape))
    except NotImplementedError:
        return "?"


def _graph_layout(model):
    """(operations to list, sequential-like?, the model's nodes or None) as Keras 3 decides them."""
    nodes_by_depth = getattr(model, "_nodes_by_depth", None)
    if getattr(model, "_stack", None) is not None or nodes_by_depth is None:
        return list(model.layers), True, None       # Sequential and subclassed models: a plain list of layers
    relevant = [node for nodes in nodes_by_depth for node in nodes]
    sequential_like = all(len(nodes) == 1 and len(nodes[0].input_tensors) <= 1 for nodes in nodes_by_depth)
    if sequential_like:                              # a shared layer makes it a graph too
        ids = {id(n) for n in relevant}
        sequential_like = all(sum(id(n) in ids for n in layer.__dict__.get("_inbound_nodes") or []) <= 1
                              for layer in model.layers)
    return list(model.operations), sequential_like, relevant


def _connections(layer, relevant):
    ids = {id(n) for n in relevant}
    parts = []
    for node in layer.__dict__.get("_inbound_nodes") or []:
        if id(node) not in ids:
            continue
        for kt in node.input_tensors:
            history = kt._keras_history
            parts.append(f"{history.operation.name}[{history.node_index}][{history.tensor_index}]")
    return ", ".join(parts) or "-"


def _memory(weights):
    return sum(math.prod(w.shape.as_list()) * storage(w).element_size() for w in {id(w): w for w in weights}.values())


def _readable(size):
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _count(weights):
    return int(sum(math.prod(w.shape.as_list()) for w in {id(w): w for w in weights}.values()))


def _layer_range(layers, layer_range):
    """Keras's `get_layer_index_bound_by_layer_name`: [first, last + 1] of the layers whose names match."""
    if layer_range is None:
        return 0, len(layers)
    if len(layer_range) != 2:
        raise ValueError(f"layer_range must be a list or tuple of length 2. Received: layer_range = {layer_range} "
                         f"of length {len(layer_range)}")
    if not isinstance(layer_range[0], str) or not isinstance(layer_range[1], str):
        raise ValueError(f"layer_range should contain string type only. Received: {layer_range}")
    lower = [i for i, layer in enumerate(layers) if re.match(layer_range[0], layer.name)]
    upper = [i for i, layer in enumerate(layers) if re.match(layer_range[1], layer.name)]
    if not lower or not upper:
        raise ValueError(f"Passed layer_names do not match the layer names in the model. Received: {layer_range}")
    if min(lower) > max(upper):
        return min(upper), max(lower) + 1
    return min(lower), max(upper) + 1


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                  layer_range=None):
    """Prints (or passes to `print_fn`) Keras 3's `model.summary()` text."""
    layers, sequential_like, relevant = _graph_layout(model)
    if sequential_like:
        default, positions = 88, positions or [0.45, 0.80, 1.0]
        header, alignment = ["Layer (type)", "Output Shape", "Param #"], ["left", "left", "right"]
    else:
        default, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        alignment = ["left", "left", "right", "left"]
    if show_trainable:
        default += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header, alignment = header + ["Trainable"], alignment + ["center"]
    console_width = shutil.get_terminal_size().columns
    line_length = line_length or min(default, console_width - 4)
    column_widths, current = [], 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        column_widths.append(width)
        current += width

    def fields(layer, prefix):
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        row = [f"{prefix}{layer.name} ({type(layer).__name__})", _layer_output_shape(layer), params]
        if not sequential_like:
            row.append(_connections(layer, relevant))
        if show_trainable:
            row.append(("Y" if layer.trainable else "N") if layer.weights else "-")
        return row

    def layer_rows(layer, level=0):
        rows = [fields(layer, "   " * level + "└ " if level else "")]
        if expand_nested and getattr(layer, "layers", None):
            for sub in layer.layers:
                rows += layer_rows(sub, level + 1)
        return rows

    rows = []
    first, last = _layer_range(layers, layer_range)
    for layer in layers[first:last]:
        rows += layer_rows(layer)
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    optimizer = model.optimizer if model.compiled else None
    opt_vars = optimizer.variables if optimizer is not None and optimizer.built else None
    totals = _count(trainable) + _count(non_trainable) + (_count(opt_vars) if opt_vars is not None else 0)
    total_mem = _memory(trainable) + _memory(non_trainable) + (_memory(opt_vars) if opt_vars is not None else 0)
    lines = [f'Model: "{model.name}"']
    lines += _render_table(header, alignment, rows, column_widths, line_length)
    lines.append(f" Total params: {totals:,} ({_readable(total_mem)})")
    lines.append(f" Trainable params: {_count(trainable):,} ({_readable(_memory(trainable))})")
    lines.append(f" Non-trainable params: {_count(non_trainable):,} ({_readable(_memory(non_trainable))})")
    if opt_vars is not None:
        lines.append(f" Optimizer params: {_count(opt_vars):,} ({_readable(_memory(opt_vars))})")
    text = "\n".join(line[:console_width] for line in lines) + "\n"
    if print_fn is None:
        from tfcompat.keras.utils_progbar import print_msg
        print_msg(text, line_break=False)
    else:
        print_fn(text)
