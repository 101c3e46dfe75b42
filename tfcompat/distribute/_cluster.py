"""A cluster's jobs and task addresses (TF's `ClusterSpec`), and a task's rank among the collective workers."""


class ClusterSpec:
    """The jobs of a cluster and their tasks' addresses (TF's `tf.train.ClusterSpec` view of a dict)."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        self._cluster = {job: list(tasks.values()) if isinstance(tasks, dict) else list(tasks)
                         for job, tasks in dict(cluster).items()}

    @property
    def jobs(self):
        return list(self._cluster)

    def as_dict(self):
        return {job: list(tasks) for job, tasks in self._cluster.items()}

    def num_tasks(self, job_name):
        if job_name not in self._cluster:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return len(self._cluster[job_name])

    def task_address(self, job_name, task_index):
        return self._cluster[job_name][task_index]

    def __bool__(self):
        return bool(self._cluster)

    def __repr__(self):
        return f"ClusterSpec({self.as_dict()})"


def collective_rank(resolver):
    """(rank, world size, rendezvous address) of the resolver's task among the chief and workers (chief first)."""
    spec = resolver.cluster_spec().as_dict()
    members = [("chief", i) for i in range(len(spec.get("chief", [])))] + \
        [("worker", i) for i in range(len(spec.get("worker", [])))]
    if not members:
        return 0, 1, None
    task = (resolver.task_type, resolver.task_id)
    if task not in members:
        raise ValueError(f"Unrecognized task_type: {resolver.task_type}, valid task types are: \"chief\", "
                         "\"worker\"")
    job, index = members[0]
    return members.index(task), len(members), spec[job][index]
