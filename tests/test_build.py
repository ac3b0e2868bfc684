"""Both languages build with zero warnings (each warning names its file and line)."""

import json

import pytest
from conftest import LANGUAGES, html_dir


@pytest.mark.parametrize("language", LANGUAGES)
def test_builds_without_warnings(html_builds, language):
    run = html_builds[language]
    assert run.returncode == 0 and not run.warnings(), (
        f"{run.command} failed or warned:\n" + "\n".join(run.warnings() or run.output.splitlines()[-30:]))


@pytest.mark.parametrize("language", LANGUAGES)
def test_build_log_shows_progress_and_warnings_not_configuration(html_builds, language):
    dumps = [line[:120] for line in html_builds[language].output.splitlines() if "MdParserConfig(" in line]
    assert not dumps, f"configuration dumped into the build log: {dumps}"


def test_root_index_leads_to_every_published_language_and_no_draft():
    from language_redirect import redirect_page
    from project import published, site_languages
    languages = site_languages()
    redirect = redirect_page(languages)
    for language in published(languages):
        assert f'href="{language}/index.html"' in redirect, f"root index.html has no link to {language}"
    with_draft = {**languages, "ja": {"hreflang": "ja", "label": "日本語", "draft": True}}
    assert redirect_page(with_draft) == redirect, "a draft language changed the root index"
    assert "ja/index.html" not in redirect_page(with_draft)


@pytest.mark.parametrize("language", LANGUAGES)
def test_site_title_is_in_the_page_language(html_builds, language):
    page = (html_dir(language) / "index.html").read_text(encoding="utf-8")
    expected = {"zh_CN": "torch-notes：PyTorch 与 Python 参考", "en": "torch-notes: a PyTorch and Python reference"}
    if language in expected:
        assert expected[language] in page


def test_snippet_ledgers_match_between_languages(html_builds):
    ledgers = {lang: json.loads((html_dir(lang) / "snippet-ledger.json").read_text()) for lang in LANGUAGES}
    source = ledgers[LANGUAGES[0]]
    assert sum(sum(counts.values()) for counts in source.values()) > 0, "the ledger saw no code block at all"
    for language, ledger in ledgers.items():
        untested = {page: c["untested"] for page, c in ledger.items() if c.get("untested")}
        assert not untested, f"{language}: untested code blocks: {untested}"
        assert ledger == source, f"code blocks differ between {LANGUAGES[0]} and {language}"
