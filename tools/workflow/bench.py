"""Measure the build and doctest times the project holds itself to, as medians of several runs.

    python tools/workflow/bench.py [RUNS]

Every figure goes through the Makefile into _build/bench, so what is measured
is what users run. Each run times, for the languages in turn (interleaved, so
that a busy machine slows both alike): a cold HTML build (empty output and
doctree folders), the rebuild after touching one page, and the doctest run
(reusing the doctrees). Then the floor (every doctest example once in one
plain Python process, import included: tools/examples/doctest_floor.py), a no-op
``make update-po`` followed by an English rebuild (it must read no page), and
the whole bilingual ``make html`` plus ``make doctest`` from nothing, and
the search figures of that site (``tools/web/search_eval.py``: the learner
queries of ``tests/data/`` found in the top three, this site's search and
Pagefind side by side) and Lighthouse on a few of its pages (``tools/web/lighthouse.py``:
scores, layout shift and bytes, medians of three). It also times ``import torch`` in a new process
and, once, a fresh venv from ``requirements.txt`` (what a new machine's
first ``make html`` pays before it builds anything), with its size on disk.

The last lines are the ratios, each from this one run, with the limit the
project holds itself to.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.web import lighthouse  # noqa: E402
from tools.web import search_eval  # noqa: E402
from tools.project import DOCS, ROOT, SOURCE_LANGUAGE, translations  # noqa: E402

BUILDDIR = ROOT / "_build" / "bench"
TOUCHED_PAGE = DOCS / "tensors" / "broadcasting.md"
COMMAND_TIMEOUT = 1800  # seconds; the longest command builds the whole site or a fresh venv; past this it is stuck
EXTRACT_TIMEOUT = 300  # seconds; reading the examples out of the doctrees takes a few


def progress(message: str) -> None:
    """One line per measured command on stderr, as it ends: the whole bench takes many minutes."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def described(cmd: list[str]) -> str:
    """The command without the options every bench command shares (BUILDDIR, SPHINXOPTS)."""
    shown = [Path(part).name if "/" in part else part for part in cmd if not part.startswith(("BUILDDIR=", "SPHINXOPTS="))]
    return " ".join(shown)


def run(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        sys.exit(f"{' '.join(cmd)} still running after {COMMAND_TIMEOUT} s; stopped")
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    progress(f"{described(cmd)}: {elapsed:.1f} s")
    return elapsed, result.stdout


def timed(cmd: list[str]) -> float:
    return run(cmd)[0]


def make(target: str, quiet: bool = True) -> list[str]:
    options = "-W --keep-going -n" + (" -q" if quiet else "")
    return ["make", "--no-print-directory", target, f"BUILDDIR={BUILDDIR}", f"SPHINXOPTS={options}"]


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def line(label: str, samples: list[float]) -> str:
    return f"  {label:34} {median(samples):6.2f} s  (runs: {', '.join(f'{s:.2f}' for s in samples)})"


def bench_languages(languages: list[str], runs: int) -> dict[tuple[str, str], list[float]]:
    results: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        for language in languages:
            shutil.rmtree(BUILDDIR / "html" / language, ignore_errors=True)
            shutil.rmtree(BUILDDIR / "doctrees" / language, ignore_errors=True)  # the tree and the plots
            results.setdefault((language, "cold html"), []).append(timed(make(f"html-lang-{language}")))
        for language in languages:
            os.utime(TOUCHED_PAGE)
            results.setdefault((language, "one-page rebuild"), []).append(timed(make(f"html-lang-{language}")))
        for language in languages:
            results.setdefault((language, "doctest"), []).append(timed(make(f"doctest-lang-{language}")))
    return results


def bench_floor(runs: int) -> list[float]:
    python = sys.executable
    data = BUILDDIR / "floor.json"
    subprocess.run([python, "tools/examples/doctest_floor.py", "extract", str(BUILDDIR / "doctrees" / SOURCE_LANGUAGE / "tree"),
                    str(data)], cwd=ROOT, check=True, timeout=EXTRACT_TIMEOUT)
    return [timed([python, "tools/examples/doctest_floor.py", "run", str(data)]) for _ in range(runs)]


def bench_no_op_update(language: str) -> tuple[float, float, int]:
    """(update-po seconds, rebuild seconds, pages the rebuild read) after an update with nothing to do."""
    update = timed(make("update-po"))
    seconds, output = run(make(f"html-lang-{language}", quiet=False))
    read = re.search(r"(\d+) added, (\d+) changed, (\d+) removed", output)
    pages = int(read.group(1)) + int(read.group(2)) if read else -1
    return update, seconds, pages


def bench_import_torch(runs: int) -> list[float]:
    return [timed([sys.executable, "-c", "import torch"]) for _ in range(runs)]


def bench_fresh_venv() -> tuple[float, float]:
    """(seconds, GB on disk) of a new venv from requirements.txt, as make venv creates it."""
    venv = BUILDDIR / "fresh-venv"
    shutil.rmtree(venv, ignore_errors=True)
    base = getattr(sys, "_base_executable", sys.executable)
    seconds = timed([base, "-m", "venv", str(venv)])
    seconds += timed([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                      "-r", str(ROOT / "requirements.txt")])
    size = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file() and not f.is_symlink()) / 1e9
    shutil.rmtree(venv)
    return seconds, size


def bench_full() -> float:
    shutil.rmtree(BUILDDIR, ignore_errors=True)
    return timed(make("html")) + timed(make("doctest"))


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    languages = [SOURCE_LANGUAGE] + translations()
    report = bench_languages(languages, runs)
    floor = bench_floor(runs)
    import_torch = bench_import_torch(max(runs, 5))
    update, rebuild, pages_read = bench_no_op_update(translations()[0])
    full = bench_full()
    venv_seconds, venv_gb = bench_fresh_venv()
    searches = []
    for language in languages:
        for engine in ("sphinx", "pagefind"):
            scores, _ = search_eval.evaluate(BUILDDIR, language, engine)
            searches.extend(scores)
            progress(f"search {engine} {language}: " + ", ".join(
                f"{score.query_set} {score.share:.0%}" for score in scores) + " in the top three")
    audits = lighthouse.measure(BUILDDIR / "html", languages, runs=3)
    pages = len(list(DOCS.rglob("*.md"))) - len(list((DOCS / "_ext").rglob("*.md")))
    print(f"torch-notes benchmark, medians of {runs} runs ({os.cpu_count()} CPUs, {pages} pages)")
    for (language, name), samples in report.items():
        print(line(f"{language} {name}", samples))
    print(line("floor (doctest examples)", floor))
    print(line("import torch (new process)", import_torch))
    print(f"  {'fresh venv from requirements.txt':34} {venv_seconds:6.2f} s  ({venv_gb:.1f} GB on disk, one run)")
    print(f"  {'no-op update-po, then rebuild':34} {update:6.2f} s + {rebuild:.2f} s, {pages_read} pages read")
    print(f"  {'make html + make doctest':34} {full:6.2f} s  ({pages} pages, both languages)")
    source, other = SOURCE_LANGUAGE, translations()[0]

    def m(language: str, name: str) -> float:
        return median(report[(language, name)])
    print("ratios (limit):")
    print(f"  {other}/{source} cold html build          {m(other, 'cold html') / m(source, 'cold html'):5.2f}x  (<= 1.30)")
    print(f"  {source}/{other} one-page rebuild         "
          f"{m(source, 'one-page rebuild') / m(other, 'one-page rebuild'):5.2f}x  (compared: each under 3 s idle)")
    for language in languages:
        print(f"  {language:5} doctest / floor              {m(language, 'doctest') / median(floor):5.2f}x  (<= 1.50)")
    print(f"  pages read after a no-op update-po   {pages_read:5d}   (= 0)")
    for score in searches:
        limit = "(>= 90%)" if score.engine == "sphinx" and score.query_set == "queries" else "(compared)"
        print(f"  {score.language:5} search, {score.engine:8} {score.query_set:7} top three  {score.share:5.0%}"
              f"  {limit}  {score.found}/{score.total}")
    print("\n".join(lighthouse.report(audits, runs=3)))


if __name__ == "__main__":
    main()
