"""Keep Sphinx's false "The configuration has changed" out of the build log.

Sphinx compares the configuration of conf.py with the one it pickled with the environment before
the builder and the theme are set up. Five values are set after that point, on every build, by the
components themselves, so the pickled ones always differ from conf.py's:

* ``html_css_files``: Sphinx's HTML builder gives each entry its priority (800), in place;
* ``epub_css_files``: the same, by the EPUB builder (seen after ``make html``, which builds the books last,
  when ``make doctest`` reads the doctrees they share);
* ``html_static_path``: sphinx-copybutton adds its own static folder;
* ``mathjax4_config``: myst-parser fills it in for its maths (this site draws maths with KaTeX);
* ``pygments_dark_style``: furo declares it while the theme loads, after the comparison.

None of them changes how pages are read, so Sphinx re-reads nothing for them, but it says "The
configuration has changed (4 options: ...)" on every incremental build, which hides the real
message the day an option does change. This filter drops the message when every option it names
is one of these; a message that names any other option stays. (The project's own such value,
``html_search_options``, is set at config-inited instead: ``glossary_terms``.)
"""

import logging
import re

from sphinx.application import Sphinx

SET_AFTER_THE_COMPARISON = {"html_css_files", "epub_css_files", "html_static_path", "mathjax4_config",
                            "pygments_dark_style"}
ENVIRONMENT_LOGGER = "sphinx.sphinx.environment"


class DropFalseConfigurationChange(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or "configuration has changed" not in str(record.msg):
            return True
        names = set(re.findall(r"'([A-Za-z0-9_]+)'", record.getMessage()))
        return not names or not names <= SET_AFTER_THE_COMPARISON


def setup(app: Sphinx) -> dict:
    logging.getLogger(ENVIRONMENT_LOGGER).addFilter(DropFalseConfigurationChange())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
