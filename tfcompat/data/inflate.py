"""Streaming GZIP/ZLIB decompression of record files, as TF's `ZlibInputStream` reads them.

Output comes in blocks of at most 256 KiB (TF's buffer size), so a small file that inflates to gigabytes
never sits in memory at once. Corrupt data is TF's `DataLossError("inflate() failed with error -3: ...")`;
a stream cut short just ends (the reader then reports a truncated record). GZIP files may hold several
members, one after another; a ZLIB file ends with its first stream (trailing bytes are ignored), as in TF.
"""
import zlib

from tfcompat.framework import errors

BLOCK = 256 << 10


class InflatingReader:
    """`read(n)` of the decompressed bytes of a GZIP (`gzip=True`) or ZLIB file."""

    def __init__(self, path, gzip, error):
        self._f = open(path, "rb")
        self._wbits = 31 if gzip else 15
        self._gzip = gzip
        self._error = error          # builds the DataLossError raised for corrupt data
        self._z = zlib.decompressobj(self._wbits)
        self._pending = b""          # compressed input not yet given to `_z`
        self._out = bytearray()
        self._done = False

    def _fill(self):
        """Appends the next block of output to `_out` (nothing at the end of the data)."""
        while not self._done:
            data = self._pending or self._f.read(BLOCK)
            self._pending = b""
            if not data:
                self._done = True
                return
            try:
                out = self._z.decompress(data, BLOCK)
            except zlib.error as e:
                raise self._error(errors.DataLossError, _inflate_message(e)) from None
            self._pending = self._z.unconsumed_tail
            if self._z.eof:
                if self._gzip:        # another member may follow
                    self._pending = self._z.unused_data
                    self._z = zlib.decompressobj(self._wbits)
                else:
                    self._done = True
            if out:
                self._out += out
                return

    def read(self, n=-1):
        """Up to `n` bytes (all that is left when `n` < 0; fewer only at the end of the data), never inflating
        more than a block beyond `n`."""
        while (n < 0 or len(self._out) < n) and not self._done:
            self._fill()
        if n < 0:
            n = len(self._out)
        data = bytes(self._out[:n])
        del self._out[:n]
        return data

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _inflate_message(e):
    """zlib's 'Error -3 while decompressing data: <why>' in TF's words."""
    text = str(e)
    code, _, why = text.partition(" while decompressing data: ")
    return f"inflate() failed with error {code.split()[-1]}: {why}" if why else f"inflate() failed: {text}"
