"""The parallel view (docs/_ext/i18n/parallel_view.py, parallel-view.js) in a real browser.

One headless chromium and one local web server for the module, serving the fresh builds
of the ``html_builds`` fixture, as in tests/web/test_browser.py. Units are found on the page
by what they are in HTML (headings, paragraphs, list items' and table cells' paragraphs,
field names, terms, parameter descriptions), not by anything the extension writes, and
each page is compared with the same page in the other language: unit i of one edition
shows, as its counterpart, the text of unit i of the other. Every test also asserts that
the pages it visited logged no JavaScript error. Screenshots go to
``_build/screenshots/parallel-*.png``.
"""

import json
from collections import defaultdict

import polib
import pytest
from tools.web.browser import COLOUR_RULES, set_theme, wcag_violations
from tools.web.colour_kinds import colour_violations_of_new_kinds
from colour_ledger import LEDGER
from conftest import DRAFTS, LANGUAGES, ROOT, check_translated_content
from tools.project import site_languages

SCREENSHOTS = ROOT / "_build" / "screenshots"
ZH, EN = "zh_CN", "en"
# The source's counterpart is the English; every translation's counterpart is the source.
OTHER = defaultdict(lambda: ZH, {ZH: EN})
HTML_LANG = {code: info["hreflang"] for code, info in site_languages().items()}


def label(language: str) -> str:
    """The view button's label in ``language``: its theme catalog's translation, else the English."""
    po = ROOT / "docs" / "_locale" / language / "LC_MESSAGES" / "sphinx.po"
    entry = polib.pofile(str(po)).find("Bilingual view") if po.exists() else None
    return entry.msgstr if entry and entry.msgstr else "Bilingual view"


LABEL = {language: label(language) for language in LANGUAGES}
# Prose, lists, tables, admonitions, API entries with field lists, maths, links to anchors, the glossary.
PAGES = ["index", "tensors/broadcasting", "tensors/where", "optim/adam", "nn/module", "optim/optimizer", "glossary"]



@pytest.fixture(autouse=True)
def fresh_browser(request):
    """Each test starts with an empty error list and with the view off (nothing stored)."""
    if "browser" in request.fixturenames:
        browser, site = request.getfixturevalue("browser"), request.getfixturevalue("site")
        browser.errors.clear()
        browser.open(f"{site}{ZH}/index.html")
        browser.evaluate("localStorage.clear()")


def enough_counterparts(language: str, count: int, minimum: int, where: str) -> None:
    """A published edition has a counterpart on most units; a draft only on what it has translated
    (an untranslated unit shows the source itself), so there the shortfall is reported, not failed."""
    check_translated_content(language, [] if count > minimum else [f"{where}: {count} counterparts"],
                             "pages with few translated units")


def assert_no_errors(browser):
    errors, browser.errors[:] = list(browser.errors), []
    assert not errors, "JavaScript errors on the pages visited:\n" + "\n".join(errors)


def view_is_on(browser) -> bool:
    return browser.evaluate("document.documentElement.classList.contains('parallel-view')")


def pressed(browser) -> str:
    return browser.evaluate("document.querySelector('button.parallel-view-toggle').getAttribute('aria-pressed')")


VISIBLE_COUNTERPARTS = """[...document.querySelectorAll('.parallel-counterpart')]
  .filter((el) => getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0).length"""
ALL_COUNTERPARTS = "document.querySelectorAll('.parallel-counterpart').length"


def press(browser, key: str, code: str) -> None:
    """A real key press on the focused element (Enter or Space)."""
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                     windowsVirtualKeyCode={"Enter": 13, "Space": 32}[code],
                     **({"text": "\r" if code == "Enter" else " "} if kind == "keyDown" else {}))


# -- 1. the control ---------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_button_toggles_the_view_by_mouse_and_keyboard(browser, site, language):
    browser.open(f"{site}{language}/optim/adam.html")
    button = browser.evaluate("""(() => { const b = document.querySelector('.parallel-view-toggle');
        return b && {tag: b.tagName, type: b.type, hidden: b.hidden, label: b.textContent.trim(),
                     shown: b.getClientRects().length > 0}; })()""")
    assert button == {"tag": "BUTTON", "type": "button", "hidden": False, "label": LABEL[language], "shown": True}
    total = browser.evaluate(ALL_COUNTERPARTS)
    enough_counterparts(language, total, 20, "optim/adam")
    assert (view_is_on(browser), pressed(browser), browser.evaluate(VISIBLE_COUNTERPARTS)) == (False, "false", 0)
    browser.click("button.parallel-view-toggle")
    assert (view_is_on(browser), pressed(browser), browser.evaluate(VISIBLE_COUNTERPARTS)) == (True, "true", total)
    browser.evaluate("document.querySelector('button.parallel-view-toggle').focus()")
    press(browser, "Enter", "Enter")
    assert (view_is_on(browser), pressed(browser), browser.evaluate(VISIBLE_COUNTERPARTS)) == (False, "false", 0)
    press(browser, " ", "Space")
    assert (view_is_on(browser), pressed(browser), browser.evaluate(VISIBLE_COUNTERPARTS)) == (True, "true", total)
    assert_no_errors(browser)


# -- 2. every unit, in order ----------------------------------------------------------
UNITS = r"""(() => {
  const STANDARD = ["note", "warning", "tip", "important", "hint", "caution", "danger", "error", "attention", "seealso"];
  const isCounterpart = (el) => el && el.classList.contains("parallel-counterpart");
  const text = (el) => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll(".headerlink, .colon, .parallel-counterpart").forEach((x) => x.remove());
    copy.querySelectorAll(".math").forEach((x) => x.replaceWith("[math]"));  // before or after MathJax
    return copy.textContent.replace(/\s+/g, " ").trim();
  };
  const article = document.querySelector("article[role=main]");
  const units = [...article.querySelectorAll("h1, h2, h3, h4, h5, h6, p, dt")].filter((el) =>
    !el.closest(".parallel-counterpart, .verified-versions, .epub-downloads")
    && !(el.closest(".toctree-wrapper") && !el.matches("p.caption"))  // a toctree's caption, not its links
    && !(el.matches("dt") && (el.matches(".sig") || el.closest("dl.glossary")))
    && !(el.matches("p.admonition-title") && STANDARD.some((c) => el.parentElement.classList.contains(c))));
  return units.map((el) => {
    const counterpart = el.matches("dt, p.caption") ? el.querySelector("dt > span.parallel-counterpart, .caption-text > span.parallel-counterpart")
      : (isCounterpart(el.nextElementSibling) ? el.nextElementSibling : null);
    return {text: text(el), field: !!el.closest("dl.field-list dd"),
            counterpart: counterpart && {text: text(counterpart), lang: counterpart.lang,
                                         shown: counterpart.getClientRects().length > 0}};
  });
})()"""
TYPOGRAPHY = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "…": "...", "–": "--", "—": "---"})


def units(browser, site, language: str, page: str) -> list[dict]:
    browser.open(f"{site}{language}/{page}.html")
    return browser.evaluate(UNITS)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_unit_shows_the_other_edition_s_text_in_order(browser, site, language, page):
    """Unit i's counterpart is unit i of the other edition: on the English site, the Chinese source."""
    browser.open(f"{site}{language}/index.html")
    browser.evaluate("localStorage.setItem('torch-notes-parallel-view', 'on')")
    here, there = units(browser, site, language, page), units(browser, site, OTHER[language], page)
    assert len(here) == len(there) > 5, f"{page}: {len(here)} units in {language}, {len(there)} in the other"
    problems = []
    for i, (unit, other) in enumerate(zip(here, there)):
        found = unit["counterpart"]
        if found is None:
            # Only a unit that reads the same in both editions (code names, numbers) goes without one.
            if unit["text"].translate(TYPOGRAPHY) != other["text"].translate(TYPOGRAPHY):
                problems.append(f"unit {i} {unit['text'][:60]!r} has no counterpart")
            continue
        # A parameter's description follows its name and type: the counterpart holds the description.
        matches = found["text"] == other["text"] or (unit["field"] and other["text"].endswith(found["text"]))
        if not matches:
            problems.append(f"unit {i}: counterpart {found['text'][:60]!r} but the other edition has "
                            f"{other['text'][:60]!r}")
        if found["lang"] != HTML_LANG[OTHER[language]] or not found["shown"]:
            problems.append(f"unit {i}: counterpart lang={found['lang']!r} shown={found['shown']}")
    enough_counterparts(language, sum(1 for u in here if u["counterpart"]), len(here) / 2, page)
    assert not problems, f"{language} {page}:\n" + "\n".join(problems[:30])
    assert_no_errors(browser)


# -- 3. the choice persists -------------------------------------------------------------------
def test_the_choice_holds_across_pages_and_across_the_language_switch(browser, site):
    browser.open(f"{site}{ZH}/tensors/broadcasting.html")
    assert not view_is_on(browser)
    browser.click("button.parallel-view-toggle")
    browser.open(f"{site}{ZH}/nn/module.html")
    assert view_is_on(browser) and pressed(browser) == "true"
    browser.click_and_wait("a.language-switcher-link")
    assert browser.evaluate("location.pathname") == f"/{EN}/nn/module.html"
    assert view_is_on(browser) and pressed(browser) == "true" and browser.evaluate(VISIBLE_COUNTERPARTS) > 0
    browser.click("button.parallel-view-toggle")  # off, on the English site
    browser.click_and_wait("a.language-switcher-link")
    assert browser.evaluate("location.pathname") == f"/{ZH}/nn/module.html"
    assert not view_is_on(browser) and pressed(browser) == "false" and browser.evaluate(VISIBLE_COUNTERPARTS) == 0
    browser.open(f"{site}{EN}/optim/adam.html")
    assert not view_is_on(browser)
    assert_no_errors(browser)


# -- 4. without JavaScript ---------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_the_page_is_the_plain_one(browser, site, language):
    browser.evaluate("localStorage.setItem('torch-notes-parallel-view', 'on')")  # chosen before, with JavaScript
    browser.send("Emulation.setScriptExecutionDisabled", value=True)
    try:
        browser.open(f"{site}{language}/optim/adam.html")
        state = browser.evaluate(f"""({{total: {ALL_COUNTERPARTS}, shown: {VISIBLE_COUNTERPARTS},
            on: document.documentElement.classList.contains('parallel-view'),
            button: document.querySelector('.parallel-view-toggle').getClientRects().length}})""")
    finally:
        browser.send("Emulation.setScriptExecutionDisabled", value=False)
    enough_counterparts(language, state["total"], 20, "optim/adam")
    assert state == {"total": state["total"], "shown": 0, "on": False, "button": 0}
    browser.open(f"{site}{language}/optim/adam.html")  # and with it, the stored choice is back
    assert view_is_on(browser) and browser.evaluate(VISIBLE_COUNTERPARTS) == state["total"]
    assert_no_errors(browser)


# -- 5. search excerpts -------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_search_excerpts_leave_the_counterparts_out(html_builds, language):
    """The excerpts of search results are written with the index (search_excerpts.py): none of the
    other edition's hidden text may end up in them."""
    from bs4 import BeautifulSoup
    from conftest import html_dir

    site = html_dir(language)
    page = BeautifulSoup((site / "tensors" / "broadcasting.html").read_text(encoding="utf-8"), "html.parser")
    counterparts = [c.get_text().strip() for c in page.select(".parallel-counterpart")]
    excerpts = json.loads((site / "_static" / "search-excerpts.js").read_text(encoding="utf-8")
                          .split("=", 1)[1].strip().rstrip(";"))
    text = " ".join(t for sections in excerpts.values() for _, t in sections)
    leaked = [c for c in counterparts if len(c) > 12 and c[:40] in text]
    enough_counterparts(language, len(counterparts), 10, "tensors/broadcasting")
    assert leaked == [], leaked[:5]


# -- 6. looks and accessibility ---------------------------------------------------------------------
def scroll_to(browser, selector: str) -> None:
    """Scroll at once (furo scrolls smoothly), leaving a little room above the element."""
    browser.evaluate(f"""window.scrollTo({{behavior: "instant", left: 0,
        top: document.querySelector({json.dumps(selector)}).getBoundingClientRect().top + window.scrollY - 40}})""")


@pytest.mark.parametrize("language", LANGUAGES)
def test_screenshots_with_the_view_on_in_light_and_dark_mode(browser, site, language):
    browser.open(f"{site}{language}/optim/adam.html")
    browser.click("button.parallel-view-toggle")
    for theme in ("light", "dark"):
        set_theme(browser, theme)
        scroll_to(browser, "article h1")
        browser.screenshot(SCREENSHOTS / f"parallel-{language}-{theme}.png")
        scroll_to(browser, "article dt.field-odd")
        browser.screenshot(SCREENSHOTS / f"parallel-{language}-{theme}-fields.png")
    set_theme(browser, "light")
    browser.open(f"{site}{language}/optim/optimizer.html")
    scroll_to(browser, "article table")
    browser.screenshot(SCREENSHOTS / f"parallel-{language}-light-table.png")
    assert_no_errors(browser)




@pytest.mark.parametrize("language", LANGUAGES)
def test_no_wcag_a_or_aa_violation_with_the_view_on(browser, site, language):
    """axe-core (tools/axe, installed by make test), WCAG 2.0/2.1 A and AA, counterparts shown: every rule but
    the colour ones in the light theme; the colour rules in both themes (a theme changes colours only), on one
    element of each kind the run has not checked yet, as the axe pass does (tests/web/test_accessibility.py).
    A kind is what the colour rules read (computed styles, the ancestors that paint behind): a counterpart styled
    like an element checked before is not read again; one styled otherwise is. Not read again either: an element
    of a known kind drawn over a sibling (the first counterpart in an admonition is pulled up towards its title by
    a negative margin), which the axe pass accepts as its risk too."""
    browser.evaluate("localStorage.setItem('torch-notes-parallel-view', 'on')")
    found = []
    for page in PAGES:
        browser.open(f"{site}{language}/{page}.html")
        assert view_is_on(browser)
        enough_counterparts(language, browser.evaluate(VISIBLE_COUNTERPARTS), 0, page)
        browser.evaluate('document.body.dataset.theme = "light"')
        found += [f"{page} (light): {v}" for v in wcag_violations(browser, skip=COLOUR_RULES)]
        for theme in ("light", "dark"):
            browser.evaluate(f"document.body.dataset.theme = {json.dumps(theme)}")
            found += [f"{page} ({theme}): {v}" for v in colour_violations_of_new_kinds(browser, LEDGER)]
    assert not found, f"{language}: WCAG violations with the parallel view on:\n" + "\n".join(found)
    assert_no_errors(browser)
