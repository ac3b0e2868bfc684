"""One message of a catalog taken apart: the markup a translation must keep, and the prose around it.

``Markup(text)`` lists the roles, code spans, links, URLs, raw HTML, labels,
inline maths, placeholders and numbers of a msgid or msgstr, and leaves the
prose: the text with all of that removed (a role's displayed text stays: the
explicit title, or the term of a ``{term}`` role written without one, since
the reader sees it). ``Markup.origin[i]`` is the offset in the original text
of prose character ``i``, so a rule that finds something in the prose can say
where it is in the message (and ``po_lines`` which line of the file that is).

``Problem`` is what a rule reports: its rule, its message, and where, as the
field (``"msgid"``/``"msgstr"``) and offset in that field's text; ``detail``
names what a ``# lint-ok: RULE DETAIL`` comment has to name to allow it.
``missing``, ``added`` and ``find`` compare the pieces of a msgid and its msgstr.
"""

import re
from collections import Counter
from typing import NamedTuple

ROLE = re.compile(r"(?<!`)\{([A-Za-z][\w:+.-]*)\}(`+)(.+?)(?<!`)\2(?!`)", re.S)
CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
EXPLICIT_TITLE = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
MATH = re.compile(r"(?<![\\$])\$(?![\s$])([^$\n]+?)(?<![\s\\])\$(?!\d)")
LINK = re.compile(r"\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
URL = re.compile(r"(?:https?|ftp)://[^\s<>()\[\]`'\"，。；：！？（）]*[^\s<>()\[\]`'\".,;:!?，。；：！？（）]")
HTML = re.compile(r"<!--.*?-->|</?([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?/?>", re.S)
LABEL = re.compile(r"\(([\w.:-]+)\)=")
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:\.\d+)?")
# Not LaTeX's \\text{...}, x^{2}, x_{i}: a {name} placeholder follows no letter, backslash, ^ or _.
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]?\d*(?:\.\d+)?[sdifrxXeEgGc]|%[sdifr]|\{\{\s*[\w.]+\s*\}\}"
                         r"|(?<![A-Za-z\\^_}])\{[A-Za-z0-9_]*\}")
LEFTOVER = re.compile(r"`|(?<![A-Za-z\\^_}])\{[A-Za-z][\w:+.-]*\}")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")


class Problem(NamedTuple):
    rule: str
    message: str
    field: str | None = None  # "msgid", "msgstr", "comment" or "previous": where it is; None: the entry as a whole
    offset: int | None = None  # in that field's text; None: the field's first line
    detail: str | None = None  # what '# lint-ok: RULE DETAIL' names to allow it (None: only the whole rule)


class TermRole(NamedTuple):
    target: str
    title: str | None  # the explicit title; None when the role shows its target
    offset: int


class Markup:
    """The pieces of one message that a translation must keep, and its plain prose."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.roles: list[tuple[str, str]] = []
        self.term_roles: list[TermRole] = []
        self.titles: list[str] = []  # explicit role titles: translated, so they belong to the prose
        self.code: list[str] = []
        self.links: list[str] = []
        self.urls: list[str] = []
        self.html: list[str] = []

        def role(match: re.Match) -> str:
            content = " ".join(match.group(3).split())
            explicit = EXPLICIT_TITLE.match(content)
            target = explicit.group(2) if explicit else content
            self.roles.append((match.group(1), target))
            if explicit:
                self.titles.append(explicit.group(1))
            if match.group(1) == "term":
                self.term_roles.append(TermRole(target, explicit.group(1) if explicit else None,
                                                self._origin[match.start()]))
                return " " + (explicit.group(1) if explicit else target) + " "  # what the reader sees
            return " " + (explicit.group(1) if explicit else "") + " "

        def code(match: re.Match) -> str:
            self.code.append(match.group(2))
            return " \x00 "

        def link(match: re.Match) -> str:
            target = match.group(1).strip("<>")
            self.links.append(target)
            if URL.fullmatch(target):
                self.urls.append(target)
            return "] "

        def autolink(match: re.Match) -> str:
            self.urls.append(match.group(1))
            return " "

        self._text, self._origin = text, list(range(len(text)))
        self._sub(ROLE, role)
        self._sub(CODE, code)
        self.math = MATH.findall(self._text)
        self._sub(MATH, " ")
        self._sub(LINK, link)
        self._sub(AUTOLINK, autolink)
        self.urls += URL.findall(self._text)
        self._sub(URL, " ")
        self.html = [(m.group(1) or "!--").lower() for m in HTML.finditer(self._text)]
        self._sub(HTML, " ")
        self.labels = LABEL.findall(self._text)
        self._sub(LABEL, " ")
        self.placeholders = PLACEHOLDER.findall(self._text)
        self._sub(PLACEHOLDER, " ")
        self.numbers = NUMBER.findall(self._text)
        self.number_offsets = [self._origin[m.start()] for m in NUMBER.finditer(self._text)]
        self.leftovers = LEFTOVER.findall(self._text)
        self.leftover_offsets = [self._origin[m.start()] for m in LEFTOVER.finditer(self._text)]
        self.prose = self._text.replace("\x00", " ")
        self.origin = self._origin

    def _sub(self, pattern: re.Pattern, repl) -> None:
        """re.sub that keeps, for every character of the result, its offset in the original text."""
        pieces, origin, last = [], [], 0
        for match in pattern.finditer(self._text):
            pieces.append(self._text[last:match.start()])
            origin += self._origin[last:match.start()]
            new = repl(match) if callable(repl) else repl
            pieces.append(new)
            origin += [self._origin[match.start()] if match.start() < len(self._origin) else len(self.text)] * len(new)
            last = match.end()
        pieces.append(self._text[last:])
        origin += self._origin[last:]
        self._text, self._origin = "".join(pieces), origin

    def at(self, prose_offset: int) -> int:
        """The offset in the original text of a prose offset."""
        if not self.origin:
            return 0
        return self.origin[min(prose_offset, len(self.origin) - 1)]


def lone_backtick(source: Markup, translation: Markup) -> int | None:
    """Where the backtick is that ``translation`` lost its partner for, or None if none is.

    A lone backtick pairs with the next one, and every code span after it is read wrong; the parser
    notices only at the end, where one backtick is left over. Taking out, in turn, each backtick of
    the text and keeping the removal after which the text has no leftover and keeps the most of the
    source's code spans and roles finds the one that is really alone.
    """
    if "`" not in translation.leftovers:
        return None
    text = translation.text
    wanted_code, wanted_roles = set(source.code), set(source.roles)
    best, best_score = None, None
    for at in (i for i, char in enumerate(text) if char == "`"):
        candidate = Markup(text[:at] + text[at + 1:])
        score = ("`" not in candidate.leftovers, len(wanted_code & set(candidate.code))
                 + len(wanted_roles & set(candidate.roles)))
        if best_score is None or score > best_score:
            best, best_score = at, score
    return best


def missing(source: list, translation: list) -> list:
    """Distinct items of the source that the translation lacks (a translation may mention a thing once)."""
    return sorted(set(source) - set(translation), key=str)


def added(source: list, translation: list) -> list:
    """Items the translation has more often than the source."""
    return sorted((Counter(translation) - Counter(source)).elements(), key=str)


def find(text: str, item: str) -> int | None:
    """The offset of ``item`` in ``text``; None if it is not there."""
    at = text.find(item)
    return at if at >= 0 else None
