"""The assertions `tf.test.TestCase` inherits from absltest's TestCase (TF's base class), with absltest's failure
texts: `fail(msg, user_msg)`, lengths, prefixes and suffixes, element sets, literal exception messages."""
import collections.abc
import difflib
import itertools
import json
import numbers
import re
import unittest


class AbslAssertions:
    """Mixin placed before `unittest.TestCase` in `tf.test.TestCase`'s bases."""

    def fail(self, msg=None, user_msg=None):
        """Fails with the standard message `msg` and the user's `user_msg` (as unittest's longMessage joins them)."""
        super().fail(self._formatMessage(user_msg, msg))

    def shortDescription(self):  # noqa: N802  (unittest's name)
        """The test's id without `__main__.`, then the docstring's first line if any (absltest's description)."""
        desc = self.id()
        if desc.startswith("__main__."):
            desc = desc[len("__main__."):]
        doc_first_line = unittest.TestCase.shortDescription(self)     # not absltest's, if it is mixed in too
        if doc_first_line is not None:
            desc = "\n".join((desc, doc_first_line))
        return desc

    def assertMultiLineEqual(self, first, second, msg=None, **kwargs):  # noqa: N802
        """Two strings equal; the failure lists their ndiff line by line (how absltest reports `assertEqual` on str)."""
        if not isinstance(first, str):
            raise AssertionError(f"First argument is not a string: {first!r}")
        if not isinstance(second, str):
            raise AssertionError(f"Second argument is not a string: {second!r}")
        line_limit = kwargs.pop("line_limit", 0)
        if kwargs:
            raise TypeError(f"Unexpected keyword args {tuple(kwargs)}")
        if first == second:
            return
        failure_message = [msg + ":\n"] if msg else ["\n"]
        if line_limit:
            line_limit += len(failure_message)
        for line in difflib.ndiff(first.splitlines(True), second.splitlines(True)):
            failure_message.append(line)
            if not line.endswith("\n"):
                failure_message.append("\n")
        if line_limit and len(failure_message) > line_limit:
            n_omitted = len(failure_message) - line_limit
            failure_message = failure_message[:line_limit]
            failure_message.append(f"(... and {n_omitted} more delta lines omitted for brevity.)\n")
        raise self.failureException("".join(failure_message))

    def assertDictContainsSubset(self, subset, dictionary, msg=None):  # noqa: N802
        """Every key of `subset` is in `dictionary` with the same value."""
        self.assertDictEqual({**dictionary}, {**dictionary, **subset}, msg)

    def assertRegexMatch(self, actual_str, regexes, message=None):  # noqa: N802
        """At least one of `regexes` matches somewhere in `actual_str` (multiline)."""
        if isinstance(regexes, (str, bytes)):
            self.fail("regexes is string or bytes; use assertRegex instead.", message)
        if not regexes:
            self.fail("No regexes specified.", message)
        regex_type = type(regexes[0])
        for regex in regexes[1:]:
            if type(regex) is not regex_type:
                self.fail("regexes list must all be the same type.", message)
        if regex_type is bytes and isinstance(actual_str, str):
            regexes = [regex.decode("utf-8") for regex in regexes]
            regex_type = str
        elif regex_type is str and isinstance(actual_str, bytes):
            regexes = [regex.encode("utf-8") for regex in regexes]
            regex_type = bytes
        if regex_type is str:
            regex = f"(?:{')|(?:'.join(regexes)})"
        elif regex_type is bytes:
            regex = b"(?:" + b")|(?:".join(regexes) + b")"
        else:
            self.fail("Only know how to deal with unicode str or bytes regexes.", message)
        if not re.search(regex, actual_str, re.MULTILINE):
            self.fail(f'"{actual_str}" does not contain any of these regexes: {regexes}.', message)

    def assertSameStructure(self, a, b, aname="a", bname="b", msg=None):  # noqa: N802
        """Two trees of dicts, lists and sets with equal leaves; the failure names every difference's path."""
        problems = []
        _walk_structure(a, b, aname, bname, problems, self.assertEqual, self.failureException)
        if self.maxDiff is not None:
            max_problems_to_show = self.maxDiff // 80
            if len(problems) > max_problems_to_show:
                problems = problems[0:max_problems_to_show - 1] + ["..."]
        if problems:
            self.fail("; ".join(problems), msg)

    def assertContainsSubsequence(self, container, subsequence, msg=None):  # noqa: N802
        """`subsequence`'s elements appear in `container` in order (others may come between)."""
        first_nonmatching = None
        reversed_container = list(reversed(container))
        subsequence = list(subsequence)
        for e in subsequence:
            if e not in reversed_container:
                first_nonmatching = e
                break
            while e != reversed_container.pop():
                pass
        if first_nonmatching is not None:
            self.fail(f"{subsequence} not a subsequence of {container}. First non-matching element: "
                      f"{first_nonmatching}", msg)

    def assertContainsExactSubsequence(self, container, subsequence, msg=None):  # noqa: N802
        """`subsequence` appears in `container` as a contiguous run."""
        container = list(container)
        subsequence = list(subsequence)
        longest_match = 0
        for start in range(1 + len(container) - len(subsequence)):
            if longest_match == len(subsequence):
                break
            index = 0
            while index < len(subsequence) and subsequence[index] == container[start + index]:
                index += 1
            longest_match = max(longest_match, index)
        if longest_match < len(subsequence):
            self.fail(f"{subsequence} not an exact subsequence of {container}. Longest matching prefix: "
                      f"{subsequence[:longest_match]}", msg)

    def assertSequenceAlmostEqual(self, expected_seq, actual_seq, places=None, msg=None, delta=None):  # noqa: N802
        """Equal lengths and every pair assertAlmostEqual (the first 30 differences listed)."""
        if len(expected_seq) != len(actual_seq):
            self.fail(f"Sequence size mismatch: {len(expected_seq)} vs {len(actual_seq)}", msg)
        err_list = []
        for idx, (exp_elem, act_elem) in enumerate(zip(expected_seq, actual_seq)):
            try:
                self.assertAlmostEqual(exp_elem, act_elem, places=places, msg=msg, delta=delta)
            except self.failureException as err:
                err_list.append(f"At index {idx}: {err}")
        if err_list:
            if len(err_list) > 30:
                err_list = err_list[:30] + ["..."]
            self.fail(self._formatMessage(msg, "\n".join(err_list)))

    def assertIsSubclass(self, cls, superclass, msg=None):  # noqa: N802
        try:
            if issubclass(cls, superclass):
                return
        except TypeError:
            if not isinstance(cls, type):
                self.fail(self._formatMessage(msg, f"{cls!r} is not a class"))
            raise
        if isinstance(superclass, tuple):
            standard = f"{cls!r} is not a subclass of any of {superclass!r}"
        else:
            standard = f"{cls!r} is not a subclass of {superclass!r}"
        self.fail(self._formatMessage(msg, standard))

    def assertNotIsSubclass(self, cls, superclass, msg=None):  # noqa: N802
        try:
            if not issubclass(cls, superclass):
                return
        except TypeError:
            if not isinstance(cls, type):
                self.fail(self._formatMessage(msg, f"{cls!r} is not a class"))
            raise
        if isinstance(superclass, tuple):
            superclass = next(x for x in superclass if issubclass(cls, x))
        self.fail(self._formatMessage(msg, f"{cls!r} is a subclass of {superclass!r}"))

    def assertMappingEqual(self, a, b, msg=None, mapping_type=collections.abc.Mapping,  # noqa: N802
                           check_values_equality=lambda x, y: (x == y, None)):
        """Same keys, and values equal by `check_values_equality`; the failure lists unexpected, differing and
        missing entries."""
        if not isinstance(a, mapping_type):
            self.fail(f"a should be a {mapping_type.__name__}, found type: {type(a).__name__}", msg)
        if not isinstance(b, mapping_type):
            self.fail(f"b should be a {mapping_type.__name__}, found type: {type(b).__name__}", msg)
        if a == b:
            return

        def ordered(items):
            try:
                return sorted(items)
            except TypeError:
                return items
        unexpected, missing, different = [], [], []
        for a_key, a_value in ordered(list(a.items())):
            if a_key not in b:
                missing.append((a_key, a_value))
                continue
            is_equal, err = check_values_equality(a_value, b[a_key])
            if not is_equal:
                different.append((a_key, a_value, b[a_key], err))
        unexpected = [(k, v) for k, v in ordered(list(b.items())) if k not in a]
        if not unexpected and not different and not missing:
            return
        safe_repr = unittest.util.safe_repr

        def text(d):
            entries = sorted((safe_repr(k), safe_repr(v)) for k, v in d.items())
            return "{" + ", ".join(f"{k}: {v}" for k, v in entries) + "}"
        message = [f"{text(a)} != {text(b)}{'(' + msg + ')' if msg else ''}"]
        if unexpected:
            message.append("Unexpected, but present entries:\n"
                           + "".join(f"{safe_repr(k)}: {safe_repr(v)}\n" for k, v in unexpected))
        if different:
            message.append("repr() of differing entries:\n" + "".join(
                f"{safe_repr(k)}: {err if err else f'{safe_repr(av)} != {safe_repr(bv)}'}\n"
                for k, av, bv, err in different))
        if missing:
            message.append("Missing entries:\n" + "".join(f"{safe_repr(k)}: {safe_repr(v)}\n" for k, v in missing))
        raise self.failureException("\n".join(message))

    def assertDictAlmostEqual(self, a, b, places=None, msg=None, delta=None):  # noqa: N802
        """assertMappingEqual of dicts, numbers compared with assertAlmostEqual."""
        def almost_equal(a_value, b_value):
            try:
                if isinstance(a_value, numbers.Number) and isinstance(b_value, numbers.Number):
                    self.assertAlmostEqual(a_value, b_value, places=places, delta=delta)
                else:
                    self.assertEqual(a_value, b_value)
            except self.failureException as err:
                return False, err
            return True, None
        if delta is not None and places is not None:
            raise ValueError("specify delta or places not both\n")
        self.assertMappingEqual(a, b, msg, mapping_type=dict, check_values_equality=almost_equal)

    def assertJsonEqual(self, first, second, msg=None):  # noqa: N802
        """Two JSON texts decode to the same structure (assertSameStructure's report, named first/second)."""
        try:
            first_structured = json.loads(first)
        except ValueError as e:
            raise ValueError(self._formatMessage(msg, f"could not decode first JSON value {first}: {e}")) from e
        try:
            second_structured = json.loads(second)
        except ValueError as e:
            raise ValueError(self._formatMessage(msg, f"could not decode second JSON value {second}: {e}")) from e
        self.assertSameStructure(first_structured, second_structured, aname="first", bname="second", msg=msg)

    def assertTotallyOrdered(self, *groups, **kwargs):  # noqa: N802
        """Each group's elements are equal (and hash alike); every element is less than those of later groups,
        by every comparison operator."""
        msg = kwargs.get("msg")
        fmt = self._formatMessage

        def check_order(small, big):
            self.assertFalse(small == big, fmt(msg, f"{small!r} unexpectedly equals {big!r}"))
            self.assertTrue(small != big, fmt(msg, f"{small!r} unexpectedly equals {big!r}"))
            self.assertLess(small, big, msg)
            self.assertFalse(big < small, fmt(msg, f"{big!r} unexpectedly less than {small!r}"))
            self.assertLessEqual(small, big, msg)
            self.assertFalse(big <= small, fmt(f"{big!r} unexpectedly less than or equal to {small!r}", msg))
            self.assertGreater(big, small, msg)
            self.assertFalse(small > big, fmt(msg, f"{small!r} unexpectedly greater than {big!r}"))
            self.assertGreaterEqual(big, small)
            self.assertFalse(small >= big, fmt(msg, f"{small!r} unexpectedly greater than or equal to {big!r}"))

        def check_equal(a, b):
            self.assertEqual(a, b, msg)
            self.assertFalse(a != b, fmt(msg, f"{a!r} unexpectedly unequals {b!r}"))
            if isinstance(a, collections.abc.Hashable) and isinstance(b, collections.abc.Hashable):
                self.assertEqual(hash(a), hash(b), fmt(
                    msg, f"hash {hash(a)} of {a!r} unexpectedly not equal to hash {hash(b)} of {b!r}"))
            self.assertFalse(a < b, fmt(msg, f"{a!r} unexpectedly less than {b!r}"))
            self.assertFalse(b < a, fmt(msg, f"{b!r} unexpectedly less than {a!r}"))
            self.assertLessEqual(a, b, msg)
            self.assertLessEqual(b, a, msg)
            self.assertFalse(a > b, fmt(msg, f"{a!r} unexpectedly greater than {b!r}"))
            self.assertFalse(b > a, fmt(msg, f"{b!r} unexpectedly greater than {a!r}"))
            self.assertGreaterEqual(a, b, msg)
            self.assertGreaterEqual(b, a, msg)

        for elements in itertools.product(*groups):
            for index, small in enumerate(elements[:-1]):
                for big in elements[index + 1:]:
                    check_order(small, big)
        for group in groups:
            for a in group:
                check_equal(a, a)
            for a, b in itertools.product(group, group):
                check_equal(a, b)

    def assertUrlEqual(self, a, b, msg=None):  # noqa: N802
        """Two URLs equal part by part, the query parameters in any order."""
        from urllib import parse
        parsed_a = parse.urlparse(a)
        parsed_b = parse.urlparse(b)
        self.assertEqual(parsed_a.scheme, parsed_b.scheme, msg)
        self.assertEqual(parsed_a.netloc, parsed_b.netloc, msg)
        self.assertEqual(parsed_a.path, parsed_b.path, msg)
        self.assertEqual(parsed_a.fragment, parsed_b.fragment, msg)
        self.assertCountEqual(parsed_a.params.split(";"), parsed_b.params.split(";"), msg)
        self.assertDictEqual(parse.parse_qs(parsed_a.query, keep_blank_values=True),
                             parse.parse_qs(parsed_b.query, keep_blank_values=True), msg)

    def assertDataclassEqual(self, first, second, msg=None):  # noqa: N802
        """Two dataclass instances equal; the failure lists the comparable fields that differ."""
        import dataclasses
        if not dataclasses.is_dataclass(first) or isinstance(first, type):
            raise self.failureException(f"First argument {first!r} is not a dataclass instance.")
        if not dataclasses.is_dataclass(second) or isinstance(second, type):
            raise self.failureException(f"Second argument {second!r} is not a dataclass instance.")
        if first == second:
            return
        if type(first) is not type(second):
            self.fail(f"Found different dataclass types: {type(first)} != {type(second)}", msg)
        different = [(f.name, getattr(first, f.name), getattr(second, f.name)) for f in dataclasses.fields(first)
                     if f.compare and getattr(first, f.name) != getattr(second, f.name)]
        safe_repr = unittest.util.safe_repr
        message = [f"{safe_repr(first)} != {safe_repr(second)}"]
        if different:
            message.append("Fields that differ:")
            message.extend(f"{k}: {safe_repr(fv)} != {safe_repr(sv)}" for k, fv, sv in different)
        else:
            message.append("Cannot detect difference by examining the fields of the dataclass.")
        self.fail("\n".join(message), msg)

    def record_property(self, property_name, property_value):
        """Records a property of the test (or of the active subtest)."""
        subtest = getattr(self, "_subtest", None)
        store = self.__dict__.setdefault("_recorded_properties", {})
        key = subtest.id() if subtest else None
        store.setdefault(key, {})[property_name] = property_value

    def get_recorded_properties(self, subtest=None):
        """The recorded properties: the test's and the active subtest's, or only `subtest`'s."""
        store = self.__dict__.get("_recorded_properties", {})
        if subtest:
            return dict(store.get(subtest.id(), {}))
        ret = dict(store.get(None, {}))
        active = getattr(self, "_subtest", None)
        if active:
            ret.update(store.get(active.id(), {}))
        return ret

    def enter_context(self, manager):
        """Enters `manager` now and exits it at the test's cleanup; returns what it entered."""
        return self.enterContext(manager)

    def _sized(self, container, msg):
        if not isinstance(container, collections.abc.Sized):
            self.fail(f"Expected a Sized object, got: {type(container).__name__!r}", msg)

    def assertEmpty(self, container, msg=None):  # noqa: N802
        self._sized(container, msg)
        if len(container):
            self.fail(f"{container!r} has length of {len(container)}.", msg)

    def assertNotEmpty(self, container, msg=None):  # noqa: N802
        self._sized(container, msg)
        if not len(container):
            self.fail(f"{container!r} has length of 0.", msg)

    def assertLen(self, container, expected_len, msg=None):  # noqa: N802
        self._sized(container, msg)
        if len(container) != expected_len:
            container_repr = unittest.util.safe_repr(container)
            self.fail(f"{container_repr} has length of {len(container)}, expected {expected_len}.", msg)

    def assertNotStartsWith(self, actual, unexpected_start, msg=None):  # noqa: N802
        if actual.startswith(unexpected_start):
            self.fail(f"{actual!r} does start with {unexpected_start!r}", msg)

    def assertEndsWith(self, actual, expected_end, msg=None):  # noqa: N802
        if not actual.endswith(expected_end):
            self.fail(f"{actual!r} does not end with {expected_end!r}", msg)

    def assertNotEndsWith(self, actual, unexpected_end, msg=None):  # noqa: N802
        if actual.endswith(unexpected_end):
            self.fail(f"{actual!r} does end with {unexpected_end!r}", msg)

    def assertSequenceStartsWith(self, prefix, whole, msg=None):  # noqa: N802
        try:
            prefix_len = len(prefix)
        except (TypeError, NotImplementedError):
            prefix = [prefix]
            prefix_len = 1
        if isinstance(whole, (collections.abc.Mapping, collections.abc.Set)):
            self.fail(f"For whole: Mapping or Set objects are not supported, found type: {type(whole)}", msg)
        try:
            whole_len = len(whole)
        except (TypeError, NotImplementedError):
            self.fail(f"For whole: len({whole}) is not supported, it appears to be type: {type(whole)}", msg)
        if prefix_len > whole_len:
            raise AssertionError(self._formatMessage(
                msg, f"Prefix length ({prefix_len}) is longer than whole length ({whole_len})."))
        if not prefix_len and whole_len:
            self.fail(f"Prefix length is 0 but whole length is {len(whole)}: {whole}", msg)
        try:
            self.assertSequenceEqual(prefix, whole[:prefix_len], msg)
        except AssertionError:
            self.fail(f"prefix: {prefix} not found at start of whole: {whole}.", msg)

    def assertContainsSubset(self, expected_subset, actual_set, msg=None):  # noqa: N802
        missing = set(expected_subset) - set(actual_set)
        if missing:
            self.fail(f"Missing elements {missing}\nExpected: {expected_subset}\nActual: {actual_set}", msg)

    def assertNoCommonElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        common = set(expected_seq) & set(actual_seq)
        if common:
            self.fail(f"Common elements {common}\nExpected: {expected_seq}\nActual: {actual_seq}", msg)

    def assertSameElements(self, expected_seq, actual_seq, msg=None):  # noqa: N802
        """The same elements in any order, duplicates ignored."""
        if isinstance(expected_seq, (str, bytes)) or isinstance(actual_seq, (str, bytes)):
            self.fail("Passing string/bytes to assertSameElements is usually a bug. Did you mean to use "
                      f"assertEqual?\nExpected: {expected_seq}\nActual: {actual_seq}")
        try:
            expected = {element: None for element in expected_seq}
            actual = {element: None for element in actual_seq}
            missing = sorted(element for element in expected if element not in actual)
            unexpected = sorted(element for element in actual if element not in expected)
        except TypeError:
            expected = sorted(expected_seq)
            actual = sorted(actual_seq)
            missing = [e for i, e in enumerate(expected) if e not in actual and e not in expected[:i]]
            unexpected = [e for i, e in enumerate(actual) if e not in expected and e not in actual[:i]]
        parts = []
        if msg:
            parts.extend((msg, ":\n"))
        if missing:
            parts.append(f"Expected, but missing:\n  {missing!r}\n")
        if unexpected:
            parts.append(f"Unexpected, but present:\n  {unexpected!r}\n")
        if missing or unexpected:
            self.fail("".join(parts))

    def assertBetween(self, value, minv, maxv, msg=None):  # noqa: N802
        """minv <= value <= maxv."""
        msg = self._formatMessage(msg, f'"{value!r}" unexpectedly not between "{minv!r}" and "{maxv!r}"')
        self.assertLessEqual(minv, value, msg)
        self.assertGreaterEqual(maxv, value, msg)

    def assertContainsInOrder(self, strings, target, msg=None):  # noqa: N802
        if isinstance(strings, (bytes, str)):
            strings = (strings,)
        current_index = 0
        last_string = None
        for string in strings:
            index = target.find(str(string), current_index)
            if index == -1 and current_index == 0:
                self.fail(f"Did not find {string!r} in {target!r}", msg)
            elif index == -1:
                self.fail(f"Did not find {string!r} after {last_string!r} in {target!r}", msg)
            last_string = string
            current_index = index

    def assertRaisesWithLiteralMatch(self, expected_exception, expected_exception_message,  # noqa: N802
                                     callable_obj=None, *args, **kwargs):
        """Expects `expected_exception` whose `str()` equals `expected_exception_message` exactly."""
        def check(err):
            actual = str(err)
            self.assertEqual(expected_exception_message, actual,
                             f"Exception message does not match.\nExpected: {expected_exception_message!r}\n"
                             f"Actual: {actual!r}")
        context = _AssertRaisesContext(expected_exception, self, check)
        if callable_obj is None:
            return context
        with context:
            callable_obj(*args, **kwargs)


class _AssertRaisesContext:
    def __init__(self, expected_exception, test_case, test_func, msg=None):
        self.expected_exception = expected_exception
        self.test_case = test_case
        self.test_func = test_func
        self.msg = msg

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            self.test_case.fail(self.expected_exception.__name__ + " not raised", self.msg)
        if not issubclass(exc_type, self.expected_exception):
            return False
        self.test_func(exc_value)
        if exc_value:
            self.exception = exc_value.with_traceback(None)
        return True


def _both(a, b, kind):
    return isinstance(a, kind) and isinstance(b, kind)


def _is_sequence(x):
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, (str, bytes))


def _walk_structure(a, b, aname, bname, problems, leaf_equal, failure):
    """absltest's walk behind assertSameStructure: appends a description of each difference to `problems`."""
    if type(a) is not type(b) and not (_both(a, b, int) or (_is_sequence(a) and _is_sequence(b))
                                       or _both(a, b, collections.abc.Set) or _both(a, b, collections.abc.Mapping)):
        problems.append(f"{aname} is a {type(a)!r} but {bname} is a {type(b)!r}")
        return
    if isinstance(a, collections.abc.Set):
        problems.extend(f"{aname} has {k!r} but {bname} does not" for k in a if k not in b)
        problems.extend(f"{aname} lacks {k!r} but {bname} has it" for k in b if k not in a)
    elif isinstance(a, collections.abc.Mapping):
        for k in a:
            if k in b:
                _walk_structure(a[k], b[k], f"{aname}[{k!r}]", f"{bname}[{k!r}]", problems, leaf_equal, failure)
            else:
                problems.append(f"{aname} has [{k!r}] with value {a[k]!r} but it's missing in {bname}")
        problems.extend(f"{aname} lacks [{k!r}] but {bname} has it with value {b[k]!r}" for k in b if k not in a)
    elif _is_sequence(a):
        minlen = min(len(a), len(b))
        for i in range(minlen):
            _walk_structure(a[i], b[i], f"{aname}[{i:d}]", f"{bname}[{i:d}]", problems, leaf_equal, failure)
        problems.extend(f"{aname} has [{i:d}] with value {a[i]!r} but {bname} does not" for i in range(minlen, len(a)))
        problems.extend(f"{aname} lacks [{i:d}] but {bname} has it with value {b[i]!r}" for i in range(minlen, len(b)))
    else:
        try:
            leaf_equal(a, b)
        except failure:
            problems.append(f"{aname} is {a!r} but {bname} is {b!r}")
