"""Measure the build and doctest times that matter, as medians of several runs.

    python tools/bench.py [RUNS]

Per language: a cold HTML build (empty output and doctree folders), the
rebuild after touching one page, and the doctest run (reusing the doctrees).
Then the floor: every doctest example run once in one plain Python process,
import included (tools/doctest_floor.py). Everything goes through the
Makefile into _build/bench, so what is measured is what users run.
"""

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from project import DOCS, ROOT, SOURCE_LANGUAGE, translations  # noqa: E402

BUILDDIR = ROOT / "_build" / "bench"
TOUCHED_PAGE = DOCS / "tensors" / "broadcasting.md"


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return elapsed


def make(target: str) -> list[str]:
    return ["make", "--no-print-directory", target, f"BUILDDIR={BUILDDIR}", "SPHINXOPTS=-W --keep-going -n -q"]


def median(samples: list[float]) -> str:
    return f"{statistics.median(samples):6.2f} s  (runs: {', '.join(f'{s:.2f}' for s in samples)})"


def bench_language(language: str, runs: int) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {"cold html": [], "one-page rebuild": [], "doctest": []}
    for _ in range(runs):
        shutil.rmtree(BUILDDIR / "html" / language, ignore_errors=True)
        shutil.rmtree(BUILDDIR / "doctrees" / language, ignore_errors=True)
        results["cold html"].append(timed(make(f"html-lang-{language}")))
        os.utime(TOUCHED_PAGE)
        results["one-page rebuild"].append(timed(make(f"html-lang-{language}")))
        results["doctest"].append(timed(make(f"doctest-lang-{language}")))
    return results


def bench_floor(runs: int) -> list[float]:
    python = sys.executable
    data = BUILDDIR / "floor.json"
    subprocess.run([python, "tools/doctest_floor.py", "extract", str(BUILDDIR / "doctrees" / SOURCE_LANGUAGE),
                    str(data)], cwd=ROOT, check=True)
    return [timed([python, "tools/doctest_floor.py", "run", str(data)]) for _ in range(runs)]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    report = {}
    for language in [SOURCE_LANGUAGE] + translations():
        report[language] = bench_language(language, runs)
    floor = bench_floor(runs)
    print(f"torch-notes benchmark, medians of {runs} runs ({os.cpu_count()} CPUs)")
    for language, results in report.items():
        for name, samples in results.items():
            print(f"  {language:6} {name:17} {median(samples)}")
    print(f"  {'floor':6} {'doctest examples':17} {median(floor)}")
    for language, results in report.items():
        ratio = statistics.median(results["doctest"]) / statistics.median(floor)
        print(f"  {language:6} doctest / floor   {ratio:6.2f}x")


if __name__ == "__main__":
    main()
