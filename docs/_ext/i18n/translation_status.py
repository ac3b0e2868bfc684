"""The translation status table, computed from the catalogs at build time.

A page says where the table goes::

    ```{translation-status}
    ```

and gets, for every translation language (every ``<locale_dirs[0]>/<lang>/LC_MESSAGES``),
a summary line and a table: one row per chapter (its totals) followed by one
row per page, with the translated, fuzzy and untranslated message counts and
the share done. Counting is ``tools/catalogs/po_stats.py``'s (a fuzzy entry is not
translated), so the page and ``make stats``/``make todo`` always agree.

Pages are named by their docname (``tensors/broadcasting``), linked to the
page, so the English site shows no Chinese. The generated text is never
offered for translation. A page holding the directive depends on every catalog
it counted, and is read again when a catalog is added or removed, so the
numbers are those of the catalogs at build time.
"""

import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.locale import _
from sphinx.util.docutils import SphinxDirective

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root, for tools.*
from tools.catalogs.po_stats import PageStats, language_stats  # noqa: E402
from tools.project import translations  # noqa: E402

def labels() -> dict[str, str]:
    """The table's words in the page's language: Sphinx's ``sphinx`` domain, so each language's
    ``docs/_locale/<lang>/LC_MESSAGES/sphinx.po`` translates them (``make add-language`` creates it)."""
    return {
        "page": _("Page"), "translated": _("Translated"), "fuzzy": _("Fuzzy"), "untranslated": _("Untranslated"),
        "done": _("Done"),
        "summary": _("{language}: {percent} done ({total} messages: {translated} translated, {fuzzy} fuzzy, "
                     "{untranslated} untranslated)"),
        "draft": _("{language} is a draft: it is built and tested, but the published editions do not link to it yet."),
        "none": _("There is no translation language yet."),
    }


def chapters(rows: list[PageStats]) -> dict[str, list[PageStats]]:
    """Pages grouped by their first folder; top-level pages form the chapter ''."""
    grouped: dict[str, list[PageStats]] = {}
    for row in rows:
        grouped.setdefault(row.page.split("/")[0] if "/" in row.page else "", []).append(row)
    return dict(sorted(grouped.items()))


def total(name: str, rows: list[PageStats]) -> PageStats:
    return PageStats(name, sum(r.translated for r in rows), sum(r.fuzzy for r in rows),
                     sum(r.untranslated for r in rows))


def percent(stats: PageStats) -> str:
    return f"{stats.percent:.1f}%"


def text(value: str) -> nodes.paragraph:
    paragraph = nodes.paragraph("", "", nodes.Text(value))
    paragraph["translatable"] = False  # generated: never extracted into a catalog
    return paragraph


class TranslationStatus(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        words = labels()
        locale_dir = Path(self.env.srcdir) / self.config.locale_dirs[0]
        status_docs(self.env)[self.env.docname] = catalog_files(locale_dir)
        languages = translations(locale_dir)
        if not languages:
            return [text(words["none"])]
        result = []
        for language in languages:
            for po in (locale_dir / language / "LC_MESSAGES").rglob("*.po"):
                self.env.note_dependency(str(po))
            rows = language_stats(locale_dir, language)
            all_rows = total(language, rows)
            summary = text(words["summary"].format(
                language=language, percent=percent(all_rows), total=all_rows.total,
                translated=all_rows.translated, fuzzy=all_rows.fuzzy, untranslated=all_rows.untranslated))
            section = nodes.container(classes=["translation-status"])
            section += summary
            if getattr(self.config, "site_languages", {}).get(language, {}).get("draft"):
                section += text(words["draft"].format(language=language))
            section += self.table(rows, words)
            result.append(section)
        return result

    def table(self, rows: list[PageStats], labels: dict) -> nodes.table:
        columns = ["page", "translated", "fuzzy", "untranslated", "done"]
        table = nodes.table(classes=["translation-status-table"])
        group = nodes.tgroup(cols=len(columns))
        table += group
        for width in (40, 15, 15, 15, 15):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        head += self.row([text(labels[c]) for c in columns])
        body = nodes.tbody()
        group += body
        for chapter, pages in chapters(rows).items():
            if chapter:
                stats = total(chapter + "/", pages)
                body += self.row([nodes.paragraph("", "", nodes.strong("", stats.page)), *self.numbers(stats)],
                                 classes=["chapter"])
            for page in pages:
                body += self.row([self.link(page.page), *self.numbers(page)])
        return table

    def numbers(self, stats: PageStats) -> list[nodes.paragraph]:
        return [text(str(stats.translated)), text(str(stats.fuzzy)), text(str(stats.untranslated)),
                text(percent(stats))]

    def link(self, docname: str) -> nodes.paragraph:
        label = nodes.literal(docname, docname)
        if docname not in self.env.found_docs:
            return nodes.paragraph("", "", label)  # a catalog without a page: check_catalogs reports it
        ref = addnodes.pending_xref("", label, refdomain="std", reftype="doc", reftarget="/" + docname,
                                    refexplicit=True, refdoc=self.env.docname)
        return nodes.paragraph("", "", ref)

    @staticmethod
    def row(cells: list[nodes.Node], classes: list[str] | None = None) -> nodes.row:
        row = nodes.row(classes=classes or [])
        for cell in cells:
            row += nodes.entry("", cell)
        return row


def catalog_files(locale_dir: Path) -> list[str]:
    return sorted(str(p) for lang in translations(locale_dir) for p in (locale_dir / lang / "LC_MESSAGES").rglob("*.po"))


def status_docs(env: BuildEnvironment) -> dict[str, list[str]]:
    """{docname: the catalogs its table counted} for every page holding the directive."""
    if not hasattr(env, "translation_status_docs"):
        env.translation_status_docs = {}
    return env.translation_status_docs


def catalogs_added_or_removed(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    """Pages whose tables counted another set of catalogs than there is now (edits are dependencies)."""
    current = catalog_files(Path(env.srcdir) / app.config.locale_dirs[0])
    return sorted(doc for doc, counted in status_docs(env).items() if doc not in removed and counted != current)


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    status_docs(env).pop(docname, None)


def merge(app: Sphinx, env: BuildEnvironment, docnames, other: BuildEnvironment) -> None:
    status_docs(env).update(status_docs(other))


def setup(app: Sphinx) -> dict:
    app.add_directive("translation-status", TranslationStatus)
    app.connect("env-get-outdated", catalogs_added_or_removed)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 3}
