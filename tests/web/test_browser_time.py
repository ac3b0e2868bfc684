"""What a browser costs is counted where the suite says where its time went (conftest.processor_seconds).

A page's script runs in a renderer, which chromium's zygote forks: it is no child of the process that
started chromium, and getrusage does not see it. ``browser_seconds`` adds the browser's whole process
tree, and when a browser is closed and waited for, takes back what getrusage then gains, so that no
second is counted twice.
"""

import time

import pytest

from conftest import rusage_seconds
from tools.web.browser import Chromium, browser_seconds, children_seconds

# A fixed amount of work, not a fixed time: a loaded machine gives it more wall time, not less processor
# time. About 1.2 processor seconds here; 0.4 on a machine three times as fast.
WORK = "(() => { let x = 0; for (let i = 0; i < 6e7; i++) x = (x + i * i) % 1000003; return x; })()"


def settled(browser: Chromium) -> Chromium:
    """Wait until chromium's start-up is over: its helpers go on starting for about a processor second after
    the page answers (the GPU process, the network service), which a figure taken meanwhile would hold."""
    browser.evaluate("0")
    deadline, last = time.monotonic() + 20, browser_seconds()
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = browser_seconds()
        if now - last < 0.03:
            break
        last = now
    return browser


@pytest.fixture
def chromium():
    browser = settled(Chromium())
    yield browser
    if browser.process.poll() is None:
        browser.close()


def test_a_script_s_processor_time_in_a_page_is_counted(chromium):
    before, rusage_before, started = browser_seconds(), rusage_seconds(), time.monotonic()
    chromium.evaluate(WORK)
    counted, wall = browser_seconds() - before, time.monotonic() - started
    assert rusage_seconds() - rusage_before < 0.3, "getrusage saw the renderer: this test checks nothing"
    assert counted > 0.3, "the renderer's time is missing"
    # One thread of script: the browser's other processes add little (counted twice, it would be about 2 x wall).
    assert counted < wall + 0.5, f"{counted:.2f} processor seconds counted in {wall:.2f} s"


def test_a_closed_browser_s_time_is_counted_once(chromium):
    chromium.evaluate(WORK)
    before, waited_before = browser_seconds() + rusage_seconds(), children_seconds()
    chromium.close()
    # Waited for, chromium hands getrusage its own time and its helpers' (0.7-0.9 s here), which
    # browser_seconds counted while it ran: booked again, the sum would jump by that much; not booked at
    # all, it would drop by that much. Closing costs about 0.02 s.
    handed = children_seconds() - waited_before
    assert handed > 0.05, "the close handed getrusage nothing: this test checks nothing"
    change = browser_seconds() + rusage_seconds() - before
    assert abs(change) < handed / 2, f"the sum changed by {change:.2f} s when the browser closed"
