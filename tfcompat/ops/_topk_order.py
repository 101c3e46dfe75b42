"""TF's CPU TopKV2 columns where a descending sort does not give them: rows holding NaN (C++ comparisons with NaN
are all false, so the result depends on the algorithm) and sorted=False (the order of TF's heap).

A row is replayed as TF's kernel runs it: k == 1 scans for the maximum, k == num_cols sorts with std::sort then
orders equal runs by index, otherwise gtl::TopN pushes every column through libstdc++'s heap functions."""
_FLT_MAX = 3.4028234663852886e38           # Eigen's initial value for a max reduction: the lowest float


def _adjust_heap(a, hole, n, value, comp):
    top, child = hole, hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if comp(a[child], a[child - 1]):
            child -= 1
        a[hole] = a[child]
        hole = child
    if n & 1 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[hole] = a[child - 1]
        hole = child - 1
    _push_heap(a, hole, top, value, comp)


def _push_heap(a, hole, top, value, comp):
    parent = (hole - 1) // 2
    while hole > top and comp(a[parent], value):
        a[hole] = a[parent]
        hole = parent
        parent = (hole - 1) // 2
    a[hole] = value


def _make_heap(a, n, comp):
    if n < 2:
        return
    parent = (n - 2) // 2
    while True:
        _adjust_heap(a, parent, n, a[parent], comp)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, n, comp):
    """std::pop_heap over a[:n]: the heap's top moves to a[n - 1]."""
    if n > 1:
        value = a[n - 1]
        a[n - 1] = a[0]
        _adjust_heap(a, 0, n - 1, value, comp)


def _top_n(row, k, sorted_, comp):
    """gtl::TopN(k) fed columns 0..n-1 (n > k), then Extract (sorted) or the heap as it stands (sorted=False):
    the first k + 1 columns are heapified and the least dropped; a later column that beats the heap's least
    replaces it (pop_heap, then push_heap of the new column)."""
    a = list(range(k + 1))
    _make_heap(a, k + 1, comp)
    _pop_heap(a, k + 1, comp)
    del a[k]
    for c in range(k + 1, len(row)):
        if comp(c, a[0]):
            _pop_heap(a, k, comp)
            a[k - 1] = c
            _push_heap(a, k - 1, 0, c, comp)
    if sorted_:
        for n in range(k, 1, -1):        # std::sort_heap
            _pop_heap(a, n, comp)
    return a


def _insertion_sort(a, lo, hi, comp):
    for i in range(lo + 1, hi):
        v = a[i]
        if comp(v, a[lo]):
            a[lo + 1:i + 1] = a[lo:i]
            a[lo] = v
        else:
            j = i
            while comp(v, a[j - 1]):        # stops at a[lo] at the latest: comp(v, a[lo]) was false
                a[j] = a[j - 1]
                j -= 1
            a[j] = v


def _small_sort(n, comp):
    """std::sort of 0..n-1 where libstdc++ runs only its insertion sort (16 elements or fewer), else None:
    libstdc++'s unguarded passes over larger inputs are not defined for NaN's comparisons."""
    if n > 16:
        return None
    a = list(range(n))
    _insertion_sort(a, 0, n, comp)
    return a


def _scan_max(row, lanes):
    """TF's k == 1 path: Eigen's max reduction, then the first column equal to it (none for NaN: column 0).
    Eigen reduces the first multiple of `lanes` values as SIMD packets, whose max skips NaN, and the rest one
    by one, where a NaN becomes the running value until the next value replaces it; a NaN there is the result."""
    whole = len(row) // lanes * lanes
    packed = max((v for v in row[:whole] if v == v), default=-_FLT_MAX) if whole else None
    acc = -_FLT_MAX
    for v in row[whole:]:
        acc = v if v != v or acc != acc or v > acc else acc
    if packed is not None and acc == acc:
        acc = max(acc, packed)
    for c, v in enumerate(row):
        if v == acc:
            return [c]
    return [0]


def row_order(row, k, sorted_, lanes):
    """The column indices TF's CPU kernel returns for one row (a list of Python numbers; `lanes` values of its
    dtype fill one 32-byte SIMD packet), or None where this module cannot replay it (a NaN row of more than 16
    columns with k == num_cols)."""
    n = len(row)

    def stable_comp(a, b):
        return row[b] < row[a] or (not row[b] > row[a] and a < b)

    if k == 0:
        return []
    if k == 1:
        return _scan_max(row, lanes)
    if k == n:
        out = _small_sort(n, lambda a, b: row[b] < row[a])
        if out is None:
            return None
        i = 0
        while i < n - 1:                   # runs of equal values ordered by index
            j = i + 1
            if row[out[i]] == row[out[j]]:
                while j < n and row[out[i]] == row[out[j]]:
                    j += 1
                out[i:j] = sorted(out[i:j])
            i = j
        return out
    return _top_n(row, k, sorted_, stable_comp)
