"""Every page of the site links to the EPUB book of its language and of the other languages.

``make epub`` builds one book per language (``epub_books.py``); ``make html``
builds the sites, then the books, and copies each book into the root of its
language's site, next to that site's ``index.html``::

    _build/html/zh_CN/torch-notes-zh-CN.epub
    _build/html/en/torch-notes-en.epub

A book is named ``<project>-<hreflang>.epub`` (``hreflang`` from
``site_languages``; ``epub_books.book_name``, the rule the epub builder's
``epub_basename`` follows too). This module gives the HTML templates
``epub_downloads``: one entry per published language (and its own, if it is a
draft: see ``language_switcher.linked``), the page's own first,
with its label, ``hreflang`` and the URL relative to the page (each language
site is a sibling folder, as for the language switcher). ``page.html`` shows
them in the footer of every page (the index and search pages too), after
``epub_downloads_label`` (per language, see ``language_overrides``). Only the
``html`` builder gets them (the books link to no book); in the one-language
builds (``html-zh``, ``html-en``, ``serve``) they lead nowhere until ``make
html`` has put the books in place.
"""

from sphinx.application import Sphinx

from reader.language_switcher import linked

from .epub_books import book_name


def book_links(languages: dict, current: str, pagename: str, project: str) -> list[dict]:
    """Links from ``pagename`` in ``current``'s site to every linked language's book, ``current``'s first."""
    up = "../" * (pagename.count("/") + 1)  # out of the page's folders and the language folder
    ordered = sorted(linked(languages, current).items(), key=lambda item: item[0] != current)
    return [{
        "code": code,
        "hreflang": info["hreflang"],
        "label": info["label"],
        "current": code == current,
        "href": f"{up}{code}/{book_name(project, info['hreflang'])}",
    } for code, info in ordered]


def add_to_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if app.builder.name != "html":
        return
    context["epub_downloads"] = book_links(app.config.site_languages, app.config.language, pagename,
                                           app.config.project)
    context["epub_downloads_label"] = app.config.epub_downloads_label


def setup(app: Sphinx) -> dict:
    app.add_config_value("epub_downloads_label", "EPUB:", "html", types=frozenset({str}))
    app.connect("html-page-context", add_to_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
