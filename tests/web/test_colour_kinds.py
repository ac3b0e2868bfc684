"""The colour rules read one element of each kind (tools/web/colour_kinds.py): what makes a kind new.

Small pages served from a temporary folder, in headless chromium with axe-core (make test installs
both); no site build needed. Each test checks its pages in order against one ledger, as the
accessibility test does across a site.
"""

import pytest

from tools.web.browser import Chromium, SiteServer
from tools.web.colour_kinds import colour_violations_of_new_kinds

STYLE = """<style>
body { background: #fff; color: #000; font: 16px sans-serif; }
.faint { color: #949494; }  /* 3.03:1 on white: enough for large text (3:1), not for normal text (4.5:1) */
.large { font-size: 24px; }
.grey { background: #ddd; }
.light-theme-only { color: #222; }
body[data-theme="dark"] { background: #111; }
body[data-theme="dark"] .light-theme-only { background: #111; }
a.plain { color: #333; text-decoration: none; }  /* 1.66:1 against the text around it */
</style>"""

PAGES = {
    "faint.html": '<p>Plain text, and <span class="faint">faint text</span>.</p>',
    "faint-again.html": '<p>Other words, <span class="faint">the same faint style</span>.</p>',
    "faint-on-grey.html": '<div class="grey"><p>Plain text, and <span class="faint">faint text</span>.</p></div>',
    "faint-letter.html": '<p>A letter: <span class="faint">x</span>.</p>',
    "faint-large.html": '<p class="large">Large text, and <span class="faint">faint large text</span>.</p>',
    # A paragraph of plain text too, so that the paragraph of the next page is no new kind (axe reads an element
    # and what it holds: a new paragraph would take its link along).
    "plain-link-alone.html": '<p>Some plain text.</p><p><a class="plain" href="faint.html">Home</a></p>',
    "plain-link-in-text.html": '<p>A paragraph with a good deal of text around <a class="plain" href="faint.html">a'
                               ' link</a> that looks like the text around it, and more text after it.</p>',
    "dark.html": '<p>Plain text, and <span class="light-theme-only">dark grey text</span>.</p>',
}


class Ledger:
    def __init__(self):
        self.kinds: set[str] = set()

    def known(self) -> set[str]:
        return set(self.kinds)

    def add(self, kinds) -> None:
        self.kinds.update(kinds)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("colour-kinds")
    for name, body in PAGES.items():
        (root / name).write_text(f'<!DOCTYPE html><html lang="en"><head><title>{name}</title>{STYLE}</head>'
                                 f'<body><main>{body}</main></body></html>', encoding="utf-8")
    with SiteServer(root) as server:
        yield server.url


@pytest.fixture(scope="module")
def browser(site):
    chromium = Chromium()
    yield chromium
    chromium.close()


def check(browser, site, ledger, *pages: str, theme: str = "light") -> dict[str, list[str]]:
    found = {}
    for page in pages:
        browser.open(site + page)
        browser.evaluate(f"document.body.dataset.theme = {theme!r}")
        found[page] = [line.split(" ")[0] for line in colour_violations_of_new_kinds(browser, ledger)]
    return found


def test_a_kind_is_read_once_and_reported_where_it_is_first_seen(browser, site):
    ledger = Ledger()
    found = check(browser, site, ledger, "faint.html", "faint-again.html")
    assert found == {"faint.html": ["color-contrast"], "faint-again.html": []}
    assert ledger.kinds, "the kinds read are not in the ledger"


def test_what_paints_behind_an_element_makes_another_kind(browser, site):
    ledger = Ledger()
    found = check(browser, site, ledger, "faint.html", "faint-on-grey.html")
    assert found == {"faint.html": ["color-contrast"], "faint-on-grey.html": ["color-contrast"]}


def test_a_size_that_passes_does_not_vouch_for_a_smaller_one(browser, site):
    ledger = Ledger()
    found = check(browser, site, ledger, "faint-large.html", "faint.html")
    assert found == {"faint-large.html": [], "faint.html": ["color-contrast"]}


def test_one_letter_does_not_vouch_for_a_word(browser, site):
    """axe does not judge the colours of a single character (it may be an icon): it says "incomplete"."""
    ledger = Ledger()
    found = check(browser, site, ledger, "faint-letter.html", "faint.html")
    assert found == {"faint-letter.html": [], "faint.html": ["color-contrast"]}


def test_a_link_alone_in_its_paragraph_does_not_vouch_for_the_same_link_in_text(browser, site):
    """link-in-text-block asks a link in running text to stand out from it; a link that is its block's only text
    need not. The two paragraphs and links look alike: only axe's "in a block of text" tells them apart."""
    ledger = Ledger()
    found = check(browser, site, ledger, "plain-link-alone.html", "plain-link-in-text.html")
    assert found == {"plain-link-alone.html": [], "plain-link-in-text.html": ["link-in-text-block"]}


def test_the_light_theme_does_not_vouch_for_the_dark_one(browser, site):
    ledger = Ledger()
    found = {theme: check(browser, site, ledger, "dark.html", theme=theme)["dark.html"] for theme in ("light", "dark")}
    assert found == {"light": [], "dark": ["color-contrast"]}
