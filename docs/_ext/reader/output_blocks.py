"""Output blocks are not code: they get no copy button, and their long lines wrap.

A ``testoutput`` block shows what the code above it prints. Copying it would
paste output into the reader's interpreter, so its HTML container gets the
class ``no-copybutton`` and ``copybutton_selector`` in conf.py skips it.
(Output lines inside ``doctest`` blocks are dropped by the copy button's
prompt handling instead.)

A code box scrolls sideways rather than wrap, which keeps code and printed
tensors as they are; but a printed warning or error message is one line of
hundreds of characters (a warning on ``lr_scheduler/steplr`` made its box
3,055 px wide on a phone). An output line longer than ``LONG_OUTPUT``
characters, the print width of torch and NumPy (so never a row of a printed
tensor or array), is put in a ``<span class="long-output">``, which
``torch-notes.css`` wraps: the output lines of a ``doctest`` block (Pygments'
``go`` lines, and a traceback from its first line to the next prompt) and
every line of a ``testoutput`` block. Code lines are left as they are.
"""

import html
import re

from docutils import nodes
from sphinx.application import Sphinx

NO_COPY = "no-copybutton"
LONG_OUTPUT = 80  # torch.set_printoptions(linewidth=80), numpy's linewidth=75
BLOCK = re.compile(r'(<div class="([^"]*)"><div class="highlight"><pre[^>]*>)(.*?)(</pre>)', re.DOTALL)
OUTPUT_LINE = re.compile(r'<span class="go">')
TAG = re.compile(r"<[^>]+>")


def mark_output_blocks(app: Sphinx, doctree: nodes.document) -> None:
    for block in doctree.findall(nodes.literal_block):
        if block.get("testnodetype") == "testoutput" and NO_COPY not in block["classes"]:
            block["classes"].append(NO_COPY)


def wrap_long_lines(code: str, every_line: bool) -> str:
    """Each long output line of a block's highlighted HTML in a ``long-output`` span (Pygments closes its spans
    at the end of every line, so a line is whole HTML). In a ``doctest`` block a traceback is output from its
    first line to the next prompt, the lines of a message that goes on after the exception's name included."""
    lines = code.split("\n")
    traceback = False
    for i, line in enumerate(lines):
        traceback = (traceback or '<span class="gt">' in line) and not line.startswith('<span class="gp">')
        if (every_line or traceback or OUTPUT_LINE.match(line)) and len(html.unescape(TAG.sub("", line))) > LONG_OUTPUT:
            lines[i] = f'<span class="long-output">{line}</span>'
    return "\n".join(lines)


def with_long_lines_wrapped(body: str) -> str:
    def block(m: re.Match) -> str:
        return m[1] + wrap_long_lines(m[3], every_line=NO_COPY in m[2].split()) + m[4]
    return BLOCK.sub(block, body)


def wrap_long_output(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if context.get("body"):
        context["body"] = with_long_lines_wrapped(context["body"])


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", mark_output_blocks)
    app.connect("html-page-context", wrap_long_output)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
