"""The formulas of a page of the site, counted as it streams past (tests/html_stream.py).

test_epub.py compares them with the book's, page by page, for every page of both sites: with
BeautifulSoup that was most of the test's time (40 s of processor time for both sites, 8 s
this way, measured side by side on a busy machine, the same counts on every page).
What is counted is what ``prose(html, SoupStrainer("article")).select("span.math")``
(and ``div.math``) counted: the elements of class ``math`` inside ``<article>``, not inside code,
a TeX annotation or the other language's counterpart (the parallel view's hidden text).
"""

from html_stream import OpenElements

HIDING_TAGS = {"pre", "code", "annotation"}
HIDING_CLASS = "parallel-counterpart"


class FormulaCounter(OpenElements):
    def __init__(self):
        super().__init__()
        self.inline = self.display = 0

    def opened(self, tag, attributes):
        if not self.open and tag != "article":
            return None  # outside the article: not kept
        classes = (attributes.get("class") or "").split()
        hidden = bool(self.open and "hidden" in self.open[-1][1]) or tag in HIDING_TAGS or HIDING_CLASS in classes
        if not hidden and "math" in classes:
            self.inline += tag == "span"
            self.display += tag == "div"
        return {"hidden"} if hidden else set()


def site_formulas(html: str) -> tuple[int, int]:
    """(inline formulas, display blocks) on a page of the site, as katex_math.py writes them."""
    counter = FormulaCounter.read(html)
    return counter.inline, counter.display
