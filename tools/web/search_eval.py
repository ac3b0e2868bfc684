"""How often a learner's query finds the page that answers it: the search of the built site, in Chromium.

    python tools/web/search_eval.py [--engine ENGINE[,ENGINE...]|both|all] [BUILDDIR]

For every language, the queries of ``tests/data/search-queries-<lang>.tsv`` and
of the held-out ``tests/data/search-heldout-<lang>.tsv`` (query, expected page,
kind) are run against ``BUILDDIR/html/<lang>/`` (default ``_build/html``)
served on 127.0.0.1, in headless Chromium, and a query counts as found when its
expected page is among the first three distinct pages of the ranking. Prints
one line per language, engine and query set with the share of each kind (name,
typo, paraphrase, error: see the files' header), what the engine's index costs
a query, whether the engine answers from ``file://``, then every miss.

``sphinx`` is the site's own search (Sphinx's index and searchtools.js, as this
project extends them), asked through ``Search`` on the search page exactly as
the page asks it. ``pagefind`` indexes the same HTML with Pagefind's extended
build (``pagefind-bin-extended``, in requirements-bench.txt; Chinese
segmentation included) into a temporary copy and asks ``pagefind.search``.
``minisearch`` (BM25+ with MiniSearch's prefix and fuzzy search), ``minisearch+``
(the same with the project's synonyms and glossary forms as a query tree) and
``lunr`` index the same pages in the browser (``tools/web/search_documents.py``:
one document a page, fields title, API names, headings, body; Chinese split by
the site's jieba) with ``tools/search-engines/engines.js``, at the versions
``tools/search-engines/package-lock.json`` pins (``make search-eval``
installs them). ``both`` is sphinx and pagefind; ``all`` every engine.
"""

import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.project import ROOT, SOURCE_LANGUAGE, translations  # noqa: E402
from tools.web.browser import Chromium, SiteServer  # noqa: E402
from tools.web.search_documents import documents, splitter_for  # noqa: E402

QUERIES = ROOT / "tests" / "data"
SHORT = {"zh_CN": "zh"}  # query files are named search-queries-zh.tsv, search-queries-en.tsv
PAGEFIND_TIMEOUT = 300  # seconds; Pagefind indexes one language's site in a few
ENGINES = ("sphinx", "pagefind", "minisearch", "minisearch+", "lunr")
SETS = ("queries", "heldout")  # tests/data/search-<set>-<lang>.tsv; heldout: never used to tune the search
ENGINE_DIR = ROOT / "tools" / "search-engines"
LIBRARIES = {"minisearch": ENGINE_DIR / "node_modules" / "minisearch" / "dist" / "umd" / "index.js",
             "lunr": ENGINE_DIR / "node_modules" / "lunr" / "lunr.js"}
ZH_SPLITTER = ROOT / "docs" / "_ext" / "search" / "zh_query_split.js"
# The files of the site's own search that a query downloads besides the page, the theme and the excerpts
# (_static/search-excerpts.js, which any engine would need to show an excerpt without fetching the page).
SPHINX_FILES = ("searchindex.js", "_static/search-ranking.js", "_static/search-synonyms.js",
                "_static/search-messages.js")
BUDGET_QUERY = {"zh_CN": "张量", "en": "tensor"}  # a word on nearly every page (test_browser's budget test)

SPHINX_RANKING = """(async (q) => {
  await new Promise((ok) => { const wait = () => Search.hasIndex() ? ok() : setTimeout(wait, 20); wait(); });
  const results = Search._performSearch(...Search._parseQuery(q));
  const pages = [];
  for (const r of results.reverse()) if (!pages.includes(r[0])) pages.push(r[0]);
  return pages.slice(0, 3);
})"""

PAGEFIND_RANKING = """(async (q) => {
  window.pf = window.pf || await import("./pagefind/pagefind.js");
  const found = await window.pf.search(q);
  const pages = [];
  for (const r of found.results.slice(0, 10)) {
    const url = (await r.data()).url.replace(/^\\//, "").replace(/\\.html(#.*)?$/, "").replace(/(^|\\/)$/, "$1index");
    if (!pages.includes(url)) pages.push(url);
  }
  return pages.slice(0, 3);
})"""


KINDS = ("name", "typo", "paraphrase", "error")  # the kinds of query of issue 28, in the files' third column


@dataclass
class Score:
    language: str
    engine: str
    found: int
    total: int
    misses: list[tuple[str, str, list[str]]]
    kinds: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind: (found, asked)
    query_set: str = "queries"

    @property
    def share(self) -> float:
        return self.found / self.total if self.total else 0.0

    def kind_shares(self) -> str:
        return ", ".join(f"{kind} {found}/{asked} ({found / asked:.0%})"
                         for kind, (found, asked) in self.kinds.items())


def query_file(language: str, query_set: str = "queries") -> Path:
    return QUERIES / f"search-{query_set}-{SHORT.get(language, language)}.tsv"


def queries(language: str, query_set: str = "queries") -> list[tuple[str, str, str]]:
    """(query, expected page, kind) of every line; a line without a kind is a ``name`` query."""
    path = query_file(language, query_set)
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    asked = [(row[0], row[1], row[2] if len(row) > 2 else "name") for row in rows]
    unknown = {kind for _, _, kind in asked} - set(KINDS)
    if unknown:
        raise ValueError(f"{path.name}: unknown kind {sorted(unknown)}; the kinds are {KINDS}")
    return asked


def ranked_pages(browser: Chromium, url: str, asked: list[str], ranking: str = SPHINX_RANKING) -> list[list[str]]:
    """The first three distinct pages for each query, asked on the page at ``url`` in ``browser``."""
    browser.open(url)
    return ranked_here(browser, asked, ranking)


# Queries asked in one call to the browser: a call per query cost half as much again (537 names of the site's
# search, 4.9 against 3.3 processor seconds); a call must end within the browser's timeout, and 537 took 3 s.
RANKED_PER_CALL = 100


def ranked_here(browser: Chromium, asked: list[str], ranking: str = SPHINX_RANKING) -> list[list[str]]:
    """The first three distinct pages for each query, asked one after the other on the page open in ``browser``."""
    ranked = []
    for start in range(0, len(asked), RANKED_PER_CALL):
        ranked += browser.evaluate(f"(async (asked) => {{ const ranked = [];"
                                   f" for (const q of asked) ranked.push(await {ranking}(q)); return ranked; }})"
                                   f"({json.dumps(asked[start:start + RANKED_PER_CALL])})")
    return ranked


def found_share(asked: list[tuple[str, str, str]], ranked: list[list[str]]) -> tuple[int, list]:
    misses = [(q, want, got) for (q, want, _), got in zip(asked, ranked) if want not in got]
    return len(asked) - len(misses), misses


def kind_shares(asked: list[tuple[str, str, str]], ranked: list[list[str]]) -> dict[str, tuple[int, int]]:
    """{kind: (found in the top three, asked)}, in the order of KINDS."""
    shares = {}
    for kind in KINDS:
        mine = [(row, got) for row, got in zip(asked, ranked) if row[2] == kind]
        if mine:
            shares[kind] = (sum(want in got for (_, want, _), got in mine), len(mine))
    return shares


def rank_all(site: Path, page: str, ranking: str, asked: list[str]) -> list[list[str]]:
    with SiteServer(site) as server:
        browser = Chromium()
        try:
            return ranked_pages(browser, server.url + page, asked, ranking)
        finally:
            browser.close()


@dataclass
class Cost:
    """What the engine's own files cost a query (bytes as served here, and gzipped), whether it answers a
    query from file://, and (the site's search) the whole query as test_browser measures it."""
    raw: int
    gzipped: int
    from_file: bool
    whole_query: int | None = None


def gzipped(data: bytes) -> int:
    return len(gzip.compress(data, 9))


def found_from_file(page: Path, expression: str) -> bool:
    """Does ``expression`` (a promise of a list) give a non-empty list on ``page`` opened from file://?"""
    browser = Chromium()
    try:
        browser.open(page.as_uri())
        try:
            return bool(browser.evaluate(expression))
        except Exception:  # noqa: BLE001 - an engine that cannot load from file:// throws in the page
            return False
    finally:
        browser.close()


def sphinx_engine(site: Path, language: str, asked: list[str], builddir: Path) -> tuple[list, Cost]:
    ranked = rank_all(site, "search.html", SPHINX_RANKING, asked)
    data = [(site / name).read_bytes() for name in SPHINX_FILES]
    query = BUDGET_QUERY.get(language, "tensor")
    with SiteServer(site) as server:
        browser = Chromium()
        try:
            loaded = browser.transferred(lambda: browser.open(f"{server.url}search.html?q={quote(query)}"))
        finally:
            browser.close()
    probe = f"{SPHINX_RANKING}({json.dumps(query)})"
    return ranked, Cost(sum(map(len, data)), sum(map(gzipped, data)),
                        found_from_file(site / "search.html", probe), sum(loaded.values()))


PAGEFIND_BYTES = """performance.getEntriesByType("resource").filter((e) => e.name.includes("/pagefind/"))
  .reduce((sum, e) => sum + e.encodedBodySize, 0)"""


def pagefind_engine(site: Path, language: str, asked: list[str], builddir: Path) -> tuple[list, Cost]:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "site"
        shutil.copytree(site, copy)
        subprocess.run([sys.executable, "-m", "pagefind_bin_extended", "--site", str(copy), "--silent"],
                       check=True, timeout=PAGEFIND_TIMEOUT)
        ranked = rank_all(copy, "index.html", PAGEFIND_RANKING, asked)
        probe = f"{PAGEFIND_RANKING}({json.dumps(BUDGET_QUERY.get(language, 'tensor'))})"
        with SiteServer(copy) as server:
            browser = Chromium()
            try:
                browser.open(server.url + "index.html")
                browser.evaluate(probe)
                served = browser.evaluate(PAGEFIND_BYTES)  # its chunks are gzipped files already
            finally:
                browser.close()
        return ranked, Cost(served, served, found_from_file(copy / "index.html", probe))


FILE_PAGE = """<!DOCTYPE html><meta charset="utf-8"><script src="library.js"></script>
<script src="index.js"></script><script>
window.found = () => {
  const tokenize = (text) => text.split(/[^\\p{Letter}\\p{Number}_]+/u).filter((w) => w);
  if (window.MiniSearch) return MiniSearch.loadJS(window.INDEX, { fields: %s, tokenize,
    processTerm: (t) => t.toLowerCase() }).search(%s).map((r) => r.id);
  lunr.Pipeline.registerFunction((token) => token, "torchNotesNormal");  // the label the index names
  return lunr.Index.load(window.INDEX).query((q) => q.term(%s, { usePipeline: false })).map((r) => r.ref);
};
</script>"""


def js_engine(engine: str, site: Path, language: str, asked: list[str], builddir: Path) -> tuple[list, Cost]:
    library = LIBRARIES[engine.rstrip("+")]
    if not library.is_file():
        raise SystemExit(f"{library} is missing: make search-eval installs it (npm ci in {ENGINE_DIR})")
    docs = documents(site, splitter_for(site, builddir / "doctrees" / language / "tree"))
    zh_source = ZH_SPLITTER.read_text(encoding="utf-8") if splitter_for(site, None) else None
    with SiteServer(site) as server:
        browser = Chromium()
        try:
            browser.open(server.url + "search.html")
            browser.wait_for("Search.hasIndex()", "the site's index")
            browser.evaluate(library.read_text(encoding="utf-8") + "\n;0")
            browser.evaluate((ENGINE_DIR / "engines.js").read_text(encoding="utf-8") + "\n;0")
            browser.evaluate(f"TorchNotesEngines.build({json.dumps(engine)}, {json.dumps(docs, ensure_ascii=False)},"
                             f" {json.dumps(zh_source)})")
            ranked = [browser.evaluate(f"TorchNotesEngines.pages({json.dumps(q)}).slice(0, 3)") for q in asked]
            index = browser.evaluate("TorchNotesEngines.serialized()").encode("utf-8")
            word = browser.evaluate("TorchNotesEngines.normal('broadcasting')")
        finally:
            browser.close()
    code = library.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "library.js").write_bytes(code)
        (folder / "index.js").write_bytes(b"window.INDEX = " + index + b";")
        fields = json.dumps(["title", "api", "headings", "body"])
        (folder / "page.html").write_text(FILE_PAGE % (fields, json.dumps(word), json.dumps(word)), encoding="utf-8")
        from_file = found_from_file(folder / "page.html", "window.found()")
    return ranked, Cost(len(index) + len(code), gzipped(index) + gzipped(code), from_file)


def run_engine(engine: str, site: Path, language: str, asked: list[str], builddir: Path) -> tuple[list, Cost]:
    if engine == "sphinx":
        return sphinx_engine(site, language, asked, builddir)
    if engine == "pagefind":
        return pagefind_engine(site, language, asked, builddir)
    return js_engine(engine, site, language, asked, builddir)


def evaluate(builddir: Path, language: str, engine: str) -> tuple[list[Score], Cost]:
    """The engine's score on each query set of the language, and what it costs."""
    sets = {name: queries(language, name) for name in SETS if query_file(language, name).exists()}
    everything = [q for asked in sets.values() for q, _, _ in asked]
    ranked, cost = run_engine(engine, builddir / "html" / language, language, everything, builddir)
    scores = []
    for name, asked in sets.items():
        mine, ranked = ranked[:len(asked)], ranked[len(asked):]
        found, misses = found_share(asked, mine)
        scores.append(Score(language, engine, found, len(asked), misses, kind_shares(asked, mine), name))
    return scores, cost


def engines_asked(option: str) -> list[str]:
    if option == "both":
        return ["sphinx", "pagefind"]
    if option == "all":
        return list(ENGINES)
    asked = option.split(",")
    unknown = [e for e in asked if e not in ENGINES]
    if unknown:
        raise SystemExit(f"unknown engine {unknown}; the engines are {ENGINES}, both, all")
    return asked


def main(argv: list[str]) -> int:
    engine = "sphinx"
    if argv[:1] == ["--engine"]:
        engine, argv = argv[1], argv[2:]
    builddir = Path(argv[0]).resolve() if argv else ROOT / "_build"
    results = [(language, e, *evaluate(builddir, language, e))
               for language in [SOURCE_LANGUAGE] + translations() for e in engines_asked(engine)]
    for language, name, scores, cost in results:
        for score in scores:
            print(f"search {name:11} {language:5} {score.query_set:7} {score.found:3d}/{score.total} in the top "
                  f"three ({score.share:.0%}); {score.kind_shares()}")
        whole = f"; the whole query {cost.whole_query / 1e6:.2f} MB" if cost.whole_query else ""
        print(f"cost   {name:11} {language:5} its files {cost.raw / 1e3:.0f} kB, gzipped {cost.gzipped / 1e3:.0f} kB"
              f"{whole}; from file:// {'yes' if cost.from_file else 'no'}")
    for language, name, scores, _ in results:
        for score in scores:
            for query, want, got in score.misses:
                print(f"  miss {name} {language} {score.query_set}: {query!r} -> {got} (expected {want})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
