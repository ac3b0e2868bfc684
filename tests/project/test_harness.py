"""The suite's own runners fail in bounded time and report as much as the tools they wrap."""

import json
import subprocess
import sys
import time
import threading

import conftest
from bounded_run import run_bounded, running
from conftest import ROOT, run_build, run_parallel
from tools.examples.doctest_report import located


def test_a_build_that_prints_a_lot_does_not_stall():
    """Reading the output only after the build ended filled the pipe (64 KiB), and the build waited forever."""
    done = {}
    command = [sys.executable, "-c", "print('x' * 1_000_000); print('WARNING: last line')"]
    thread = threading.Thread(target=lambda: done.update(run_parallel({"big": command})), daemon=True)
    thread.start()
    thread.join(30)
    assert done, "run_parallel stalled on a command that prints 1 MB"
    assert done["big"].returncode == 0 and done["big"].warnings() == ["WARNING: last line"]


def test_a_stuck_build_is_killed_at_the_time_limit(monkeypatch):
    monkeypatch.setattr(conftest, "BUILD_TIMEOUT", 2)
    run = run_build([sys.executable, "-c", "import time; print('started', flush=True); time.sleep(600)"])
    assert run.returncode == -9
    assert run.output.startswith("started\n") and "still running after 2 s, killed with its process group" in run.output


FLOOR_DATA = {"global_setup": "", "flags": 0, "pages": {"demo/page": {"default": [
    ["doctest", ">>> 1 + 1\n3\n"],
    ["testcode", "print('a')\nprint('b')\n"],
    ["testoutput", "a\nc\n"],
]}}}


def test_the_doctest_floor_shows_each_failed_example(tmp_path):
    """It used to print only "2 examples, 2 failures"."""
    data = tmp_path / "floor.json"
    data.write_text(json.dumps(FLOOR_DATA))
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "doctest_floor.py"), "run", str(data)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == "2 examples, 2 failures\n"
    assert ('File "demo/page [default]", line 1, in demo/page [default]\nFailed example:\n    1 + 1\n'
            "Expected:\n    3\nGot:\n    2") in result.stderr, result.stderr
    assert ("demo/page [default]: testcode\nFailed example:\n    print('a')\n    print('b')\n"
            "Expected:\n    a\n    c\nGot:\n    a\n    b") in result.stderr, result.stderr


# The builder's output.txt for one page with one failed example, as Sphinx 9 writes it.
FAILED_REPORT = """\
Results of doctest builder run on 2026-12-01 16:00:34
=====================================================

Document: index
---------------
**********************************************************************
File "index.md", line 4, in default
Failed example:
    1 + 1
Expected:
    3
Got:
    2
**********************************************************************
1 items had failures:
   1 of   1 in default
1 tests in 1 items.
0 passed and 1 failed.
***Test Failed*** 1 failures.

Doctest summary
===============
    1 test
    1 failure in tests
    0 failures in setup code
    0 failures in cleanup code
"""


def test_the_doctest_report_shows_each_failed_example(tmp_path):
    """make doctest's last word used to be 'index: 1 failed example(s)', without the example."""
    report = tmp_path / "output.txt"
    report.write_text(FAILED_REPORT)
    (tmp_path / "examples.json").write_text('{"pages": {"index": 1}, "finished": true}')  # as the builder records it
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "doctest_report.py"), str(report)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == (f"doctest check failed:\n{report}: index: 1 failed example(s)\n\n{report}:\n"
                             'File "index.md", line 4, in default\nFailed example:\n    1 + 1\n'
                             "Expected:\n    3\nGot:\n    2\n"), result.stderr


def test_a_process_that_leaves_the_group_but_holds_the_output_is_found_and_killed():
    """torchrun starts each worker in a session of its own: killing the group would miss it."""
    escape = "import subprocess; subprocess.Popen(['sleep', '600'], start_new_session=True); print('started')"
    result = run_bounded([sys.executable, "-c", escape], timeout=30)
    assert result.returncode == 0 and result.stdout == "started\n" and not result.timed_out
    assert len(result.left_behind) == 1 and result.left_behind[0].endswith(" sleep 600"), result.left_behind
    pid, deadline = int(result.left_behind[0].split()[0]), time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:  # killed; on a busy machine it takes a moment to go
        time.sleep(0.1)
    assert not running(pid)


def test_a_child_forked_while_the_doctest_backstop_is_armed_exits_normally():
    """faulthandler's watchdog, armed in the parent, left a child that exits normally waiting forever for
    a thread the child does not have; doctest_guard pauses it around each fork."""
    child = ("import os, sys, time\n"
             "from examples import doctest_guard\n"
             "assert doctest_guard.arm_backstop(60)\n"
             "pid = os.fork()\n"
             "if pid == 0:\n"
             "    sys.exit(0)\n"
             "deadline = time.monotonic() + 10\n"
             "while time.monotonic() < deadline:\n"
             "    done, status = os.waitpid(pid, os.WNOHANG)\n"
             "    if done:\n"
             "        print('child exited', os.waitstatus_to_exitcode(status))\n"
             "        break\n"
             "    time.sleep(0.05)\n"
             "else:\n"
             "    os.kill(pid, 9)\n"
             "    print('child still running after 10 s')\n"
             "doctest_guard.cancel_backstop()\n")
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60,
                            cwd=ROOT / "docs" / "_ext")
    assert result.stdout == "child exited 0\n", result.stdout + result.stderr


def test_a_failed_testcode_block_is_located_at_its_first_line_of_code(tmp_path):
    """Sphinx gives a testcode block's fence line (less one) as both the test's and the example's line, and
    doctest adds them: the report said line 17 for code on line 10."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text("(page)=\n# Page\n\n```{doctest}\n>>> 1 + 1\n2\n```\n\n```{testcode}\n"
                                  "print('a')\n```\n\n```{testoutput}\nb\n```\n", encoding="utf-8")
    block = ('File "page.md", line 17, in default\nFailed example:\n    print(\'a\')\nExpected:\n    b\n'
             "Got:\n    a")
    assert located(block, docs).splitlines()[0] == "docs/page.md:10: failed example (group default)"
