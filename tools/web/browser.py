"""A headless Debian chromium driven over the DevTools protocol (CDP).

No browser is downloaded: this starts the system ``/usr/bin/chromium``
(installed by ``.ci/run``) with a fresh profile and talks to one page over
the websocket the browser opens, using the pinned ``websockets`` package.
It records every JavaScript exception, ``console.error`` and browser log
error (failed resource loads included) of every page it visits, in
``errors``, so the tests can assert that no page had any. The test machine
is offline: a resource that fails to load from another host than the local
server (a CDN) goes to ``offline`` instead.
"""

import base64
import itertools
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from websockets.sync.client import connect

CHROMIUM = "/usr/bin/chromium"
LOCAL = ("http://127.0.0.1:", "data:")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--mute-audio", "--window-size=1280,900", "--remote-debugging-port=0"]


class BrowserError(RuntimeError):
    pass


def is_network(message: dict) -> bool:
    return message.get("method", "").startswith("Network.")


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


class SiteServer:
    """Serve a folder on 127.0.0.1 (a free port) from a background thread (``handler``: how each request is answered)."""

    def __init__(self, root: Path, handler: type = QuietHandler):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (Linux's /proc). Each thread lists the children it forked:
    chromium forks its network service from a thread of its own, not from its main one."""
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            children += task.read_text().split()
        except OSError:  # the thread or the process ended meanwhile
            pass
    return [grand for child in map(int, children) for grand in [child, *descendants(child)]]


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for whoever reaps it, which may be no one here)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_for_exit(pids: list[int], seconds: float) -> None:
    """Wait until ``pids`` have ended; kill those still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    for pid in filter(running, pids):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def tree_seconds(pid: int) -> float:
    """Processor seconds of ``pid`` and every process under it: each live one's own, and what each has reaped."""
    total = 0
    for member in [pid, *descendants(pid)]:
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile: its reaper's count holds it
            continue
        total += sum(int(field) for field in fields[11:15])  # utime, stime, cutime, cstime
    return total / os.sysconf("SC_CLK_TCK")


def children_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# The browsers this process has open (left only through close(), so that a figure counted once never drops
# out of the sum), and the processor time of those it closed that its own count of waited-for children lacks.
# A renderer is no child of the process that starts chromium (chromium's zygote forks it), so getrusage misses
# nearly all of a browser's time: most of the suite's, in the axe pass.
OPEN_BROWSERS: "set[Chromium]" = set()
CLOSED_BROWSER_SECONDS = [0.0]


def browser_seconds() -> float:
    """Processor seconds of the browsers this process opened (their renderers and helpers included), less
    what reached ``getrusage(RUSAGE_CHILDREN)`` when a browser was closed and waited for: added to getrusage's
    figures, no second counts twice. What chromium spends shutting down after it was last read, and in helpers
    it leaves to init, counts nowhere."""
    return CLOSED_BROWSER_SECONDS[0] + sum(browser.processor_seconds() for browser in list(OPEN_BROWSERS))


class Chromium:
    """One headless chromium with one page; ``errors`` collects what went wrong on it.

    ``timeout`` bounds each wait on the browser (a message, a page load, an axe run): generous, because
    axe over a long page takes several seconds on a loaded 2-core machine, and a test that fails waits
    for it only once."""

    def __init__(self, executable: str = CHROMIUM, timeout: float = 60):
        if not shutil.which(executable):
            raise BrowserError(f"{executable} not found: install Debian's chromium (see .ci/run)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="torch-notes-chromium-")
        self.process = subprocess.Popen([executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.ids = itertools.count(1)
        self.events: list[dict] = []
        self.errors: list[str] = []
        self.offline: list[str] = []
        self.seconds = 0.0  # the most processor time read of its processes (a reap between two reads hides some)
        OPEN_BROWSERS.add(self)
        try:
            self.ws = connect(self._page_websocket(), max_size=None, open_timeout=timeout).__enter__()
            for domain in ("Page", "Runtime", "Log"):
                self.send(f"{domain}.enable")
            # A headless page never has the focus, and copying to the clipboard needs it.
            self.send("Emulation.setFocusEmulationEnabled", enabled=True)
        except BaseException:  # a browser that did not start is not left running
            self._end()
            raise

    def processor_seconds(self) -> float:
        """Processor seconds of its processes so far: a figure that only grows."""
        self.seconds = max(self.seconds, tree_seconds(self.process.pid))
        return self.seconds

    def _page_websocket(self) -> str:
        port_file = Path(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrowserError(f"chromium exited with code {self.process.returncode}")
            if port_file.is_file() and port_file.read_text().strip():
                port = port_file.read_text().split()[0]
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as reply:
                        pages = [t for t in json.load(reply) if t["type"] == "page"]
                except OSError:
                    pages = []
                if pages:
                    return pages[0]["webSocketDebuggerUrl"]
            time.sleep(0.05)
        raise BrowserError("chromium did not open its DevTools port")

    def close(self) -> None:
        try:
            self.ws.__exit__(None, None, None)
        finally:
            self._end()

    def _end(self) -> None:
        """End chromium and its helpers, book its processor time, remove its profile."""
        helpers = descendants(self.process.pid)
        seconds, waited = self.processor_seconds(), children_seconds()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        OPEN_BROWSERS.discard(self)
        CLOSED_BROWSER_SECONDS[0] += seconds - (children_seconds() - waited)
        # Chromium's helpers (the network service) outlive it by a moment and still write into the
        # profile: removed before they end, it was left behind in /tmp in about one run of two.
        wait_for_exit(helpers, seconds=10)
        shutil.rmtree(self.profile, ignore_errors=True)
        if Path(self.profile).exists():
            shutil.rmtree(self.profile)  # said, not left: whatever still holds it

    # -- protocol ---------------------------------------------------------
    def _receive(self, timeout: float) -> dict:
        try:
            message = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            raise BrowserError("no message from chromium in time") from None
        if "method" in message:
            self._note(message)
            self.events.append(message)
        return message

    def _note(self, event: dict) -> None:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            self.errors.append(f"exception at {details.get('url', '?')}:{details.get('lineNumber')}: {text}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            self.errors.append(f"console.{params['type']}: {text}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            if entry["source"] == "network" and not entry.get("url", "").startswith(LOCAL):
                self.offline.append(entry.get("url", ""))
                return
            self.errors.append(f"{entry['source']} error: {entry['text']} ({entry.get('url', '')})")

    def send(self, method: str, **params) -> dict:
        message_id = next(self.ids)
        self.ws.send(json.dumps({"id": message_id, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(max(0.01, deadline - time.monotonic()))
            if message.get("id") == message_id:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_event(self, method: str) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for index, event in enumerate(self.events):
                if event["method"] == method:
                    return self.events.pop(index)
            self._receive(max(0.01, deadline - time.monotonic()))

    # -- page -------------------------------------------------------------
    def evaluate(self, expression: str, user_gesture: bool = False):
        """Value of a JavaScript expression (promises awaited); user_gesture counts as a reader's click."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True,
                           userGesture=user_gesture)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression!r} failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def until_loaded(self, action) -> None:
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        action()
        self.wait_event("Page.loadEventFired")

    def open(self, url: str) -> None:
        self.until_loaded(lambda: self.send("Page.navigate", url=url))

    def click_and_wait(self, selector: str) -> None:
        """Click (as a reader) an element that loads another page, and wait until it has."""
        self.until_loaded(lambda: self.click(selector))

    def click(self, selector: str) -> None:
        found = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                              f" if (!e) return false; e.click(); return true; }})()", user_gesture=True)
        if not found:
            raise BrowserError(f"nothing matches {selector!r} on {self.location()}")

    def wait_for(self, expression: str, what: str):
        """Poll a JavaScript expression until it is truthy; return its value."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise BrowserError(f"timed out waiting for {what} on {self.location()}")

    def location(self) -> str:
        return self.evaluate("window.location.href")

    def screenshot(self, path: Path, clip: dict | None = None) -> bytes:
        """A PNG of the viewport, or of ``clip`` ({x, y, width, height} in page pixels) wherever it is."""
        extra = {"clip": {**clip, "scale": 1}, "captureBeyondViewport": True} if clip else {}
        data = base64.b64decode(self.send("Page.captureScreenshot", format="png", **extra)["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    def transferred(self, action, quiet: float = 1.0) -> dict[str, int]:
        """{url: bytes over the network} of what ``action`` loads, cache off, until the network is quiet."""
        self.send("Network.enable")
        self.send("Network.setCacheDisabled", cacheDisabled=True)
        self.events = [e for e in self.events if not is_network(e)]
        try:
            action()
            last = time.monotonic()
            while time.monotonic() - last < quiet:
                try:
                    if is_network(self._receive(0.1)):
                        last = time.monotonic()
                except BrowserError:  # nothing within 0.1 s
                    pass
            urls = {e["params"]["requestId"]: e["params"]["request"]["url"]
                    for e in self.events if e["method"] == "Network.requestWillBeSent"}
            loaded: dict[str, int] = {}
            for e in self.events:
                if e["method"] == "Network.loadingFinished":
                    url = urls.get(e["params"]["requestId"], "?")
                    loaded[url] = loaded.get(url, 0) + int(e["params"]["encodedDataLength"])
            return loaded
        finally:
            self.send("Network.setCacheDisabled", cacheDisabled=False)
            self.send("Network.disable")
            self.events = [e for e in self.events if not is_network(e)]


def set_theme(browser: Chromium, theme: str) -> None:
    """furo's theme, as a reader sets it with the toggle button."""
    for _ in range(3):  # furo cycles auto -> dark -> light (or auto -> light -> dark)
        if browser.evaluate("document.body.dataset.theme") == theme:
            return
        browser.click(".theme-toggle-content button.theme-toggle")
    if browser.evaluate("document.body.dataset.theme") != theme:
        raise BrowserError(f"the theme toggle did not reach {theme!r} on {browser.location()}")


# -- accessibility ------------------------------------------------------------------
AXE = Path(__file__).resolve().parents[1] / "axe" / "node_modules" / "axe-core" / "axe.min.js"  # make test: npm ci
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# The rules that read colours: what a theme changes, and most of axe's time on a page.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
# The rules of axe 4.14 that read what axe preloads (the CSSOM, media elements); no colour rule does.
PRELOADING_RULES = {"css-orientation-lock", "no-autoplay-audio"}
# Only the violations are reported (axe skips collecting the details of what passed: faster).
RUN_AXE = """axe.run(document, {runOnly: %s, rules: %s, resultTypes: ["violations"], preload: %s})
  .then((r) => r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length}x ${v.nodes[0].target.join(" ")}`))"""


def axe_source() -> str:
    if not AXE.is_file():
        raise BrowserError(f"{AXE} missing: run make test (it installs tools/axe with npm ci)")
    return AXE.read_text(encoding="utf-8")


def load_axe(browser: Chromium) -> None:
    """axe-core into the page open in ``browser``, unless it is there already."""
    if not browser.evaluate("typeof axe === 'object' && typeof axe.run === 'function'"):
        browser.evaluate(axe_source() + "\n;0")


def load_axe_into_every_page(browser: Chromium) -> None:
    """axe-core into every page ``browser`` opens from now on, as the page starts: for a browser that checks
    page after page, instead of sending axe (half a megabyte) for each page (paired over 40 pages, 36.5 -> 33.1
    processor seconds of the browser and the test). It does not reach the page open now."""
    browser.send("Page.addScriptToEvaluateOnNewDocument", source=axe_source())


def wcag_violations(browser: Chromium, rules: list[str] | None = None, skip: tuple[str, ...] | list[str] = ()) -> list[str]:
    """axe-core's WCAG 2.0/2.1 A and AA violations on the page open in ``browser``, one line each.

    ``rules``: only these axe rules; ``skip``: every WCAG rule but these. axe is loaded into a page once,
    so a second run on the same page (after switching the theme, say) costs only the checks."""
    load_axe(browser)
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG}
    # Before a run axe fetches and parses every stylesheet of the page (a tenth of a colour-only run) for
    # the rules that read them; a run without those rules skips it.
    preload = rules is None or bool(PRELOADING_RULES & set(rules))
    disabled = {rule: {"enabled": False} for rule in skip}
    return browser.evaluate(RUN_AXE % (json.dumps(only), json.dumps(disabled), json.dumps(preload)))
