"""Accessibility: axe-core over every page of both sites (tools/axe, installed by make test).

The longest check of the suite, so it is cut into parts that the xdist workers share (conftest.py's
ONE_BY_ONE): a site's pages in ``PARTS`` interleaved slices.
"""

import json

import pytest

from tools.web.browser import COLOUR_RULES, load_axe_into_every_page, wcag_violations
from tools.web.colour_kinds import colour_violations_of_new_kinds
from colour_ledger import LEDGER
from conftest import LANGUAGES, SOURCE_LANGUAGE, html_dir

pytestmark = pytest.mark.long  # conftest.py schedules it early


def assert_no_errors(browser):
    errors, browser.errors[:] = list(browser.errors), []
    assert not errors, "JavaScript errors on the pages visited:\n" + "\n".join(errors)


# The rules that look at colours (color-contrast, link-in-text-block) were most of axe's time on a page
# (0.8 of 1.2 s, quiet machine), and elements alike in what they read get the same verdict: the computed
# styles of the element, of what paints behind it and of what tints it, and a little of its text and box
# (own text or not, one character, emoji only, on screen, in a block of text). So they read one element of
# each such kind, the first one met in the run (tools/web/colour_kinds.py; tests/colour_ledger.py shares the kinds
# between the workers), until axe has judged one; a page whose elements are all of kinds judged before costs
# only the survey. What that gives up is the layout where it changes a verdict: an element over another that is
# not its ancestor gets its background from what is under it on the screen (tests/web/test_colour_kinds.py
# holds what a kind must tell apart). Every other rule runs on every page
# of every language, in the light theme; the colour rules on the source language's pages, in both themes.
# A page's colours come from its elements and their classes, not from its words: furo's dark theme changes
# colours only, and a translated page has the elements of its source page with the same classes (a
# translation cannot bring a stylesheet; the one :lang(zh) rule sets line height and wrapping). The risk
# accepted: a translation may add inline markup its source lacks (a link, code) that makes a new kind.
COLOUR_CHECKED = [SOURCE_LANGUAGE]
# A page whose maths a script still typesets is checked once it has (none does once the maths is built).
MATHS_TYPESET = "window.MathJax && MathJax.startup ? MathJax.startup.promise.then(() => 0) : 0"
# A site's pages in this many parts, each a test of its own (about a minute in make test), so that the two
# workers end close together; a source page costs about three times a translated one.
PARTS = {language: 6 if language in COLOUR_CHECKED else 2 for language in LANGUAGES}


def every_page(language: str) -> list[str]:
    """Every HTML page of a built site, and its search page with results and excerpts on it."""
    site = html_dir(language)
    pages = sorted(str(path.relative_to(site)) for path in site.rglob("*.html"))
    return [page for page in pages if page[0] not in "_."] + ["search.html?q=torch"]


def wcag_violations_on(browser, site: str, language: str, pages: list[str]) -> list[str]:
    """Every rule but the colour ones on every page in the light theme; the colour rules, where the language is
    colour-checked, on one element of each kind not checked before, in both themes."""
    colour_themes = ["light", "dark"] if language in COLOUR_CHECKED else []
    found = []
    for page in pages:
        browser.open(f"{site}{language}/{page}")
        browser.evaluate(MATHS_TYPESET)
        if "?q=" in page:
            browser.wait_for("document.querySelectorAll('#search-results p.context').length", "the excerpts")
        browser.evaluate('document.body.dataset.theme = "light"')
        found += [f"{language} {page} (light): {v}" for v in wcag_violations(browser, skip=COLOUR_RULES)]
        for theme in colour_themes:
            browser.evaluate(f"document.body.dataset.theme = {json.dumps(theme)}")
            found += [f"{language} {page} ({theme}): {v}"
                      for v in colour_violations_of_new_kinds(browser, LEDGER)]
    return found


@pytest.fixture(scope="module")
def checking_browser(browser):
    """The module's browser (conftest.py), with axe in every page it opens."""
    load_axe_into_every_page(browser)
    return browser


PARTS_OF_SITES = [pytest.param(language, part, id=f"{language}-{part + 1}of{PARTS[language]}")
                  for language in LANGUAGES for part in range(PARTS[language])]


@pytest.mark.parametrize(("language", "part"), PARTS_OF_SITES)
def test_no_wcag_a_or_aa_violation_on_any_page(checking_browser, site, language, part):
    """axe-core, WCAG 2.0/2.1 A and AA (COLOUR_CHECKED: which languages' pages the colour rules read):
    every ``PARTS[language]``-th page of a site, from the ``part``-th."""
    pages = every_page(language)[part::PARTS[language]]
    found = wcag_violations_on(checking_browser, site, language, pages)
    assert not found, "WCAG violations:\n" + "\n".join(found)
    assert_no_errors(checking_browser)

