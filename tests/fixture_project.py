"""A temporary project laid out like torch-notes and driven by the project's own Makefile and tools.

tests/roots/test-translator-project/ holds its conf.py, docs/ and locale/; the
copy gets the real Makefile, tools/ and docs/_ext/, and the virtualenv by link.
"""

import shutil
import subprocess
from pathlib import Path

from conftest import ROOT
from tools.project import SOURCE_LANGUAGE

FIXTURE = ROOT / "tests" / "roots" / "test-translator-project"
MAKE_TIMEOUT = 600  # seconds; a target runs a few small Sphinx builds in turn, each in seconds; past this it is stuck


def make_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    shutil.copytree(ROOT / "tools", project / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "docs" / "_ext", project / "docs" / "_ext", ignore=shutil.ignore_patterns("__pycache__"))
    # The theme's strings, for add-language: of the fixture's own languages only (the checkout may
    # have a draft language of its own, which the fixture's add-language would then find there).
    languages = {p.name for p in (FIXTURE / "locale").iterdir() if p.is_dir()} | {SOURCE_LANGUAGE}
    for language in sorted(languages & {p.name for p in (ROOT / "docs" / "_locale").iterdir()}):
        shutil.copytree(ROOT / "docs" / "_locale" / language, project / "docs" / "_locale" / language)
    shutil.copy2(ROOT / "Makefile", project / "Makefile")
    shutil.copy2(ROOT / "requirements.txt", project / "requirements.txt")  # older than the venv's stamp
    (project / ".venv").symlink_to(ROOT / ".venv")
    return project


def make(project: Path, *args: str) -> str:
    result = subprocess.run(["make", "--no-print-directory", *args, "SPHINXOPTS=-q -W"], cwd=project,
                            capture_output=True, text=True, timeout=MAKE_TIMEOUT)
    assert result.returncode == 0, f"make {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def catalogs(project: Path) -> dict[Path, bytes]:
    return {p.relative_to(project): p.read_bytes() for p in sorted((project / "locale").rglob("*.po"))}
