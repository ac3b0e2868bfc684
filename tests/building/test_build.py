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


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_build_on_the_previous_environment_does_not_claim_the_configuration_changed(doctest_runs, language):
    """The doctest build reads the environment the HTML build pickled; nothing in conf.py changed between
    them, and the log must not say it did (it said so on every incremental build: config_status.py)."""
    log = doctest_runs[language].output
    assert "loading pickled environment" in log and "configuration has changed" not in log, log[:2000]


def test_a_real_configuration_change_is_still_reported():
    import logging

    from building.config_status import DropFalseConfigurationChange

    def kept(message: str, *args) -> bool:
        return DropFalseConfigurationChange().filter(logging.LogRecord("x", logging.INFO, "", 0, message, args, None))

    assert not kept("The configuration has changed (%d options: %s)", 4,
                    "'html_css_files', 'html_static_path', 'mathjax4_config', 'pygments_dark_style'")
    assert not kept("The configuration has changed (%d options: %s)", 3,  # make html builds the books last
                    "'epub_css_files', 'html_static_path', 'mathjax4_config'")
    assert kept("The configuration has changed (%d options: %s)", 2, "'html_css_files', 'html_title'")
    assert kept("The configuration has changed (1 option: %r)", "language")
    assert kept("reading sources...")


def test_root_index_leads_to_every_published_language_and_no_draft():
    from tools.web.language_redirect import redirect_page
    from tools.project import published, site_languages
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
