"""Check the translation catalogs; every problem names the file and line.

    python tools/catalogs/check_catalogs.py [--pot-dir DIR] [LANGUAGE ...]

* every catalog is a sound file (``tools/catalogs/catalog_file.py``, the reader of every tool and of the build,
  then ``msgfmt --check``: ``catalog_file.report_lines``, as in ``make lint-po``);
* no fuzzy, untranslated or obsolete entry;
* every page has a catalog and every catalog a page;
* with ``--pot-dir`` (fresh templates from the gettext builder), every message
  of the current sources is in the catalog: a paragraph edited without
  ``make update-po`` shows up here instead of as Chinese text in the English site.
"""

import sys
from pathlib import Path

import polib

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import read, report_lines  # noqa: E402  (report_lines: one file check)
from tools.catalogs.po_lines import FUZZY_ADVICE, CatalogLines  # noqa: E402
from tools.project import DOCS, LOCALE, catalog_path, pages, translations  # noqa: E402


def short(text: str, width: int = 50) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def entry_errors(po: Path) -> list[str]:
    errors = []
    catalog, lines = read(po), CatalogLines(po)
    for entry in catalog:
        where = f"{po}:{lines.entry(entry).line('msgstr')}"  # the line a translator edits, as the lint says
        if entry.obsolete:
            errors.append(f"{where}: obsolete entry {short(entry.msgid)!r} (run make update-po)")
        elif entry.fuzzy:
            errors.append(f"{where}: fuzzy entry {short(entry.msgid)!r}: {FUZZY_ADVICE}")
        elif not entry.translated():
            errors.append(f"{where}: untranslated entry {short(entry.msgid)!r}")
    return errors


def pairing_errors(language: str, docs_dir: Path, locale_dir: Path) -> list[str]:
    errors = []
    known = set(pages(docs_dir))
    for page in sorted(known):
        if not catalog_path(page, language, locale_dir).exists():
            errors.append(f"{docs_dir / page}.md:1: page has no {language} catalog (run make update-po)")
    base = locale_dir / language / "LC_MESSAGES"
    for po in sorted(base.rglob("*.po")):
        if po.relative_to(base).with_suffix("").as_posix() not in known:
            errors.append(f"{po}:1: catalog has no page in {docs_dir}")
    return errors


def missing_messages(po: Path, pot: Path) -> list[str]:
    have = {(e.msgctxt, e.msgid) for e in read(po) if not e.obsolete}
    return [f"{po}:1: no entry for the current source text {short(e.msgid)!r} "
            f"(from {e.occurrences[0][0] if e.occurrences else pot}; run make update-po)"
            for e in polib.pofile(str(pot)) if (e.msgctxt, e.msgid) not in have]


def check(languages: list[str], docs_dir: Path = DOCS, locale_dir: Path = LOCALE, pot_dir: Path | None = None) -> list[str]:
    errors = []
    for language in languages:
        errors += pairing_errors(language, docs_dir, locale_dir)
        for po in sorted((locale_dir / language / "LC_MESSAGES").rglob("*.po")):
            syntax = report_lines(po)
            errors += syntax
            if syntax:
                continue  # its entries cannot be trusted
            errors += entry_errors(po)
            if pot_dir:
                rel = po.relative_to(locale_dir / language / "LC_MESSAGES").with_suffix(".pot")
                if (pot_dir / rel).exists():
                    errors += missing_messages(po, pot_dir / rel)
    return errors


def main(argv: list[str]) -> None:
    pot_dir = None
    if argv[:1] == ["--pot-dir"]:
        pot_dir, argv = Path(argv[1]), argv[2:]
    errors = check(argv or translations(), pot_dir=pot_dir)
    print("\n".join(errors) if errors else "catalogs OK")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
