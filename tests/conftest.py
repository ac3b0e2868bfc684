"""Shared fixtures: one fresh build of the whole site per test session.

The site is built through the Makefile (the single place that knows how to
build it) into ``_build/test`` with a fresh environment, so warnings from
every page are seen on every run. Both languages build in parallel.
"""

import fcntl
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools.*
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from bounded_run import run_bounded  # noqa: E402
from tools.web.browser import Chromium, SiteServer, browser_seconds  # noqa: E402
from tools.project import SOURCE_LANGUAGE, published, site_languages, translations  # noqa: E402

# Tests read what Sphinx and pytest print; CI=true (set by CI services) or FORCE_COLOR makes
# Sphinx color its messages, and the escape codes break every pattern that reads them. NO_COLOR
# wins over both, for this process and everything it starts.
os.environ["NO_COLOR"] = "1"
# One intra-op thread per torch process (unless the caller chose): make test runs two workers on two
# cores, so a second thread has no core of its own, and torch's OpenMP threads spin while they wait:
# the doctest builds of both languages side by side took 22 s of processor time each with the
# default, 13 s with one thread, the same examples passing. Set before any test module imports torch.
os.environ.setdefault("OMP_NUM_THREADS", "1")

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


def rusage_seconds() -> float:
    """This process's processor time and its waited-for children's."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def processor_seconds() -> float:
    """rusage_seconds, and the browsers' (whose renderers are not this process's children)."""
    return rusage_seconds() + browser_seconds()


def machine_busy_seconds() -> float:
    """Processor seconds the whole machine has been busy since it started (/proc/stat: user, nice, system and
    interrupts; not idle, iowait or time the hypervisor took)."""
    fields = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:7]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


MACHINE_AT_START: list[tuple[float, float]] = []  # (busy seconds, wall clock) when the session started


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


# Fixtures that wait for the site's builds. make test runs the suite in two xdist workers (Makefile): a test file
# goes whole to one worker, so its module fixtures are made once, except the files of ONE_BY_ONE, whose tests
# both workers share: the long parts of the axe pass, and the reader's tests in the browser (a hundred short
# tests that leave the browser as they found it: whole, one worker ran them at the end while the other idled
# for 82 s). Each worker then opens its own browser for them. The order: first one long file that needs
# the builds (its worker starts them at once), then the files that need none (the other worker runs them
# meanwhile), then the rest; in each, the files marked `long` first, so that no long one is left for the end
# while the other worker idles.
NEEDS_BUILDS = {"site_builds", "html_builds", "doctest_runs", "gettext_templates"}
ONE_BY_ONE = {"test_accessibility.py", "test_browser.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "long: runs for a minute or more; scheduled before the short tests")
    MACHINE_AT_START[:] = [(machine_busy_seconds(), time.monotonic())]


def scope_of(nodeid: str) -> str:
    """What goes whole to one worker: the test's file, or the test itself in a file of ONE_BY_ONE."""
    path = nodeid.split("::", 1)[0]
    return nodeid if Path(path).name in ONE_BY_ONE else path


def pytest_xdist_make_scheduler(config, log):
    """xdist's loadfile scheduling, with scope_of's scopes. (Its loadgroup would do, but under pytest 9 the
    worker's renaming of a test to name its group, item._nodeid, no longer reaches the test's nodeid.)"""
    from xdist.scheduler import LoadScopeScheduling

    class FileOrTestScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return FileOrTestScheduling(config, log)


def pytest_collection_modifyitems(session, config, items):
    scopes: dict[str, list] = {}
    for item in items:
        scopes.setdefault(scope_of(item.nodeid), []).append(item)
    needs = {name: any(NEEDS_BUILDS & set(item.fixturenames) for item in members) for name, members in scopes.items()}
    long = {name: any(item.get_closest_marker("long") for item in members) for name, members in scopes.items()}
    first = next((name for name in scopes if needs[name] and long[name]), next((n for n in scopes if needs[n]), None))
    order = {name: (0 if name == first else 1 if not needs[name] else 2, not long[name], n)
             for n, name in enumerate(scopes)}
    items[:] = [item for name in sorted(scopes, key=order.get) for item in scopes[name]]


def pytest_terminal_summary(terminalreporter):
    if CPU_SECONDS:
        terminalreporter.section("processor time (each test, what it started and its browsers, setup included)")
        for nodeid, seconds in sorted(CPU_SECONDS.items(), key=lambda item: -item[1])[:12]:
            terminalreporter.write_line(f"{seconds:8.1f} s  {nodeid}")
        terminalreporter.write_line(f"{sum(CPU_SECONDS.values()):8.1f} s  in all")
        # What the machine did meanwhile: with both cores busy throughout, only less work makes the run shorter;
        # busy time beyond the tests' sum is pytest's own outside the tests (collection, the xdist controller),
        # what chromium does after it was last read, and processes no test started (the system's, another job's).
        (busy_at_start, started), cores = MACHINE_AT_START[0], os.cpu_count()
        busy, wall = machine_busy_seconds() - busy_at_start, time.monotonic() - started
        terminalreporter.write_line(f"machine: busy {busy:.0f} processor seconds over {wall:.0f} s "
                                    f"({busy / wall:.2f} of {cores} cores)")
        # Every test's figure, for comparing two runs (MAINTAINING.md, "How long the suite takes").
        BUILDDIR.mkdir(parents=True, exist_ok=True)
        (BUILDDIR / "processor-seconds.json").write_text(json.dumps(CPU_SECONDS, indent=1), encoding="utf-8")
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
    page written into an emptied folder: Sphinx would keep pages an older extension wrote) and make html, which
    puts each book into its site. All of it before any test reads the sites: a later build would rewrite files
    under a browser test of the other worker."""
    runs = run_parallel({lang: make(f"html-lang-{lang}", "O=-E") for lang in LANGUAGES})
    if all(run.returncode == 0 for run in runs.values()):
        # Not -a: it compiles every catalog again, and each translated page depends on its .mo, so the
        # books' build would read every translated page once more (the English book 48 -> 19 s).
        if (BUILDDIR / "epub").exists():  # a folder that cannot be emptied is an error, not a stale book
            shutil.rmtree(BUILDDIR / "epub")
        runs["epub"] = run_build(make("epub"))
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


def doctrees_dir(language: str) -> Path:
    """The doctrees of a language's builds (the Makefile's ``doctrees``)."""
    return BUILDDIR / "doctrees" / language / "tree"


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
