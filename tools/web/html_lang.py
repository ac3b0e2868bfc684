"""Find Chinese text in HTML that is not inside an element marked as another language.

Chinese text is allowed inside an element whose ``lang`` is Chinese (a glossary column),
or any language other than the page's own (the switcher's label of another edition).
"""

import re
from html.parser import HTMLParser

CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]+")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CHECKED_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "content"}


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is it (inside) an element marked as another language?
        self.found: list[tuple[int, str]] = []
        self.page_language = ""

    def _marked(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        lang = (attrs.get("lang") or "").lower()
        if tag == "html":
            self.page_language = lang.split("-")[0]
            lang = ""
        marked = self._marked() or lang.startswith("zh") or (
            bool(lang) and bool(self.page_language) and lang.split("-")[0] != self.page_language)
        if not marked:
            for name in CHECKED_ATTRIBUTES & attrs.keys():
                for match in CHINESE.finditer(attrs[name] or ""):
                    self.found.append((self.getpos()[0], f"{tag}[{name}]: {match.group()}"))
        if tag not in VOID:
            self.stack.append(marked)

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self._marked():
            for match in CHINESE.finditer(data):
                self.found.append((self.getpos()[0], match.group()))


def chinese_outside_marked_elements(html: str) -> list[tuple[int, str]]:
    """(line, text) for every run of Chinese characters outside elements marked as another language."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.found
