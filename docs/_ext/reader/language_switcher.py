"""Links between the language editions of each page.

Every language is built into a sibling folder (``_build/html/zh_CN``,
``_build/html/en``). For each page this extension gives the templates
``language_alternates``: one entry per language in ``site_languages`` with
its ``hreflang``, its label and the relative URL of the same page in that
edition (``href``) and of that edition's home page (``home``). The sidebar
template shows the switcher; ``page.html`` adds ``<link rel="alternate"
hreflang>`` tags. ``language-switcher.js`` checks the target exists and falls
back to the other edition's home page when it does not.

On a phone furo's sidebar is a drawer, closed until the reader opens the menu,
so the switcher is also put into furo's phone header, beside the theme toggle
(``language-switcher-header.html``; the header is hidden on a wide screen):
furo's ``page.html`` has no block there, so a Jinja preprocessor includes it
when the template is loaded, as ``ui_strings`` does for furo's labels.

A language marked ``"draft": True`` in ``site_languages`` (what ``make
add-language`` writes) is built and tested, but only its own pages link to
it: the published editions list only the published languages, so a reader
never lands on a half-translated site. Deleting the ``draft`` line publishes it.
"""

from jinja2.ext import Extension
from sphinx.application import Sphinx

# The right-hand group of furo's phone header (its page.html), where the switcher goes first.
HEADER_RIGHT = '<div class="header-right">'
HEADER_SWITCHER = '{% include "language-switcher-header.html" %}'


def linked(languages: dict, current: str) -> dict:
    """The editions a page of ``current`` links to: the published ones, and its own."""
    return {code: info for code, info in languages.items() if code == current or not info.get("draft")}


def alternates(languages: dict, current: str, pagename: str, suffix: str, root_doc: str) -> list[dict]:
    """Relative links from ``pagename`` in ``current``'s folder to every linked language's edition."""
    up = "../" * (pagename.count("/") + 1)  # out of the page's folders and the language folder
    found = []
    for code, info in linked(languages, current).items():
        found.append({
            "code": code,
            "hreflang": info["hreflang"],
            "label": info["label"],
            "current": code == current,
            "href": f"{up}{code}/{pagename}{suffix}",
            "home": f"{up}{code}/{root_doc}{suffix}",
        })
    return found


def add_to_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if app.builder.name == "epub":  # a book has no sibling editions to link to (epub_books.py)
        return
    context["language_alternates"] = alternates(app.config.site_languages, app.config.language, pagename,
                                                app.builder.out_suffix, app.config.root_doc)


def with_header_switcher(source: str) -> str:
    """furo's page.html with the switcher at the start of the phone header's right-hand group."""
    return source.replace(HEADER_RIGHT, HEADER_RIGHT + HEADER_SWITCHER, 1)


class HeaderSwitcher(Extension):
    def preprocess(self, source, name, filename=None):
        return with_header_switcher(source) if HEADER_RIGHT in source else source


def install(app: Sphinx) -> None:
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if environment is not None:
        environment.add_extension(HeaderSwitcher)


def setup(app: Sphinx) -> dict:
    # "env": the translation status page says which languages are drafts, so publishing one re-reads it.
    app.add_config_value("site_languages", {}, "env", types=frozenset({dict}))
    app.connect("html-page-context", add_to_context)
    app.connect("builder-inited", install)
    app.add_js_file("language-switcher.js", loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
