"""Every file in snippets/ runs, and what it prints is what its .out file says.

A snippet without an .out file must check itself with assert statements.
"""

import subprocess
import sys

from conftest import ROOT

SNIPPETS = ROOT / "snippets"


def test_snippet_folder_has_no_stray_files():
    strays = [p for p in SNIPPETS.rglob("*")
              if p.is_file() and p.suffix not in {".py", ".out"} and p.name != ".gitkeep" and "__pycache__" not in p.parts]
    assert not strays, f"unexpected files in snippets/: {strays}"
    orphans = [p for p in SNIPPETS.rglob("*.out") if not p.with_suffix(".py").exists()]
    assert not orphans, f".out files without a snippet: {orphans}"


def check_snippet(snippet, workdir) -> list[str]:
    result = subprocess.run([sys.executable, str(snippet)], cwd=workdir, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        return [f"{snippet}: exited {result.returncode}:\n{result.stderr}"]
    problems = []
    expected = snippet.with_suffix(".out")
    if expected.exists():
        if result.stdout != expected.read_text(encoding="utf-8"):
            problems.append(f"{snippet}: output differs from {expected}:\n{result.stdout}")
    elif "assert " not in snippet.read_text(encoding="utf-8"):
        problems.append(f"{snippet}: has no {expected.name} and no assert, so nothing is checked")
    if any(workdir.iterdir()):
        problems.append(f"{snippet}: left files behind: {sorted(p.name for p in workdir.iterdir())}")
    return problems


def test_every_snippet_runs_and_prints_expected_output(tmp_path):
    problems = []
    for number, snippet in enumerate(sorted(SNIPPETS.rglob("*.py"))):
        workdir = tmp_path / str(number)
        workdir.mkdir()
        problems += check_snippet(snippet, workdir)
    assert not problems, "\n".join(problems)


def test_a_failing_snippet_is_caught(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("print('a')\n")
    (tmp_path / "bad.out").write_text("b\n")
    workdir = tmp_path / "run"
    workdir.mkdir()
    assert check_snippet(bad, workdir) == [f"{bad}: output differs from {tmp_path / 'bad.out'}:\na\n"]
