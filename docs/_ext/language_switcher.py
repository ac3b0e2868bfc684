"""Links between the language editions of each page.

Every language is built into a sibling folder (``_build/html/zh_CN``,
``_build/html/en``). For each page this extension gives the templates
``language_alternates``: one entry per language in ``site_languages`` with
its ``hreflang``, its label and the relative URL of the same page in that
edition (``href``) and of that edition's home page (``home``). The sidebar
template shows the switcher; ``page.html`` adds ``<link rel="alternate"
hreflang>`` tags. ``language-switcher.js`` checks the target exists and falls
back to the other edition's home page when it does not.

A language marked ``"draft": True`` in ``site_languages`` (what ``make
add-language`` writes) is built and tested, but only its own pages link to
it: the published editions list only the published languages, so a reader
never lands on a half-translated site. Deleting the ``draft`` line publishes it.
"""

from sphinx.application import Sphinx


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


def setup(app: Sphinx) -> dict:
    # "env": the translation status page says which languages are drafts, so publishing one re-reads it.
    app.add_config_value("site_languages", {}, "env", types=frozenset({dict}))
    app.connect("html-page-context", add_to_context)
    app.add_js_file("language-switcher.js", loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
