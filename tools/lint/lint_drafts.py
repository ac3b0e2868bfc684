"""The rules of unfinished work in ``make lint-po``: what a translator has still to do.

``fuzzy``         an entry still flagged fuzzy (its translation is not used)
``previous``      ``#|`` lines (the source before it changed) left on an entry that is no longer fuzzy
``untranslated``  an entry with no translation

A draft language (``"draft": True`` in conf.py's ``site_languages``) is expected to be incomplete, and to
fall behind when the source changes: its untranslated and fuzzy entries are counted, not listed as errors
(as in the build and the tests); everything else about its translations is checked as for any language.
"""

from tools.catalogs.po_lines import FUZZY_ADVICE
from tools.lint.entry import Entry
from tools.lint.po_markup import Problem
from tools.project import site_languages


def problems(entry: Entry) -> list[Problem]:
    """``entry`` still fuzzy, left with its previous source (``#|``), or not translated."""
    if entry.entry.fuzzy:
        return [Problem("fuzzy", FUZZY_ADVICE, "msgstr")]
    found = []
    if entry.lines.previous_lines:
        found.append(Problem("previous", "'#|' lines left from a fuzzy entry (the source text before it changed): "
                                         "delete them", "previous"))
    if not entry.msgstr.strip():
        found.append(Problem("untranslated", "no translation yet", "msgstr"))
    return found


def unfinished(entry: Entry) -> bool:
    """Fuzzy or untranslated: there is no translation to check yet."""
    return entry.entry.fuzzy or not entry.msgstr.strip()


def draft_languages() -> set[str]:
    try:
        return {code for code, info in site_languages().items() if info.get("draft")}
    except (OSError, KeyError):  # a checkout without conf.py (a fixture): no drafts
        return set()


def counted_for_drafts(errors: list[str], languages: set[str]) -> tuple[list[str], list[str]]:
    """(errors, pending): the untranslated and fuzzy entries of the draft languages among ``languages``
    taken out of ``errors`` and counted, one pending line a language."""
    pending = []
    for language in sorted(draft_languages() & languages):
        unfinished_entries = {kind: [e for e in errors if f"/{language}/LC_MESSAGES/" in e and f": [{kind}] " in e]
                              for kind in ("untranslated", "fuzzy")}
        if any(unfinished_entries.values()):
            errors = [e for e in errors if not any(e in found for found in unfinished_entries.values())]
            pending.append(f"{language} is a draft: {len(unfinished_entries['untranslated'])} entries not translated "
                           f"yet, {len(unfinished_entries['fuzzy'])} fuzzy (make todo L={language})")
    return errors, pending
