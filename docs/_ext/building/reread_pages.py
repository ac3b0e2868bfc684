"""Read the pages named in ``TORCH_NOTES_REREAD`` again, whether or not they changed.

``make check`` (tools/workflow/check.py) builds the pages a contributor touched with warnings as errors.
An incremental build reads only the pages whose source or catalog changed since the last build,
so a page whose warning failed an earlier build would pass unseen; naming it here makes Sphinx
read it again (its warnings come back). An environment variable, not a configuration value: a
changed configuration value would make Sphinx read every page.
"""

import os

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

VARIABLE = "TORCH_NOTES_REREAD"


def named_pages(app: Sphinx, env: BuildEnvironment, added: set, changed: set, removed: set) -> list[str]:
    wanted = os.environ.get(VARIABLE, "").split()
    return [docname for docname in wanted if docname in env.found_docs]


def setup(app: Sphinx) -> dict:
    app.connect("env-get-outdated", named_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
