"""Per-page translation statistics.

    python tools/po_stats.py LOCALE_DIR [LANGUAGE ...]

Fuzzy entries count as not translated (``sphinx-intl stat`` counts them as
translated; GNU ``msgfmt --statistics`` does not, and neither do we).
"""

import sys
from dataclasses import dataclass
from pathlib import Path

import polib

sys.path.insert(0, str(Path(__file__).resolve().parent))
from project import translations  # noqa: E402


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
        return 100.0 * self.translated / self.total if self.total else 100.0


def page_stats(po_path: Path, page: str) -> PageStats:
    catalog = polib.pofile(str(po_path))
    fuzzy = len(catalog.fuzzy_entries())
    translated = len([e for e in catalog.translated_entries() if not e.fuzzy])
    untranslated = len(catalog.untranslated_entries())
    return PageStats(page, translated, fuzzy, untranslated)


def language_stats(locale_dir: Path, language: str) -> list[PageStats]:
    base = locale_dir / language / "LC_MESSAGES"
    return [page_stats(po, po.relative_to(base).with_suffix("").as_posix()) for po in sorted(base.rglob("*.po"))]


def format_table(language: str, rows: list[PageStats]) -> str:
    width = max([len(r.page) for r in rows] + [4])
    lines = [f"[{language}]", f"{'page':<{width}}  translated  fuzzy  untranslated  done"]
    for r in rows:
        lines.append(f"{r.page:<{width}}  {r.translated:>10}  {r.fuzzy:>5}  {r.untranslated:>12}  {r.percent:5.1f}%")
    t = sum(r.translated for r in rows)
    total = sum(r.total for r in rows)
    lines.append(f"{'total':<{width}}  {t:>10}  {sum(r.fuzzy for r in rows):>5}  "
                 f"{sum(r.untranslated for r in rows):>12}  {100.0 * t / total if total else 100.0:5.1f}%")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    locale_dir = Path(argv[0])
    for language in argv[1:] or translations(locale_dir):
        print(format_table(language, language_stats(locale_dir, language)))


if __name__ == "__main__":
    main(sys.argv[1:])
