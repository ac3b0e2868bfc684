"""Entries for the lint's family tests: one msgid and msgstr, parsed as the lint parses them."""

from pathlib import Path

import polib

from tools.lint.entry import Entry


def entry(msgid: str, msgstr: str, language: str | None = "en", po: Path = Path("page.po")) -> Entry:
    return Entry(po, polib.POEntry(msgid=msgid, msgstr=msgstr), language)


def rules(problems) -> list[str]:
    return [problem.rule for problem in problems]


def catalog(path: Path, *entries: polib.POEntry) -> Path:
    """A sound catalog holding ``entries``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    po = polib.POFile()
    po.metadata = {"Project-Id-Version": "test", "PO-Revision-Date": "2026-12-01 00:00+0000",
                   "Last-Translator": "test", "Language-Team": "en", "Language": "en", "MIME-Version": "1.0",
                   "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    for item in entries:
        po.append(item)
    po.save(str(path))
    return path


def entries_of(path: Path, language: str = "en") -> list[Entry]:
    return [Entry(path, e, language) for e in polib.pofile(str(path)) if not e.obsolete]
