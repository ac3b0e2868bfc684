"""Make Sphinx's i18n transform cheap for MyST pages: reuse one Markdown parser.

Sphinx translates a page by parsing every translated message on its own
(``sphinx.transforms.i18n``: one parse per paragraph, heading, list item,
about 5,000 on the English site). For a MyST page each of those parses paid
twice for set-up that does not depend on the message:

* ``myst_parser.parsers.sphinx_.MystParser.parse`` builds a new markdown-it
  parser with all its plugins (``create_md_parser``) for every call;
* the renderer's ``setup_render`` evaluates ``options.get("document",
  make_document())``, and ``make_document()`` builds fresh docutils default
  settings (hundreds of optparse options) although a document is always
  passed and the new one is thrown away.

Profiled, those two were 17 of the English build's 48 s. This module keeps
the last parser per MyST configuration object and builds the default
settings once; the document each parse writes into is still the one Sphinx
passes.

A third of the translations are plain sentences and half of the rest add
nothing but code spans (```x```). For those, ``_publish_msgstr`` builds the
paragraph (or the section title) MyST would build, without running
markdown-it at all; anything else still goes through MyST. The output is
unchanged: ``tests/i18n/test_fast_i18n.py`` parses every translated message
with and without this module and compares what Sphinx's transform keeps of
each. ``fast_i18n = False`` in the configuration (``-D fast_i18n=0``) turns
it all off.
"""

import copy
import functools
import re

import myst_parser.mdit_to_docutils.base as myst_base
import myst_parser.parsers.sphinx_ as myst_sphinx
import sphinx.transforms.i18n as sphinx_i18n
from docutils import nodes
from docutils.frontend import get_default_settings
from sphinx.application import Sphinx
from sphinx.config import Config

_create_md_parser = myst_sphinx.create_md_parser
_make_document = myst_base.make_document
_publish_msgstr = sphinx_i18n._publish_msgstr

# Text that CommonMark and the enabled MyST extensions read literally: no emphasis, link, role,
# math, HTML, entity or escape character, no line break (no block structure), and no character
# that could start a block at the beginning (list, heading, quote, field, fence, table).
PLAIN = r"[^`*_\[\]{}$<>&\\|~!#\n]"
CODE = r"`[^`\n\s](?:[^`\n]*[^`\n\s])?`"  # one backtick, no padding: MyST keeps the content as is
SIMPLE = re.compile(rf"(?![-+*>:#=\d]|\s)(?:{PLAIN}|{CODE})+(?<!\s)")
PIECES = re.compile(rf"({CODE})")
TITLE_SUFFIX = re.compile(r"\n=+$")  # Sphinx appends a setext underline to a title's translation


@functools.cache
def _default_settings(parser_cls):
    return get_default_settings(parser_cls)


def make_document_with_cached_settings(source_path="notset", parser_cls=myst_base.RSTParser):
    from docutils.utils import new_document

    return new_document(source_path, settings=copy.copy(_default_settings(parser_cls)))


class ParserCache:
    """The markdown-it parser of the last configuration object seen (one per build in practice)."""

    def __init__(self) -> None:
        self.config = None
        self.parser = None

    def __call__(self, config, renderer):
        if config is not self.config or self.parser is None or self.parser.renderer.__class__ is not renderer:
            self.config, self.parser = config, _create_md_parser(config, renderer)
        return self.parser


def simple_nodes(text: str, source: str) -> list[nodes.Node]:
    children = []
    for piece in PIECES.split(text):
        if not piece:
            continue
        if piece.startswith("`"):
            literal = nodes.literal(piece[1:-1], piece[1:-1])
            literal.source, literal.line = source, 0
            children.append(literal)
        else:
            children.append(nodes.Text(piece))
    return children


def publish_simple_msgstr(source: str, source_path: str, source_line: int, **kwargs) -> nodes.Element:
    """The node MyST makes of a plain or code-only message, made directly; else MyST's own parse."""
    text = TITLE_SUFFIX.sub("", source)
    is_title = text != source
    if not SIMPLE.fullmatch(text) or not source_path.endswith(".md"):
        return _publish_msgstr(source, source_path, source_line, **kwargs)
    where = f"{source_path}:{source_line}:<translated>"
    element = nodes.title(text, "", *simple_nodes(text, where)) if is_title else \
        nodes.paragraph(text, "", *simple_nodes(text, where))
    element.source, element.line = where, 0 if is_title else 0
    if is_title:
        section = nodes.section()
        section += element
        return section
    return element


def install(app: Sphinx, config: Config) -> None:
    if config.fast_i18n:
        myst_sphinx.create_md_parser = ParserCache()
        myst_base.make_document = make_document_with_cached_settings
        sphinx_i18n._publish_msgstr = publish_simple_msgstr
    else:
        myst_sphinx.create_md_parser = _create_md_parser
        myst_base.make_document = _make_document
        sphinx_i18n._publish_msgstr = _publish_msgstr


def setup(app: Sphinx) -> dict:
    app.add_config_value("fast_i18n", True, "", types=(bool, int))
    app.connect("config-inited", install)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
