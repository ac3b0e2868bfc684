"""An at-a-glance API page: every documented Python object, grouped by module.

The ``api-index`` directive marks where the list goes. When the page is
written, the placeholder is filled from the Python domain of the whole site:
one section per module (``torch``, ``torch.nn``, ``builtins``, ...), one row
per object with a link to its entry on this site, its kind (function, class,
... in the page's language) and a link to the official documentation of the
same object (``api_links.official_url``). The page is rewritten whenever any
page changes, so it never lists a stale set of objects.
"""

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from .api_links import official_url


class api_index_placeholder(nodes.General, nodes.Element):
    """Replaced by the list of objects when the page is resolved."""


def module_of(fullname: str) -> str:
    """The module part of a dotted name: the leading lower-case components.

    ``torch.nn.Module.train`` -> ``torch.nn``; ``torch.Tensor.view`` -> ``torch``;
    a bare builtin such as ``len`` -> ``builtins``.
    """
    parts = fullname.split(".")
    module = []
    for part in parts[:-1]:
        if part[:1].isupper():
            break
        module.append(part)
    return ".".join(module) or "builtins"


def group_objects(objects: dict) -> dict[str, list[tuple[str, object]]]:
    """{module: [(fullname, entry), ...]} sorted by module, then name (aliases skipped)."""
    groups: dict[str, list] = {}
    for name, entry in objects.items():
        if getattr(entry, "aliased", False) or entry.objtype == "module":
            continue
        groups.setdefault(module_of(name), []).append((name, entry))
    return {module: sorted(groups[module], key=lambda item: item[0].lower()) for module in sorted(groups)}


class ApiIndex(SphinxDirective):
    """``{api-index}``: the list of every documented Python object of the site."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        pages = self.env.api_index_pages if hasattr(self.env, "api_index_pages") else set()
        pages.add(self.env.docname)
        self.env.api_index_pages = pages
        return [api_index_placeholder()]


def fill(app: Sphinx, doctree: nodes.document, fromdocname: str) -> None:
    placeholders = list(doctree.findall(api_index_placeholder))
    if not placeholders:
        return
    domain = app.env.domains["py"]
    content = []
    for module, entries in group_objects(domain.objects).items():
        section = nodes.section(ids=[f"api-{module.replace('.', '-')}"], classes=["api-index-module"])
        section += nodes.title("", "", nodes.literal(module, module))
        rows = nodes.bullet_list(classes=["api-index"])
        for name, entry in entries:
            uri = app.builder.get_relative_uri(fromdocname, entry.docname) + "#" + entry.node_id
            item = nodes.paragraph()
            item += nodes.reference("", "", nodes.literal(name, name), internal=True, refuri=uri)
            kind = domain.object_types[entry.objtype].lname if entry.objtype in domain.object_types else entry.objtype
            item += nodes.inline("", f" {kind} ", classes=["api-index-kind"])
            url = official_url(name)
            if url:
                item += nodes.reference("", app.config.api_links_label, refuri=url, internal=False,
                                        classes=["api-index-official"])
            rows += nodes.list_item("", item)
        section += rows
        content.append(section)
    for placeholder in placeholders:
        placeholder.replace_self(content)


def always_outdated(app: Sphinx, env: BuildEnvironment, added: set, changed: set, removed: set) -> list[str]:
    if added or changed or removed:
        return sorted(getattr(env, "api_index_pages", set()))
    return []


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "api_index_pages", set()).discard(docname)


def merge(app: Sphinx, env: BuildEnvironment, docnames: set, other: BuildEnvironment) -> None:
    pages = getattr(env, "api_index_pages", set())
    pages.update(getattr(other, "api_index_pages", set()))
    env.api_index_pages = pages


def setup(app: Sphinx) -> dict:
    app.setup_extension("reader.api_links")
    app.add_node(api_index_placeholder)
    app.add_directive("api-index", ApiIndex)
    app.connect("doctree-resolved", fill)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
