"""What search engines read: a description, the canonical URL, absolute alternates and a sitemap.

``site_url`` is where the site root (the folder with ``zh_CN/``, ``en/`` and the
redirecting ``index.html``) is served; ``make html SITE_URL=https://…/`` sets it.
The default is the address of ``make serve``, so a local build is whole and
consistent. From it, for the language being built:

* ``html_baseurl`` is ``<site_url><lang>/``, so Sphinx (and furo) give every page
  its ``<link rel="canonical">``;
* every page gets ``<meta name="description">``: its first real paragraph (of at
  least ``MIN_CHARS`` characters, outside admonitions, tables and field lists), in the
  page's own language, shortened at a sentence or word end; a page without one
  (the API index, the search page) gets the site's description (``epub_description``);
* each alternate of the language switcher gains ``url``, its absolute address, which
  ``page.html`` uses for ``<link rel="alternate" hreflang>`` (search engines ignore
  relative ones), with ``x-default`` for the root index;
* ``sitemap.xml`` at the root of the language's site lists every page, each with its
  alternates in the linked languages (drafts are left out, as everywhere).

sphinx-sitemap was not used: it collects the pages as they are written, so an
incremental build's sitemap lists only the pages that build rewrote (2.9.0:
``add_html_link`` runs in ``html-page-context``, ``create_sitemap`` at the end).
"""

import re
from html import escape
from pathlib import Path
from xml.etree import ElementTree

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config

from .language_switcher import linked

MIN_CHARS = 30
MAX_CHARS = 160
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
SKIP = (nodes.Admonition, nodes.table, nodes.field_list, nodes.topic, nodes.sidebar, addnodes.desc,
        nodes.footnote, nodes.citation)
# A full stop in Chinese ends a sentence; a Latin one only before a space or the end (not in torch.nn.Linear).
SENTENCE_END = re.compile(r"(?:(?<=[。！？])|(?<=[.!?])(?=\s|$))\s*")


def site_root(config: Config) -> str:
    return config.site_url.rstrip("/") + "/"


def set_baseurl(app: Sphinx, config: Config) -> None:
    config.html_baseurl = f"{site_root(config)}{config.language}/"


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    """The text up to ``limit`` characters, cut after a sentence, else at a space, else anywhere, with '…'."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[:limit]
    sentences = [m.end() for m in SENTENCE_END.finditer(head) if m.end() >= MIN_CHARS]
    if sentences:
        return head[:sentences[-1]].strip()
    space = head.rfind(" ")
    return (head[:space] if space >= MIN_CHARS else head[:limit - 1]).rstrip(" ,，、;；:：") + "…"


def first_paragraph(doctree: nodes.document) -> str | None:
    for paragraph in doctree.findall(nodes.paragraph):
        parent, skipped = paragraph.parent, False
        while parent is not None:
            if isinstance(parent, SKIP):
                skipped = True
                break
            parent = parent.parent
        text = " ".join(paragraph.astext().split())
        if not skipped and len(text) >= MIN_CHARS:
            return text
    return None


def add_to_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if app.builder.name != "html":
        return
    description = (first_paragraph(doctree) if doctree is not None else None) or app.config.epub_description
    context["metatags"] = context.get("metatags", "") + \
        f'\n<meta name="description" content="{escape(shorten(description), quote=True)}">'
    root, suffix = site_root(app.config), app.builder.out_suffix
    for alternate in context.get("language_alternates", []):
        alternate["url"] = f"{root}{alternate['code']}/{pagename}{suffix}"
    context["site_index_url"] = f"{root}index.html"


def write_sitemap(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.name != "html":
        return
    ElementTree.register_namespace("", SITEMAP)
    ElementTree.register_namespace("xhtml", XHTML)
    root, suffix = site_root(app.config), app.builder.out_suffix
    languages = linked(app.config.site_languages, app.config.language)
    urlset = ElementTree.Element(f"{{{SITEMAP}}}urlset")
    for docname in sorted(app.env.found_docs):
        url = ElementTree.SubElement(urlset, f"{{{SITEMAP}}}url")
        ElementTree.SubElement(url, f"{{{SITEMAP}}}loc").text = f"{root}{app.config.language}/{docname}{suffix}"
        for code, info in languages.items():
            ElementTree.SubElement(url, f"{{{XHTML}}}link", rel="alternate", hreflang=info["hreflang"],
                                   href=f"{root}{code}/{docname}{suffix}")
    ElementTree.indent(urlset)
    ElementTree.ElementTree(urlset).write(Path(app.outdir) / "sitemap.xml", xml_declaration=True, encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.add_config_value("site_url", "http://127.0.0.1:8000/", "html", types=frozenset({str}))
    app.connect("config-inited", set_baseurl, priority=200)  # after lang_overrides (100)
    app.connect("html-page-context", add_to_context, priority=600)  # after language_switcher's (500)
    app.connect("build-finished", write_sitemap)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
