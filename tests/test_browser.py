"""The site as a reader uses it, in a real browser (Debian's headless chromium).

One browser and one local web server (127.0.0.1, a free port) for the whole
module, serving the fresh builds of the ``html_builds`` fixture. Every test
also asserts that the pages it visited logged no JavaScript error.
Screenshots go to ``_build/screenshots/`` for people to look at.
"""

import json

import pytest
from browser import Chromium, SiteServer
from conftest import BUILDDIR, LANGUAGES, ROOT

SCREENSHOTS = ROOT / "_build" / "screenshots"
ZH, EN = "zh_CN", "en"
SWITCH_PAGES = ["tensors/broadcasting", "autograd/overview", "nn/module"]


@pytest.fixture(scope="module")
def site(html_builds):
    with SiteServer(BUILDDIR / "html") as server:
        yield server.url


@pytest.fixture(scope="module")
def browser(site):
    chromium = Chromium()
    yield chromium
    chromium.close()


@pytest.fixture(autouse=True)
def no_javascript_errors(request):
    """Start each test with an empty error list; the test itself asserts it stays empty."""
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").errors.clear()


def assert_no_errors(browser):
    errors, browser.errors[:] = list(browser.errors), []
    assert not errors, "JavaScript errors on the pages visited:\n" + "\n".join(errors)


def path_of(browser) -> str:
    return browser.evaluate("window.location.pathname")


# -- 1. language switcher ------------------------------------------------------
@pytest.mark.parametrize("page", SWITCH_PAGES)
def test_language_switcher_opens_the_same_page_and_back(browser, site, page):
    browser.open(f"{site}{ZH}/{page}.html")
    assert browser.evaluate("document.documentElement.lang") == "zh-CN"
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{EN}/{page}.html"
    assert browser.evaluate("document.documentElement.lang") == "en"
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{ZH}/{page}.html"
    assert_no_errors(browser)


def test_language_switcher_falls_back_to_the_home_page(browser, site):
    browser.open(f"{site}{ZH}/nn/module.html")
    # Point the switcher at a page the English edition does not have.
    browser.evaluate("document.querySelector('a.language-switcher-link').href = '../../en/no-such-page.html'")
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{EN}/index.html"
    errors = [e for e in browser.errors if "no-such-page.html" not in e]  # the probe's own 404 is expected
    browser.errors[:] = errors
    assert_no_errors(browser)


# -- 2. search -----------------------------------------------------------------
def search(browser, site, language: str, query: str) -> list[str]:
    """Type the query into the sidebar search box, submit, and return the result links."""
    browser.open(f"{site}{language}/index.html")
    browser.evaluate(f"document.querySelector('input.sidebar-search').value = {json.dumps(query)}")
    browser.until_loaded(lambda: browser.evaluate("document.querySelector('form.sidebar-search-container').submit()",
                                                   user_gesture=True))
    assert "search.html?q=" in browser.location()
    browser.wait_for("(document.querySelector('#search-results p.search-summary') || {}).innerText",
                     f"the results of {query!r}")
    return browser.evaluate(
        "[...document.querySelectorAll('#search-results ul.search li > a')].map(a => a.getAttribute('href'))")


def pages(links: list[str]) -> set[str]:
    return {link.split("#")[0] for link in links}


@pytest.mark.parametrize("language, query, expected", [
    (ZH, "自动求导", "autograd/overview.html"),       # one term
    (ZH, "计算 梯度", "autograd/backward.html"),      # two terms, a space between them
    (ZH, "计算梯度", "autograd/backward.html"),       # the same two terms typed without a space
    (ZH, "学习率", "glossary.html"),                  # a glossary term kept whole by jieba
    (EN, "broadcasting", "tensors/broadcasting.html"),
    (EN, "leaf tensor", "autograd/overview.html"),
    (EN, "gradient accumulation", "autograd/backward.html"),
])
def test_search_lists_the_expected_page(browser, site, language, query, expected):
    found = pages(search(browser, site, language, query))
    assert expected in found, f"{query!r} did not list {expected}: {sorted(found)}"
    assert_no_errors(browser)


def test_chinese_query_without_spaces_finds_what_the_spaced_query_finds(browser, site):
    spaced = pages(search(browser, site, ZH, "计算 梯度"))
    unspaced = pages(search(browser, site, ZH, "计算梯度"))
    assert spaced and unspaced == spaced
    assert browser.evaluate("[...Search._parseQuery('计算梯度')[1]].sort()") == ["梯度", "计算"]
    assert_no_errors(browser)


# -- 3. copy button --------------------------------------------------------------
CAPTURE_COPY = """document.addEventListener("copy", (e) => {
  window.__copied = e.target.value !== undefined ? e.target.value : String(document.getSelection());
}, true)"""


def copy_block(browser, selector: str) -> str:
    browser.evaluate("window.__copied = null; " + CAPTURE_COPY)
    browser.click(f"{selector} button.copybtn")
    return browser.wait_for("window.__copied", "the copied text")


def test_copy_button_copies_doctest_code_without_prompts_or_output(browser, site):
    browser.open(f"{site}{ZH}/tensors/broadcasting.html")
    shown = browser.evaluate("document.querySelector('div.highlight-pycon pre').innerText")
    copied = copy_block(browser, "div.highlight-pycon")
    code = [line[4:] for line in shown.splitlines() if line.startswith((">>> ", "... "))]
    assert copied.splitlines() == code, f"copied:\n{copied}\nshown:\n{shown}"
    assert ">>>" not in copied and "torch.Size([" not in copied, copied
    assert_no_errors(browser)


def test_output_blocks_have_no_copy_button(browser, site):
    browser.open(f"{site}{ZH}/index.html")  # the conventions section: a testcode and its testoutput
    assert browser.evaluate("document.querySelectorAll('div.no-copybutton').length") >= 1
    assert browser.evaluate("document.querySelectorAll('div.no-copybutton button.copybtn').length") == 0
    assert "print(" in copy_block(browser, "div.highlight-python:not(.no-copybutton)")
    assert_no_errors(browser)


# -- 4. dark mode ----------------------------------------------------------------
READ_COLOURS = """(() => {
  const opaque = (el) => {
    for (; el; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor;
      if (c && c !== "transparent" && !c.endsWith(", 0)")) return c;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const text = document.querySelector("article p");
  const code = document.querySelector("article div.highlight pre");
  return {text: getComputedStyle(text).color, page: opaque(text),
          code: getComputedStyle(code).color, codeBackground: opaque(code)};
})()"""


def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def set_theme(browser, theme: str) -> None:
    for _ in range(3):  # furo cycles auto -> dark -> light (or auto -> light -> dark)
        if browser.evaluate("document.body.dataset.theme") == theme:
            return
        browser.click(".theme-toggle-content button.theme-toggle")
    assert browser.evaluate("document.body.dataset.theme") == theme


@pytest.mark.parametrize("language", LANGUAGES)
def test_dark_mode_toggles_persists_and_stays_readable(browser, site, language):
    browser.open(f"{site}{language}/tensors/broadcasting.html")
    for theme in ("light", "dark"):
        set_theme(browser, theme)
        colours = browser.evaluate(READ_COLOURS)
        dark_page = luminance(colours["page"]) < 0.1
        assert dark_page == (theme == "dark"), f"{theme} mode has a page background of {colours['page']}"
        assert contrast(colours["text"], colours["page"]) >= 7, f"{theme}: prose hard to read: {colours}"
        assert contrast(colours["code"], colours["codeBackground"]) >= 4.5, f"{theme}: code hard to read: {colours}"
        browser.screenshot(SCREENSHOTS / f"{language}-{theme}.png")
    browser.open(f"{site}{language}/nn/module.html")  # the choice is remembered on the next page
    assert browser.evaluate("document.body.dataset.theme") == "dark"
    assert luminance(browser.evaluate(READ_COLOURS)["page"]) < 0.1
    set_theme(browser, "light")
    assert_no_errors(browser)


# -- 5. JavaScript errors --------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_load_without_javascript_errors(browser, site, language):
    for page in ["index", "glossary", "api", "genindex", "tensors/broadcasting", "autograd/backward"]:
        browser.open(f"{site}{language}/{page}.html")
        browser.wait_for("document.readyState === 'complete'", "the page")
    assert_no_errors(browser)


def test_a_javascript_error_is_caught(browser, site):
    # Negative check of the harness itself: a page that throws must be reported.
    browser.open("data:text/html,<p>x</p><script>undefinedFunction()</script>")
    assert any("undefinedFunction" in error for error in browser.errors), browser.errors
    browser.errors.clear()
