"""Output blocks are not code: they get no copy button.

A ``testoutput`` block shows what the code above it prints. Copying it would
paste output into the reader's interpreter, so its HTML container gets the
class ``no-copybutton`` and ``copybutton_selector`` in conf.py skips it.
(Output lines inside ``doctest`` blocks are dropped by the copy button's
prompt handling instead.)
"""

from docutils import nodes
from sphinx.application import Sphinx

NO_COPY = "no-copybutton"


def mark_output_blocks(app: Sphinx, doctree: nodes.document) -> None:
    for block in doctree.findall(nodes.literal_block):
        if block.get("testnodetype") == "testoutput" and NO_COPY not in block["classes"]:
            block["classes"].append(NO_COPY)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", mark_output_blocks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
