# A small project laid out like torch-notes (conf.py at the root, pages in docs/,
# catalogs in locale/), driven by the project's own Makefile and tools/.
# tests/catalogs/test_translator_workflow.py copies it, with Makefile, tools/ and docs/_ext/, into a temporary folder.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "docs" / "_ext"))

project = "fixture"
copyright = "2026, fixture authors"
version = "1.0"  # the books' metadata needs a version and a copyright (make html builds them too)
extensions = ["myst_parser", "i18n.lang_overrides", "i18n.translation_status", "books.epub_books"]
exclude_patterns = ["_ext"]
language = "zh_CN"
locale_dirs = ["../locale/"]
gettext_compact = False
gettext_location = True
html_theme = "basic"

language_overrides = {
    "zh_CN": {
        "html_title": "测试项目",
    },
    "en": {
        "html_title": "Fixture project",
    },
}
site_languages = {
    "zh_CN": {"hreflang": "zh-CN", "label": "中文"},
    "en": {"hreflang": "en", "label": "English"},
}
