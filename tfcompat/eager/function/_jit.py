"""The compiled path (`jit_compile=True`): a replay program run through `torch.compile`."""
import warnings

import torch

from tfcompat.eager.function._guards import GuardFailed


class Jit:
    """The `jit_compile=True` form of a replay program, called as `(I, V, C, F)` like the plain one.

    Variables are read outside the compiled graph; the deferred guards (see `_program.program_source`) are checked
    after it. If `torch.compile` itself raises, the trace fails. If the compiled run raises, the plain program runs
    instead: its error (or GuardFailed) is the call's; if it succeeds, the compiler failed, so this program warns
    once per function and stays uncompiled."""

    __slots__ = ("function", "compiled", "plain")

    def __init__(self, function, program, plain):
        self.function = function
        self.plain = plain
        with warnings.catch_warnings():
            # torch.compile's first call imports torch.utils.mkldnn, whose ScriptModules make torch warn that
            # `torch.jit.script_method` is deprecated (a DeprecationWarning, a FutureWarning from torch 2.14 on):
            # torch's own use, not the user's, so it is not shown
            warnings.filterwarnings("ignore", message="`torch.jit.script_method` is ")
            self.compiled = torch.compile(program, dynamic=False)      # raising here fails the trace (no effects)

    def __call__(self, I, V, C, F):  # noqa: E741 the program's parameter names
        compiled = self.compiled
        if compiled is None:
            return self.plain(I, V, C, F)
        try:
            outs, new, failed = compiled(I, [v._read() for v in V], C, F)
        except GuardFailed:
            raise
        except Exception as e:  # noqa: BLE001 - any compiler failure falls back to the plain replay, with a warning
            result = self.plain(I, V, C, F)
            self.compiled = None
            self._warn(e)
            return result
        if failed is not None and failed:
            raise GuardFailed()
        return outs, new

    def _warn(self, error):
        f = self.function
        if not f._jit_warned:
            f._jit_warned = True
            warnings.warn(f"tf.function {f.__name__!r} (jit_compile=True): torch.compile failed, running the recorded "
                          f"program uncompiled: {type(error).__name__}: {error}", RuntimeWarning, stacklevel=2)
