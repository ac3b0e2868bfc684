"""Where things are in this repository; the one place other tools ask."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LOCALE = ROOT / "locale"
SNIPPETS = ROOT / "snippets"
SOURCE_LANGUAGE = "zh_CN"
PAGE_SUFFIX = ".md"
# The glossary page: its {glossary} term lines and their msgstr in <lang>/LC_MESSAGES/glossary.po
# are the single source of term pairs (tools/lint_po.py).
GLOSSARY_PAGE = "glossary"
# Folders under docs/ that hold build machinery, not pages.
NON_PAGE_DIRS = {"_ext", "_static", "_templates", "_locale"}


def translations(locale_dir: Path = LOCALE) -> list[str]:
    """Translation languages: every folder of locale/ that has LC_MESSAGES."""
    return sorted(p.parent.name for p in locale_dir.glob("*/LC_MESSAGES"))


def pages(docs_dir: Path = DOCS) -> list[str]:
    """Docnames (paths without suffix, '/'-separated) of every source page."""
    found = []
    for path in docs_dir.rglob("*" + PAGE_SUFFIX):
        rel = path.relative_to(docs_dir)
        if not NON_PAGE_DIRS.intersection(rel.parts[:-1]):
            found.append(rel.with_suffix("").as_posix())
    return sorted(found)


def catalog_path(docname: str, language: str, locale_dir: Path = LOCALE) -> Path:
    return locale_dir / language / "LC_MESSAGES" / (docname + ".po")
