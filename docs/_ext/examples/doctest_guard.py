"""Doctest runs that cannot lie or hang.

Sphinx's doctest builder is replaced by a subclass (same name, ``-b doctest``) that adds three things:

The record. Before it runs anything, the builder writes ``examples.json`` into its output folder:
for each page it is about to test, the number of examples the page has, as ``snippet_ledger``
counted them when the page was read. A run that ends early (an example calls ``os._exit(0)``, a
crash, a kill) leaves an ``output.txt`` with fewer pages and tests, which by itself looks like a
smaller site; ``tools/examples/doctest_report.py`` compares it with the record and fails the pages whose
examples did not all run. When the run ends normally the builder adds ``"finished": true`` and
the slowest examples, setup codes and groups to the record.

The example running now. ``running.txt`` holds the file and line of the example being run,
rewritten as each starts (one small write; removed when the run finishes), so that a run that
ended early names the example it ended in.

The time limit. Every example (and the setup and cleanup code of a group) has
``doctest_time_limit`` seconds: a real-time timer (``setitimer``) armed as the example starts;
its handler raises :class:`ExampleTimeLimit` inside the example, which doctest reports as a
failed example with its file and line (the run fails and goes on with the next example). It is a
``BaseException``, so an ``except Exception`` in the example does not swallow it. A Python-level
loop or a wait in an interruptible call (``time.sleep``, ``Lock.acquire``, ``select``) stops
there. A hang inside one C call that never returns to the interpreter cannot be interrupted that
way; for it, ``faulthandler`` ends the whole process ``doctest_time_limit_grace`` seconds after
the limit, printing every thread's traceback, and the report names the example from
``running.txt``. ``doctest_time_limit = 0`` turns both off.

The hook is the builder's ``compile``, which sphinx.ext.doctest installs as doctest's own
``compile`` and which doctest calls once per example, just before running it.
"""

import faulthandler
import json
import os
import re
import signal
import threading
import time
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.ext.doctest import DocTestBuilder

from . import snippet_ledger

RECORD = "examples.json"
RUNNING = "running.txt"
SLOWEST = 5  # the slowest examples and groups kept in the record, to set the limit by
DOCTEST_NAME = re.compile(r"^<doctest (?P<test>.*)\[(?P<number>\d+)\]>$")


class ExampleTimeLimit(BaseException):
    """Raised inside an example that is still running at the time limit."""


# The backstop: faulthandler's watchdog thread ends the process (exit status 1) with every thread's
# traceback. A child forked while it is armed would inherit its lock held by a thread the child does
# not have, and hang when it exits normally; so it is paused around each fork (multiprocessing's
# 'fork' start method, DataLoader workers) and the child starts without it.
_backstop = {"seconds": 0.0}


def arm_backstop(seconds: float) -> bool:
    try:
        faulthandler.dump_traceback_later(seconds, exit=True)
    except (RuntimeError, ValueError, OSError, AttributeError):  # no usable sys.stderr: no backstop
        return False
    _backstop["seconds"] = seconds
    return True


def cancel_backstop() -> None:
    if _backstop["seconds"]:
        faulthandler.cancel_dump_traceback_later()
        _backstop["seconds"] = 0.0


def _pause_backstop_for_fork() -> None:
    if _backstop["seconds"]:
        faulthandler.cancel_dump_traceback_later()


def _resume_backstop_in_parent() -> None:
    if _backstop["seconds"]:
        faulthandler.dump_traceback_later(_backstop["seconds"], exit=True)


def _no_backstop_in_child() -> None:
    _backstop["seconds"] = 0.0


os.register_at_fork(before=_pause_backstop_for_fork, after_in_parent=_resume_backstop_in_parent,
                    after_in_child=_no_backstop_in_child)


def shown(path: Path) -> str:
    """A path as a reader finds it: relative to the current folder (the checkout) when inside it."""
    try:
        return os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


def in_an_example(frame) -> bool:
    """Whether the interrupted code is an example's (doctest compiles each as '<doctest NAME[N]>')."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<doctest "):
            return True
        frame = frame.f_back
    return False


class GuardedDocTestBuilder(DocTestBuilder):
    name = "doctest"

    def init(self) -> None:
        super().init()
        self.limit = float(self.config.doctest_time_limit or 0)
        self.grace = float(self.config.doctest_time_limit_grace)
        for stale in (RECORD, RUNNING):  # never read a record of an earlier run
            (self.outdir / stale).unlink(missing_ok=True)
        self.record: dict = {}
        self.running_fd: int | None = None
        self.running_width = 0
        self.shown_paths: dict[str, str] = {}
        self.current: tuple[str, float, bool] | None = None  # where, started, a real example
        self.backstop_armed = 0.0
        # the SLOWEST longest examples, setup or cleanup codes and whole groups, as (seconds, where)
        self.slowest = {"examples": [], "setups": [], "groups": []}
        self.docname = ""

    # -- the record ------------------------------------------------------------------------------

    def write_documents(self, docnames) -> None:
        pages = {}
        for docname in sorted(docnames):
            count = snippet_ledger.examples(self.env, docname)
            if count:
                pages[docname] = count
        self.record = {"pages": pages, "time_limit": self.limit}
        self.write_record()
        self.running_fd = os.open(self.outdir / RUNNING, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            super().write_documents(docnames)
        finally:
            os.close(self.running_fd)
            self.running_fd = None

    def write_record(self) -> None:
        path = self.outdir / RECORD
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(self.record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(temporary, path)

    def finish(self) -> None:
        super().finish()
        if self.record:
            self.record["finished"] = True
            for what, found in self.slowest.items():
                self.record[f"slowest_{what}"] = [{"seconds": round(seconds, 2), "at": where}
                                                  for seconds, where in found]
            self.write_record()
            (self.outdir / RUNNING).unlink(missing_ok=True)

    # -- the example running now -----------------------------------------------------------------

    def locate(self, name: str) -> tuple[str, bool]:
        """'file:line' of the example doctest is about to compile, and whether it is a real example
        (not a group's setup or cleanup code)."""
        match = DOCTEST_NAME.match(name)
        if not match:
            return name, False
        test_name = match["test"]
        if test_name.endswith(" (setup code)"):
            runner, real = self.setup_runner, False
        elif test_name.endswith(" (cleanup code)"):
            runner, real = self.cleanup_runner, False
        else:
            runner, real = self.test_runner, True
        test = getattr(runner, "test", None)
        try:
            example = test.examples[int(match["number"])]
        except (AttributeError, IndexError):
            return name, real
        if not test.filename or test.filename.startswith("<"):  # doctest_global_setup / _cleanup
            what = {"<global_setup>": "doctest_global_setup", "<global_cleanup>": "doctest_global_cleanup"}
            group = test_name.rsplit(" (", 1)[0]
            return f"{what.get(test.filename, test.filename)} (conf.py), for {self.docname} [{group}]", real
        if self.type == "single":  # a doctest block: the example's '>>>' line (doctest's line + 1)
            line = (test.lineno or 0) + (example.lineno or 0) + 2
        else:  # a testcode block (or a testsetup/testcleanup): its first line of code
            line = (example.lineno or 0) + 2
        if test.filename not in self.shown_paths:
            self.shown_paths[test.filename] = shown(Path(self.srcdir) / test.filename)
        return f"{self.shown_paths[test.filename]}:{line}", real

    def compile(self, code, name, type, flags, dont_inherit):  # noqa: A002 (doctest's signature)
        now = time.monotonic()
        self.example_done(now)
        where, real = self.locate(name)
        self.current = (where, now, real)
        if self.running_fd is not None:  # one write in place, padded over a longer earlier line (no truncate)
            line = (where + "\n").encode()
            self.running_width = max(self.running_width, len(line))
            os.pwrite(self.running_fd, line.ljust(self.running_width), 0)
        if self.limit:
            if self.handler_installed:
                signal.setitimer(signal.ITIMER_REAL, self.limit)
            if now - self.backstop_armed > self.grace / 2:  # re-armed now and then: it costs a thread
                self.backstop_armed = now if arm_backstop(self.limit + self.grace) else float("inf")
        return super().compile(code, name, type, flags, dont_inherit)

    def note_time(self, what: str, seconds: float, where: str) -> None:
        found = self.slowest[what]
        if len(found) < SLOWEST or seconds > found[-1][0]:
            found.append((seconds, where))
            found.sort(key=lambda item: -item[0])
            del found[SLOWEST:]

    def example_done(self, now: float) -> None:
        if self.current is not None:
            where, started, real = self.current
            self.note_time("examples" if real else "setups", now - started, where)
            self.current = None

    # -- the time limit --------------------------------------------------------------------------

    handler_installed = False

    def time_limit_hit(self, signum, frame) -> None:
        if not in_an_example(frame):  # between two examples (comparing output): the next one re-arms
            return
        where = self.current[0] if self.current else "an example"
        raise ExampleTimeLimit(f"{where}: still running after {self.limit:g} s, the time limit of one example "
                               "(doctest_time_limit in conf.py)")

    def test_group(self, group) -> bool:
        started = time.monotonic()
        previous = None
        if self.limit and threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGALRM, self.time_limit_hit)
            self.handler_installed = True
        try:
            return super().test_group(group)
        finally:
            if self.handler_installed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
                self.handler_installed = False
            cancel_backstop()
            self.backstop_armed = 0.0
            now = time.monotonic()
            self.example_done(now)
            self.note_time("groups", now - started, f"{self.docname} [{group.name}]")

    def test_doc(self, docname: str, doctree) -> bool:
        self.docname = docname
        try:
            return super().test_doc(docname, doctree)
        finally:  # each page's report on disk as it ends: a run that ends early keeps those of the pages before
            self.outfile.flush()


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinx.ext.doctest")
    app.setup_extension("examples.snippet_ledger")
    app.add_builder(GuardedDocTestBuilder, override=True)
    # Seconds one example may run; '' (no rebuild): the doctrees do not depend on it.
    app.add_config_value("doctest_time_limit", 300, "", types=frozenset({int, float}))
    # Seconds after the limit at which a hang the limit cannot interrupt (one C call) ends the process.
    app.add_config_value("doctest_time_limit_grace", 30, "", types=frozenset({int, float}))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
