"""Sphinx's search index without what the search page never reads, so a query stays under 1 MB.

``_static/search-ranking.js`` replaces ``Search._performSearch``, the one
reader of the index's ``indexentries`` (the general index's entries, about
50 kB a site): the ranking finds API entries through ``objects``. And no query
reaches a term that is a number (``255``, ``0.0001``, ``1_000``: 1,268 terms,
about 21 kB of the Chinese index, where jieba keeps decimals whole): the
browser splits a query at every dot, and the ranking drops a query word made
of digits. Both are left out of ``searchindex.js``; what is left is the same
(``tests/search/test_search.py``). The environment keeps the entries, so an
incremental build loses nothing.

And the file is written as UTF-8 text, as the excerpts are: Sphinx's JSON
escapes every Chinese character as ``\\uXXXX``, six bytes instead of three
(55 kB of the Chinese index).
"""

import json
import re
from typing import Any

from sphinx.application import Sphinx
from sphinx.search import IndexBuilder, _JavaScriptIndex

NUMBER = re.compile(r"[\d._]*\d[\d._]*")
_FREEZE = IndexBuilder.freeze


def trimmed(frozen: dict) -> dict:
    """The frozen index without index entries and number terms."""
    frozen["indexentries"] = {}
    for key in ("terms", "titleterms"):
        frozen[key] = {word: docs for word, docs in frozen[key].items() if not NUMBER.fullmatch(word)}
    return frozen


def freeze(self: IndexBuilder) -> dict:
    return trimmed(_FREEZE(self))


def dumps(self: _JavaScriptIndex, data: Any) -> str:
    """Sphinx's searchindex.js, its text as UTF-8 (the builder writes and reads the file as UTF-8)."""
    return self.PREFIX + json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + self.SUFFIX


def setup(app: Sphinx) -> dict:
    _JavaScriptIndex.dumps = dumps
    IndexBuilder.freeze = freeze
    return {"parallel_read_safe": True, "parallel_write_safe": True}
