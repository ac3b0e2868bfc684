"""Translated sites contain no Chinese outside elements marked as another language (a draft reports instead).

Only for translations not written with Han characters: on a Japanese page, kanji are the translation.
For those, completeness rests on the catalogs (test_catalogs.py) and the build's warnings about
untranslated entries (docs/_ext/i18n/untranslated_warnings.py).
"""

import pytest
from conftest import LANGUAGES, check_translated_content, html_dir
from tools.web.html_lang import chinese_outside_marked_elements

HAN_SCRIPT = ("zh", "ja", "ko")  # primary subtags of languages that may write Han characters


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES[1:] if not lang.startswith(HAN_SCRIPT)])
def test_no_chinese_in_translated_html(html_builds, language):
    problems = []
    for page in sorted(html_dir(language).rglob("*.html")):
        for line, text in chinese_outside_marked_elements(page.read_text(encoding="utf-8")):
            problems.append(f"{page}:{line}: {text!r}")
    check_translated_content(language, problems, "lines of Chinese text in the translated site")
