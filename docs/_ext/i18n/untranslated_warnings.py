"""Warn, in a translation build, about every fuzzy or untranslated entry of a page's catalog.

Sphinx uses neither a fuzzy entry (unless ``gettext_allow_fuzzy_translations``)
nor an empty msgstr: the translated page silently shows the source text there,
Chinese on the English site. This extension reads the catalog of every page
(``<locale_dirs>/<language>/LC_MESSAGES/<docname>.po``) and warns once per such
entry, at the catalog's file and line, naming the page::

    .../locale/en/LC_MESSAGES/tensors/where.po:42: WARNING: fuzzy entry: docs/tensors/where.md
    shows the Chinese source text here instead of a translation: '…' [catalog.fuzzy]

A page that has no catalog, in a language that has catalogs for other pages,
is warned about too (a language folder with no page catalog, such as the
source language's folder of theme strings, is not a translation). The check runs after reading on every build (``env-updated``), not only
when a page is read again, so ``make html-en`` keeps failing under ``-W``
until the entry is translated, and ``make serve`` shows the warning on every
rebuild. Builders that write no pages (doctest, gettext, linkcheck) are left
alone. The source language has no page catalogs, so its build never warns.
Warnings have the type ``catalog`` and the subtypes ``fuzzy``,
``untranslated`` and ``missing`` (``suppress_warnings = ["catalog.fuzzy"]``).

A draft language (``"draft": True`` in ``site_languages``) is unfinished by
definition: its build prints one line with the counts instead of a warning per
entry, so it builds under ``-W`` while the translator works; once published, every
entry is warned about again.
"""

import os
import sys
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.i18n import docname_to_domain

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root, for tools.*
from tools.catalogs.catalog_file import read  # noqa: E402  (the reader of every tool)
from tools.catalogs.po_lines import FUZZY_ADVICE, CatalogLines  # noqa: E402  (an entry's msgstr line, as make lint-po reports it)

logger = logging.getLogger(__name__)


def excerpt(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def shown(path: Path) -> str:
    """A path as short as it can be said: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def catalog_dirs(app: Sphinx) -> list[Path]:
    """The LC_MESSAGES folders of the build's language that exist (none for the source language)."""
    srcdir = Path(app.srcdir)
    return [d for d in ((srcdir / locale_dir / app.config.language / "LC_MESSAGES").resolve()
                        for locale_dir in app.config.locale_dirs) if d.is_dir()]


def unfinished(po: Path) -> list[tuple[int, str, str]]:
    """(line, 'fuzzy' or 'untranslated', msgid) of every entry of ``po`` that the build cannot use."""
    found, lines = [], None
    for entry in read(po):
        if entry.obsolete or not entry.msgid or not (entry.fuzzy or not entry.msgstr.strip()):
            continue
        lines = lines or CatalogLines(po)
        where = lines.entry(entry)
        found.append((where.line("msgstr"), "fuzzy" if entry.fuzzy else "untranslated", entry.msgid))
    return found


def warn_unfinished(app: Sphinx, env: BuildEnvironment) -> None:
    if app.builder.format != "html" or not app.builder.use_message_catalog:
        return
    directories = catalog_dirs(app)
    if not directories:
        return
    allow_fuzzy = app.config.gettext_allow_fuzzy_translations
    catalogs = {}
    for docname in sorted(env.found_docs):
        domain = docname_to_domain(docname, app.config.gettext_compact)
        catalogs[docname] = next((d / (domain + ".po") for d in directories if (d / (domain + ".po")).is_file()),
                                 None)
    if not any(catalogs.values()):
        return  # no page is translated into this language (the source language's folder holds UI strings only)
    pages: dict[Path, list[str]] = {}
    for docname, po in catalogs.items():
        if po is None:
            logger.warning("%s has no catalog in %s: the whole page shows the source text; run make update-po",
                           shown(Path(env.doc2path(docname))), shown(directories[0]), type="catalog",
                           subtype="missing", location=docname)
            continue
        pages.setdefault(po, []).append(shown(Path(env.doc2path(docname))))
    if getattr(app.config, "site_languages", {}).get(app.config.language, {}).get("draft"):
        left = [kind for po in pages for _, kind, _ in unfinished(po)]
        logger.info("%s is a draft: %d untranslated and %d fuzzy entries show the source text (make todo L=%s)",
                    app.config.language, left.count("untranslated"), left.count("fuzzy"), app.config.language)
        return
    for po, docs in pages.items():
        for line, kind, msgid in unfinished(po):
            if kind == "fuzzy":
                shows = "a translation of an older source text" if allow_fuzzy else "the source text"
                what = f"fuzzy entry: {', '.join(docs)} shows {shows} here: {excerpt(msgid)!r}; {FUZZY_ADVICE}"
            else:
                what = f"untranslated entry: {', '.join(docs)} shows the source text here: {excerpt(msgid)!r}"
            logger.warning(what, type="catalog", subtype=kind, location=f"{po}:{line}")


def setup(app: Sphinx) -> dict:
    app.connect("env-updated", warn_unfinished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
