"""The fast paths change the build time, not the output: the fast translation path (docs/_ext/i18n/fast_i18n.py)
and the sidebar's tree resolved once per folder (docs/_ext/building/navigation_cache.py).

Each is compared where it acts. The fast translation path builds plain and code-only messages itself and
reuses one MyST parser for every other parse: every translated message of every translation is parsed as
Sphinx's i18n transform parses it, with the path and without (tests/i18n/fast_i18n_messages.py), and what the
transform keeps of each parse must be the same. The pages' own reads go through the same reused parser and
are not compared again: the messages put it through ten thousand parses of every page's messages, each a
document of its own, and MyST resets its renderer's state at the start of each. The navigation cache acts
when a page is written: the suite's English pages are written again from a copy of the suite's own doctrees
with the cache off (-D navigation_cache=0, no page read again), and every page and the search index must be
identical. The only difference allowed is the cache-busting '?v=<checksum>' Sphinx adds to a script URL when
the file already sits in the output folder from an earlier build.

Until stop 37 one more whole English build with both paths off was compared page by page: 92 processor
seconds, against 63 for the two checks here (paired, quiet machine).
"""

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LANGUAGES, ROOT, SOURCE_LANGUAGE, doctrees_dir, html_dir

from building import navigation_cache
from i18n import fast_i18n

pytestmark = pytest.mark.long  # conftest.py schedules it early

CACHE_BUSTER = re.compile(r"\?v=[0-9a-f]{8}")
TIMEOUT = 900  # seconds; every message parsed twice, or every page written: a minute on 2 cores
MESSAGES = Path(__file__).with_name("fast_i18n_messages.py")
TRANSLATIONS = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


def site_files(root):
    return {p.relative_to(root): p for p in root.rglob("*") if p.suffix in {".html", ".js"} and "_static" not in p.parts}


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_translated_message_parses_the_same_with_and_without_the_fast_path(html_builds, language):
    result = subprocess.run([sys.executable, str(MESSAGES), language, str(doctrees_dir(SOURCE_LANGUAGE))], cwd=ROOT,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr[-4000:]
    report = json.loads(result.stdout)
    # The catalogs hold thousands of messages, a thousand of them titles, most of them built by the fast path.
    assert report["messages"] > 1000 and report["titles"] > 100, report
    assert report["built_by_the_fast_path"] > report["messages"] / 3, report
    assert report["differing_count"] == 0, json.dumps(report["differing"], ensure_ascii=False, indent=1)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_page_is_identical_with_and_without_the_navigation_cache(doctest_runs, tmp_path, language):
    """The suite's fresh build (html_builds, -E) has the cache; its pages written once more without it. After the
    doctest builds, which read the same doctrees: a copy taken meanwhile could hold a half-written file."""
    copied, out = tmp_path / "doctrees", tmp_path / "html"
    shutil.copytree(doctrees_dir(language), copied)  # the write below pickles its environment again
    environment = pickle.loads((copied / "environment.pickle").read_bytes())
    assert not navigation_cache.holds_only_blocks(environment), "the cache was off (an `only` block in a page's contents)"
    site_url = ["-D", f"site_url={os.environ['SITE_URL']}"] if os.environ.get("SITE_URL") else []  # as make's
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "sphinx-build"), "-b", "html", "-c", str(ROOT), "-d", str(copied),
         "-D", f"language={language}", *site_url, "-D", "navigation_cache=0", str(ROOT / "docs"), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "updating environment: 0 added, 0 changed, 0 removed" in result.stdout, "a page was read again"
    written, suite = site_files(out), site_files(html_dir(language))
    # Every page of this build; the suite's folder may also hold pages of an earlier run that are gone.
    assert set(written) <= set(suite) and len(written) > 50, sorted(set(written) - set(suite))
    differing = [str(name) for name in written
                 if CACHE_BUSTER.sub("", suite[name].read_text(encoding="utf-8"))
                 != CACHE_BUSTER.sub("", written[name].read_text(encoding="utf-8"))]
    assert not differing, f"{language}: pages differ without the navigation cache: {differing}"


def test_only_plain_and_code_only_messages_skip_markdown():
    simple = ["Returns the input.", "Default: `None`.", "Use `x.view(2, 3)` here.", "A title"]
    markdown = ["**bold**", "See {ref}`label`.", "- item", "1. first", "a $x$ b", "a <b> c", "x_1", "a\nb",
                "`` x ``", "` padded `", "[link](target)", "# heading", ": field", "a \\* b", "&amp;"]
    assert all(fast_i18n.SIMPLE.fullmatch(text) for text in simple)
    assert not any(fast_i18n.SIMPLE.fullmatch(text) for text in markdown)
