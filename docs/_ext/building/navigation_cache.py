"""The sidebar's navigation tree, resolved once per folder instead of once per page.

furo asks every page for the whole site's toctree (``toctree(collapse=False, titles_only=True,
maxdepth=-1, includehidden=True)``), and Sphinx resolves it from scratch each time: every page's
table of contents copied for every page written, about a fifth of an HTML build. What differs
from page to page is only (1) the links, relative to the page's folder, and (2) the ``current``
class on the page's own entry and every node above it. So the tree is resolved once per folder for
a name no page has (nothing marked), and each page gets a copy with its own branch marked the way
Sphinx marks it (``sphinx.environment.adapters.toctree._toctree_add_classes``), then rendered as
Sphinx renders it, its links to itself relative to itself (``#``).

One more thing depends on the page: Sphinx keeps the ``only`` blocks of the page's own contents and
its ancestors' (it copies those whole); so a build whose contents hold an ``only`` block resolves
every page's tree itself, as without the cache. A warning the tree gives (a page without a title)
is logged once per folder instead of once per page. ``-D navigation_cache=0`` turns it off: the
suite writes every English page once more that way, from its own doctrees, and each must come out the same
(tests/i18n/test_fast_i18n.py; tests/building/test_navigation_cache.py compares a fixture byte for byte).
"""

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment.adapters.toctree import _resolve_toctree

# The one call furo makes for the sidebar (furo/__init__.py, _compute_navigation_tree).
FURO_NAVIGATION = {"collapse": False, "titles_only": True, "maxdepth": -1, "includehidden": True}
UNMARKED = "__navigation_cache__"  # a page name in each folder that no page has: nothing is current


def unmarked_page(folder: str) -> str:
    return f"{folder}/{UNMARKED}" if folder else UNMARKED


def resolved_toctrees(app: Sphinx, folder: str) -> list:
    """The root document's toctrees resolved from ``folder`` as global_toctree_for_doc resolves them."""
    builder, env = app.builder, app.env
    resolved = (_resolve_toctree(env, unmarked_page(folder), builder, toctree, prune=True, tags=builder.tags,
                                 **FURO_NAVIGATION)
                for toctree in env.master_doctree.findall(addnodes.toctree))
    return [toctree for toctree in resolved if toctree is not None]


def mark_current(toctree, from_folder: str, from_itself: str) -> None:
    """What Sphinx does for the page itself: its entries link to ``from_itself`` (its anchor after it), and
    an entry for the whole page gets the 'current' class, with every node above it."""
    for reference in list(toctree.findall(nodes.reference)):
        anchor = reference["anchorname"]
        if reference["refuri"] != from_folder + anchor:
            continue
        reference["refuri"] = from_itself + anchor
        if not anchor:
            node = reference
            while node:
                node["classes"].append("current")
                node = node.parent


def navigation_html(app: Sphinx, pagename: str, cache: dict) -> str:
    folder = pagename.rpartition("/")[0]
    if folder not in cache:
        cache[folder] = resolved_toctrees(app, folder)
    toctrees = [toctree.deepcopy() for toctree in cache[folder]]
    if not toctrees:
        return app.builder.render_partial(None)["fragment"]
    from_folder = app.builder.get_relative_uri(unmarked_page(folder), pagename)
    from_itself = app.builder.get_relative_uri(pagename, pagename)
    for toctree in toctrees:  # marked one by one, as Sphinx marks them before joining them
        mark_current(toctree, from_folder, from_itself)
    result = toctrees[0]
    for toctree in toctrees[1:]:
        result.extend(toctree.children)
    return app.builder.render_partial(result)["fragment"]


CACHES: dict[int, dict] = {}  # per environment, emptied when a build has read its pages


def forget(app: Sphinx, env) -> None:
    CACHES.pop(id(env), None)


def holds_only_blocks(env) -> bool:
    """Whether some page's contents hold an ``only`` block: then the cache steps aside."""
    return any(any(toc.findall(addnodes.only)) for toc in env.tocs.values())


def cached_toctree(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not app.config.navigation_cache or "toctree" not in context or app.builder.name != "html":
        return
    if id(app.env) not in CACHES:
        CACHES[id(app.env)] = None if holds_only_blocks(app.env) else {}
    cache = CACHES[id(app.env)]
    if cache is None:  # an ``only`` block in some page's contents: Sphinx's own resolution
        return
    resolve = context["toctree"]

    def toctree(**kwargs):
        return navigation_html(app, pagename, cache) if kwargs == FURO_NAVIGATION else resolve(**kwargs)

    context["toctree"] = toctree


def setup(app: Sphinx) -> dict:
    app.add_config_value("navigation_cache", True, "", bool)
    app.connect("env-updated", forget)  # a second build in the same process starts afresh
    app.connect("html-page-context", cached_toctree, priority=400)  # before furo's (500) reads the tree
    return {"parallel_read_safe": True, "parallel_write_safe": True}
