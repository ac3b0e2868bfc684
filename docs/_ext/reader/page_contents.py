"""The "On this page" column: each API entry once; long API names broken where they read well, there and in the page.

* **Once.** Sphinx lists every object description in the page's contents
  (``toc_object_entries``) under the section that holds it. An API entry here
  sits in a section titled with the API's own name (``## `torch.optim.Adam` ``),
  so the column listed ``torch.optim.Adam`` twice, the second nested in the
  first. An object whose section is titled with its name gets
  ``no-contents-entry`` (what its directive's ``:no-contents-entry:`` option
  sets) before Sphinx collects the contents: the section's entry stays, and
  objects in sections with other titles are still listed.
* **Line breaks.** The column is narrow (15em), and a dotted name has no break
  opportunity, so furo's ``overflow-wrap: anywhere`` broke
  ``torch.optim.lr_scheduler.ReduceLROnPlateau`` in the middle of a word. The
  column's entries get ``<wbr>`` after each dot and underscore inside a name,
  where a line may then break; furo's rule still applies, as a last resort, to
  a single part too long for a whole line (none is, today).
* **In the page.** On a phone (360 px) the headings and signatures broke the
  same names mid-word (``torch.optim.lr_sched`` / ``uler.StepLR``,
  ``StepLR(op`` / ``timizer``): the names in the page's headings and
  signatures (path, name, parameters, defaults, return type) get the same
  ``<wbr>``, and the module path one after its last dot (before the name). Not in the books: their
  XHTML has no ``<wbr>``, and a reading system sets its own lines.
"""

import re

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

# A dot or underscore between two characters of a name ("optim.Adam", "clip_grad"), not "..." or a trailing "_".
NAME_BREAK = re.compile(r"(?<=\w)([._])(?=\w)")
TEXT = re.compile(r">([^<>]+)<")
# A name with a dot or an underscore inside ("torch.optim.Adam", "clip_grad_norm_", "memory_format"); not a
# number ("2.14", "1e-08").
NAME = re.compile(r"[A-Za-z_]\w*(?:\.\w+)+|[A-Za-z_]\w*_\w*")
HEADING = re.compile(r"(<h[1-6][^>]*>)(.*?)(</h[1-6]>)", re.DOTALL)
SIGNATURE = re.compile(r'(<dt class="sig[ "][^>]*>)(.*?)(</dt>)', re.DOTALL)
# A signature's module path ("torch.optim."), which a line may also leave before the name it ends with.
MODULE_PATH = re.compile(r'(<span class="sig-prename [^"]*"><span class="pre">[^<]*\.)(</span>)')


def names_of(signature: addnodes.desc_signature) -> set[str]:
    """The ways a section title can name this object: as listed, as written, with its module."""
    names = {signature.get("_toc_name", ""), signature.get("fullname", "")}
    if signature.get("module") and signature.get("fullname"):
        names.add(f"{signature['module']}.{signature['fullname']}")
    return names - {""}


def list_each_object_once(app: Sphinx, doctree: nodes.document) -> None:
    for desc in doctree.findall(addnodes.desc):
        section = desc.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        if section is None or not isinstance(section[0], nodes.title):
            continue
        title = section[0].astext().strip()
        if any(title in names_of(sig) for sig in desc.children if isinstance(sig, addnodes.desc_signature)):
            desc["no-contents-entry"] = True


def with_name_breaks(html: str) -> str:
    """``<wbr>`` after every dot and underscore inside a name, in the text of ``html`` (never in a tag)."""
    return TEXT.sub(lambda m: ">" + NAME_BREAK.sub(r"\1<wbr>", m[1]) + "<", html)


def with_breaks_in_names(html: str) -> str:
    """``<wbr>`` after the dots and underscores inside the names in the text of ``html`` (never in a tag)."""
    def names(text: str) -> str:
        return NAME.sub(lambda m: NAME_BREAK.sub(r"\1<wbr>", m[0]), text)
    return TEXT.sub(lambda t: ">" + names(t[1]) + "<", ">" + html + "<")[1:-1]


def with_heading_breaks(html: str) -> str:
    """``<wbr>`` inside the names in the text of every heading of ``html``."""
    return HEADING.sub(lambda m: m[1] + with_breaks_in_names(m[2]) + m[3], html)


def with_signature_breaks(html: str) -> str:
    """``<wbr>`` inside the names of every signature (its path and name, parameters, defaults, return type), and
    after the module path's last dot."""
    return SIGNATURE.sub(lambda m: m[1] + with_breaks_in_names(MODULE_PATH.sub(r"\1<wbr>\2", m[2])) + m[3], html)


def break_names_in_contents(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if context.get("toc"):
        context["toc"] = with_name_breaks(context["toc"])
    if context.get("body") and app.builder.name != "epub":
        context["body"] = with_signature_breaks(with_heading_breaks(context["body"]))


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", list_each_object_once, priority=400)  # before Sphinx's contents (500)
    app.connect("html-page-context", break_names_in_contents)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
