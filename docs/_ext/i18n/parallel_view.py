"""The parallel view: each translatable unit carries its counterpart in the other language.

Readers of one language often need the other one's wording (papers, error
messages and PyTorch's documentation are English; English readers learn the
Chinese terms). On every page, each translatable unit (paragraph, heading,
list item, table cell, admonition title, field name, parameter description,
toctree caption) gets a hidden sibling ``<div class="parallel-counterpart"
lang="...">`` (a ``<span>`` inside a ``<dt>`` or a caption) holding the same
unit in the other language, made with the MyST machinery Sphinx's i18n uses,
so its links and roles work. ``parallel-view.js`` shows them when the reader
presses the sidebar's button; without JavaScript the page is the plain one.

Both editions come out of their usual single build:

* the source (Chinese) build looks each unit's message up in the English
  catalog (``locale/en/LC_MESSAGES/<page>.po``, read with ``tools/catalogs/catalog_file.py``
  as every tool reads catalogs, fuzzy entries left out as in the English build) and parses the ``msgstr`` as
  Sphinx's ``Locale`` transform does;
* a translated (English) build keeps each unit's children when ``Locale``
  replaces them with the translation: they are the Chinese source, parsed.

The counterparts are attached at the end of reading (doctree-read), so the
domains, collectors and checks do not walk them, and after smart quotes: the
Chinese site has none, the English one has them, and each counterpart looks
as on its own site. They hold inline content only (no code block, no
doctest), carry no ids, targets or index entries, stay out of the search
index (``no-search``), and a ``{ref}`` without a title in one shows the
target's title in the counterpart's language. A unit that reads the same in
both languages gets none. Builders other than the site's (``epub``,
``text``, ...) drop them, whatever doctrees they reuse. ``-D
parallel_view=0`` turns the feature off.
"""

import functools
import gettext
import html
import re
import sys
from pathlib import Path

import sphinx
import sphinx.transforms.i18n as sphinx_i18n
from docutils import nodes
from docutils.utils import normalize_language_tag, smartquotes
from docutils.writers._html_base import SimpleListChecker
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import _clean_extracted_message, clean_astext, is_smartquotable, is_translatable

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root, for tools.*
from tools.catalogs.catalog_file import read  # noqa: E402  (the reader of every tool; catalog_check ran it on all of them)

CLASS = "parallel-counterpart"
SITE_BUILDERS = ("html", "dirhtml", "singlehtml")
STORAGE_KEY = "torch-notes-parallel-view"
# In <head> (page.html): runs before the page is drawn, so a reader who turned the view on sees no
# flash of the plain page (furo puts the script files at the end of <body>).
HEAD_SCRIPT = (f'try{{if(localStorage.getItem("{STORAGE_KEY}")==="on")'
               'document.documentElement.classList.add("parallel-view")}catch(e){}')
CANDIDATES = (nodes.paragraph, nodes.rubric, nodes.title, nodes.term, nodes.field_name, nodes.inline)
TITLE_PARENTS = (nodes.section, nodes.Admonition, nodes.topic, nodes.sidebar)
EDUCATED = re.compile(r"[\"'`]|--|\.\.\.|\. \. \.")  # what smartquotes may change
DROPPED = (nodes.target, addnodes.index, nodes.system_message, nodes.comment, nodes.substitution_definition)


class parallel_counterpart(nodes.Invisible, nodes.TextElement):
    """A unit's text in the other language (inline content only).

    ``Invisible`` so that the HTML writer decides a list's or paragraph's
    compactness exactly as it would without it: the plain page is unchanged.
    """


# -- which units, where their counterparts go --------------------------------------
def unit_kind(node: nodes.Element) -> str | None:
    """``after`` (a block after it), ``inside`` (a span at its end), ``after-block`` or None.

    Code and maths blocks are never units (never duplicated), nor are alt texts and toctrees.
    """
    if isinstance(node, (nodes.paragraph, nodes.rubric)):
        return "after"
    if isinstance(node, nodes.title):
        return "after" if isinstance(node.parent, TITLE_PARENTS) else None
    if isinstance(node, nodes.term):
        # glossary_terms already shows each glossary term in the other language
        return None if any(isinstance(a, addnodes.glossary) for a in ancestors(node)) else "inside"
    if isinstance(node, nodes.field_name):
        return "inside"
    if isinstance(node, nodes.inline) and node.get("translatable") and block_of(node) is not None:
        return "after-block"  # a field's description: Sphinx unwraps the inline later
    return None


def units(document: nodes.document):
    """(node, message, kind) for every unit the view pairs, in document order.

    The messages ``sphinx.util.nodes.extract_messages`` gives these nodes, without asking
    every other node of the page (which costs a debug message each, built or not).
    """
    for node in document.findall(lambda n: isinstance(n, CANDIDATES)):
        kind = unit_kind(node)
        if kind and node.source and is_translatable(node):
            msg = _clean_extracted_message(node.rawsource)
            if msg:
                yield node, msg, kind


def ancestors(node: nodes.Node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def block_of(node: nodes.Node) -> nodes.Element | None:
    return next((a for a in ancestors(node) if isinstance(a, nodes.paragraph)), None)


def counterpart(children: list[nodes.Node], language_tag: str, inline: bool) -> parallel_counterpart:
    node = parallel_counterpart("", "", *children, inline=inline,
                                classes=[CLASS, "no-search", f"language-{language_tag}"])
    for dropped in list(node.findall(lambda n: isinstance(n, DROPPED))):
        dropped.parent.remove(dropped)
    for element in node.findall(nodes.Element):
        if element is not node:
            element["ids"], element["names"] = [], []
    return node


def resolve_anchor_links(document: nodes.document, links: list[nodes.reference]) -> None:
    """Resolve the counterparts' ``[text](#id)`` links as MyST resolved the page's own.

    MyST's ResolveAnchorIds (transform 879) ran before the counterparts existed, and it
    cannot run twice over links it already resolved: those sit it out this time.
    """
    if not links:
        return
    from myst_parser.mdit_to_docutils.transforms import ResolveAnchorIds

    pending = {id(link) for link in links}
    done = [r for r in document.findall(nodes.reference) if r.get("id_link") and id(r) not in pending]
    for reference in done:
        reference["id_link"] = False
    try:
        ResolveAnchorIds(document).apply()
    finally:
        for reference in done:
            reference["id_link"] = True


def untitled_ref(xref: addnodes.pending_xref) -> bool:
    """A ``{ref}`` that shows its target's title (in the build's language, unless changed)."""
    return (xref.get("refdomain"), xref.get("reftype")) == ("std", "ref") and not xref.get("refexplicit")


def attach(node: nodes.Element, kind: str, new: parallel_counterpart, last: dict) -> None:
    """Put ``new`` after the unit (after the counterparts already placed there)."""
    if kind == "inside":
        node += new
        return
    anchor = node if kind == "after" else block_of(node)
    previous = last.get(id(anchor), anchor)
    previous.parent.insert(previous.parent.index(previous) + 1, new)
    last[id(anchor)] = new


# -- the other language ---------------------------------------------------------------
def languages(config) -> tuple[str, bool]:
    """(the counterparts' language, whether they come from the catalog) for this build."""
    if config.language == config.parallel_view_source_language:
        return config.parallel_view_translation, True
    return config.parallel_view_source_language, False


def language_tag(config, language: str) -> str:
    sites = getattr(config, "site_languages", None) or {}  # language_switcher's; a fixture may lack it
    return sites.get(language, {}).get("hreflang", language.replace("_", "-"))


_catalogs: dict[Path, tuple[int, dict[str, str]]] = {}


def catalog_path(app: Sphinx, docname: str, language: str) -> Path:
    """The page's catalog (the page catalogs are in ``locale_dirs[0]``, as glossary_terms reads them)."""
    domain = docname_to_domain(docname, app.config.gettext_compact)
    return (Path(app.srcdir) / app.config.locale_dirs[0] / language / "LC_MESSAGES" / f"{domain}.po").resolve()


def read_catalog(po: Path) -> dict[str, str]:
    """{msgid: msgstr} of the translated, non-fuzzy entries (what Sphinx compiles into the .mo).

    The build checked every catalog before reading a page (catalog_check); one broken since then
    raises CatalogError, naming the file, line and cause."""
    if not po.is_file():
        return {}
    mtime = po.stat().st_mtime_ns
    if po not in _catalogs or _catalogs[po][0] != mtime:
        _catalogs[po] = mtime, {e.msgid: e.msgstr for e in read(po)
                                if e.msgstr and not e.fuzzy and not e.obsolete}
    return _catalogs[po][1]


@functools.cache
def theme_strings(srcdir: Path, locale_dirs: tuple[str, ...], language: str):
    """Sphinx's own UI strings (domain "sphinx") in ``language``: the project's catalogs first, then Sphinx's."""
    project = {}
    for directory in reversed(locale_dirs):
        project.update(read_catalog((srcdir / directory / language / "LC_MESSAGES" / "sphinx.po").resolve()))
    builtin = gettext.translation("sphinx", Path(sphinx.__file__).parent / "locale", [language], fallback=True)
    return lambda text: project.get(text) or builtin.gettext(text)


# The field names the Python domain writes (sphinx/domains/python/_object.py, PyObject.doc_field_types).
# At build time Sphinx has already turned those labels into the build's language, so their
# msgids are listed here.
FIELD_LABELS = ("Parameters", "Variables", "Raises", "Returns", "Return type")


def educates(config, language: str) -> bool:
    """Whether ``language``'s own build applies smart quotes (SphinxSmartQuotes.is_available)."""
    return bool(config.smartquotes) and language not in config.smartquotes_excludes.get("languages", []) \
        and any(tag in smartquotes.smartchars.quotes for tag in normalize_language_tag(language))


def educate(element: nodes.Element, language: str, action: str) -> None:
    """Smart quotes on one block of text, as SphinxSmartQuotes does."""
    if not EDUCATED.search(element.astext()):
        return  # most units have no quote, dash or ellipsis: nothing to do
    tag = next(t for t in normalize_language_tag(language) if t in smartquotes.smartchars.quotes)
    texts = list(element.findall(nodes.Text))
    tokens = [("plain", re.sub(r'(?<=\x00)([-\\\'".`])', r"\\\1", str(t))) if is_smartquotable(t)
              else ("literal", t.astext()) for t in texts]
    for text, new in zip(texts, smartquotes.educate_tokens(tokens, attr=action, language=tag)):
        text.parent.replace(text, nodes.Text(new))


# -- transforms -------------------------------------------------------------------------
def active(app: Sphinx) -> bool:
    from sphinx.builders.gettext import MessageCatalogBuilder
    return bool(app.config.parallel_view) and not issubclass(app.env._builder_cls, MessageCatalogBuilder)


class KeepSource(SphinxTransform):
    """Translated builds: copy each unit's source children before ``Locale`` (20) replaces them."""

    default_priority = 15

    def apply(self, **kwargs) -> None:
        if not active(self.app) or languages(self.config)[1]:
            return
        # Locale gives a translated node new children; the old ones, kept here, are the source.
        self.document.parallel_view_sources = [(node, kind, list(node.children))
                                               for node, _, kind in units(self.document)]


def attach_counterparts(app: Sphinx, doctree: nodes.document) -> None:
    if active(app):
        Counterparts(app, doctree).attach_all()


class Counterparts:
    """Give every unit of a page its counterpart.

    On doctree-read, after the other handlers (the domains, the collectors and the project's
    own checks walk the page without the counterparts), after smart quotes (750) and before
    Sphinx unwraps the field descriptions' inlines (999).
    """

    def __init__(self, app: Sphinx, document: nodes.document) -> None:
        self.app, self.env, self.config, self.document = app, app.env, app.config, document

    def attach_all(self) -> None:
        other, from_catalog = languages(self.config)
        tag = language_tag(self.config, other)
        quotes = educates(self.config, other)
        pairs = self.from_catalog(other) if from_catalog else self.from_source(other)
        last, titles, anchor_links = {}, {}, []
        for node, kind, children in pairs:
            new = counterpart(children, tag, inline=kind == "inside")
            if quotes:
                educate(new, other, self.config.smartquotes_action)
            if new.astext() == node.astext():
                if not any(map(untitled_ref, new.findall(addnodes.pending_xref))):
                    continue  # reads the same in both languages
                new["same_text"] = True  # unless a title in it differs: ResolveCounterparts decides
            if node.parent is None:
                continue  # a later transform took the unit out of the page
            for part in new.findall():
                part._document = self.document  # not the message's own document: see translated_nodes
            attach(node, kind, new, last)
            anchor_links += [r for r in new.findall(nodes.reference) if r.get("id_link") and "refuri" in r]
            if isinstance(node, nodes.title) and isinstance(node.parent, nodes.section) and not new.get("same_text"):
                titles.update(dict.fromkeys(node.parent["ids"], clean_astext(new)))
        self.env.parallel_view_titles[self.env.docname] = titles
        resolve_anchor_links(self.document, anchor_links)

    def from_source(self, language: str):
        strings = None
        for node, kind, children in self.document.__dict__.pop("parallel_view_sources", []):
            if node.get("translated"):
                if children and any(child is children[0] for child in node.children):
                    children = [child.deepcopy() for child in children]  # msgstr == msgid: left in place
                yield node, kind, children
            elif isinstance(node, nodes.field_name):
                # A domain's field names (Parameters, Returns) are Sphinx's words, written in the
                # build's language: the source build shows Sphinx's translation of them.
                if strings is None:
                    where = Path(self.env.srcdir), tuple(self.config.locale_dirs)
                    strings = theme_strings(*where, language)
                    # The field name is written in this build's language: back to its msgid first.
                    own = theme_strings(*where, self.config.language)
                    msgids = {own(label): label for label in FIELD_LABELS}
                yield node, kind, [nodes.Text(strings(msgids.get(node.astext(), node.astext())))]

    def from_catalog(self, language: str):
        po = catalog_path(self.app, self.env.docname, language)
        self.env.note_dependency(str(po))  # a new translation rebuilds this page too
        catalog = read_catalog(po)
        for node, msg, kind in list(units(self.document)):
            msgstr, _ = sphinx_i18n.parse_noqa(catalog.get(msg, ""))
            if msgstr.strip():  # an identical msgstr too: an untitled {ref} in it may read differently
                patch = self.parse(node, msgstr)
                if patch is not None:
                    yield node, kind, patch.children

    def parse(self, node: nodes.Element, msgstr: str) -> nodes.Element | None:
        """The msgstr parsed exactly as sphinx.transforms.i18n.Locale parses it, or None."""
        is_title = isinstance(node, nodes.title)
        source = msgstr + "\n" + "=" * len(msgstr) * 2 if is_title else msgstr
        patch = sphinx_i18n._publish_msgstr(source, self.document["source"], node.line, config=self.config,
                                            env=self.env, registry=self.env._registry,
                                            settings=self.document.settings)
        if is_title:
            patch = patch.next_node()
        if not isinstance(patch, (nodes.paragraph, nodes.title)):
            return None
        # Cross-references keep the source's targets and context (py:module, ...), as in Locale.
        sphinx_i18n._NodeUpdater(node, patch, self.document, noqa=True).update_pending_xrefs()
        return patch


class ResolveCounterparts(SphinxPostTransform):
    """Before references are resolved (10): untitled ``{ref}`` in the counterpart's language; other builders: none."""

    default_priority = 5

    def run(self, **kwargs) -> None:
        found = list(self.document.findall(parallel_counterpart))
        if self.app.builder.name not in SITE_BUILDERS:
            for node in found:
                node.parent.remove(node)
            return
        labels = self.env.domains.standard_domain.labels
        titles = getattr(self.env, "parallel_view_titles", {})
        for node in found:
            changed = False
            for xref in filter(untitled_ref, list(node.findall(addnodes.pending_xref))):
                docname, labelid, _ = labels.get(xref["reftarget"], ("", "", ""))
                title = titles.get(docname, {}).get(labelid)  # only titles that differ are recorded
                if title:
                    classes = xref[0]["classes"] if len(xref) and isinstance(xref[0], nodes.Element) else []
                    xref.children = []
                    xref += nodes.inline(title, title, classes=classes)
                    xref["refexplicit"] = changed = True
            if node.get("same_text") and not changed:
                node.parent.remove(node)


def caption_counterparts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """A toctree's caption (plain text) in the page's body.

    Sphinx makes the caption only when it writes the page (after every doctree event), from
    the toctree's caption and message, so its counterpart goes into the HTML of the body.
    """
    if doctree is None or not context.get("parallel_view") or "body" not in context:
        return
    other, from_catalog = languages(app.config)
    catalog = read_catalog(catalog_path(app, pagename, other)) if from_catalog else {}
    for title in doctree.findall(nodes.title):
        if isinstance(title.parent, addnodes.compact_paragraph) and title.parent.get("toctree"):
            # The caption's rawsource is its message: the source caption in a translated build.
            text = catalog.get(title.rawsource, "") if from_catalog else title.rawsource
            if text and text != title.astext():
                caption = f'<span class="caption-text">{html.escape(title.astext(), quote=False)}</span>'
                extra = (f'<span class="{CLASS} no-search" hidden="hidden" lang="{language_tag(app.config, other)}">'
                         f'{html.escape(text, quote=False)}</span>')
                context["body"] = context["body"].replace(caption, caption[:-len("</span>")] + extra + "</span>")


# -- HTML ---------------------------------------------------------------------------------
def visit_html(self, node: parallel_counterpart) -> None:
    siblings = [child for child in node.parent if not isinstance(child, parallel_counterpart)]
    if isinstance(node.parent, (nodes.list_item, nodes.entry)) and len(siblings) == 1 and self.body[-1] == "\n":
        self.body.pop()  # the writer ends a lone paragraph there with "</p></li>": keep the page as it was
    self.body.append(self.starttag(node, "span" if node.get("inline") else "div", "", hidden="hidden"))


def depart_html(self, node: parallel_counterpart) -> None:
    self.body.append("</span>" if node.get("inline") else "</div>")


def skip(self, node: nodes.Node) -> None:
    raise nodes.SkipNode


def add_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["parallel_view"] = bool(app.config.parallel_view) and app.builder.name in SITE_BUILDERS
    context["parallel_view_script"] = HEAD_SCRIPT  # page.html puts it in <head>


def add_scripts(app: Sphinx) -> None:
    if app.config.parallel_view and app.builder.name in SITE_BUILDERS:
        app.add_js_file("parallel-view.js", loading_method="defer")


def init_env(app: Sphinx, env, docnames) -> None:
    if not hasattr(env, "parallel_view_titles"):
        env.parallel_view_titles = {}


def purge(app: Sphinx, env, docname: str) -> None:
    getattr(env, "parallel_view_titles", {}).pop(docname, None)


def merge(app: Sphinx, env, docnames, other) -> None:
    init_env(app, env, docnames)
    theirs = getattr(other, "parallel_view_titles", {})
    env.parallel_view_titles.update({d: theirs[d] for d in docnames if d in theirs})


def setup(app: Sphinx) -> dict:
    app.add_config_value("parallel_view", True, "env", types=(bool, int))
    app.add_config_value("parallel_view_source_language", "zh_CN", "env", types=frozenset({str}))
    app.add_config_value("parallel_view_translation", "en", "env", types=frozenset({str}))
    app.add_node(parallel_counterpart, html=(visit_html, depart_html),
                 **{name: (skip, None) for name in ("latex", "text", "man", "texinfo")})
    # The writer's compactness check must pass over a counterpart as over any invisible node.
    SimpleListChecker.visit_parallel_counterpart = SimpleListChecker.ignore_node
    app.add_transform(KeepSource)
    app.connect("doctree-read", attach_counterparts, priority=900)
    app.add_post_transform(ResolveCounterparts)
    app.connect("env-before-read-docs", init_env)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("builder-inited", add_scripts)
    app.connect("html-page-context", add_page_context)
    app.connect("html-page-context", caption_counterparts, priority=600)  # after add_page_context
    return {"parallel_read_safe": True, "parallel_write_safe": True}
