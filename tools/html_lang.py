"""Find Chinese text in HTML that is not inside an element marked as Chinese."""

import re
from html.parser import HTMLParser

CHINESE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]+")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CHECKED_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "content"}


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is it (inside) a Chinese-marked element?
        self.found: list[tuple[int, str]] = []

    def _marked(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        marked = self._marked() or (attrs.get("lang") or "").lower().startswith("zh")
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
    """(line, text) for every run of Chinese characters outside lang="zh..." elements."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.found
