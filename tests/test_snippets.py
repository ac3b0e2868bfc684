"""Every file in snippets/ runs, and what it prints is what its .out file says.

A snippet without an .out file must check itself with assert statements.
"""

import subprocess
import sys

import pytest
from conftest import ROOT

SNIPPETS = sorted((ROOT / "snippets").rglob("*.py"))


def test_snippet_folder_has_no_stray_files():
    strays = [p for p in (ROOT / "snippets").rglob("*")
              if p.is_file() and p.suffix not in {".py", ".out"} and "__pycache__" not in p.parts]
    assert not strays, f"unexpected files in snippets/: {strays}"
    orphans = [p for p in (ROOT / "snippets").rglob("*.out") if not p.with_suffix(".py").exists()]
    assert not orphans, f".out files without a snippet: {orphans}"


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda p: str(p.relative_to(ROOT)))
def test_snippet_runs_and_prints_expected_output(snippet, tmp_path):
    result = subprocess.run([sys.executable, str(snippet)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{snippet} exited {result.returncode}:\n{result.stderr}"
    expected = snippet.with_suffix(".out")
    if expected.exists():
        assert result.stdout == expected.read_text(encoding="utf-8"), f"{snippet}: output differs from {expected}"
    else:
        assert "assert " in snippet.read_text(encoding="utf-8"), f"{snippet}: no {expected.name} and no assert"
    assert list(tmp_path.iterdir()) == [], f"{snippet} left files behind: {list(tmp_path.iterdir())}"
