"""`tf.compat.v1.data`: `tf.data` plus TF1's iterator functions `make_one_shot_iterator`,
`make_initializable_iterator` and the `get_output_types/shapes/classes` helpers.

Eagerly the iterators are `tf.data.Iterator`s. In a TF1 graph an iterator is a node: `get_next()` gives the
element's tensors (`IteratorGetNext:0`, `:1`...), each `Session.run` that fetches them advances the iterator once,
and the end is TF's `OutOfRangeError`. Its position is per session, as TF's iterator resources are: a one-shot
iterator starts afresh in each session; an initializable one raises `FailedPreconditionError` until its
`initializer` has run in that session, and running it again restarts it.
"""
import weakref

from tfcompat.data import *  # noqa: F401,F403
from tfcompat.data import Dataset  # noqa: F401
from tfcompat.data.iterator import OwnedIterator
from tfcompat.framework import errors, graph_state
from tfcompat.framework.graph import Operation, SymbolicTensor
from tfcompat.util import nest

_positions = weakref.WeakKeyDictionary()       # session -> {iterator id: Python iterator over the elements}


class _Component(SymbolicTensor):
    """Output `index` of an `IteratorGetNext` node."""

    def __init__(self, op, index, dtype, shape):
        super().__init__(op, dtype, shape)
        self._index = index

    @property
    def name(self):
        return f"{self.op.inputs[0].name}:{self._index}"

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


class Iterator:
    """A TF1 graph iterator over `dataset` (see the module doc)."""

    def __init__(self, dataset, initializable):
        self._dataset, self._graph = dataset, graph_state.default_graph()
        self._initializable = initializable
        self._initializer = Operation(self._graph, "MakeIterator", "MakeIterator", self._restart) \
            if initializable else None

    def _restart(self, session):
        _positions.setdefault(session, {})[id(self)] = iter(self._dataset._elements())

    def _next(self, session):
        positions = _positions.setdefault(session, {})
        it = positions.get(id(self))
        if it is None:
            if self._initializable:
                raise errors.FailedPreconditionError(
                    None, None, "GetNext() failed because the iterator has not been initialized. Ensure that you "
                    "have run the initializer operation for this iterator before getting the next element.")
            it = positions[id(self)] = iter(self._dataset._elements())
        try:
            return nest.flatten(next(it))
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("The iterator does not have an initializer. This means it was likely created using "
                             "`tf.data.Dataset.make_one_shot_iterator()`. For an initializable iterator, use "
                             "`tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    @property
    def element_spec(self):
        return self._dataset.element_spec

    @property
    def output_types(self):
        return nest.map_structure(lambda s: s.dtype, self.element_spec)

    @property
    def output_shapes(self):
        return nest.map_structure(lambda s: s.shape, self.element_spec)

    @property
    def output_classes(self):
        return nest.map_structure(lambda s: s.value_type, self.element_spec)

    def get_next(self, name=None):
        """The next element's tensors: a new `IteratorGetNext` node (`name`) each call."""
        specs = nest.flatten(self.element_spec)
        node = Operation(self._graph, name or "IteratorGetNext", "IteratorGetNext", self._next)
        components = []
        for i, spec in enumerate(specs):
            pick = Operation(self._graph, None, "IteratorGetNext", lambda session, values, i=i: values[i], (node,))
            pick.output = _Component(pick, i, spec.dtype, spec.shape)
            components.append(pick.output)
        return nest.pack_sequence_as(self.element_spec, components)


def make_one_shot_iterator(dataset):
    """An iterator over `dataset` that needs no initialization (eagerly, `iter(dataset)`)."""
    if graph_state.default_graph() is None:
        return OwnedIterator(dataset)
    return Iterator(dataset, initializable=False)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator over `dataset` that starts at each run of its `initializer` (a TF1 graph only)."""
    if graph_state.default_graph() is None:
        raise RuntimeError("`make_initializable_iterator()` is not supported in eager mode. Use Python-style "
                           "iteration instead.")
    return Iterator(dataset, initializable=True)


def get_output_types(dataset_or_iterator):
    return nest.map_structure(lambda s: s.dtype, dataset_or_iterator.element_spec)


def get_output_shapes(dataset_or_iterator):
    return nest.map_structure(lambda s: s.shape, dataset_or_iterator.element_spec)


def get_output_classes(dataset_or_iterator):
    return nest.map_structure(lambda s: s.value_type, dataset_or_iterator.element_spec)


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    import tfcompat.data as _data
    return getattr(_data, attr)
