"""`dtensor.Layout`: how each dimension of a tensor is split over a mesh dimension (or replicated)."""
from tfcompat.dtensor.mesh import Mesh

UNSHARDED = "unsharded"
MATCH = "match"


class Layout:
    """One sharding spec per tensor dimension: a mesh dimension name, or `UNSHARDED` (TF's `Layout`)."""

    def __init__(self, sharding_specs, mesh):
        if not isinstance(mesh, Mesh):
            raise ValueError("mesh is not a valid Mesh object.")
        specs = list(sharding_specs)
        for spec in specs:
            if spec != UNSHARDED and spec not in mesh.dim_names:
                raise ValueError(f"{spec}: A dimension sharding must either be a valid mesh dimension or UNSHARDED.")
        for spec in specs:
            if spec != UNSHARDED and specs.count(spec) > 1:
                raise ValueError(f"Mesh dimension {spec} was repeated in sharding specification {specs}. Mesh "
                                 "dimensions must be unique in a layout.")
        self._specs = specs
        self._mesh = mesh

    @property
    def sharding_specs(self):
        return list(self._specs)

    @property
    def mesh(self):
        return self._mesh

    @property
    def rank(self):
        return len(self._specs)

    @property
    def shape(self):
        """The mesh's shape (as TF's `Layout.shape`)."""
        return self._mesh.shape()

    def num_shards(self, idx):
        """How many pieces tensor dimension `idx` is split into."""
        spec = self._specs[idx]
        return 1 if spec == UNSHARDED else self._mesh.dim_size(spec)

    def is_fully_replicated(self):
        return all(s == UNSHARDED for s in self._specs)

    @staticmethod
    def replicated(mesh, rank):
        return Layout([UNSHARDED] * rank, mesh)

    @staticmethod
    def batch_sharded(mesh, batch_dim, rank, axis=0):
        """Dimension `axis` split over mesh dimension `batch_dim`, the others replicated."""
        specs = [UNSHARDED] * rank
        specs[axis] = batch_dim
        return Layout(specs, mesh)

    @staticmethod
    def inner_sharded(mesh, inner_dim, rank):
        return Layout.batch_sharded(mesh, inner_dim, rank, axis=rank - 1)

    def delete(self, dims):
        """This layout without tensor dimensions `dims` (non-negative indices; TF ignores negative ones)."""
        drop = set(dims)
        return Layout([s for i, s in enumerate(self._specs) if i not in drop], self._mesh)

    def to_string(self):
        return "sharding_specs:" + "".join(s + "," for s in self._specs) + " mesh:" + self._mesh.to_string()

    @staticmethod
    def from_string(layout_str):
        head, sep, mesh = layout_str.partition(" mesh:")
        if not sep or not head.startswith("sharding_specs:"):
            raise ValueError(f"Expected 2 items but found 1{layout_str}\ntensorflow/dtensor/cc/tensor_layout.cc:1285 "
                             ":: ")
        specs = [s for s in head[len("sharding_specs:"):].split(",") if s]
        return Layout(specs, Mesh.from_string(mesh))

    def __repr__(self):
        return f"Layout.from_string({self.to_string()})"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Layout) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())
