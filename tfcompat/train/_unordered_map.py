"""The iteration order of libstdc++'s `std::unordered_map<std::string, ...>`: TF's checkpoint reader returns its
variable-to-shape and variable-to-dtype maps in it, and Python code prints them in that order."""

_MASK = (1 << 64) - 1
_MUL = (0xc6a4a793 << 32) + 0x5bd1e995
_SEED = 0xc70f6907
# bucket counts as the map grows (libstdc++'s prime rehash policy, max load factor 1, from 13 buckets at the first
# insertion, then the first of its listed primes >= twice the count)
_BUCKETS = (13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061, 712697, 1447153,
            2938679, 5967347, 12117689, 24607243, 49969847, 101473717)


def _shift_mix(v):
    return v ^ (v >> 47)


def string_hash(data):
    """`std::hash<std::string>` (libstdc++'s `_Hash_bytes`, 64-bit) of `data` bytes."""
    n = len(data)
    h = (_SEED ^ (n * _MUL)) & _MASK
    aligned = n & ~7
    for i in range(0, aligned, 8):
        word = _shift_mix((int.from_bytes(data[i:i + 8], "little") * _MUL) & _MASK) * _MUL & _MASK
        h = ((h ^ word) * _MUL) & _MASK
    if n & 7:
        h = ((h ^ int.from_bytes(data[aligned:], "little")) * _MUL) & _MASK
    return _shift_mix(_shift_mix(h) * _MUL & _MASK)


def iteration_order(keys):
    """`keys` (distinct str) in the order a `std::unordered_map` iterates them after inserting them in this order."""
    if len(keys) > _BUCKETS[-1]:
        raise NotImplementedError(f"the std::unordered_map order of more than {_BUCKETS[-1]} keys")
    hashes = [string_hash(k.encode("utf-8")) for k in keys]
    head = len(keys)                       # the before-begin node
    nxt = [None] * (len(keys) + 1)         # singly linked node list, as libstdc++ keeps it
    before = {}                            # bucket -> the node before its first node
    growth = 0
    for i, h in enumerate(hashes):
        if i == 0 or i + 1 > _BUCKETS[growth]:
            growth += i > 0
            before = _rehash(nxt, head, hashes, _BUCKETS[growth])
        b = h % _BUCKETS[growth]
        prev = before.get(b)
        if prev is not None:               # first node of its bucket
            nxt[i], nxt[prev] = nxt[prev], i
        else:                              # a new bucket: at the head of the list
            nxt[i], nxt[head] = nxt[head], i
            if nxt[i] is not None:
                before[hashes[nxt[i]] % _BUCKETS[growth]] = i
            before[b] = head
    out, node = [], nxt[head]
    while node is not None:
        out.append(keys[node])
        node = nxt[node]
    return out


def _rehash(nxt, head, hashes, n):
    """libstdc++'s `_M_rehash_aux` for unique keys: the nodes relinked into `n` buckets; returns the before-nodes."""
    before, node, head_bucket = {}, nxt[head], None
    nxt[head] = None
    while node is not None:
        following = nxt[node]
        b = hashes[node] % n
        if b not in before:
            nxt[node], nxt[head] = nxt[head], node
            before[b] = head
            if nxt[node] is not None:
                before[head_bucket] = node
            head_bucket = b
        else:
            nxt[node], nxt[before[b]] = nxt[before[b]], node
        node = following
    return before
