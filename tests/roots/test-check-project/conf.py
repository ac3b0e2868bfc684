# A small project laid out like torch-notes, for make check (tests/workflow/test_check.py): a glossary, two pages
# that share a heading and each have an example, their English catalogs.
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

project = "fixture"
copyright = "2026, fixture authors"
extensions = ["myst_parser", "sphinx.ext.doctest", "examples.doctest_guard", "i18n.lang_overrides",
              "i18n.untranslated_warnings", "building.reread_pages"]
exclude_patterns = ["_ext"]
language = "zh_CN"
locale_dirs = ["../locale/"]
gettext_compact = False
gettext_location = True
html_theme = "basic"
doctest_test_doctest_blocks = ""
language_overrides = {"zh_CN": {"html_title": "测试项目"}, "en": {"html_title": "Fixture project"}}
site_languages = {
    "zh_CN": {"hreflang": "zh-CN", "label": "中文"},
    "en": {"hreflang": "en", "label": "English"},
}
