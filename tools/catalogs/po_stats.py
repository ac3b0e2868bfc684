"""Per-page translation statistics.

    python tools/catalogs/po_stats.py [--only PAGE_OR_FOLDER] LOCALE_DIR [LANGUAGE ...]

Fuzzy entries count as not translated (``sphinx-intl stat`` counts them as
translated; GNU ``msgfmt --statistics`` does not, and neither do we).
The share done is rounded down, never up: a page or a total shows 100.0%
only when nothing is left (1999 of 2000 is 99.9%, not 100.0%).
A malformed catalog is read by ``tools/catalogs/catalog_file.py`` as by every tool: its problems are
printed with file and line (no statistics from it) and the exit status is 1.
"""

import sys
from dataclasses import dataclass
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import check_all, read  # noqa: E402
from tools.project import in_scope, translations  # noqa: E402


@dataclass
class PageStats:
    page: str
    translated: int
    fuzzy: int
    untranslated: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def percent(self) -> float:
        """The share translated, rounded down to 0.1: 100.0 only when nothing is left."""
        return done_percent(self.translated, self.total)


def done_percent(translated: int, total: int) -> float:
    """translated/total in percent, rounded down to one decimal (a rounded-up 100.0 would hide the rest)."""
    if not total:
        return 100.0
    return (1000 * translated // total) / 10  # integers: no float error can round 99.95 up


def page_stats(po_path: Path, page: str) -> PageStats:
    catalog = read(po_path)  # CatalogError (file, line, cause) for a malformed one
    fuzzy = len(catalog.fuzzy_entries())
    translated = len([e for e in catalog.translated_entries() if not e.fuzzy])
    untranslated = len(catalog.untranslated_entries())
    return PageStats(page, translated, fuzzy, untranslated)


def language_stats(locale_dir: Path, language: str, only: str = "") -> list[PageStats]:
    """One row per catalog of the language, limited to ``only`` (a page or a folder, as make's ONLY=)."""
    base = locale_dir / language / "LC_MESSAGES"
    if not base.is_dir():
        sys.exit(f"{base}: no such translation language (make add-language L={language} creates one)")
    pages = [(po, po.relative_to(base).with_suffix("").as_posix()) for po in sorted(base.rglob("*.po"))]
    return [page_stats(po, page) for po, page in pages if in_scope(page, only)]


def format_table(language: str, rows: list[PageStats]) -> str:
    width = max([len(r.page) for r in rows] + [4])
    lines = [f"[{language}]", f"{'page':<{width}}  translated  fuzzy  untranslated  done"]
    for r in rows:
        lines.append(f"{r.page:<{width}}  {r.translated:>10}  {r.fuzzy:>5}  {r.untranslated:>12}  {r.percent:5.1f}%")
    t = sum(r.translated for r in rows)
    total = sum(r.total for r in rows)
    lines.append(f"{'total':<{width}}  {t:>10}  {sum(r.fuzzy for r in rows):>5}  "
                 f"{sum(r.untranslated for r in rows):>12}  {done_percent(t, total):5.1f}%")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    only = ""
    if argv[:1] == ["--only"] and len(argv) > 1:
        only, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    locale_dir = Path(argv[0])
    for language in argv[1:] or translations(locale_dir):
        base = locale_dir / language / "LC_MESSAGES"
        broken = check_all(po for po in sorted(base.rglob("*.po"))
                           if in_scope(po.relative_to(base).with_suffix("").as_posix(), only))
        if broken:
            sys.exit("\n".join(map(str, broken)) + f"\n[{language}] {len(broken)} malformed catalog(s) have no "
                     "statistics: mend them (make lint-po lists the same problems)")
        rows = language_stats(locale_dir, language, only)
        if not rows:
            sys.exit(f"[{language}] no catalog under {only!r}")
        print(format_table(language, rows))


if __name__ == "__main__":
    main(sys.argv[1:])
