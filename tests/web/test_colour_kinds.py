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
body[data-theme="dark"] { background: #111; color: #eee; }
body[data-theme="dark"] .light-theme-only { background: #111; }
a.plain { color: #333; text-decoration: none; }  /* 1.66:1 against the text around it */
a.faint-link { color: #949494; text-decoration: underline; }  /* told from the text by its line, not its colour */
code { color: #000; }
.clipped { position: absolute; clip: rect(0 0 0 0); width: 1px; height: 1px; overflow: hidden; }  /* off screen */
.white { background: #fff; }
.mid { color: #767676; }  /* 4.54:1 on white: just enough */
.tinted { opacity: 0.8; }  /* on white, #767676 blends to about 3.4:1 */
.ink { color: #000; }
.only-dark { display: none; }
body[data-theme="dark"] .only-dark { display: inline; }
.overlay { position: absolute; top: 0; left: 0; width: 100%; height: 200px; background: rgba(255, 0, 0, 0.1); }
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
    "code-link.html": '<p>Some text around <a class="faint-link" href="faint.html"><code>x.y</code></a> and more.</p>',
    "words-link.html": '<p>Some text around <a class="faint-link" href="faint.html">a few words</a> and more.</p>',
    "off-screen-first.html": '<p>Plain text.</p><div class="clipped"><p>Off screen, <span class="faint">faint</span>'
                             '.</p></div>',
    "mid-on-white.html": '<div class="white"><p>Text, and <span class="mid">mid grey text</span>.</p></div>',
    "mid-on-white-tinted.html": '<div class="tinted"><div class="white"><p>Text, and <span class="mid">mid grey '
                                'text</span>.</p></div></div>',
    # The paragraph looks the same in both themes, so that only the span can be new in the dark one.
    "shown-in-the-dark.html": '<div class="white"><p class="ink">Plain text<span class="only-dark light-theme-only">,'
                              ' and dark grey text</span>.</p></div>',
    "under-an-overlay.html": '<p>Plain text, and <span class="faint">faint text</span>.</p><div class="overlay"></div>',
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


def check(browser, site, ledger, *pages: str, theme: str = "light", lines: bool = False) -> dict[str, list[str]]:
    """The rules each page violates (``lines``: axe's whole lines, with the element), checked in this order."""
    found = {}
    for page in pages:
        browser.open(site + page)
        browser.evaluate(f"document.body.dataset.theme = {theme!r}")
        violations = colour_violations_of_new_kinds(browser, ledger)
        found[page] = violations if lines else [line.split(" ")[0] for line in violations]
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
    found = {theme: check(browser, site, ledger, "dark.html", theme=theme, lines=True)["dark.html"]
             for theme in ("light", "dark")}
    assert found["light"] == [] and len(found["dark"]) == 1, found
    assert found["dark"][0].startswith("color-contrast") and found["dark"][0].endswith("1x span"), found


def test_a_link_around_code_does_not_vouch_for_a_link_with_words(browser, site):
    """color-contrast reads an element's own text: the link around code has none (its code is read), the
    link with words is read itself."""
    ledger = Ledger()
    found = check(browser, site, ledger, "code-link.html", "words-link.html")
    assert found == {"code-link.html": [], "words-link.html": ["color-contrast"]}


def test_an_element_off_screen_does_not_vouch_for_one_on_screen(browser, site):
    """axe does not read what is not on screen (here clipped away, which the browser still calls visible)."""
    ledger = Ledger()
    found = check(browser, site, ledger, "off-screen-first.html", "faint.html")
    assert found == {"off-screen-first.html": [], "faint.html": ["color-contrast"]}


def test_the_opacity_of_an_ancestor_past_the_opaque_one_makes_another_kind(browser, site):
    ledger = Ledger()
    found = check(browser, site, ledger, "mid-on-white.html", "mid-on-white-tinted.html")
    assert found == {"mid-on-white.html": [], "mid-on-white-tinted.html": ["color-contrast"]}


def test_an_element_axe_could_not_judge_settles_nothing(browser, site):
    """Under a box that is not its ancestor axe cannot tell the background ("incomplete"): the next element of
    the kind is read."""
    ledger = Ledger()
    found = check(browser, site, ledger, "under-an-overlay.html", "faint.html")
    assert found == {"under-an-overlay.html": [], "faint.html": ["color-contrast"]}


def test_an_element_the_theme_shows_is_read_in_that_theme(browser, site):
    """As the accessibility test does: one page, the light theme and then the dark one, without opening it again
    (what the survey found of each element is kept for the page's next survey)."""
    ledger = Ledger()
    browser.open(site + "shown-in-the-dark.html")
    found = {}
    for theme in ("light", "dark"):
        browser.evaluate(f"document.body.dataset.theme = {theme!r}")
        found[theme] = [line.split(" ")[0] for line in colour_violations_of_new_kinds(browser, ledger)]
    assert found == {"light": [], "dark": ["color-contrast"]}
