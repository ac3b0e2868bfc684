"""Keep MyST's configuration dump out of the build log.

myst-parser logs its whole configuration (about 1,000 characters on one
line) at the start of every Sphinx run. A build log should show progress and
warnings; the configuration is in conf.py. This filter drops that one info
record and nothing else (warnings and errors of MyST still show).
"""

import logging

from sphinx.application import Sphinx

MYST_LOGGER = "sphinx.myst_parser.sphinx_ext.main"


class DropConfigurationDump(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.INFO and str(record.msg).find("myst v%s:") != -1)


def setup(app: Sphinx) -> dict:
    logging.getLogger(MYST_LOGGER).addFilter(DropConfigurationDump())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
