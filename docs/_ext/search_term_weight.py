"""How often a page uses a word and how long the page is, in Sphinx's index at a byte a pair: what a BM25 score
needs.

Sphinx's index says which pages hold a word, not how often: a page that
mentions ``running_mean`` once tied with the BatchNorm page that is about it.
While Sphinx feeds a page to the index, this counts how often each indexed
body word occurs in it and how many indexed words the page has. In
``searchindex.js`` each entry of a word's page list is written as
``n + D * b``, where ``n`` is the page, ``D`` the number of pages and ``b``
the page's use count in powers of two (``bucket``: 1 use is 0, 2-3 is 1, 4-7
is 2, 8-15 is 3, 16 or more is 4), so a page that uses the word once is
written ``n`` as before and the others take three digits (while the site has
at most 200 pages); and ``doclengths`` lists the indexed words of each page:
about 10 kB more than the ``~n`` marks of pages using a word 5 times or more
that it replaces, on either site. Sphinx's Chinese split gives each Latin word
twice (jieba's words, then the Latin words again), so there a Latin word's use
counts half.
``_static/search-ranking.js`` reads it back (``postings``) and scores a body
word by BM25's term frequency saturation and page length normalization
(``bm25``). Sphinx feeds the index while it writes pages, after it has saved
the environment, so the counts are kept beside the doctrees
(``search-term-counts.json``): an incremental build keeps those of the pages
it does not write; and the previous index it reads back has its entries
turned back into page numbers (``loads``). Title terms are unchanged.
"""

import json
import math
import re
from collections import Counter
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.search import IndexBuilder, _JavaScriptIndex

HAN = re.compile(r"[\u3400-\u9fff]")
BUCKETS = 5  # 1, 2-3, 4-7, 8-15, 16 or more uses; search-ranking.js's BUCKET_USES has one count for each
SAVED = "search-term-counts.json"
COUNTS: dict[str, dict[str, int]] = {}  # {docname: {word used more than once: uses}}
LENGTHS: dict[str, int] = {}  # {docname: indexed words of the page}
_FEED = IndexBuilder.feed
_FREEZE = IndexBuilder.freeze
_LOADS = _JavaScriptIndex.loads


def feed(self: IndexBuilder, docname, filename, title, doctree) -> None:
    collector = self._word_collector
    captured = []

    def capture(tree):
        store = collector(tree)
        captured.append(store)
        return store

    self._word_collector = capture
    try:
        _FEED(self, docname, filename, title, doctree)
    finally:
        del self._word_collector
    if not captured:
        return
    stem, keep = self.lang.stem, self.lang.word_filter
    # The Chinese split gives each Latin word twice (jieba's words, then the Latin words again): half each.
    latin_use = 0.5 if self.lang.lang == "zh" else 1
    counts: Counter = Counter()
    for word in captured[0].words:  # as IndexBuilder.feed turns a word into an index term
        stemmed = stem(word).lower()
        if not keep(stemmed) and keep(word):
            stemmed = word
        if keep(stemmed):
            counts[stemmed] += 1 if HAN.search(word) else latin_use
    counts = Counter({word: math.ceil(count) for word, count in counts.items()})
    COUNTS[docname] = {word: count for word, count in sorted(counts.items()) if count > 1}
    LENGTHS[docname] = sum(counts.values())


def bucket(uses: int) -> int:
    """0 for one use, then one more for each doubling: 2-3 uses 1, 4-7 2, ..., at most BUCKETS - 1."""
    return min(BUCKETS - 1, max(1, uses).bit_length() - 1)


def marked(frozen: dict, counts: dict[str, dict[str, int]], lengths: dict[str, int]) -> dict:
    """The frozen index with each body term's page n written n + D * bucket(uses), and the pages' lengths."""
    docnames = frozen["docnames"]
    pages = len(docnames)
    terms = {}
    for word, docs in frozen["terms"].items():
        single = isinstance(docs, int)
        entries = [doc + pages * bucket(counts.get(docnames[doc], {}).get(word, 1))
                   for doc in ([docs] if single else docs)]
        terms[word] = entries[0] if single else entries
    frozen["terms"] = terms
    frozen["doclengths"] = [lengths.get(docname, 0) for docname in docnames]
    return frozen


def freeze(self: IndexBuilder) -> dict:
    return marked(_FREEZE(self), COUNTS, LENGTHS)


def unmarked(docs, pages: int):
    """Page numbers again; ~n is page n in an index written before the buckets (it marked frequent words)."""
    page = lambda doc: doc % pages if doc >= 0 else ~doc  # noqa: E731
    return page(docs) if isinstance(docs, int) else [page(doc) for doc in docs]


def loads(self: _JavaScriptIndex, text: str):
    """The previous searchindex.js, as Sphinx wrote it (IndexBuilder.load reads it on an incremental build)."""
    data = _LOADS(self, text)
    if isinstance(data, dict) and isinstance(data.get("terms"), dict) and data.get("docnames"):
        pages = len(data["docnames"])
        data["terms"] = {word: unmarked(docs, pages) for word, docs in data["terms"].items()}
        data.pop("doclengths", None)
    return data


def load(app: Sphinx) -> None:
    COUNTS.clear()
    LENGTHS.clear()
    try:
        saved = json.loads((Path(app.doctreedir) / SAVED).read_text(encoding="utf-8"))
        COUNTS.update(saved["counts"])
        LENGTHS.update(saved["lengths"])
    except (OSError, ValueError, KeyError, TypeError):
        pass


def save(app: Sphinx, exception) -> None:
    if exception is None and app.builder.name in ("html", "dirhtml"):
        (Path(app.doctreedir) / SAVED).write_text(json.dumps({"counts": COUNTS, "lengths": LENGTHS},
                                                             ensure_ascii=False), encoding="utf-8")


def setup(app: Sphinx) -> dict:
    IndexBuilder.feed = feed
    IndexBuilder.freeze = freeze
    _JavaScriptIndex.loads = loads
    app.connect("builder-inited", load)
    app.connect("build-finished", save)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
