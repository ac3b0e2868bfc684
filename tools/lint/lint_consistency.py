"""The consistency rule of ``make lint-po``: one msgid, one translation.

``consistency``  the same msgid is translated the same way in every catalog of a language (the
                 glossary's term lines aside); a lint of some catalogs measures them against all of them
"""

from pathlib import Path

from tools.lint.entry import Entry, short
from tools.lint.lint_ok import allowed_exceptions
from tools.project import GLOSSARY_PAGE


def problems(entries: list[Entry], scope: set[Path] | None = None) -> list[str]:
    """One msgid, one translation across the catalogs of a language (the glossary's term lines aside).

    ``entries`` are those of every catalog of the language; problems are reported for the catalogs
    in ``scope`` (resolved paths; all by default). Where most catalogs agree, only the odd ones are reported, each
    once, naming the form the others use and where; with no majority, every place is.
    """
    by_msgid: dict[str, dict[str, list[tuple[Path, int]]]] = {}
    for entry in entries:
        po = entry.po
        if po.stem == GLOSSARY_PAGE or "*" in allowed_exceptions(entry.entry).get("consistency", set()):
            continue
        line = entry.lines.line("msgstr")
        by_msgid.setdefault(entry.msgid, {}).setdefault(entry.msgstr, []).append((po, line))
    errors = []
    for msgid, renderings in by_msgid.items():
        if len(renderings) < 2:
            continue
        ranked = sorted(renderings.items(), key=lambda item: -len(item[1]))
        (usual, usual_places), runner_up = ranked[0], ranked[1]
        if len(usual_places) > len(runner_up[1]):
            example = f"{usual_places[0][0]}:{usual_places[0][1]}"
            for msgstr, places in ranked[1:]:
                for po, line in places:
                    if scope is None or po.resolve() in scope:
                        errors.append(f"{po}:{line}: [consistency] {short(msgid)!r}: translated {short(msgstr, 60)!r}"
                                      f" here, but {short(usual, 60)!r} in {len(usual_places)} other place(s)"
                                      f" (e.g. {example}): use one translation")
        else:
            listed = "; ".join(f"{msgstr!r} ({len(places)}x)" for msgstr, places in renderings.items())
            errors += [f"{po}:{line}: [consistency] {short(msgid)!r}: translated in different ways, no form is "
                       f"the usual one: {listed}"
                       for places in renderings.values() for po, line in places if scope is None or po.resolve() in scope]
    return errors
