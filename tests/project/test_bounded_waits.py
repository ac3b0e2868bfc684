"""No test and no tool waits on a child process without a time limit.

A child that hangs (a build stuck on a lock, a deadlocked snippet, a command waiting for
input nobody gives) must fail the run in bounded time with a message naming it, not hold
CI until the job runner gives up hours later. So every subprocess.run, check_output,
check_call and call, and every .wait() and .communicate() in tests/, tools/ and snippets/
passes timeout= (as a keyword, so the limit is seen at a glance). This test parses those
files and lists each call that does not, as path:line: code.
"""

import ast
from pathlib import Path

from conftest import ROOT

SUBPROCESS_WAITS = {"run", "check_output", "check_call", "call"}  # subprocess.<name>(...)
METHOD_WAITS = {"wait", "communicate"}  # <anything>.<name>(...): Popen, or anything that waits alike
SKIPPED_FOLDERS = {"node_modules", ".venv", "_build", "roots"}  # roots: fixture projects


def unbounded_waits(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, code) of each call in `source` that waits on a child process with no timeout= keyword."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, owner = node.func.attr, ast.unparse(node.func.value)
        waits = (name in SUBPROCESS_WAITS and owner == "subprocess") or name in METHOD_WAITS
        if waits and not any(keyword.arg == "timeout" for keyword in node.keywords):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def checked_files() -> list[Path]:
    candidates = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("tools/**/*.py"), *ROOT.glob("snippets/**/*.py")]
    return sorted(p for p in candidates if not SKIPPED_FOLDERS & set(p.relative_to(ROOT).parts))


def test_a_call_with_a_timeout_passes():
    bounded = ("import subprocess\n"
               "subprocess.run(['make', 'html'], check=True, timeout=1800)\n"
               "process.wait(timeout=30)\n")
    assert unbounded_waits(bounded) == []


def test_a_call_without_a_timeout_is_found():
    unbounded = ("import subprocess\n"
                 "subprocess.run(['make', 'html'], check=True)\n"
                 "process.wait(30)\n")
    assert unbounded_waits(unbounded) == [(2, "subprocess.run(['make', 'html'], check=True)"),
                                          (3, "process.wait(30)")]


def test_every_wait_on_a_child_process_has_a_timeout():
    files = checked_files()
    assert len(files) > 50, "the tests, tools and snippets were not found"
    unbounded = [f"{path.relative_to(ROOT)}:{line}: {code[:120]}"
                 for path in files for line, code in unbounded_waits(path.read_text(encoding="utf-8"), str(path))]
    assert unbounded == [], "waits on a child process with no timeout= (a hung child would hang the run):\n" \
        + "\n".join(unbounded)
