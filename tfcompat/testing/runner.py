"""`tf.test.main`: runs the tests of `__main__` as TF's absltest-based main does (without absl): the absl flags are
taken off the command line (an unknown one is a fatal flags error), `--benchmark_filter=` runs benchmarks instead,
the remaining arguments go to unittest, each test prints absltest's `[ RUN ]`/`[ OK ]` lines, and the process
exits with 0 only if every test passed."""
import logging
import sys
import unittest

from tfcompat.framework.export import tf_export

# absl's flags a test program knows (app, logging and absltest flags): name -> whether it takes a value
_ABSL_FLAGS = {
    "alsologtostderr": False, "logtostderr": False, "showprefixforinfo": False, "run_with_pdb": False,
    "pdb_post_mortem": False, "pdb": False, "run_with_profiling": False, "use_cprofile_for_profiling": False,
    "only_check_args": False, "verbosity": True, "v": True, "log_dir": True, "stderrthreshold": True,
    "logger_levels": True, "profile_file": True, "test_random_seed": True, "test_srcdir": True, "test_tmpdir": True,
    "test_randomize_ordering_seed": True, "xml_output_file": True, "flagfile": True, "undefok": True,
    "helpfull": False, "helpxml": False,
}
_HELP = ("help", "helpshort", "?")


# absl/absltest flags whose effect tfcompat does not provide: refused rather than ignored
_UNSUPPORTED = ("xml_output_file", "test_randomize_ordering_seed", "run_with_pdb", "pdb_post_mortem", "pdb",
                "run_with_profiling", "profile_file", "use_cprofile_for_profiling", "flagfile", "helpfull", "helpxml")


class _FlagsError(Exception):
    pass


def _usage(argv0):
    """absl's short help: the main module's docstring (or a USAGE line), then the pointer to --helpfull."""
    doc = getattr(sys.modules.get("__main__"), "__doc__", None)
    if not doc:
        import os
        doc = f"\n       USAGE: {os.path.basename(argv0)} [flags]"
    return doc.rstrip("\n") + "\n\nTry --helpfull to get a list of all flags."


def _strip_flags(argv):
    """argv without absl's flags (absl stops at `--`, which is dropped); raises _FlagsError for an unknown one."""
    rest = [argv[0]] if argv else []
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i + 1:])
            break
        if not arg.startswith("-") or arg == "-":
            rest.append(arg)
            i += 1
            continue
        name, eq, value = arg.lstrip("-").partition("=")
        if name in _HELP:
            print(_usage(argv[0]))
            sys.exit(1)
        bare = name[2:] if name.startswith("no") and _ABSL_FLAGS.get(name[2:]) is False else name
        if bare not in _ABSL_FLAGS:
            raise _FlagsError(f"Unknown command line flag '{name}'")
        if _ABSL_FLAGS[bare] and not eq:
            if i + 1 >= len(argv):
                raise _FlagsError(f"Missing value for flag {arg}")
            i += 1
            value = argv[i]
        if bare in _UNSUPPORTED and name == bare:
            raise NotImplementedError(f"tf.test.main's absl flag --{bare} is not supported by tfcompat")
        if bare == "test_tmpdir":
            from tfcompat.testing import _tempfiles
            _tempfiles.ROOT[:] = [value]
        i += 1
    return rest


class _TextTestResult(unittest.TextTestResult):
    """absltest's result: a `[ RUN      ]` line per test and its outcome, instead of unittest's dots."""

    def __init__(self, stream, descriptions, verbosity):
        super().__init__(stream, descriptions, 0)
        self._per_test_output = verbosity > 0

    def _print_status(self, tag, test, reason=None):
        if self._per_test_output:
            test_id = test.id()
            if test_id.startswith("__main__."):
                test_id = test_id[len("__main__."):]
            print(f"[{tag}] {test_id} - {reason}" if reason else f"[{tag}] {test_id}", file=self.stream)
            self.stream.flush()

    def startTest(self, test):  # noqa: N802  (unittest's names)
        super().startTest(test)
        self._print_status(" RUN      ", test)

    def addSuccess(self, test):  # noqa: N802
        super().addSuccess(test)
        self._print_status("       OK ", test)

    def addError(self, test, err):  # noqa: N802
        super().addError(test, err)
        self._print_status("  FAILED  ", test)

    def addFailure(self, test, err):  # noqa: N802
        super().addFailure(test, err)
        self._print_status("  FAILED  ", test)

    def addSkip(self, test, reason):  # noqa: N802
        super().addSkip(test, reason)
        self._print_status("  SKIPPED ", test, reason)

    def addExpectedFailure(self, test, err):  # noqa: N802
        super().addExpectedFailure(test, err)
        self._print_status("       OK ", test)

    def addUnexpectedSuccess(self, test):  # noqa: N802
        super().addUnexpectedSuccess(test)
        self._print_status("  FAILED  ", test)


class TextTestRunner(unittest.TextTestRunner):
    resultclass = _TextTestResult


@tf_export("test.main", partial="absl flags --xml_output_file, --test_randomize_ordering_seed, --flagfile, "
                                 "--helpfull/--helpxml and the pdb/profiling flags raise NotImplementedError")
def main(argv=None):
    """Runs all unit tests of `__main__` (or `--benchmark_filter=<regex>`'s benchmarks); exits with the status."""
    args = list(sys.argv if argv is None else argv)
    from tfcompat.ops.misc_ops import get_logger
    logger = get_logger()
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)       # absl's app makes TF's INFO logs visible (each test's time, benchmarks)
    bench = [a for a in args if a.startswith("--benchmark_filter=") or a.startswith("-benchmark_filter=")]
    try:
        if bench:
            args.remove(bench[0])
            _strip_flags(args)
            from tfcompat.testing.benchmark import run_benchmarks
            run_benchmarks(bench[0].split("=")[1])
            sys.exit(0)
        rest = _strip_flags(args)
    except _FlagsError as e:
        sys.stderr.write(f"FATAL Flags parsing error: {e}\nPass --helpshort or --helpfull to see help on flags.\n")
        sys.exit(1)
    sys.stderr.write("Running tests under Python {0[0]}.{0[1]}.{0[2]}: {1}\n".format(
        sys.version_info, sys.executable if sys.executable else "embedded."))
    program = unittest.TestProgram(module="__main__", argv=rest, testRunner=TextTestRunner, exit=False)
    result = program.result
    if sys.version_info[:2] >= (3, 12) and result.testsRun == 0 and not result.skipped:
        sys.exit(5)
    sys.exit(not result.wasSuccessful())
