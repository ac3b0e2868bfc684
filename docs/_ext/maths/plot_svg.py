"""The plot directive's SVG figures, made valid for the books and the same on every build.

The lr_scheduler plots are SVG (``plot_formats`` in conf.py): sharp on any
screen, and small. Matplotlib's SVG has three things in it that this module
takes out of every figure the plot directive writes (in its folder beside the
doctrees), right after the page that draws it is read:

* the SVG 1.1 ``DOCTYPE``, whose external DTD EPUB 3 forbids (epubcheck
  OPF-073, HTM-003);
* ``<path>`` without ``d`` (the glyph of a space), which SVG requires
  (epubcheck RSC-005): it gets ``d=""``;
* the ``<dc:date>`` of the drawing, so an unchanged figure is byte for byte
  the same file on the next build (conf.py fixes ``svg.hashsalt`` for its ids).

Each figure's ``<img>`` also gets the figure's size as its ``width`` and
``height`` (CSS pixels, from the SVG's size in points): the browser keeps the
figure's room from the start instead of moving the page down when it has
loaded it (layout shift); the stylesheet's ``max-width: 100%`` and
``height: auto`` still scale it down on a narrow screen.
"""

import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx


DOCTYPE = re.compile(r"<!DOCTYPE svg[^>]*>\s*")
PATH_WITHOUT_D = re.compile(r"<path(?![^>]*\sd=)([^>]*?)(/?)>")
DATE = re.compile(r"\s*<dc:date>[^<]*</dc:date>")
SIZE = re.compile(r'<svg\b[^>]*?\swidth="([\d.]+)pt"[^>]*?\sheight="([\d.]+)pt"')
PX_PER_PT = 96 / 72


def clean_svg(svg: str) -> str:
    svg = DOCTYPE.sub("", svg, count=1)
    svg = PATH_WITHOUT_D.sub(r'<path d=""\1\2>', svg)
    return DATE.sub("", svg)


def clean_plot_figures(app: Sphinx, doctree: nodes.document) -> None:
    folder = (Path(app.doctreedir).parent / "plot_directive").resolve()
    for image in doctree.findall(nodes.image):
        path = (Path(app.srcdir) / image["uri"]).resolve()
        if path.suffix == ".svg" and path.is_relative_to(folder) and path.is_file():
            text = path.read_text(encoding="utf-8")
            if (cleaned := clean_svg(text)) != text:
                path.write_text(cleaned, encoding="utf-8")
            if (size := SIZE.search(cleaned)) and "width" not in image and "height" not in image:
                image["width"], image["height"] = (str(round(float(pt) * PX_PER_PT)) for pt in size.groups())


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", clean_plot_figures, priority=600)  # after Sphinx's image collector (500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
