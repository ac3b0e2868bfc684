"""A page's HTML walked as it streams past, with the elements open at each point (no tree is built).

The base of the surveys that read every page of both sites (tests/books/site_formulas.py,
tests/maths/katex_survey.py): a BeautifulSoup tree per page cost them about five times as much.
"""

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class OpenElements(HTMLParser):
    """``self.open``: the open elements, outermost first, each (tag, marks); a subclass says in ``opened``
    what an element's marks are (None: not kept) and hears in ``closed`` of each element an end tag closes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, set]] = []

    def opened(self, tag: str, attributes: dict) -> set | None:
        return set()

    def closed(self, tag: str, marks: set) -> None:
        pass

    @classmethod
    def read(cls, html: str):
        """A new one of these that has read the whole of ``html``."""
        walker = cls()
        walker.feed(html)
        walker.close()
        return walker

    def inside(self, mark: str) -> bool:
        return any(mark in marks for _, marks in self.open)

    def handle_starttag(self, tag, attrs):
        marks = self.opened(tag, dict(attrs))
        if marks is not None and tag not in VOID:
            self.open.append((tag, marks))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        # As BeautifulSoup's html.parser builder does: an end tag closes the nearest open element of its
        # name and everything opened inside it; one with no open element of its name is ignored.
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                for name, marks in reversed(self.open[depth:]):
                    self.closed(name, marks)
                del self.open[depth:]
                return
