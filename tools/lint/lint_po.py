"""Lint the translation catalogs: the mistakes Sphinx never warns about.

    python tools/lint/lint_po.py [--docs DIR] [--count=occurrence] [PATH ...]

PATH is a ``.po`` file or a folder of them (default: the catalogs of every
translation under ``locale/``); ``--docs`` is the source folder holding the
glossary page (default ``docs/``). Every problem is printed as
``path:line: [rule] msgid-excerpt: what is wrong``, the line being the one
that holds the problem (the word, code span or term in question; for
something the translation lacks, the source line that has it); the exit
status is 1 if there is any. The tool only reads: it never writes a file.

The rules come in families, one module each beside this one: ``lint_markup`` (code, role,
label, math, placeholder, html, markup), ``lint_links`` (link, url), ``lint_numbers`` (number),
``lint_terms`` (terminology, variant), ``lint_spelling``, ``lint_consistency``, ``lint_drafts``
(fuzzy, previous, untranslated) and ``lint_ok`` (the exceptions). Each catalog is read once, and
each entry's msgid and msgstr are parsed once (``entry.Entry``) and handed to every family in turn.

A catalog that does not parse is reported once and its entries are skipped. The reader is
``tools/catalogs/catalog_file.py``, the one the build, ``make stats``, the status page, the bilingual view
and ``make update-po`` use (GNU ``msgfmt --check`` and three checks of its own), so they all
reject the same catalogs with the same words:

``syntax``       msgfmt rejects it: an unterminated string, a ``msgstr`` without its ``msgid``, a duplicate
                 entry, ...
``charset``      not valid UTF-8 (or cut off in the middle of a character), a byte order mark, or a header
                 that does not declare ``charset=UTF-8``

A sound catalog's header:

``header``       ``msgfmt -c`` (what a PO editor runs) warns about it, e.g. a placeholder date

For every translated, non-fuzzy entry, the msgstr must keep the msgid's markup
(broken MyST markup in a msgstr renders as plain text, silently):

``code``         every code span, character for character (a span with Chinese in it is prose: translate it),
                 and no code span the msgid lacks
``role``         every role with its target (``{py:func}`torch.cat```, the ``<label>`` of ``{ref}`text <label>```);
                 the displayed text of a role with an explicit title is translated
``link``         every link target (``[text](target)``), and no other
``label``        every ``(label)=`` target
``math``         every inline ``$math$`` (unless it has Chinese in it, e.g. ``\\text{偏差}``)
``number``       the numbers written in digits, compared as multisets both ways: each one of the msgid once
                 in the msgstr (0-12 may be spelled out: "zeros", "one"), and no number the msgid lacks
                 (a digit the msgid writes as a Chinese numeral, 两个 or 三维, is not added); and the numbers
                 spelled out in English ("zero" to "twenty", "a dozen", "twice"): one that the msgid has
                 nowhere (as digits or a Chinese numeral) while a number the msgid states (两个, 三维, 2) is
                 not in the msgstr in any form is a changed number (两个进程 -> "three ranks")
``placeholder``  exactly the same ``%s``/``%(name)s``/``{name}``/``{{name}}`` placeholders
``html``         no raw HTML tag that the msgid does not have
``url``          no URL that the msgid does not have; in English, a link to an article in Chinese (zhihu,
                 csdn, cnblogs, jianshu, a .cn site...) says "(in Chinese)"
``markup``       no stray backtick or role name left over from broken markup
``terminology``  every sentence of the msgid that uses a glossary term has the term's English term in the
                 msgstr, counted (two sentences, two renderings), and a ``{term}`` role shows its term's
                 English term; ``--count=occurrence`` counts every use instead (see ``tools/lint/lint_terms.py``);
                 in glossary.po, no ``# also:`` form is a rejected variant and no two terms share an English term
``variant``      no rejected variant of a term: Chinese ones in the msgid, English ones in the msgstr
                 (``tools/terminology/zh.tsv`` and ``en.tsv``: the preferred form, a tab, the variants;
                 ``en-allowed.tsv``: forms allowed as they stand), and ``Default: `x``` in field text
``consistency``  the same msgid is translated the same way in every catalog of a language
``spelling``     every English word outside code, math, roles and links is in hunspell's en_US dictionary
                 or a project word list (``tools/spelling/*.txt``); see ``tools/lint/lint_spelling.py``
``fuzzy``        an entry still flagged fuzzy (its translation is not used)
``previous``     ``#|`` lines (the source before it changed) left on an entry that is no longer fuzzy
``untranslated`` an entry with no translation
``lint-ok``      an exception that names no rule of this list, allows nothing in its entry, or is a bare
                 ``# lint-ok: number``

Glossary (the single source of term pairs): the term lines of the ``{glossary}``
directive in ``docs/glossary.md`` are the source terms; the msgstr of each term
line in ``<language>/LC_MESSAGES/glossary.po`` is its translation.

Exceptions: a translator comment on the entry, kept by ``make update-po``, one per line::

    # lint-ok: terminology 张量      (this term, in this entry)
    # lint-ok: number 20             (this number, in this entry: missing or added; one line per number)
    # lint-ok: variant 下标          (this variant, in this entry)
    # lint-ok: variant               (the whole rule, in this entry; not for number)

An exception that allows nothing fails, so none outlives its reason.
A homonym gets accepted variants in glossary.po, on the term's entry
(``# also: argument`` under 参数 → parameter). Pages listed in
``<locale>/terminology-pending.txt`` (``en tensors/where`` lines) have their
terminology problems printed as pending instead of failing; a listed page with
no problem left fails, so the list only shrinks.
"""

import functools
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import problems as catalog_problems, read, report_lines  # noqa: E402
from tools.lint import lint_consistency, lint_drafts, lint_links, lint_markup, lint_numbers, lint_spelling  # noqa: E402
from tools.lint import lint_terms  # noqa: E402
from tools.lint.entry import Entry, short  # noqa: E402
from tools.lint.lint_ok import allowed_exceptions, exception_problems, is_allowed  # noqa: E402
from tools.lint.lint_terms import PENDING, english_pattern, glossary_pairs, pending_pages  # noqa: E402,F401
from tools.lint.po_markup import Markup, Problem  # noqa: E402,F401  (re-exported: the parser of every rule)
from tools.project import DOCS, GLOSSARY_PAGE, LOCALE, PAGE_SUFFIX, ROOT, translations  # noqa: E402

TERMINOLOGY = ROOT / "tools" / "terminology"  # zh.tsv, en.tsv, en-allowed.tsv
MSGFMT_TIMEOUT = 60  # seconds; msgfmt checks one catalog in milliseconds


# -- Files -------------------------------------------------------------------------

def file_problems(po: Path) -> list[tuple[int, str, str]]:
    """(line, rule, message) if the file cannot be trusted as a catalog at all: what the reader of every
    tool and of the build (``catalog_file.problems``: msgfmt --check and its own checks) rejects."""
    return [(p.line, p.rule, p.message) for p in catalog_problems(po)]


def catalog_file_errors(po: Path) -> list[str]:
    """``file_problems`` as report lines: ``path:line: [rule] message`` (``catalog_file.report_lines``)."""
    return report_lines(po)


def header_warnings(po: Path) -> list[str]:
    """What ``msgfmt -c`` (and so a PO editor) warns about in a sound catalog: a placeholder header field."""
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True,
                            timeout=MSGFMT_TIMEOUT)
    found = []
    lines = po.read_text(encoding="utf-8").splitlines()[:40]
    for line in result.stderr.splitlines():
        located = re.match(rf"^{re.escape(str(po))}:(\d+):(?:\d+:)?\s*warning:\s*(.*)$", line)
        if located:
            number, message = int(located.group(1)), located.group(2)
            field = re.search(r"header field '([\w-]+)'", message)  # msgfmt names the header's first line:
            if field:  # the field's own line is the one to edit
                number = next((n for n, text in enumerate(lines, 1) if text.startswith(f'"{field.group(1)}:')),
                              number)
            found.append(f"{po}:{number}: [header] {message} (msgfmt -c)")
    return found


@functools.lru_cache(maxsize=4096)  # asked twice for every entry of every catalog
def catalog_language(po: Path) -> tuple[Path, str] | None:
    """(locale dir, language) of a catalog stored as LOCALE/LANG/LC_MESSAGES/.../page.po."""
    parts = po.resolve().parts
    if "LC_MESSAGES" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("LC_MESSAGES")
    return Path(*parts[: i - 1]), parts[i - 1]


def language_catalogs(locale_dir: Path, language: str) -> list[Path]:
    return sorted((locale_dir / language / "LC_MESSAGES").rglob("*.po"))


def catalogs(paths: list[Path]) -> list[Path]:
    found = []
    for path in paths:
        found += sorted(path.rglob("*.po")) if path.is_dir() else [path]
    return found


# -- One catalog: every family on every entry ----------------------------------------

@dataclass
class CatalogLint:
    """What the lint found in one catalog, and its entries for the rules across catalogs."""

    errors: list[str]
    sound: bool  # the file is a catalog at all (no syntax or charset problem)
    entries: list[Entry] = field(default_factory=list)  # every entry not obsolete, each parsed at most once


def where(entry: Entry, problem: Problem) -> int:
    """The line of the file that holds ``problem``."""
    if problem.field == "previous":  # the first '#|' line
        return entry.lines.previous_lines[0]
    line = entry.lines.line(problem.field, problem.offset)
    if problem.field == "comment":  # on the translator comment that says it
        line = next((n for n, text in entry.lines.comment_lines
                     if text.startswith("also:") and (problem.detail or "") in text), line)
    return line


def report(entry: Entry, problem: Problem, line: int | None = None) -> str:
    line = where(entry, problem) if line is None else line
    return f"{entry.po}:{line}: [{problem.rule}] {short(entry.msgid)!r}: {problem.message}"


def entry_problems(entry: Entry, pairs: dict[str, list[str]], variants: dict[str, dict], count: str) -> list[Problem]:
    """The families that judge one translated entry, in turn, each on the same parsed msgid and msgstr."""
    return (lint_markup.problems(entry) + lint_numbers.problems(entry) + lint_links.problems(entry)
            + lint_terms.problems(entry, pairs, variants, count))


def lint_catalog(po: Path, docs_dir: Path = DOCS, glossaries: dict | None = None,
                 count: str = "sentence") -> CatalogLint:
    problems = catalog_file_errors(po)
    if problems:
        return CatalogLint(problems, sound=False)
    errors = header_warnings(po)
    pairs: dict[str, list[str]] = {}
    located = catalog_language(po)
    if located:
        glossary_po = located[0] / located[1] / "LC_MESSAGES" / (GLOSSARY_PAGE + ".po")
        key = (docs_dir, glossary_po)
        cache = glossaries if glossaries is not None else {}
        if key not in cache:
            cache[key] = glossary_pairs(docs_dir / (GLOSSARY_PAGE + PAGE_SUFFIX), glossary_po)
        pairs = cache[key]
    variants = lint_terms.rejected_variants(TERMINOLOGY)
    entries = [Entry(po, e, located[1] if located else None) for e in read(po) if not e.obsolete]
    for entry in entries:
        if not entry.msgid:
            continue
        errors += [report(entry, problem) for problem in lint_drafts.problems(entry)]
        if lint_drafts.unfinished(entry):
            continue
        allowed = allowed_exceptions(entry.entry)
        used: set[tuple[str, str]] = set()
        reported = []
        for problem in entry_problems(entry, pairs, variants, count):
            allowing = is_allowed(problem, allowed)
            if allowing:
                used.add(allowing)
                continue
            reported.append((where(entry, problem), problem))
        # A broken spot (markup) first, then by line; on one line, in the order of the families.
        for line, problem in sorted(reported, key=lambda item: (item[1].rule != "markup", item[0])):
            error = report(entry, problem, line)
            if error not in errors:  # the same variant twice on one line: one report
                errors.append(error)
        comment_lines = {text.strip(): number for number, text in entry.lines.comment_lines}
        for text, message in exception_problems(entry.entry, used):
            errors.append(f"{po}:{comment_lines.get(text, entry.lines.first_line)}: [lint-ok] "
                          f"{short(entry.msgid)!r}: {message}")
    return CatalogLint(errors, sound=True, entries=entries)


def lint_file(po: Path, docs_dir: Path = DOCS, _glossaries: dict | None = None, count: str = "sentence") -> list[str]:
    return lint_catalog(po, docs_dir, _glossaries, count).errors


# -- Every catalog, and the rules across catalogs ---------------------------------------

def translated(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.entry.translated() and not e.entry.obsolete]


def lint_report(paths: list[Path], docs_dir: Path = DOCS, count: str = "sentence") -> tuple[list[str], list[str]]:
    """(errors, pending): terminology problems of the pages listed in <locale>/terminology-pending.txt
    are pending, not errors; a listed page that has none any more is an error (take it off the list)."""
    cache: dict = {}
    errors, pending = [], []
    by_language: dict[str, list[Entry]] = {}  # translated entries per language, for the cross-file rules
    for po in catalogs(paths):
        result = lint_catalog(po, docs_dir, cache, count)
        problems = result.errors
        located = catalog_language(po)
        if result.sound:
            language = located[1] if located else "?"
            by_language.setdefault(language, []).extend(translated(result.entries))
        if located:
            locale_dir, language = located
            page = po.resolve().relative_to(locale_dir / language / "LC_MESSAGES").with_suffix("").as_posix()
            listed = pending_pages(locale_dir).get((language, page))
            if listed:
                waiting = [p for p in problems if re.match(r"^.*?:\d+: \[terminology\] ", p)]
                problems = [p for p in problems if p not in waiting]
                pending += waiting
                if not waiting:
                    errors.append(f"{locale_dir / PENDING}:{listed}: [terminology] {language} {page}: "
                                  "no terminology problem left; remove the page from the list")
        errors += problems
    scoped = {entry.po.resolve() for entries in by_language.values() for entry in entries}
    for language, entries in by_language.items():
        # Consistency is a rule across catalogs: a lint of some catalogs measures them against all of the language.
        locale_dirs = {catalog_language(entry.po)[0] for entry in entries if catalog_language(entry.po)}
        everything = list(entries)
        for locale_dir in locale_dirs:
            for po in language_catalogs(locale_dir, language):
                if po.resolve() not in scoped and not catalog_file_errors(po):
                    everything += translated([Entry(po, e, language) for e in read(po)])
        errors += lint_consistency.problems(everything, scoped)
        if language.startswith("en"):
            errors += lint_spelling.problems(entries)
    languages = {catalog_language(po)[1] for po in catalogs(paths) if catalog_language(po)}
    errors, drafts = lint_drafts.counted_for_drafts(errors, languages)
    return errors, pending + drafts


def lint(paths: list[Path], docs_dir: Path = DOCS, count: str = "sentence") -> list[str]:
    return lint_report(paths, docs_dir, count)[0]


def main(argv: list[str]) -> None:
    docs_dir, count = DOCS, "sentence"
    while argv[:1] and argv[0].startswith("-"):
        if argv[0] == "--docs" and len(argv) > 1:
            docs_dir, argv = Path(argv[1]), argv[2:]
        elif argv[0] in ("--count=occurrence", "--count=sentence"):
            count, argv = argv[0].split("=", 1)[1], argv[1:]
        else:
            sys.exit(__doc__)
    paths = [Path(a) for a in argv] or [LOCALE / lang / "LC_MESSAGES" for lang in translations()]
    errors, pending = lint_report(paths, docs_dir, count)
    if pending:
        print("pending (not failing yet; fix them, and shrink " + PENDING + "):\n" + "\n".join(pending) + "\n")
    count_files = len(catalogs(paths))
    print("\n".join(errors) if errors else f"lint-po: {count_files} catalogs OK")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
