"""How often a learner's query finds the page that answers it: the search of the built site, in Chromium.

    python tools/web/search_eval.py [--engine sphinx|pagefind|both] [BUILDDIR]

For every language, the queries of ``tests/data/search-queries-<lang>.tsv``
(query, expected page, kind) are run against ``BUILDDIR/html/<lang>/`` (default
``_build/html``) served on 127.0.0.1, in headless Chromium, and a query counts
as found when its expected page is among the first three distinct pages of the
ranking. Prints one line per language and engine with the share of each kind
(name, typo, paraphrase, error: see the files' header), then every miss.

``sphinx`` is the site's own search (Sphinx's index and searchtools.js, as this
project extends them), asked through ``Search`` on the search page exactly as
the page asks it. ``pagefind`` indexes the same HTML with Pagefind's extended
build (``pagefind-bin-extended``, in requirements-bench.txt; Chinese
segmentation included) into a temporary copy and asks ``pagefind.search``.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.web.browser import Chromium, SiteServer  # noqa: E402
from tools.project import ROOT, SOURCE_LANGUAGE, translations  # noqa: E402

QUERIES = ROOT / "tests" / "data"
SHORT = {"zh_CN": "zh"}  # query files are named search-queries-zh.tsv, search-queries-en.tsv
PAGEFIND_TIMEOUT = 300  # seconds; Pagefind indexes one language's site in a few

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

    @property
    def share(self) -> float:
        return self.found / self.total if self.total else 0.0

    def kind_shares(self) -> str:
        return ", ".join(f"{kind} {found}/{asked} ({found / asked:.0%})"
                         for kind, (found, asked) in self.kinds.items())


def query_file(language: str) -> Path:
    return QUERIES / f"search-queries-{SHORT.get(language, language)}.tsv"


def queries(language: str) -> list[tuple[str, str, str]]:
    """(query, expected page, kind) of every line; a line without a kind is a ``name`` query."""
    path = query_file(language)
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
    return [browser.evaluate(f"{ranking}({json.dumps(q)})") for q in asked]


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


def evaluate(site: Path, language: str, engine: str) -> Score:
    asked = queries(language)
    if engine == "sphinx":
        ranked = rank_all(site, "search.html", SPHINX_RANKING, [q for q, _, _ in asked])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "site"
            shutil.copytree(site, copy)
            subprocess.run([sys.executable, "-m", "pagefind_bin_extended", "--site", str(copy), "--silent"],
                           check=True, timeout=PAGEFIND_TIMEOUT)
            ranked = rank_all(copy, "index.html", PAGEFIND_RANKING, [q for q, _, _ in asked])
    found, misses = found_share(asked, ranked)
    return Score(language, engine, found, len(asked), misses, kind_shares(asked, ranked))


def main(argv: list[str]) -> int:
    engine = "sphinx"
    if argv[:1] == ["--engine"]:
        engine, argv = argv[1], argv[2:]
    builddir = Path(argv[0]) if argv else ROOT / "_build"
    engines = ["sphinx", "pagefind"] if engine == "both" else [engine]
    scores = [evaluate(builddir / "html" / language, language, e)
              for language in [SOURCE_LANGUAGE] + translations() for e in engines]
    for score in scores:
        print(f"search {score.engine:8} {score.language:5} {score.found:3d}/{score.total} in the top three "
              f"({score.share:.0%}); {score.kind_shares()}")
    for score in scores:
        for query, want, got in score.misses:
            print(f"  miss {score.engine} {score.language}: {query!r} -> {got} (expected {want})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
