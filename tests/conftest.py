"""Shared fixtures: one fresh build of the whole site per test session.

The site is built through the Makefile (the single place that knows how to
build it) into ``_build/test`` with a fresh environment, so warnings from
every page are seen on every run. Both languages build in parallel.
"""

import fcntl
import json
import os
import resource
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools.*
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from bounded_run import run_bounded  # noqa: E402
from tools.web.browser import Chromium, SiteServer  # noqa: E402
from tools.project import SOURCE_LANGUAGE, published, site_languages, translations  # noqa: E402

# Tests read what Sphinx and pytest print; CI=true (set by CI services) or FORCE_COLOR makes
# Sphinx color its messages, and the escape codes break every pattern that reads them. NO_COLOR
# wins over both, for this process and everything it starts.
os.environ["NO_COLOR"] = "1"

BUILDDIR = ROOT / "_build" / "test"
# A whole-site build takes minutes on 2 cores; past this it is stuck (a doctest that waits forever,
# say) and is killed with everything it started, so the session fails instead of hanging.
BUILD_TIMEOUT = 1800
LANGUAGES = [SOURCE_LANGUAGE] + translations()  # every language is built and tested
# Checks of translated content (complete catalogs, no Chinese left) hold for the published translations;
# for a draft (site_languages "draft": True) they report at the end of the run instead (pytest_terminal_summary).
PUBLISHED_TRANSLATIONS = [lang for lang in translations() if lang in published(site_languages())]
DRAFTS = [lang for lang in translations() if lang not in PUBLISHED_TRANSLATIONS]
DRAFT_REPORTS: dict[tuple[str, str], dict[str, None]] = {}  # (language, what): its problems, in order, once
# What a test found to report at the end of the run travels with its report (item.user_properties): with
# pytest-xdist the tests run in worker processes and the summary is written by the controlling one.
RUNNING: list[pytest.Item] = []  # the test running in this process


def check_translated_content(language: str, problems: list[str], what: str) -> None:
    """Fail on ``problems`` for a published language; for a draft, note how many there are."""
    if language in DRAFTS:
        if problems and RUNNING:
            RUNNING[0].user_properties.append(("draft", [language, what, problems]))
        return
    assert not problems, f"{language}: {what}:\n" + "\n".join(problems[:50])


# Processor time of each test and of what it started (builds, browsers, snippets): on a shared or
# loaded machine the wall times of --durations wobble, processor seconds much less.
CPU_SECONDS: dict[str, float] = {}


def processor_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    RUNNING[:] = [item]
    item.stash[CPU_AT_START] = processor_seconds()
    yield
    RUNNING.clear()


CPU_AT_START = pytest.StashKey[float]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    if call.when == "teardown":  # setup, call and teardown are over: the test's whole processor time
        item.user_properties.append(("cpu_seconds", processor_seconds() - item.stash.get(CPU_AT_START, 0.0)))
    yield


def pytest_runtest_logreport(report):
    """In the process that writes the summary (the only one without xdist, the controller with it)."""
    for name, value in report.user_properties:
        if name == "cpu_seconds" and report.when == "teardown":
            CPU_SECONDS[report.nodeid] = value
        elif name == "draft" and report.when == "call":
            language, what, problems = value
            DRAFT_REPORTS.setdefault((language, what), {}).update(dict.fromkeys(problems))  # tests may repeat one


# Fixtures that wait for the site's builds. With several xdist workers (make test), a worker that starts on a
# test needing them waits while another builds: the suite runs first one file that needs the builds (it
# starts them at once), then every file that does not (the other workers run those meanwhile), then the rest.
NEEDS_BUILDS = {"site_builds", "html_builds", "doctest_runs", "gettext_templates"}


def pytest_collection_modifyitems(session, config, items):
    needs = {item.path: False for item in items}
    for item in items:
        needs[item.path] = needs[item.path] or bool(NEEDS_BUILDS & set(item.fixturenames))
    # Files by name, not by folder (the names are unique): the first that needs the builds is the axe pass,
    # test_accessibility.py, the longest file, which one worker runs while the other takes the rest.
    paths = sorted(needs, key=lambda path: path.name)
    building = [path for path in paths if needs[path]]
    first = building[:1]
    order = {path: (0 if path in first else 1 if not needs[path] else 2, n) for n, path in enumerate(paths)}
    items.sort(key=lambda item: order[item.path])


def pytest_terminal_summary(terminalreporter):
    if CPU_SECONDS:
        terminalreporter.section("processor time (this process and its children, setup included)")
        for nodeid, seconds in sorted(CPU_SECONDS.items(), key=lambda item: -item[1])[:12]:
            terminalreporter.write_line(f"{seconds:8.1f} s  {nodeid}")
        terminalreporter.write_line(f"{sum(CPU_SECONDS.values()):8.1f} s  in all")
    if DRAFT_REPORTS:
        terminalreporter.section("draft languages: what is left before publishing")
        for (language, what), problems in DRAFT_REPORTS.items():
            terminalreporter.write_line(f"{language} (draft): {len(problems)} {what}, e.g. " + "; ".join(list(problems)[:3]))


@dataclass
class Run:
    """One finished command: what it was, its exit code and its output."""

    command: str
    returncode: int
    output: str

    def warnings(self) -> list[str]:
        return [line for line in self.output.splitlines() if "WARNING" in line or "ERROR" in line]


def run_build(command: list[str]) -> Run:
    """One build, bounded by BUILD_TIMEOUT, its output read while it runs (a full pipe would stall it)."""
    result = run_bounded(command, cwd=ROOT, timeout=BUILD_TIMEOUT, stderr=subprocess.STDOUT)
    notes = []
    if result.timed_out:
        notes.append(f"{command[0]}: still running after {result.seconds:.0f} s, killed with its process group")
    if result.left_behind:
        notes.append(f"{command[0]}: left processes running after it exited: {result.left_behind}")
    return Run(" ".join(command), result.returncode, "\n".join([result.stdout, *notes]))


def run_parallel(commands: dict[str, list[str]]) -> dict[str, Run]:
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        futures = {key: pool.submit(run_build, command) for key, command in commands.items()}
        return {key: future.result() for key, future in futures.items()}


def make(target: str, *extra: str) -> list[str]:
    return ["make", "--no-print-directory", target, f"BUILDDIR={BUILDDIR}", *extra]


# pytest-xdist runs the suite in several processes (make test: -n 2). The builds below are made once per
# run, by whichever process asks first, while the others wait for it (a lock file) and read what it
# recorded: two processes building the same folder would overwrite each other's environment.
RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")


def shared_runs(name: str, build) -> dict[str, Run]:
    """``build()`` once per test run across the xdist workers; its Runs recorded in BUILDDIR/.<name>.json."""
    if not RUN_ID:  # one process: the session fixture caches it
        return build()
    BUILDDIR.mkdir(parents=True, exist_ok=True)
    record = BUILDDIR / f".{name}.json"
    with open(BUILDDIR / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the holder's builds are bounded by BUILD_TIMEOUT
        if record.is_file():
            data = json.loads(record.read_text(encoding="utf-8"))
            if data["run"] == RUN_ID:
                return {key: Run(**run) for key, run in data["runs"].items()}
        runs = build()
        record.write_text(json.dumps({"run": RUN_ID, "runs": {k: asdict(v) for k, v in runs.items()}}),
                          encoding="utf-8")
        return runs


def build_site() -> dict[str, Run]:
    """Fresh HTML builds of every language (-E: every page read again), side by side; then the books (every
    page written, -a: Sphinx would keep pages an older extension wrote) and make html, which puts each
    book into its site. All of it before any test reads the sites: a later build would rewrite files under
    a browser test of the other worker."""
    runs = run_parallel({lang: make(f"html-lang-{lang}", "O=-E") for lang in LANGUAGES})
    if all(run.returncode == 0 for run in runs.values()):
        runs["epub"] = run_build(make("epub", "O=-a"))
        if runs["epub"].returncode == 0:
            runs["html"] = run_build(make("html"))
    return runs


@pytest.fixture(scope="session")
def site_builds() -> dict[str, Run]:
    """Every build of the site: one per language, then 'epub' (the books) and 'html' (books into sites)."""
    return shared_runs("site", build_site)


@pytest.fixture(scope="session")
def html_builds(site_builds) -> dict[str, Run]:
    """Fresh HTML builds, one per language (-E: read every page again)."""
    return {lang: site_builds[lang] for lang in LANGUAGES}


@pytest.fixture(scope="session")
def doctest_runs(html_builds) -> dict[str, Run]:
    """Doctest builds, reusing the doctrees of the HTML builds."""
    return shared_runs("doctest", lambda: run_parallel({lang: make(f"doctest-lang-{lang}") for lang in LANGUAGES}))


@pytest.fixture(scope="session")
def gettext_templates() -> Path:
    result = shared_runs("gettext", lambda: {"gettext": run_build(make("gettext"))})["gettext"]
    assert result.returncode == 0, result.output
    return BUILDDIR / "gettext"


def html_dir(language: str) -> Path:
    return BUILDDIR / "html" / language


# The browser tests (test_browser.py, test_parallel_view.py): one local server and one headless
# chromium per module, over the fresh builds of html_builds.
@pytest.fixture(scope="module")
def site(html_builds):
    with SiteServer(BUILDDIR / "html") as server:
        yield server.url


@pytest.fixture(scope="module")
def browser(site):
    chromium = Chromium()
    yield chromium
    chromium.close()
