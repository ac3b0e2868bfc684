"""Make the theme's hard-coded UI strings translatable.

Furo writes a few labels straight into its templates (the theme toggle's and
the sidebar toggles' ``aria-label``) instead of through ``_()``, so no
catalog can translate them. This Jinja preprocessor wraps those exact strings
in ``_()`` when the templates are loaded, and translates the label furo's
Python code gives each expandable navigation entry ("Toggle navigation of
..."). The translations live with the
theme's other strings in ``docs/_locale/<lang>/LC_MESSAGES/sphinx.po``
(Sphinx's ``sphinx`` message domain, found through ``locale_dirs``).
"""

import re

from jinja2.ext import Extension
from sphinx.application import Sphinx
from sphinx.locale import _

NAVIGATION_LABEL = re.compile(r'aria-label="Toggle navigation of ([^"]*)"')

HARD_CODED = [
    "Toggle Light / Dark / Auto color theme",
    "Toggle site navigation sidebar",
    "Toggle table of contents sidebar",
]


def wrap_hard_coded(source: str) -> str:
    for text in HARD_CODED:
        source = source.replace(f'aria-label="{text}"', f'aria-label="{{{{ _("{text}") }}}}"')
    return source


class TranslateHardCoded(Extension):
    def preprocess(self, source, name, filename=None):
        return wrap_hard_coded(source)


def translate_navigation_labels(tree: str) -> str:
    return NAVIGATION_LABEL.sub(
        lambda m: 'aria-label="{}"'.format(_("Toggle navigation of %(title)s") % {"title": m.group(1)}), tree)


def translate_navigation(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if "furo_navigation_tree" in context:
        context["furo_navigation_tree"] = translate_navigation_labels(context["furo_navigation_tree"])


def install(app: Sphinx) -> None:
    templates = getattr(app.builder, "templates", None)
    environment = getattr(templates, "environment", None)
    if environment is not None:
        environment.add_extension(TranslateHardCoded)


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", install)
    app.connect("html-page-context", translate_navigation, priority=900)  # after furo's own handler
    return {"parallel_read_safe": True, "parallel_write_safe": True}
