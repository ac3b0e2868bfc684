"""The formulas of a page of the site, counted as it streams past (no tree is built).

test_epub.py compares them with the book's, page by page, for every page of both sites: with
BeautifulSoup that was most of the test's time (40 s of processor time for both sites, 8 s
this way). What is counted is what ``prose(html, SoupStrainer("article")).select("span.math")``
(and ``div.math``) counted: the elements of class ``math`` inside ``<article>``, not inside code,
a TeX annotation or the other language's counterpart (the parallel view's hidden text).
"""

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HIDING_TAGS = {"pre", "code", "annotation"}
HIDING_CLASS = "parallel-counterpart"


class FormulaCounter(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, bool]] = []  # the elements open inside <article>: (tag, hides its content)
        self.inline = self.display = 0

    def handle_starttag(self, tag, attrs):
        if not self.open and tag != "article":
            return
        classes = (dict(attrs).get("class") or "").split()
        hidden = bool(self.open and self.open[-1][1]) or tag in HIDING_TAGS or HIDING_CLASS in classes
        if not hidden and "math" in classes:
            self.inline += tag == "span"
            self.display += tag == "div"
        if tag not in VOID:
            self.open.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        # As BeautifulSoup's html.parser builder does: an end tag closes the nearest open element of its
        # name and everything opened inside it; one with no open element of its name is ignored.
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return


def site_formulas(html: str) -> tuple[int, int]:
    """(inline formulas, display blocks) on a page of the site, as katex_math.py writes them."""
    counter = FormulaCounter()
    counter.feed(html)
    counter.close()
    return counter.inline, counter.display
