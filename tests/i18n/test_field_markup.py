"""Field lists keep their markup in translation: on every page, the same number of code spans
in the parameter, return and raise descriptions of every language (tests/roots/test-fields shows
the mechanism: docs/_ext/i18n/field_sources.py). The parallel view's hidden counterparts are not
counted: they hold the other edition's text, and a draft has none for what it has not translated."""

import re

from bs4 import BeautifulSoup

from conftest import LANGUAGES, html_dir

FIELD_LIST = re.compile(r'<dl class="[^"]*field-list[^"]*">(.*?)</dl>', re.S)
CODE = re.compile(r'<code class="docutils literal')


def without_counterparts(html: str) -> str:
    soup = BeautifulSoup(html, "html.parser")
    for counterpart in soup.select(".parallel-counterpart"):
        counterpart.decompose()
    return str(soup)


def field_code_spans(language: str) -> dict[str, int]:
    counts = {}
    root = html_dir(language)
    for page in root.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        counts[page.relative_to(root).as_posix()] = sum(len(CODE.findall(without_counterparts(f)))
                                                        for f in FIELD_LIST.findall(html))
    return counts


def test_every_page_has_as_many_code_spans_in_its_fields_in_both_languages(html_builds):
    source, *translations = LANGUAGES
    expected = field_code_spans(source)
    assert sum(expected.values()) > 250, "field lists without code spans: the check would prove nothing"
    for language in translations:
        got = field_code_spans(language)
        differing = {page: (n, got.get(page)) for page, n in expected.items() if got.get(page) != n}
        assert not differing, f"{language}: code spans in field lists (source, translation): {differing}"
