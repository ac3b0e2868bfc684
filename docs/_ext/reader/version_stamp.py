"""Say on every page which versions its examples were verified against.

The versions come from the build environment, the same one the doctest
builder runs the examples in: ``importlib.metadata`` for torch (importing
torch would cost seconds per build) and ``platform`` for Python. The sentence
is ``version_stamp_format`` (per language, see ``language_overrides``) with
``{torch}`` and ``{python}`` filled in; templates show ``verified_versions``.

Prose can name the same versions with the ``verified-version`` role:
``{verified-version}`torch``` and ``{verified-version}`python``` become the
version strings, so no page types a version it was not built with. When the
versions change, every page is read again (its stamp and roles are stale).
"""

import platform
from importlib import metadata

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def environment_versions() -> dict[str, str]:
    return {"torch": metadata.version("torch"), "python": platform.python_version()}


def add_to_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["verified_versions"] = app.config.version_stamp_format.format(**environment_versions())


def version_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{verified-version}`torch``` -> the torch version of the build environment (or ``python``)."""
    versions = environment_versions()
    if text in versions:
        return [nodes.Text(versions[text])], []
    message = inliner.reporter.error(f"verified-version: unknown name {text!r}; use one of {sorted(versions)}",
                                     line=lineno)
    return [inliner.problematic(rawtext, rawtext, message)], [message]


def reread_on_new_versions(app: Sphinx, env: BuildEnvironment, added: set, changed: set, removed: set) -> list[str]:
    current = environment_versions()
    stale = getattr(env, "version_stamp_versions", current) != current
    env.version_stamp_versions = current
    return sorted(env.found_docs) if stale else []


def setup(app: Sphinx) -> dict:
    app.add_config_value("version_stamp_format",
                         "Examples verified with torch {torch} and Python {python}.", "html", types=frozenset({str}))
    app.connect("html-page-context", add_to_context)
    app.add_role("verified-version", version_role)
    app.connect("env-get-outdated", reread_on_new_versions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
