"""What a browser costs is counted where the suite says where its time went (conftest.processor_seconds).

A page's script runs in a renderer, which chromium's zygote forks: it is no child of the process that
started chromium, and getrusage does not see it. ``browser_seconds`` adds the browser's whole process
tree, and when a browser is closed and waited for, takes back what getrusage then gains, so that no
second is counted twice.
"""

import resource

import pytest

from tools.web.browser import Chromium, browser_seconds, children_seconds

BUSY_PAGE = ("(() => { const end = performance.now() + 1500; let n = 0;"
             " while (performance.now() < end) n++; return n; })()")


def own_and_waited_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.fixture
def chromium():
    browser = Chromium()
    yield browser
    if browser.process.poll() is None:
        browser.close()


def test_a_script_s_processor_time_in_a_page_is_counted(chromium):
    before, rusage_before = browser_seconds(), own_and_waited_seconds()
    chromium.evaluate(BUSY_PAGE)
    # 1.5 s of script on a busy 2-core machine: the renderer may get less than all of it.
    assert browser_seconds() - before > 0.5, "the renderer's time is missing"
    assert own_and_waited_seconds() - rusage_before < 0.5, "getrusage saw the renderer: this test checks nothing"


def test_a_closed_browser_s_time_is_counted_once(chromium):
    chromium.evaluate(BUSY_PAGE)
    before, waited_before = browser_seconds() + own_and_waited_seconds(), children_seconds()
    chromium.close()
    # Waited for, chromium hands getrusage its own time and its helpers' (0.7-0.9 s here), which
    # browser_seconds counted while it ran: counted again, the sum would jump by that much.
    assert children_seconds() - waited_before > 0.3, "the close handed getrusage nothing: this test checks nothing"
    assert browser_seconds() + own_and_waited_seconds() - before < 0.3
