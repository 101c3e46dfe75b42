"""`compile()`'s losses and metrics: Keras 3's string resolution, per-output losses/metrics and their names.

`"accuracy"`/`"acc"` become Binary/SparseCategorical/CategoricalAccuracy from the shapes of the first batch
(as Keras decides), `"crossentropy"`/`"ce"` the matching cross-entropy; other strings go through
`keras.losses.get`/`keras.metrics.get`, functions are wrapped and named after the string given.
"""
from tfcompat.eager.function import current_recorder
from tfcompat.keras import losses as losses_module
from tfcompat.keras import metrics as metrics_module
from tfcompat.util import nest


def is_binary_or_sparse_categorical(y_true, y_pred):
    t_shape, p_shape = tuple(y_true.shape), tuple(y_pred.shape)
    is_binary = p_shape[-1] == 1
    is_sparse = len(t_shape) < len(p_shape) or (t_shape[-1] == 1 and p_shape[-1] > 1)
    return is_binary, is_sparse


def _object_name(obj):
    return getattr(obj, "name", None) or getattr(obj, "__name__", None) or type(obj).__name__


def get_metric(identifier, y_true, y_pred):
    """The metric object `identifier` names for outputs shaped like `y_pred` (Keras's `get_metric`)."""
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() not in ("accuracy", "acc"):
        metric = metrics_module.get(identifier)
    else:
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        cls = metrics_module.BinaryAccuracy if is_binary else (
            metrics_module.SparseCategoricalAccuracy if is_sparse else metrics_module.CategoricalAccuracy)
        metric = cls(name=str(identifier))
    name = identifier if isinstance(identifier, str) else _object_name(metric)
    if not isinstance(metric, metrics_module.Metric):
        metric = metrics_module.MeanMetricWrapper(metric)
    metric.name = name
    return metric


def get_loss(identifier, y_true, y_pred):
    """The loss object `identifier` names (`None` means no loss for this output)."""
    if identifier is None:
        return None
    if str(identifier).lower() not in ("crossentropy", "ce"):
        loss = losses_module.get(identifier)
    else:
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        loss = losses_module.binary_crossentropy if is_binary else (
            losses_module.sparse_categorical_crossentropy if is_sparse else losses_module.categorical_crossentropy)
    if not isinstance(loss, losses_module.Loss):
        name = identifier if isinstance(identifier, str) else _object_name(loss)
        loss = losses_module.LossFunctionWrapper(loss, name=name)
    return loss


def _per_output(spec, output_names, num_outputs, what):
    """`spec` (one value, a list per output, or a dict by output name) as a list with one entry per output."""
    if num_outputs == 1:
        if isinstance(spec, dict):
            values = list(spec.values())
            return [values[0] if values else None]
        if isinstance(spec, (list, tuple)) and what in ("loss", "loss_weights"):
            return [spec[0]] if len(spec) == 1 else [spec]
        return [spec]
    if isinstance(spec, dict):
        unknown = [k for k in spec if k not in (output_names or [])]
        if unknown:     # Keras's nested build looks each path of the dict up in the outputs
            raise KeyError(f"The path: {(unknown[0],)} in the `{what}` argument, can't be found in either the model's "
                           "output (`y_pred`) or in the labels (`y_true`).")
        return [spec.get(n) for n in output_names]
    if isinstance(spec, (list, tuple)):
        if len(spec) != num_outputs:
            raise ValueError(f"For a model with multiple outputs, when providing the `{what}` argument as a list, "
                             f"it should have as many entries as the model has outputs. Received:\n{what}={spec}\n"
                             f"of length {len(spec)} whereas the model has {num_outputs} outputs.")
        return list(spec)
    if what in ("loss", "loss_weights"):
        return [spec] * num_outputs
    raise ValueError(f"Invalid `{what}` for a model with {num_outputs} outputs: {spec}")


def _match_loss_weights(loss, loss_weights, output_names, dict_outputs):
    """`compile`'s `loss` and `loss_weights` as Keras's `CompileLoss.build` pairs them: a loss dict for outputs that
    are not a dict must name every output (its weights dict is read by those names); weights of another structure
    than the losses are repacked into it when their counts agree."""
    if output_names and isinstance(loss, dict) and not dict_outputs:
        if set(output_names) != set(loss):
            raise ValueError(f"Expected keys {output_names} in loss dict, but found loss.keys()={list(loss.keys())}")
        loss = [loss[name] for name in output_names]
        if isinstance(loss_weights, dict):
            loss_weights = [loss_weights[name] for name in output_names]
    if loss_weights is not None and not _same_structure(loss, loss_weights):
        flat = nest.flatten(loss_weights)
        if len(nest.flatten(loss)) != len(flat):
            raise ValueError(f"`loss_weights` must match the number of losses, got {len(nest.flatten(loss))} losses "
                             f"and {len(loss_weights)} weights.")
        loss_weights = nest.pack_sequence_as(loss, flat)
    return loss, loss_weights


def _same_structure(a, b):
    try:
        nest.assert_same_structure(a, b, check_types=False)
    except (ValueError, TypeError):
        return False
    return True


def _structure_mismatch(spec, y_pred):
    """The text of Keras's tree error when `metrics` does not have the structure of the outputs (lists compared as
    tuples)."""
    spec = tuple(spec) if isinstance(spec, list) else spec
    if isinstance(y_pred, dict):
        if not isinstance(spec, dict):
            return ("Expected an instance of dict, collections.OrderedDict, or collections.defaultdict, got "
                    f"{spec!r}.")
        expected, got = sorted(y_pred), sorted(spec)
        return (f"dictionary key mismatch; expected key(s): {expected}, got key(s): {got}, missing key(s): "
                f"{[k for k in expected if k not in spec]}, extra key(s): {[k for k in got if k not in y_pred]}; "
                f"dict: {spec!r}.")
    if not isinstance(spec, tuple):
        return f"Expected an instance of tuple, got {spec!r}."
    return f"tuple arity mismatch; expected: {len(y_pred)}, got: {len(spec)}; tuple: {spec!r}."


def _flatten_outputs(y, output_names):
    if isinstance(y, dict) and output_names is not None:
        return [y[n] for n in output_names]
    return nest.flatten(y)


def _batch_size(y):
    return int(nest.flatten(y)[0].shape[0])


class CompileLoss:
    """The loss `compile` configured: the weighted sum of each output's loss (plus per-output trackers)."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        self._user_loss = loss
        self._user_loss_weights = loss_weights
        self.output_names = output_names
        self.built = False
        self.metrics = []

    def build(self, y_true, y_pred):
        flat_pred = nest.flatten(y_pred)
        n = len(flat_pred)
        names = sorted(y_pred) if isinstance(y_pred, dict) and (self.output_names is None or
                                                                set(self.output_names) != set(y_pred)) \
            else self.output_names
        self.output_names = names
        flat_true = _flatten_outputs(y_true, names) if n > 1 else nest.flatten(y_true)[:1]
        loss, loss_weights = _match_loss_weights(self._user_loss, self._user_loss_weights, self.output_names,
                                                 isinstance(y_pred, dict))
        specs = _per_output(loss, names, n, "loss")
        weights = _per_output(loss_weights, names, n, "loss_weights") if loss_weights is not None else [None] * n
        self._losses = [get_loss(s, t, p) for s, t, p in zip(specs, flat_true, flat_pred)]
        self._weights = [1.0 if w is None else float(w) for w in weights]
        if n > 1:
            labels = names or [f"output_{i}" for i in range(n)]
            # Keras tracks each output's loss only when more than one output has a loss
            tracked = sum(fn is not None for fn in self._losses) > 1
            self._trackers = [metrics_module.Mean(name=f"{label}_loss") if tracked and fn is not None else None
                              for label, fn in zip(labels, self._losses)]
            self.metrics = [t for t in self._trackers if t is not None]
        self._multi = n > 1
        self.built = True

    def __call__(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        if not self._multi:
            fn = self._losses[0]
            if fn is None:
                return None
            value = fn(nest.flatten(y_true)[0], nest.flatten(y_pred)[0], sample_weight)
            return value if self._weights[0] == 1.0 else value * self._weights[0]
        names = self.output_names
        flat_true, flat_pred = _flatten_outputs(y_true, names), _flatten_outputs(y_pred, names)
        flat_sw = _flatten_outputs(sample_weight, names) if sample_weight is not None else [None] * len(flat_pred)
        if len(flat_sw) < len(flat_pred):
            flat_sw = [flat_sw[0]] * len(flat_pred)
        total = None
        # Keras weighs each output's tracker by the batch's static size: None in a traced step (TF's dataset keeps a
        # partial last batch, so its batch dim is unknown), so there the tracker averages over batches
        batch = None if current_recorder() is not None else _batch_size(flat_pred)
        for fn, w, tracker, t, p, sw in zip(self._losses, self._weights, self._trackers, flat_true, flat_pred,
                                            flat_sw):
            if fn is None:
                continue
            value = fn(t, p, sw)
            if tracker is not None:
                tracker.update_state(value, sample_weight=batch)
            value = value * w if w != 1.0 else value
            total = value if total is None else total + value
        return total


class MetricsList(metrics_module.Metric):
    """The metrics of one output (`output_name` prefixes their names in multi-output results)."""

    def __init__(self, metrics, name="metrics_list", output_name=None):
        super().__init__(name=name)
        self.metrics = metrics
        self.output_name = output_name

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]


class CompileMetrics(metrics_module.Metric):
    """The metrics `compile` configured (`metrics` unweighted, `weighted_metrics` with sample weights)."""

    def __init__(self, metrics, weighted_metrics, name="compile_metric", output_names=None):
        super().__init__(name=name)
        for arg, value in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
            if value and not isinstance(value, (list, tuple, dict)):
                raise ValueError(f"Expected `{arg}` argument to be a list, tuple, or dict. Received instead: "
                                 f"{arg}={value} of type {type(value)}")
        self._user_metrics = metrics
        self._user_weighted_metrics = weighted_metrics
        self.built = False
        self.name = "compile_metrics"
        self.output_names = output_names
        self._flat_metrics = []
        self._flat_weighted_metrics = []

    @property
    def metrics(self):
        return [m for ml in self._flat_metrics + self._flat_weighted_metrics if ml for m in ml.metrics]

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]

    def build(self, y_true, y_pred):
        n = len(nest.flatten(y_pred))
        if isinstance(y_pred, dict) and (self.output_names is None or set(self.output_names) != set(y_pred)):
            self.output_names = sorted(y_pred)
        self._names = self.output_names if n > 1 else None
        self._flat_metrics = self._build_set(self._user_metrics, n, y_true, y_pred, "metrics")
        self._flat_weighted_metrics = self._build_set(self._user_weighted_metrics, n, y_true, y_pred,
                                                      "weighted_metrics")
        self.built = True

    def _build_set(self, spec, n, y_true, y_pred, argument):
        if not spec:
            return [None] * n
        if n == 1:
            flat = nest.flatten(spec)
            return [MetricsList([get_metric(m, nest.flatten(y_true)[0], nest.flatten(y_pred)[0]) for m in flat])]
        names = self.output_names or [None] * n
        if isinstance(spec, dict) and set(spec) <= set(names):
            per = [spec.get(name) for name in names]
        elif isinstance(spec, (list, tuple)) and len(spec) == n:
            per = list(spec)
        else:
            raise ValueError(f"{_structure_mismatch(spec, y_pred)}\nInvalid `{argument}`. `{argument}` should contain "
                             "metrics objects and either be a dict or a list matching the output names of the "
                             f"functional model {self.output_names} or match the output structure of the model: "
                             f"{nest.map_structure(lambda _: 'X', y_pred)}.\nReceived: {argument}={spec}")
        out = []
        for m, t, p, name in zip(per, _flatten_outputs(y_true, self._names), _flatten_outputs(y_pred, self._names),
                                 names):
            if m is None:
                out.append(None)
                continue
            m = m if isinstance(m, (list, tuple)) else [m]
            out.append(MetricsList([get_metric(x, t, p) for x in m], output_name=name))
        return out

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        y_true = _flatten_outputs(y_true, self._names)
        y_pred = _flatten_outputs(y_pred, self._names)
        for ml, t, p in zip(self._flat_metrics, y_true, y_pred):
            if ml:
                for m in ml.metrics:
                    m.update_state(t, p)
        if not any(self._flat_weighted_metrics):
            return
        if sample_weight is not None:
            sample_weight = _flatten_outputs(sample_weight, self._names)
            if len(sample_weight) < len(y_true):
                sample_weight = [sample_weight[0]] * len(y_true)
        else:
            sample_weight = [None] * len(y_true)
        for ml, t, p, sw in zip(self._flat_weighted_metrics, y_true, y_pred, sample_weight):
            if ml:
                for m in ml.metrics:
                    m.update_state(t, p, sw)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()

    def result(self):
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        results, counts = {}, {}
        for weighted, group in ((False, self._flat_metrics), (True, self._flat_weighted_metrics)):
            for ml in group:
                if not ml:
                    continue
                for m in ml.metrics:
                    name = f"{ml.output_name}_{m.name}" if ml.output_name else m.name
                    if name not in counts:
                        counts[name] = 1
                    elif weighted:
                        name = f"{ml.output_name}_weighted_{m.name}" if ml.output_name else f"weighted_{m.name}"
                    else:
                        counts[name] += 1
                        name = f"{name}_{counts[name] - 1}"
                    results[name] = m.result()
        return results
