"""`tf.distribute.cluster_resolver`: where the workers of a job are (TF_CONFIG, or an explicit cluster spec)."""
import json as _json
import os as _os

from tfcompat.train.cluster_spec import ClusterSpec as _ClusterSpec
from tfcompat.framework.export import tf_export as _tf_export


@_tf_export("distribute.cluster_resolver.ClusterResolver")
class ClusterResolver:
    """Base of the cluster resolvers: the cluster spec and this task's type and index."""

    task_type = None
    task_id = None
    rpc_layer = None
    environment = ""

    def cluster_spec(self):
        raise NotImplementedError("ClusterResolver.cluster_spec is abstract: use a concrete resolver")

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        spec = self.cluster_spec()
        if task_type is None or task_type not in spec.jobs:
            return ""
        address = spec.task_address(task_type, task_id)
        layer = rpc_layer or self.rpc_layer
        return f"{layer}://{address}" if layer else address

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        import torch
        return {"GPU": torch.cuda.device_count()} if torch.cuda.is_available() else {}


@_tf_export("distribute.cluster_resolver.SimpleClusterResolver")
class SimpleClusterResolver(ClusterResolver):
    """A resolver over a given cluster spec and task."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None, environment="",
                 num_accelerators=None, rpc_layer=None):
        self._cluster_spec = _ClusterSpec(cluster_spec)
        self._master = master
        self.task_type, self.task_id = task_type, task_id
        self.environment, self.rpc_layer = environment, rpc_layer
        self._num_accelerators = num_accelerators

    def cluster_spec(self):
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        if task_type is None and task_id is None and self._master:
            return self._master
        return super().master(task_type, task_id, rpc_layer)


@_tf_export("distribute.cluster_resolver.TFConfigClusterResolver")
class TFConfigClusterResolver(ClusterResolver):
    """The cluster and task of the `TF_CONFIG` environment variable (JSON: `cluster`, `task`, `rpc_layer`)."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer, self._environment = rpc_layer, environment

    @staticmethod
    def _config():
        return _json.loads(_os.environ.get("TF_CONFIG") or "{}")

    @property
    def task_type(self):
        return self._task_type if self._task_type is not None else self._config().get("task", {}).get("type")

    @task_type.setter
    def task_type(self, value):
        self._task_type = value

    @property
    def task_id(self):
        if self._task_id is not None:
            return self._task_id
        index = self._config().get("task", {}).get("index")
        return None if index is None else int(index)

    @task_id.setter
    def task_id(self, value):
        self._task_id = value

    @property
    def rpc_layer(self):
        return self._rpc_layer if self._rpc_layer is not None else self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value):
        self._rpc_layer = value

    @property
    def environment(self):
        return self._environment if self._environment is not None else self._config().get("environment", "")

    def cluster_spec(self):
        return _ClusterSpec(self._config().get("cluster", {}))


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("distribute.cluster_resolver", attr)
