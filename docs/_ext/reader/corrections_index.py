"""The corrections index: every erratum admonition of the site, grouped by chapter and page.

Why generated: the errata sit on the pages that correct the notes, and many
authors add, retitle and move them at the same time; a hand-kept list would
miss new ones and keep dead links. The ``corrections-index`` directive marks
where the list goes; when the page is written it is filled with one section
per chapter (titled like the chapter's ``index`` page), one item per page
(a link to the page) and, under it, one link per erratum to the section that
holds it, with the admonition's title as the text.

An erratum is an admonition whose title starts with ``corrections_index_prefix``
(``勘误``, as in ``:::{admonition} 勘误：…``). The test is made on the source
text: :class:`MarkErrata` runs before Sphinx's i18n transform (priority 20)
and gives those admonitions the class ``erratum``, so a translated build finds
exactly the same set, while the titles, collected after every transform, are
those of the page's language.

Parallel-safe: each page's errata are kept in ``env.corrections_index`` under
its docname, dropped when the page is read again (``env-purge-doc``) and merged
from parallel readers (``env-merge-info``). A page holding the directive is
read again whenever any page changes, so the list is never stale. The
generated text has no source, so it is never offered for translation.
"""

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

ERRATUM_CLASS = "erratum"


class corrections_index_placeholder(nodes.General, nodes.Element):
    """Replaced by the list of errata when the page is resolved."""


class MarkErrata(SphinxTransform):
    """Class ``erratum`` on every admonition whose source title starts with the prefix."""

    default_priority = 15  # before sphinx.transforms.i18n.Locale (20): the title is still the source text

    def apply(self, **kwargs) -> None:
        prefix = self.config.corrections_index_prefix
        for admonition in self.document.findall(nodes.admonition):
            title = admonition.next_node(nodes.title)
            if title is not None and title.parent is admonition and title.astext().startswith(prefix):
                admonition["classes"].append(ERRATUM_CLASS)


def title_parts(title: nodes.title) -> list[tuple[str, str]]:
    """The title as ("literal" | "text", text) pairs: code spans stay code, the rest plain text."""
    parts = []
    for child in title.children:
        parts.append(("literal" if isinstance(child, nodes.literal) else "text", child.astext()))
    return parts


def section_anchor(node: nodes.Node) -> str:
    """The id of the section around ``node``: its explicit label where it has one, '' for none."""
    section = node.parent
    while section is not None and not isinstance(section, nodes.section):
        section = section.parent
    if section is None or not section["ids"]:
        return ""
    # A "(label)=" line gives the section an id that is also one of its names, the same in
    # every language (the other ids are slugs of the heading). Prefer the page's own labels
    # to the topic labels that may stand before the same section.
    labels = [i for i in section["ids"] if i in section["names"]]
    own = [i for i in labels if not i.startswith("topic-")]
    return (own or labels or section["ids"])[0]


def collect(app: Sphinx, doctree: nodes.document) -> None:
    entries = []
    for admonition in doctree.findall(nodes.admonition):
        if ERRATUM_CLASS not in admonition["classes"]:
            continue
        title = admonition.next_node(nodes.title)
        entries.append({"anchor": section_anchor(admonition), "title": title_parts(title)})
    store = errata(app.env)
    store.pop(app.env.docname, None)
    if entries:
        store[app.env.docname] = entries


def errata(env: BuildEnvironment) -> dict[str, list[dict]]:
    if not hasattr(env, "corrections_index"):
        env.corrections_index = {}
    return env.corrections_index


class CorrectionsIndex(SphinxDirective):
    """``{corrections-index}``: every erratum of the site, grouped by chapter and page."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        pages = getattr(self.env, "corrections_index_pages", set())
        pages.add(self.env.docname)
        self.env.corrections_index_pages = pages
        return [corrections_index_placeholder()]


def reading_order(env: BuildEnvironment, root: str) -> list[str]:
    """Every document in the order of the toctrees, from the root; documents outside them last."""
    order, seen = [], set()

    def visit(docname: str) -> None:
        if docname in seen:
            return
        seen.add(docname)
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            visit(child)

    visit(root)
    return order + sorted(env.found_docs - seen)


def chapter_of(docname: str) -> str:
    return docname.split("/")[0] if "/" in docname else docname


def title_nodes(parts: list[tuple[str, str]]) -> list[nodes.Node]:
    return [nodes.literal(text, text) if kind == "literal" else nodes.Text(text) for kind, text in parts]


def untranslatable(node: nodes.Element) -> nodes.Element:
    node["translatable"] = False
    return node


def build_list(app: Sphinx, fromdocname: str) -> list[nodes.Node]:
    env, store = app.env, errata(app.env)
    titles = env.titles
    chapters: dict[str, list[str]] = {}
    for docname in reading_order(env, app.config.root_doc):
        if docname in store:
            chapters.setdefault(chapter_of(docname), []).append(docname)
    content = []
    for chapter, pages in chapters.items():
        heading = titles.get(f"{chapter}/index") or titles.get(pages[0])
        section = nodes.section(ids=[f"corrections-{chapter.replace('/', '-')}"], classes=["corrections-chapter"])
        section += untranslatable(nodes.title("", heading.astext() if heading else chapter))
        page_list = nodes.bullet_list(classes=["corrections-index"])
        for docname in pages:
            page_uri = app.builder.get_relative_uri(fromdocname, docname)
            page_title = titles[docname].astext() if docname in titles else docname
            item = nodes.list_item()
            item += untranslatable(nodes.paragraph("", "", nodes.reference("", page_title, internal=True,
                                                                          refuri=page_uri)))
            entries = nodes.bullet_list()
            for entry in store[docname]:
                uri = page_uri + (f"#{entry['anchor']}" if entry["anchor"] else "")
                link = nodes.reference("", "", *title_nodes(entry["title"]), internal=True, refuri=uri)
                entries += nodes.list_item("", untranslatable(nodes.paragraph("", "", link)))
            item += entries
            page_list += item
        section += page_list
        content.append(section)
    return content


def fill(app: Sphinx, doctree: nodes.document, fromdocname: str) -> None:
    for placeholder in list(doctree.findall(corrections_index_placeholder)):
        placeholder.replace_self([] if app.builder.name == "gettext" else build_list(app, fromdocname))


def outdated(app: Sphinx, env: BuildEnvironment, added: set, changed: set, removed: set) -> list[str]:
    if added or changed or removed:
        return sorted(getattr(env, "corrections_index_pages", set()))
    return []


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    errata(env).pop(docname, None)
    getattr(env, "corrections_index_pages", set()).discard(docname)


def merge(app: Sphinx, env: BuildEnvironment, docnames: set, other: BuildEnvironment) -> None:
    store = errata(env)
    for docname, entries in errata(other).items():
        if docname in docnames:
            store[docname] = entries
    pages = getattr(env, "corrections_index_pages", set())
    pages.update(getattr(other, "corrections_index_pages", set()) & docnames)
    env.corrections_index_pages = pages


def setup(app: Sphinx) -> dict:
    app.add_config_value("corrections_index_prefix", "勘误", "env", types=frozenset({str}))
    app.add_node(corrections_index_placeholder)
    app.add_directive("corrections-index", CorrectionsIndex)
    app.add_transform(MarkErrata)
    app.connect("doctree-read", collect)
    app.connect("doctree-resolved", fill)
    app.connect("env-get-outdated", outdated)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
