"""Accessibility: axe-core over every page of both sites, light and dark (tools/axe, installed by make test).

Its own file, the longest of the suite (about ten minutes of one worker on 2 cores): with
``--dist loadfile`` (make test) one worker runs it while the other takes the rest of the browser tests.
"""

import json
from concurrent.futures import ThreadPoolExecutor

from tools.web.browser import Chromium, wcag_violations
from conftest import LANGUAGES, html_dir


def assert_no_errors(browser):
    errors, browser.errors[:] = list(browser.errors), []
    assert not errors, "JavaScript errors on the pages visited:\n" + "\n".join(errors)


# -- accessibility ------------------------------------------------------------------
# furo's dark theme changes colours only (CSS custom properties under body[data-theme]): the DOM, the
# ARIA and the text are the light page's. So every rule runs in the light theme, and the rules that
# look at colours run again in the dark one.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
# A page whose maths a script still typesets is checked once it has (none does once the maths is built).
MATHS_TYPESET = "window.MathJax && MathJax.startup ? MathJax.startup.promise.then(() => 0) : 0"


def every_page(language: str) -> list[str]:
    """Every HTML page of a built site, and its search page with results and excerpts on it."""
    site = html_dir(language)
    pages = sorted(str(path.relative_to(site)) for path in site.rglob("*.html"))
    return [page for page in pages if page[0] not in "_."] + ["search.html?q=torch"]


def wcag_violations_on_every_page(browser, site: str, languages: list[str]) -> list[str]:
    found = []
    for language, page in [(language, page) for language in languages for page in every_page(language)]:
        browser.open(f"{site}{language}/{page}")
        browser.evaluate(MATHS_TYPESET)
        if "?q=" in page:
            browser.wait_for("document.querySelectorAll('#search-results p.context').length", "the excerpts")
        for theme, rules in (("light", None), ("dark", COLOUR_RULES)):
            browser.evaluate(f"document.body.dataset.theme = {json.dumps(theme)}")
            found += [f"{language} {page} ({theme}): {v}" for v in wcag_violations(browser, rules)]
    return found


def test_no_wcag_a_or_aa_violation_on_any_page_of_either_site_light_or_dark(browser, site):
    """axe-core (tools/axe, installed by make test), WCAG 2.0/2.1 A and AA, on every page of both sites.

    Two browsers side by side, each taking every other site (a page takes about a second of one core)."""
    other = Chromium()
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            runs = [pool.submit(wcag_violations_on_every_page, b, site, LANGUAGES[i::2])
                    for i, b in enumerate([browser, other])]
            found = [line for run in runs for line in run.result()]
        errors = other.errors
    finally:
        other.close()
    assert not found, "WCAG violations:\n" + "\n".join(found)
    browser.errors += errors
    assert_no_errors(browser)
