"""Translated sites contain no Chinese outside elements marked lang="zh-CN"."""

import pytest
from conftest import LANGUAGES, html_dir
from html_lang import chinese_outside_marked_elements


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_no_chinese_in_translated_html(html_builds, language):
    problems = []
    for page in sorted(html_dir(language).rglob("*.html")):
        for line, text in chinese_outside_marked_elements(page.read_text(encoding="utf-8")):
            problems.append(f"{page}:{line}: {text!r}")
    assert not problems, "Chinese text in the translated site:\n" + "\n".join(problems[:50])
