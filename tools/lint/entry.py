"""One catalog entry as every rule family sees it: its msgid and msgstr parsed once.

The lint reads a catalog once and makes an ``Entry`` of each of its entries. ``source`` and
``translation`` are the ``Markup`` of the msgid and the msgstr, made the first time a family asks
and then handed to every other family (they used to be parsed four times an entry); ``lines``
says which line of the file holds a character of either, so a problem is reported where it is.
"""

from functools import cached_property
from pathlib import Path

import polib

from tools.catalogs.po_lines import CatalogLines, EntryLines
from tools.lint.po_markup import Markup


class Entry:
    """``entry`` of the catalog ``po``; ``language`` is the catalog's (from its path), if known."""

    def __init__(self, po: Path, entry: polib.POEntry, language: str | None) -> None:
        self.po, self.entry, self.language = po, entry, language

    @property
    def msgid(self) -> str:
        return self.entry.msgid

    @property
    def msgstr(self) -> str:
        return self.entry.msgstr

    @cached_property
    def source(self) -> Markup:
        return Markup(self.entry.msgid)

    @cached_property
    def translation(self) -> Markup:
        return Markup(self.entry.msgstr)

    @cached_property
    def lines(self) -> EntryLines:
        return catalog_lines(self.po).entry(self.entry)


def short(text: str, width: int = 40) -> str:
    """A message as a report names it: one line, at most ``width`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


_lines_cache: dict[Path, tuple[int, CatalogLines]] = {}


def catalog_lines(po: Path) -> CatalogLines:
    """The file's lines, read once per version of the file."""
    stamp = po.stat().st_mtime_ns
    cached = _lines_cache.get(po)
    if cached is None or cached[0] != stamp:
        cached = (stamp, CatalogLines(po))
        _lines_cache[po] = cached
    return cached[1]
