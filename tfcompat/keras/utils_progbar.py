"""`keras.utils.Progbar`: Keras 3's progress bar, byte for byte (ANSI styles included, as Keras prints them)."""
import logging
import math
import os
import sys
import time

import numpy as np

from tfcompat.keras._config import flags

_BOLD, _GREEN, _GREY, _RESET = "\x1b[1m", "\x1b[32m", "\x1b[37m", "\x1b[0m"


def print_msg(message, line_break=True):
    """Writes `message` to stdout and flushes (Keras's `io_utils.print_msg`); with interactive logging disabled
    (`keras.config.disable_interactive_logging()`) it goes to absl's logger at INFO level instead."""
    if not flags.interactive_logging:
        logging.getLogger("absl").info(str(message))
        return
    sys.stdout.write(f"{message}\n" if line_break else message)
    sys.stdout.flush()


def format_time(time_per_unit, unit_name):
    """` 12ms/step`: seconds, milliseconds or microseconds per unit, as Keras rounds them."""
    if time_per_unit >= 1 or time_per_unit == 0:
        return f" {time_per_unit:.0f}s/{unit_name}"
    if time_per_unit >= 1e-3:
        return f" {time_per_unit * 1000.0:.0f}ms/{unit_name}"
    return f" {time_per_unit * 1000000.0:.0f}us/{unit_name}"


def _format_eta(eta):
    if eta > 3600:
        return "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
    if eta > 60:
        return "%d:%02d" % (eta // 60, eta % 60)
    return "%ds" % eta


class Progbar:
    """Displays a progress bar (`keras.utils.Progbar`): verbose 1 redraws one line, 2 prints the final line."""

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None, stateless_metrics=None,
                 unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Only one of `stateful_metrics` or `stateless_metrics` can be provided. `stateful_metrics` is used "
                "to make metrics stateless by default (with an exclusion list), while `stateless_metrics` is used "
                "to make metrics stateful by default (with an exclusion list).")
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        if stateless_metrics is not None:
            self.stateful_metrics, self.stateless_metrics = None, set(stateless_metrics)
        else:
            self.stateful_metrics, self.stateless_metrics = set(stateful_metrics or ()), None
        self._dynamic_display = ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty())
                                 or "ipykernel" in sys.modules or "posix" in sys.modules
                                 or "PYCHARM_HOSTED" in os.environ)
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_after_first_step = None
        self._prev_total_width = 0

    def _is_stateless(self, k):
        if self.stateful_metrics is not None:
            return k not in self.stateful_metrics
        return k in self.stateless_metrics

    def update(self, current, values=None, finalize=None):
        """Shows step `current` with `values` (`[(name, value)]`; stateless ones are averaged over steps)."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            if self._is_stateless(k) and not finalize:
                base = max(current - self._seen_so_far, 1)
                if k in self._values:
                    self._values[k][0] += v * base
                    self._values[k][1] += base
                else:
                    self._values[k] = [v * base, base]
            else:
                self._values[k] = [v, 1]
        self._seen_so_far = current
        now = time.time()
        time_per_unit = self._estimate_step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw(current, now, time_per_unit, finalize)
        elif self.verbose == 2 and finalize and self.target is not None and self.target > 0:
            numdigits = int(math.log10(self.target)) + 1
            info = f"%{numdigits}d/%d" % (current, self.target) + f" - {now - self._start:.0f}s"
            info += " -" + format_time(time_per_unit, self.unit_name)
            for k in self._values_order:
                info += f" - {k}: " + self._average(k, verbose2=True)
            print_msg(info + "\n", line_break=False)
        self._last_update = now

    def _average(self, k, verbose2=False):
        total, count = self._values[k]
        if not isinstance(total, float):
            total = np.mean(total)
        avg = total / max(1, count)
        big = avg > 1e-3 if verbose2 else abs(avg) > 1e-3
        return f"{avg:.4f}" if big else f"{avg:.4e}"

    def _draw(self, current, now, time_per_unit, finalize):
        message = "\b" * self._prev_total_width + "\r" if self._dynamic_display else "\n"
        special = 0
        if self.target is not None and self.target > 0:
            numdigits = int(math.log10(self.target)) + 1
            bar = f"{_BOLD}" + f"%{numdigits}d/%d" % (current, self.target) + f"{_RESET} "
            special += 8
            prog_width = int(self.width * float(current) / self.target)
            if prog_width > 0:
                bar += f"{_GREEN}{'━' * prog_width}{_RESET}"
                special += 9
            bar += f"{_GREY}{'━' * (self.width - prog_width)}{_RESET}"
            special += 9
        else:
            bar = "%7d/Unknown" % current
        if self.target is not None and self.target > 0 and not finalize:
            info = f" {_BOLD}{_format_eta(time_per_unit * (self.target - current))}{_RESET}"
        else:
            info = f" {_BOLD}{now - self._start:.0f}s{_RESET}"
        special += 8
        info += format_time(time_per_unit, self.unit_name)
        for k in self._values_order:
            info += f" - {k}: " + self._average(k)
        message += bar + info
        total_width = len(bar) + len(info) - special
        if self._prev_total_width > total_width:
            message += " " * (self._prev_total_width - total_width)
        if finalize:
            message += "\n"
        print_msg(message, line_break=False)
        self._prev_total_width = total_width

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    def _estimate_step_duration(self, current, now):
        """Seconds per step, leaving out the first step once more than one step ran."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit
