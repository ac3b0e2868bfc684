"""The terminology's sources, read: the glossary page's term lines, its catalog's pairs and accepted
variants, and the variant tables beside this file (``tools/terminology/*.tsv``).

Shared by the glossary extension (``docs/_ext/reader/glossary_terms.py``), the search synonyms
(``docs/_ext/search/search_synonyms.py``) and the lint (``tools/lint/lint_terms.py``); it imports none of
them, so they depend on it one way. It lives with its tables, in ``tools/``, because the lint reads
it too and the tools import no extension.
"""

import re
from pathlib import Path
from typing import TYPE_CHECKING

from tools.catalogs.catalog_file import read  # the reader of every tool

if TYPE_CHECKING:  # paths() takes the Sphinx application; the lint imports this module without Sphinx
    from sphinx.application import Sphinx

FENCE_OPEN = re.compile(r"^(`{3,}|:{3,})\{glossary\}")


def read_terms(glossary_md: Path) -> list[str]:
    """The term lines of the {glossary} blocks of a MyST page, in order."""
    terms, fence = [], None
    for line in glossary_md.read_text(encoding="utf-8").splitlines():
        if fence is None:
            match = FENCE_OPEN.match(line)
            fence = match.group(1) if match else None
        elif line.strip() == fence:
            fence = None
        elif line.strip() and not line[0].isspace() and not line.startswith(":"):
            terms.append(line.strip())
    return terms


def also_variants(entry) -> list[str]:
    """The accepted variants of a glossary.po entry: its ``# also: step size, stride`` translator comments."""
    return [v.strip() for line in (entry.tcomment or "").splitlines() if line.strip().startswith("also:")
            for v in line.split(":", 1)[1].split(",") if v.strip()]


def read_variant_table(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, preferred form, rejected variants) of a tools/terminology/*.tsv file (absent: none).

    Raises ValueError naming the file and line of a row without the tab."""
    rows = []
    if path.is_file():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            if "\t" not in line:
                raise ValueError(f"{path}:{number}: expected 'preferred<TAB>variant, variant', got {line!r}")
            preferred, rejected = line.split("\t", 1)
            rows.append((number, preferred.strip(), [v.strip() for v in rejected.split(",") if v.strip()]))
    return rows


def read_pairs(glossary_md: Path, catalog: Path) -> dict[str, str]:
    """{Chinese term: English term} for every term line translated in the catalog."""
    translations = {}
    if catalog.is_file():
        translations = {e.msgid: e.msgstr for e in read(catalog)
                        if e.msgstr and not e.fuzzy and not e.obsolete}
    return {term: translations[term] for term in read_terms(glossary_md) if term in translations}


def paths(app: "Sphinx") -> tuple[Path, Path]:
    md = Path(app.srcdir) / (app.config.glossary_docname + ".md")
    catalog_dir = Path(app.srcdir) / app.config.locale_dirs[0]
    po = catalog_dir / app.config.glossary_catalog_language / "LC_MESSAGES" / (app.config.glossary_docname + ".po")
    return md, po.resolve()
