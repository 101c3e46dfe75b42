"""TensorFlow's own `Hash64` (a 64-bit MurmurHash2 variant, seed 0xDECAFCAFFE) and `Hash64Combine`: what
`tf.strings.to_hash_bucket` and the dense hash table's string keys hash with."""

_M = 0xC6A4A7935BD1E995
_MASK = (1 << 64) - 1
_SEED = 0xDECAFCAFFE


def hash64(data, seed=_SEED):
    """TF's `Hash64(data, n, seed)` of bytes `data`, as an unsigned 64-bit int."""
    n = len(data)
    h = (seed ^ (n * _M)) & _MASK
    end = n - n % 8
    for i in range(0, end, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * _M) & _MASK
        k ^= k >> 47
        k = (k * _M) & _MASK
        h ^= k
        h = (h * _M) & _MASK
    rest = n - end
    if rest:
        for j in range(rest - 1, -1, -1):
            h ^= data[end + j] << (8 * j)
        h = (h * _M) & _MASK
    h ^= h >> 47
    h = (h * _M) & _MASK
    h ^= h >> 47
    return h


def hash64_combine(a, b):
    """TF's `Hash64Combine(a, b)`."""
    return (a ^ ((b + 0x9E3779B97F4A7800 + (a << 10) + (a >> 4)) & _MASK)) & _MASK
