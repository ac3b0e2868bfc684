"""The fast paths change the build time, not the output: the fast translation path (docs/_ext/i18n/fast_i18n.py)
and the sidebar's tree resolved once per folder (docs/_ext/building/navigation_cache.py).

The suite's English build (with both) is compared, file by file, with one made with both turned
off (-D fast_i18n=0 -D navigation_cache=0): every page and the search index must be identical. The
only difference allowed is the cache-busting '?v=<checksum>' Sphinx adds to a script URL when the
file already sits in the output folder from an earlier build.
"""

import re
import subprocess

import pytest

from conftest import LANGUAGES, ROOT, html_dir

from i18n import fast_i18n

pytestmark = pytest.mark.long  # conftest.py schedules it early

CACHE_BUSTER = re.compile(r"\?v=[0-9a-f]{8}")
BUILD_TIMEOUT = 1800  # seconds; a fresh build of every page of the site: minutes on 2 cores


def site_files(root):
    return {p.relative_to(root): p for p in root.rglob("*") if p.suffix in {".html", ".js"} and "_static" not in p.parts}


def english_build(out, *options: str) -> None:
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "sphinx-build"), "-b", "html", "-c", str(ROOT), "-q", "-E",
         "-d", str(out.parent / f"{out.name}-doctrees"), *options, str(ROOT / "docs"), str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    assert result.returncode == 0, result.stderr


def test_every_english_page_is_identical_with_and_without_the_fast_path(html_builds, tmp_path):
    """The suite's own fresh build (html_builds, -E) has the fast paths; one more build without them."""
    for language in [lang for lang in LANGUAGES if lang != "zh_CN"]:
        slow_out = tmp_path / f"{language}-slow"
        english_build(slow_out, "-D", f"language={language}", "-D", "fast_i18n=0", "-D", "navigation_cache=0")
        fast, slow = site_files(html_dir(language)), site_files(slow_out)
        # Every page of this build; the suite's folder may also hold pages of an earlier run that are gone.
        assert set(slow) <= set(fast) and len(slow) > 50, sorted(set(slow) - set(fast))
        differing = [str(name) for name in slow
                     if CACHE_BUSTER.sub("", fast[name].read_text(encoding="utf-8"))
                     != CACHE_BUSTER.sub("", slow[name].read_text(encoding="utf-8"))]
        assert not differing, f"{language}: pages differ with the fast paths (fast_i18n, navigation_cache): {differing}"


def test_only_plain_and_code_only_messages_skip_markdown():
    simple = ["Returns the input.", "Default: `None`.", "Use `x.view(2, 3)` here.", "A title"]
    markdown = ["**bold**", "See {ref}`label`.", "- item", "1. first", "a $x$ b", "a <b> c", "x_1", "a\nb",
                "`` x ``", "` padded `", "[link](target)", "# heading", ": field", "a \\* b", "&amp;"]
    assert all(fast_i18n.SIMPLE.fullmatch(text) for text in simple)
    assert not any(fast_i18n.SIMPLE.fullmatch(text) for text in markdown)
