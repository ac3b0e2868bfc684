"""What is left to translate, most urgent first: ``make todo`` (``BRANCH=1``: only this branch's pages).

    python tools/catalogs/po_todo.py [--branch BASE] [--only PAGE_OR_FOLDER] LOCALE_DIR [LANGUAGE ...]

For every language, one line per page that still has fuzzy or untranslated
entries, the page with the most work left first (then the least done): the
counts, the share done (fuzzy is not translated; counted as in
``tools/catalogs/po_stats.py``) and the catalog to open. ``--branch BASE`` keeps only
the pages changed on the current branch: files that differ between the
merge-base of HEAD and BASE and the working tree (committed or not, new files
included), whether the page's source ``docs/<page>.md`` or one of its catalogs.
BASE is ``main`` by default, or ``origin/main`` in a clone that has no local main.
"""

import subprocess
import sys
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import CatalogError, read  # noqa: E402
from tools.catalogs.po_lines import CatalogLines  # noqa: E402
from tools.catalogs.po_stats import PageStats, language_stats  # noqa: E402
from tools.project import DOCS, LOCALE, PAGE_SUFFIX, ROOT, catalog_path, translations  # noqa: E402

GIT_TIMEOUT = 60  # seconds; a diff or listing of one checkout takes well under one


def git(*args: str, cwd: Path = ROOT) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=GIT_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


def merge_base(base: str, cwd: Path = ROOT) -> str:
    candidates = [base] if base != "main" else ["main", "origin/main"]
    for candidate in candidates:
        try:
            return git("merge-base", "HEAD", candidate, cwd=cwd).strip()
        except RuntimeError:
            continue
    sys.exit(f"cannot find the merge-base of HEAD and {' or '.join(candidates)}; "
             "fetch the base branch (git fetch origin main) or pass BASE=<branch>")


def changed_pages(base: str, root: Path = ROOT, docs_dir: Path = DOCS, locale_dir: Path = LOCALE) -> set[str]:
    """Docnames whose source or catalog differs between the branch point and the working tree."""
    names = git("diff", "--name-only", merge_base(base, root), "--", cwd=root).splitlines()
    names += git("ls-files", "--others", "--exclude-standard", cwd=root).splitlines()
    pages = set()
    docs_rel = docs_dir.resolve().relative_to(root.resolve()).as_posix() + "/"
    locale_rel = locale_dir.resolve().relative_to(root.resolve()).as_posix() + "/"
    for name in names:
        if name.startswith(docs_rel) and name.endswith(PAGE_SUFFIX):
            pages.add(name[len(docs_rel):-len(PAGE_SUFFIX)])
        elif name.startswith(locale_rel) and name.endswith(".po") and "/LC_MESSAGES/" in name:
            pages.add(name.split("/LC_MESSAGES/", 1)[1][: -len(".po")])
    return pages


def urgency(row: PageStats) -> tuple:
    return (-(row.fuzzy + row.untranslated), row.percent, row.page)


MAX_ENTRY_LINES = 100  # past this (a new language's whole site), the table is the useful part


def plural(count: int, word: str) -> str:
    """'1 entry', '2 entries', '1 page', '3 pages'."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word[:-1]}ies" if word.endswith("y") else f"{count} {word}s"


def entries_left(po: Path) -> list[tuple[int, str, str]]:
    """(line of the msgstr, 'fuzzy' or 'untranslated', msgid) of each entry still to do, in file order."""
    lines = CatalogLines(po)
    found = []
    for entry in read(po):
        if entry.obsolete or not entry.msgid or not (entry.fuzzy or not entry.msgstr.strip()):
            continue
        found.append((lines.entry(entry).line("msgstr"), "fuzzy" if entry.fuzzy else "untranslated", entry.msgid))
    return found


def todo(locale_dir: Path, languages: list[str], only: set[str] | None = None, prefix: str = "") -> list[str]:
    lines = []
    for language in languages:
        rows = [r for r in language_stats(locale_dir, language, prefix)
                if (r.fuzzy or r.untranslated) and (only is None or r.page in only)]
        scope = " (pages changed on this branch)" if only is not None else ""
        scope += f" (under {prefix})" if prefix else ""
        if not rows:
            lines.append(f"[{language}] nothing left to translate{scope}")
            continue
        left = sum(r.fuzzy + r.untranslated for r in rows)
        lines.append(f"[{language}] {plural(left, 'entry')} left in {plural(len(rows), 'page')}{scope}, "
                     "most urgent first:")
        width = max(len(r.page) for r in rows)
        lines.append(f"  {'page':<{width}}  untranslated  fuzzy   done  catalog")
        ordered = sorted(rows, key=urgency)
        for r in ordered:
            lines.append(f"  {r.page:<{width}}  {r.untranslated:>12}  {r.fuzzy:>5}  {r.percent:4.0f}%  "
                         f"{shown(catalog_path(r.page, language, locale_dir))}")
        if left <= MAX_ENTRY_LINES:  # where to go: the msgstr line of each entry (as the lint and the build say)
            lines.append("  entries, at the line of the msgstr to write:")
            for r in ordered:
                po = catalog_path(r.page, language, locale_dir)
                lines += [f"  {shown(po)}:{line}: {kind}: {short(msgid)!r}" for line, kind, msgid in entries_left(po)]
        else:
            lines.append("  (make todo ONLY=<page> lists each entry of a page with its line)")
    return lines


def shown(po: Path) -> Path:
    return po.relative_to(ROOT) if po.is_relative_to(ROOT) else po


def short(text: str, width: int = 50) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def main(argv: list[str]) -> None:
    base, prefix = None, ""
    while argv[:1] in (["--branch"], ["--only"]) and len(argv) > 1:
        if argv[0] == "--branch":
            base = argv[1]
        else:
            prefix = argv[1]
        argv = argv[2:]
    if not argv:
        sys.exit(__doc__)
    locale_dir = Path(argv[0])
    only = changed_pages(base, locale_dir=locale_dir) if base else None
    try:
        print("\n".join(todo(locale_dir, argv[1:] or translations(locale_dir), only, prefix)))
    except CatalogError as error:
        sys.exit(f"{error}\nmake todo: mend this catalog first (make lint-po lists every problem)")


if __name__ == "__main__":
    main(sys.argv[1:])
