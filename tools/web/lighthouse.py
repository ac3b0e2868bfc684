"""Lighthouse on a few pages of the built site, both languages: the reader's view of speed and access.

    python tools/web/lighthouse.py [BUILDDIR] [RUNS]

Lighthouse (pinned in ``tools/lighthouse/package-lock.json``; ``make bench``
installs it with ``npm ci``) audits, for every language, the home page, an
API page with maths (``optim/adam``) and the search page with a query, served
from ``BUILDDIR/html`` (default ``_build/html``) on 127.0.0.1, in Debian's
headless chromium, with Lighthouse's default mobile emulation and simulated
throttling. Text is served gzip-compressed, as web hosts serve it (Python's
own server sends everything as it is on disk, which no host does: the
search page's 0.85 MB would then be what a reader downloads; the browser
tests check that uncompressed figure against its own limit). It is noisy, so every page is audited ``RUNS`` times (default 3)
and each figure is the median. Reported per page: the performance,
accessibility and SEO scores, the cumulative layout shift and the bytes
transferred (for the search page: the page, the index and everything a query
loads). The JSON reports are kept in ``BUILDDIR/lighthouse/``.

Lighthouse 12 is the last line that runs on Debian 12's Node 20 (13 needs
Node 22.19); it drives the machine's own chromium (``CHROME_PATH``). Its
``@paulirish/trace_engine`` asks for two packages at ``latest``, which
``npm ci`` compares with the registry's newest release, so
``tools/lighthouse/package.json`` pins them (``overrides``) at the versions
the lock file holds.
"""

import gzip
import json
import os
import statistics
import subprocess
import sys
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.web.browser import CHROMIUM, QuietHandler, SiteServer  # noqa: E402
from tools.project import ROOT, SOURCE_LANGUAGE, translations  # noqa: E402

LIGHTHOUSE = ROOT / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
QUERY = {"zh_CN": "学习率", "en": "learning rate"}
# (label, page, content page: SEO counts); the search page is not meant to be found by search engines.
PAGES = [("home", "index.html", True), ("API page with maths", "optim/adam.html", True),
         ("search with a query", "search.html?q={query}", False)]
LIMITS = "performance >= 90, accessibility = 100, SEO >= 90 on content pages, CLS < 0.1"


COMPRESSED = {".html", ".js", ".css", ".svg", ".json", ".txt", ".xml", ".map"}


class CompressingHandler(QuietHandler):
    """Python's file server, sending text gzip-compressed to a browser that accepts it, as web hosts do."""

    cache: dict[tuple[str, float], bytes] = {}

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if (path.suffix not in COMPRESSED or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().do_GET()
        key = (str(path), path.stat().st_mtime)
        if key not in self.cache:
            self.cache[key] = gzip.compress(path.read_bytes(), compresslevel=6)
        body = self.cache[key]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)


@dataclass
class Audit:
    language: str
    label: str
    url: str
    content: bool
    performance: float
    accessibility: float
    seo: float
    cls: float
    bytes: float

    def failures(self) -> list[str]:
        found = []
        if self.performance < 90:
            found.append("performance")
        if self.accessibility < 100:
            found.append("accessibility")
        if self.content and self.seo < 90:
            found.append("SEO")
        if self.cls >= 0.1:
            found.append("CLS")
        return found


def lighthouse(url: str, report: Path) -> dict:
    """One Lighthouse run of ``url``: the figures of its JSON report (also written to ``report``)."""
    if not LIGHTHOUSE.is_file():
        raise SystemExit(f"{LIGHTHOUSE} missing: run make bench (it installs tools/lighthouse with npm ci)")
    report.parent.mkdir(parents=True, exist_ok=True)
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
               "--only-categories=performance,accessibility,seo",
               "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
               "--disable-background-networking --disable-component-update --disable-sync"]
    result = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, CHROME_PATH=CHROMIUM),
                            timeout=300)
    if result.returncode != 0 or not report.is_file():
        raise SystemExit(f"lighthouse {url} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    data = json.loads(report.read_text(encoding="utf-8"))
    if data.get("runtimeError"):
        raise SystemExit(f"lighthouse {url}: {data['runtimeError']}")
    score = {name: round(100 * (category["score"] or 0)) for name, category in data["categories"].items()}
    return {"performance": score["performance"], "accessibility": score["accessibility"], "seo": score["seo"],
            "cls": data["audits"]["cumulative-layout-shift"]["numericValue"],
            "bytes": data["audits"]["total-byte-weight"]["numericValue"]}


def measure(html: Path, languages: list[str], runs: int = 3, reports: Path | None = None) -> list[Audit]:
    """Median figures of ``runs`` audits of every page of ``PAGES`` in every language (sites under ``html``)."""
    reports = reports or html.parent / "lighthouse"
    audits = []
    with SiteServer(html, handler=CompressingHandler) as server:
        for language in languages:
            for label, page, content in PAGES:
                url = server.url + language + "/" + page.format(query=urllib.parse.quote(QUERY[language]))
                name = page.split("?")[0].replace("/", "-").removesuffix(".html")
                samples = [lighthouse(url, reports / f"{language}-{name}-{run}.json") for run in range(runs)]
                median = {key: statistics.median(s[key] for s in samples) for key in samples[0]}
                audits.append(Audit(language, label, url.removeprefix(server.url), content, **median))
                print(f"lighthouse: {language} {label}: {runs} runs done", file=sys.stderr, flush=True)
    return audits


def report(audits: list[Audit], runs: int) -> list[str]:
    lines = [f"lighthouse 12, mobile, text served gzip-compressed, medians of {runs} runs (limits: {LIMITS}):"]
    for a in audits:
        verdict = "ok" if not a.failures() else "below the limit: " + ", ".join(a.failures())
        seo = f"{a.seo:3.0f}" + ("" if a.content else " (no limit)")
        transferred = f"{a.bytes / 1e6:5.2f} MB" + ("" if a.content else " per query, index included")
        lines.append(f"  {a.language:5} {a.label:20} performance {a.performance:3.0f}  accessibility "
                     f"{a.accessibility:3.0f}  SEO {seo}  CLS {a.cls:.3f}  {transferred}  {verdict}")
    return lines


def main(argv: list[str]) -> int:
    builddir = Path(argv[0]) if argv else ROOT / "_build"
    runs = int(argv[1]) if len(argv) > 1 else 3
    audits = measure(builddir / "html", [SOURCE_LANGUAGE] + translations(), runs)
    print("\n".join(report(audits, runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
