"""`tf.train.ClusterSpec`: a cluster's jobs and their tasks' network addresses."""


class ClusterSpec:
    """Jobs mapped to their tasks' addresses: from a dict of lists (or of {task index: address}) or a ClusterSpec."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):          # (by way of TF's ClusterDef: jobs sorted by name)
            cluster = {job: cluster._jobs[job] for job in sorted(cluster._jobs)}
        elif not isinstance(cluster, dict):       # (tfcompat has no ClusterDef protocol buffer)
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")
        self._jobs = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._jobs[job] = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                self._jobs[job] = {int(i): address for i, address in tasks.items()}
            else:
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary from integers to strings.")

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return self._jobs == other

    def __ne__(self, other):
        return self._jobs != other

    __hash__ = None

    def __repr__(self):
        jobs = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {jobs[k]!r}" for k in sorted(jobs)) + "})"

    @property
    def jobs(self):
        return list(self._jobs)

    def _job(self, job_name):
        try:
            return self._jobs[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def as_dict(self):
        """Job names to address lists (dicts of task index to address where the indices have gaps)."""
        out = {}
        for job, tasks in self._jobs.items():
            indices = sorted(tasks)
            if not indices:
                out[job] = {}
            elif indices[-1] + 1 == len(indices):
                out[job] = self.job_tasks(job)
            else:
                out[job] = {i: tasks[i] for i in indices}
        return out

    def num_tasks(self, job_name):
        return len(self._job(job_name))

    def task_indices(self, job_name):
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._job(job_name)
        try:
            return tasks[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name):
        """The job's addresses by task index (None where an index is missing)."""
        tasks = self._job(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []

    def as_cluster_def(self):
        raise NotImplementedError("tf.train.ClusterSpec.as_cluster_def: tfcompat has no ClusterDef protocol buffer")
