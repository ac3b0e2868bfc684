"""Where things are in this repository; the one place other tools ask."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LOCALE = ROOT / "locale"
SNIPPETS = ROOT / "snippets"
SOURCE_LANGUAGE = "zh_CN"
PAGE_SUFFIX = ".md"
# The glossary page: its {glossary} term lines and their msgstr in <lang>/LC_MESSAGES/glossary.po
# are the single source of term pairs (tools/lint/lint_po.py).
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


def site_languages(conf: Path = ROOT / "conf.py") -> dict[str, dict]:
    """conf.py's ``site_languages``, read as a literal (conf.py is not run)."""
    import ast

    for node in ast.parse(conf.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "site_languages":
            return ast.literal_eval(node.value)
    raise KeyError(f"{conf} has no site_languages")


def published(languages: dict[str, dict]) -> list[str]:
    """The languages whose sites the others link to: every one not marked ``"draft": True``."""
    return [code for code, info in languages.items() if not info.get("draft")]


def in_scope(page: str, only: str) -> bool:
    """ONLY= of the translator commands: '' is every page, 'optim/' a folder, 'optim/adam' one page."""
    if not only:
        return True
    if only.endswith("/"):
        return page.startswith(only)
    return page == only or page.startswith(only + "/")
