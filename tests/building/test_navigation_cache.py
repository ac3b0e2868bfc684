"""building/navigation_cache.py: the sidebar resolved once per folder gives every page byte for byte
what Sphinx and furo give it resolved per page.

tests/roots/test-navigation-cache/ has what marking and links depend on: pages one and two folders
down, three toctrees (one hidden, one with an external link), a page listed in two of them, a page
in a nested toctree and in the root's too, a page with sections and a second title (an entry with an
anchor). Every page of the English site is written again without the cache and compared (tests/i18n/test_fast_i18n.py).
"""

import os
import subprocess
import sys

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-navigation-cache"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "docs" / "_ext")}
SPHINX_TIMEOUT = 300  # seconds; the fixture builds in seconds; past this it is stuck


def build(out, cache: bool) -> dict[str, bytes]:
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", "-D",
                             f"navigation_cache={int(cache)}", "-d", str(out / "doctrees"), str(FIXTURE), str(out / "html")],
                            capture_output=True, text=True, env=ENV, timeout=SPHINX_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return {str(p.relative_to(out / "html")): p.read_bytes() for p in sorted((out / "html").rglob("*.html"))}


def test_every_page_is_the_same_with_and_without_the_cache(tmp_path):
    cached, uncached = build(tmp_path / "cached", True), build(tmp_path / "uncached", False)
    assert sorted(cached) == sorted(uncached) and len(cached) >= 9
    assert [page for page in cached if cached[page] != uncached[page]] == []
    twice = cached["guide/twice.html"].decode()
    assert twice.count('class="current reference internal" href="#"') == 2, "both entries of the page are its own"
