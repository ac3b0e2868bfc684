"""Say on every page which versions its examples were verified against.

The versions come from the build environment, the same one the doctest
builder runs the examples in: ``importlib.metadata`` for torch (importing
torch would cost seconds per build) and ``platform`` for Python. The sentence
is ``version_stamp_format`` (per language, see ``language_overrides``) with
``{torch}`` and ``{python}`` filled in; templates show ``verified_versions``.
"""

import platform
from importlib import metadata

from sphinx.application import Sphinx


def environment_versions() -> dict[str, str]:
    return {"torch": metadata.version("torch"), "python": platform.python_version()}


def add_to_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["verified_versions"] = app.config.version_stamp_format.format(**environment_versions())


def setup(app: Sphinx) -> dict:
    app.add_config_value("version_stamp_format",
                         "Examples verified with torch {torch} and Python {python}.", "html", types=frozenset({str}))
    app.connect("html-page-context", add_to_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
