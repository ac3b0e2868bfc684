# Shared configuration of the fixture projects: the project's own checks, nothing else.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "docs" / "_ext"))

extensions = ["myst_parser", "sphinx.ext.doctest", "examples.snippet_ledger", "checks.hardwrap_check"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
snippet_dirs = []
