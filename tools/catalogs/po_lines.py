"""Which line of a ``.po`` file holds a given character of an entry's msgid or msgstr.

polib gives an entry's first line only (``entry.linenum``: its first comment).
A long msgid or msgstr is written over many quoted lines, so a report that
names the entry's first line leaves the reader searching. ``EntryLines``
reads the entry's own lines back from the file and maps an offset in the
unescaped text (what ``entry.msgid``/``entry.msgstr`` hold) to the line that
writes it::

    lines = CatalogLines(path)
    where = lines.entry(entry)
    where.line("msgstr", entry.msgstr.index("torch.cat"))   # -> 42
    where.flag_line("fuzzy")                                 # the '#, fuzzy' line

Only reads; knows nothing about what is wrong with an entry.
"""

import bisect
import re
from pathlib import Path

import polib

from tools.catalogs.catalog_file import check  # the reader of every tool

# What a translator does with a fuzzy entry: the lint and the build say it in the same words, at the
# msgstr line (the line a translator edits; every tool names that line for an entry).
FUZZY_ADVICE = ("the source changed: compare it with the previous source in the '#|' lines above the msgid, "
                "update the msgstr, then delete the '#, fuzzy' line and the '#|' lines")

KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")\s*$')
STRING = re.compile(r'^\s*(".*")\s*$')


class EntryLines:
    """The physical lines of one entry: where each field starts and where each of its pieces is."""

    def __init__(self, first_line: int) -> None:
        self.first_line = first_line
        self.keyword_line: dict[str, int] = {}
        self.pieces: dict[str, list[tuple[int, int]]] = {}  # field -> [(offset where a line starts, line)]
        self.flag_lines: dict[str, int] = {}
        self.comment_lines: list[tuple[int, str]] = []  # translator comments ('# ...'): (line, text after '# ')
        self.previous_lines: list[int] = []  # '#| msgid ...': the source text before it changed (fuzzy entries)

    def line(self, field: str | None, offset: int | None = None) -> int:
        """The line of character ``offset`` of ``field`` ('msgid', 'msgstr'); the field's first line
        without an offset; the entry's first line for an unknown field."""
        if field not in self.keyword_line:
            return self.first_line
        pieces = self.pieces[field]
        if offset is None or not pieces:
            return self.keyword_line[field]
        starts = [start for start, _ in pieces]
        return pieces[max(bisect.bisect_right(starts, offset) - 1, 0)][1]

    def flag_line(self, flag: str) -> int:
        return self.flag_lines.get(flag, self.first_line)


def _unquote(literal: str) -> str:
    return polib.unescape(literal[1:-1])


class CatalogLines:
    """Every entry's lines of one catalog file, read once."""

    def __init__(self, path: Path) -> None:
        # Lines as polib and msgfmt count them: at "\n" only (a U+2028 inside a msgstr is no line break).
        self.lines = check(path).split("\n")

    def entry(self, entry: polib.POEntry) -> EntryLines:
        where = EntryLines(entry.linenum)
        field, offset = None, 0
        for number in range(entry.linenum, len(self.lines) + 1):
            text = self.lines[number - 1]
            if not text.strip():
                if field is not None:
                    break
                continue
            if text.startswith("#"):
                if field is not None:  # the next entry's comments
                    break
                if text.startswith("#,"):
                    for flag in text[2:].split(","):
                        where.flag_lines.setdefault(flag.strip(), number)
                elif text.startswith("#|"):
                    where.previous_lines.append(number)
                elif text.startswith("# ") or text == "#":
                    where.comment_lines.append((number, text[2:]))
                continue
            keyword = KEYWORD.match(text)
            if keyword:
                name = keyword.group(1)
                name = "msgstr" if name == "msgstr[0]" else name
                if name in where.keyword_line:  # a second entry without a blank line between
                    break
                field, offset = name, 0
                where.keyword_line[field] = number
                where.pieces[field] = []
                piece = _unquote(keyword.group(2))
            else:
                string = STRING.match(text)
                if not string or field is None:
                    break
                piece = _unquote(string.group(1))
            if piece:  # an empty first piece ('msgstr ""' before wrapped text) holds no character
                where.pieces[field].append((offset, number))
                offset += len(piece)
        return where
