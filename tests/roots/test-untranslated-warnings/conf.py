# Fixture of tests/i18n/test_untranslated_warnings.py: a page whose English catalog has one fuzzy
# and one untranslated entry, and a page whose catalog is finished.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "docs" / "_ext"))

project = "fixture"
extensions = ["myst_parser", "i18n.untranslated_warnings"]
exclude_patterns = ["_build", "_locale"]
language = "zh_CN"
locale_dirs = ["locale/", "_locale/"]  # _locale: theme strings of the source language, as in docs/
gettext_compact = False
html_theme = "basic"
