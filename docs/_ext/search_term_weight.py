"""How much a page is about a word, in Sphinx's index at almost no cost.

Sphinx's index says which pages hold a word, not how often: a page that
mentions ``running_mean`` once tied with the BatchNorm page that is about it.
While Sphinx feeds a page to the index, this counts how often each indexed
word occurs in it; in ``searchindex.js`` a page that uses a word at least
``FREQUENT`` times is written in that word's page list as ``~n`` (``-1 - n``)
instead of ``n``, and those pages come first, the one that uses the word most
first (the list's order cost nothing: Sphinx sorts it by page number). One or
two bytes for such a pair; nothing else changes shape.
``_static/search-ranking.js`` reads it back (``~`` again) and weights those
pages' body match higher (``WEIGHT.frequent``), the first most. Sphinx feeds the index
while it writes pages, after it has saved the environment, so the words are
kept beside the doctrees (``search-frequent-words.json``): an incremental
build keeps those of the pages it does not write; and the previous index it
reads back has its marks taken off (``~n`` is page ``n``, not the ``n``-th
page from the end). Title terms are unchanged.
"""

import json
from collections import Counter
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.search import IndexBuilder, _JavaScriptIndex

FREQUENT = 5
SAVED = "search-frequent-words.json"
WORDS: dict[str, dict[str, int]] = {}  # {docname: {word used at least FREQUENT times: count}}
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
    counts: Counter = Counter()
    for word in captured[0].words:  # as IndexBuilder.feed turns a word into an index term
        stemmed = stem(word).lower()
        if not keep(stemmed) and keep(word):
            stemmed = word
        if keep(stemmed):
            counts[stemmed] += 1
    WORDS[docname] = {word: count for word, count in sorted(counts.items()) if count >= FREQUENT}


def marked(frozen: dict, frequent: dict[str, dict[str, int]]) -> dict:
    """The frozen index with each page that uses a body term often written as ~n in that term's list, those
    pages first, most uses first."""
    docnames = frozen["docnames"]
    terms = {}
    for word, docs in frozen["terms"].items():
        single = isinstance(docs, int)
        uses = {doc: frequent.get(docnames[doc], {}).get(word, 0) for doc in ([docs] if single else docs)}
        order = sorted(uses, key=lambda doc: (-uses[doc], doc))
        marks = [~doc if uses[doc] else doc for doc in order]
        terms[word] = marks[0] if single else marks
    frozen["terms"] = terms
    return frozen


def freeze(self: IndexBuilder) -> dict:
    return marked(_FREEZE(self), WORDS)


def unmarked(docs):
    return (~docs if docs < 0 else docs) if isinstance(docs, int) else [~doc if doc < 0 else doc for doc in docs]


def loads(self: _JavaScriptIndex, text: str):
    """The previous searchindex.js, as Sphinx wrote it (IndexBuilder.load reads it on an incremental build)."""
    data = _LOADS(self, text)
    if isinstance(data, dict) and isinstance(data.get("terms"), dict):
        data["terms"] = {word: unmarked(docs) for word, docs in data["terms"].items()}
    return data


def load(app: Sphinx) -> None:
    WORDS.clear()
    try:
        WORDS.update(json.loads((Path(app.doctreedir) / SAVED).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass


def save(app: Sphinx, exception) -> None:
    if exception is None and app.builder.name in ("html", "dirhtml"):
        (Path(app.doctreedir) / SAVED).write_text(json.dumps(WORDS, ensure_ascii=False), encoding="utf-8")


def setup(app: Sphinx) -> dict:
    IndexBuilder.feed = feed
    IndexBuilder.freeze = freeze
    _JavaScriptIndex.loads = loads
    app.connect("builder-inited", load)
    app.connect("build-finished", save)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
