r"""The excerpts under the search results, written with the index: ``_static/search-excerpts.js``.

Sphinx's search page made each excerpt by fetching the result's whole page
(a query for 张量 downloaded about 10 MB, 90 pages) and, opened from the file
system, showed none at all: ``fetch()`` of another ``file://`` page fails.
This extension writes, for every page, the start of the prose of each of its
sections (at most ``EXCERPT_WIDTH`` columns: a Chinese character counts two),
as ``window.TORCH_NOTES_EXCERPTS = {docname: [[anchor, text], ...]}``; the
search page loads it with a ``<script>`` beside the index, and
``_static/search-ranking.js`` shows, under each result, the text of the
section that matches the query best (and links to that section).

Prose only: code blocks, doctests, display maths, signatures, field names,
the official-documentation links and the parallel view's counterparts are
left out, as they were from the fetched excerpts. Inline maths is prose: it is
written as plain text (``tex_plain``: ``$\frac{\lambda}{2}\lVert\theta\rVert^2$`` is
``λ/2 ‖θ‖²``), where it used to leave a gap ("scaled to , resizing"). Collected at
``doctree-resolved`` (references resolved, in the page's language); the file
keeps the pages of earlier builds that this build did not write, and drops
pages that no longer exist.

Beside it, ``_static/search-messages.js`` holds the error and warning
messages each page's examples print (``RuntimeError: ...``, ``UserWarning ...``;
the first ``MESSAGE_WIDTH`` characters of each), as
``window.TORCH_NOTES_MESSAGES = {docname: [message, ...]}``: a message pasted
into the search box finds the page that prints it word for word, first
(``search-ranking.js``, ``phraseRuns``). A message the page also quotes in its
prose (its first ``QUOTED_WORDS`` words in a row, numbers matching numbers) is
written with ``QUOTED`` before it: of the pages that print a message, the one
that talks about it comes first.
"""

import json
import re
import unicodedata
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from .tex_plain import tex_plain

# columns: two lines of the results column, about a search engine's snippet. Sphinx's fetched excerpts
# were 240 characters; at 240 the Chinese file (3 bytes a character) took a query past one megabyte.
EXCERPT_WIDTH = 160
PREFIX = "window.TORCH_NOTES_EXCERPTS = "
TARGET = Path("_static") / "search-excerpts.js"
SKIPPED = (nodes.literal_block, nodes.doctest_block, nodes.math_block, nodes.raw, nodes.comment,
           nodes.field_name, nodes.title, nodes.system_message, nodes.substitution_definition, nodes.target,
           nodes.image, nodes.figure, addnodes.desc_signature, addnodes.toctree, addnodes.only)
SKIPPED_CLASSES = {"api-official-link", "parallel-counterpart", "verified-versions"}
STORE = "_torch_notes_excerpts"
# Messages: a line of an example's output that starts with an exception or warning class (RuntimeError: ...,
# UserWarning ...); the start of it is enough to recognize a pasted message.
MESSAGE = re.compile(r"^(?:[\w.]*(?:Error|Exception|Warning)|StopIteration)\b:?[ ]\S.*$", re.M)
MESSAGE_WIDTH = 80
MESSAGES_PREFIX = "window.TORCH_NOTES_MESSAGES = "
MESSAGES_TARGET = Path("_static") / "search-messages.js"
MESSAGES_STORE = "_torch_notes_messages"
QUOTED = "!"  # before a message the page quotes in its prose; a message starts with a word character
QUOTED_WORDS = 5  # the words of the message, after its class, that the prose must have in a row


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def clipped(text: str, limit: int = EXCERPT_WIDTH) -> str:
    """The first ``limit`` columns of ``text``, cut after a sentence or a word where one is near, then '…'."""
    if width(text) <= limit:
        return text
    used, end = 0, 0
    for end, c in enumerate(text):
        used += 2 if unicodedata.east_asian_width(c) in "WF" else 1
        if used > limit:
            break
    head = text[:end]
    for stops in ("。！？；", "，、：", " "):
        cut = max(head.rfind(s) for s in stops)
        if cut >= len(head) * 2 // 3:
            head = head[:cut + (0 if stops == " " else 1)]
            break
    return head.rstrip() + "…"


def skipped(node: nodes.Node) -> bool:
    return isinstance(node, SKIPPED) or (isinstance(node, nodes.Element)
                                         and bool(SKIPPED_CLASSES & set(node.get("classes", []))))


def prose(node: nodes.Node, out: list[str]) -> None:
    """The text of ``node`` without the skipped parts, nested sections excluded."""
    if isinstance(node, nodes.Text):
        out.append(node.astext())
        return
    if isinstance(node, nodes.math):
        out.append(tex_plain(node.astext()))
        return
    if skipped(node) or isinstance(node, nodes.section):
        return
    for child in node.children:
        prose(child, out)
    if isinstance(node, (nodes.paragraph, nodes.term, nodes.list_item, nodes.entry)):
        out.append(" ")


def short_anchor(docname: str, anchor: str) -> str:
    """``anchor`` without the page's own prefix (``tensors/pointwise``: ``tensors-pointwise-sqrt`` is
    ``-sqrt``): most labels start with it, and it was a tenth of the file. An id never starts with '-';
    search-ranking.js puts the prefix back."""
    prefix = docname.replace("/", "-") + "-"
    return anchor[len(prefix) - 1:] if anchor.startswith(prefix) else anchor


def page_excerpts(doctree: nodes.document, docname: str = "") -> list[list[str]]:
    """[[anchor, text], ...]: each section of the page ("" for the page itself), in order."""
    excerpts = []
    for index, section in enumerate(doctree.findall(nodes.section)):
        out: list[str] = []
        for child in section.children:
            prose(child, out)
        text = re.sub(r"\s+", " ", "".join(out)).strip()
        anchor = "" if index == 0 else short_anchor(docname, (section["ids"] or [""])[0])
        if text:
            excerpts.append([anchor, clipped(text)])
    return excerpts


def message_words(text: str) -> list[str]:
    """Lowercase words, a number as '#' (the sizes in a message differ from run to run), as search-ranking.js
    reads a pasted message."""
    return ["#" if word.isdigit() else word for word in re.findall(r"\w+", text.lower())]


def quoted(message: str, prose_words: str) -> bool:
    """Does the prose (message_words joined by spaces, with spaces around) have the message's first
    QUOTED_WORDS words after its class name, in a row?"""
    words = message_words(message.split(":", 1)[1] if re.match(r"[\w.]+:", message) else message)
    return bool(words) and f" {' '.join(words[:QUOTED_WORDS])} " in prose_words


def page_messages(doctree: nodes.document) -> list[str]:
    """The error and warning messages the page's examples print, each once, in order; QUOTED before those the
    page's prose quotes."""
    found: dict[str, None] = {}
    for block in doctree.findall(lambda n: isinstance(n, (nodes.literal_block, nodes.doctest_block))):
        for match in MESSAGE.finditer(block.astext()):
            found.setdefault(match.group(0).strip()[:MESSAGE_WIDTH].rstrip(), None)
    text: list[str] = []
    for section in doctree.findall(nodes.section):
        for child in section.children:
            prose(child, text)
    prose_words = f" {' '.join(message_words(' '.join(text)))} "
    return [QUOTED + message if quoted(message, prose_words) else message for message in found]


def writes_excerpts(app: Sphinx) -> bool:
    return app.builder.format == "html" and app.builder.name in ("html", "dirhtml")


def collect(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if writes_excerpts(app):
        getattr(app, STORE, None) or setattr(app, STORE, {})
        getattr(app, STORE)[docname] = page_excerpts(doctree, docname)
        getattr(app, MESSAGES_STORE, None) or setattr(app, MESSAGES_STORE, {})
        getattr(app, MESSAGES_STORE)[docname] = page_messages(doctree)


def read_written(path: Path, prefix: str = PREFIX) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
        return json.loads(text[len(prefix):].rstrip().rstrip(";")) if text.startswith(prefix) else {}
    except (OSError, ValueError):
        return {}


def write_store(app: Sphinx, target: Path, prefix: str, store: str) -> None:
    """``target``: this build's pages, and those of earlier builds that still exist."""
    data = {**read_written(target, prefix), **getattr(app, store, {})}
    data = {doc: data[doc] for doc in sorted(data) if doc in app.env.found_docs and data[doc]}
    text = prefix + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def write_excerpts(app: Sphinx, exception) -> None:
    if exception or not writes_excerpts(app):
        return
    write_store(app, Path(app.outdir) / TARGET, PREFIX, STORE)
    write_store(app, Path(app.outdir) / MESSAGES_TARGET, MESSAGES_PREFIX, MESSAGES_STORE)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", collect)
    app.connect("build-finished", write_excerpts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
