"""A task's rank among a cluster's collective workers (the chief first, then the workers) and its host's share."""


def _members(spec):
    return [("chief", i) for i in range(len(spec.get("chief", [])))] + \
        [("worker", i) for i in range(len(spec.get("worker", [])))]


def collective_rank(resolver):
    """(rank, world size, rendezvous address) of the resolver's task among the chief and workers (chief first)."""
    spec = resolver.cluster_spec().as_dict()
    members = _members(spec)
    if not members:
        return 0, 1, None
    task = (resolver.task_type, resolver.task_id)
    if task not in members:
        raise ValueError(f"Unrecognized task_type: {resolver.task_type}, valid task types are: \"chief\", "
                         "\"worker\"")
    job, index = members[0]
    return members.index(task), len(members), spec[job][index]


def workers_on_host(resolver):
    """How many of the cluster's collective workers share this task's host (the address before the port)."""
    spec = resolver.cluster_spec().as_dict()
    hosts = [str(spec[job][i]).rpartition(":")[0] for job, i in _members(spec)]
    mine = str(spec[resolver.task_type][resolver.task_id]).rpartition(":")[0]
    return max(1, hosts.count(mine))
