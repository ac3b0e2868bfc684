"""Issue 31, item 4: after an interrupted or disk-full build the next one works, or says what to run.

The fixture project of the catalog faults (tests/roots/test-catalog-faults) is built into a
temporary folder, then a fault is injected into a build (a small driver runs Sphinx's command
line with one write changed): the process killed while it writes a page, the disk full while it
writes a page (Sphinx warns and goes on) or a doctree (Sphinx crashes), an empty ``.buildinfo``,
a read-only build folder, a cut-off doctree. Each time the next plain build must publish whole
pages, and every failure must be one line that names the path, never Sphinx's crash report.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-catalog-faults"
SPHINX_TIMEOUT = 300  # seconds; the fixture builds in a few; past this it is stuck
CRASH_REPORT = ("Traceback", "open an issue", "report this")

# Sphinx's command line with one fault: FAULT is 'kill' (SIGKILL while index.html is half written),
# 'page-full' (ENOSPC while index.html is written: Sphinx warns and goes on) or 'doctree-full'
# (ENOSPC while a doctree is written: Sphinx stops).
DRIVER = """
import errno, os, pathlib, pickle, signal, sys

FAULT = sys.argv.pop(1)
real_write_text, real_dump = pathlib.Path.write_text, pickle.dump


def full():
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def page_write_text(self, data, *args, **kwargs):
    # handle_page writes a page with Path.write_text: index.html is cut off half way.
    if self.name != "index.html":
        return real_write_text(self, data, *args, **kwargs)
    real_write_text(self, data[: len(data) // 2], *args, **kwargs)
    if FAULT == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    raise full()


def doctree_dump(obj, file, *args, **kwargs):
    if str(getattr(file, "name", "")).endswith(".doctree"):
        file.write(b"\\x80\\x05")
        raise full()
    return real_dump(obj, file, *args, **kwargs)


if FAULT in ("kill", "page-full"):
    pathlib.Path.write_text = page_write_text
elif FAULT == "doctree-full":
    pickle.dump = doctree_dump
from sphinx.cmd.build import main
sys.exit(main(sys.argv[1:]))
"""


def sphinx_args(src: Path, out: Path, *extra: str, language: str = "en") -> list[str]:
    return ["-b", "html", "-W", "--keep-going", "-q", "-c", str(FIXTURE), "-D", f"language={language}",
            "-d", str(out / "doctrees"), *extra, str(src), str(out / "html")]


def build(src: Path, out: Path, *extra: str, fault: str | None = None, language: str = "en"
          ) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", DRIVER, fault] if fault else [sys.executable, "-m", "sphinx"]
    return subprocess.run([*command, *sphinx_args(src, out, *extra, language=language)], capture_output=True, text=True,
                          timeout=SPHINX_TIMEOUT, cwd=out.parent)


@pytest.fixture
def built(tmp_path) -> tuple[Path, Path]:
    """(sources, output folder) after one good build."""
    src, out = tmp_path / "src", tmp_path / "out"
    shutil.copytree(FIXTURE, src, ignore=shutil.ignore_patterns("broken", "conf.py"))
    first = build(src, out)
    assert first.returncode == 0, first.stderr
    return src, out


def page(out: Path) -> str:
    return (out / "html" / "index.html").read_text(encoding="utf-8")


def edit_the_page(src: Path) -> None:
    index = src / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("一段文字。", "一段文字。\n\n新的一段。"), encoding="utf-8")


def test_an_empty_buildinfo_does_not_break_the_next_build(built):
    src, out = built
    (out / "html" / ".buildinfo").write_text("", encoding="utf-8")  # a disk that filled as it was written
    result = build(src, out)
    assert result.returncode == 0, result.stderr
    assert "<h1>Adam and AdamW" in page(out) and page(out).rstrip().endswith("</html>")


def assert_the_next_build_writes_the_page_whole(src, out) -> None:
    result = build(src, out)
    assert result.returncode == 0, result.stderr
    assert page(out).rstrip().endswith("</html>") and "新的一段。" in page(out), "the cut-off page was published"


def test_a_build_killed_while_it_writes_a_page_is_followed_by_one_that_writes_it_whole(built):
    src, out = built
    edit_the_page(src)
    killed = build(src, out, fault="kill")
    assert killed.returncode == -9
    assert not page(out).rstrip().endswith("</html>"), "the fault did not cut the page off"
    assert_the_next_build_writes_the_page_whole(src, out)


def test_a_page_cut_off_by_a_full_disk_is_written_again_by_the_next_build(built):
    src, out = built
    edit_the_page(src)
    full = build(src, out, fault="page-full")
    assert full.returncode != 0
    assert "index.html" in full.stderr and "No space left on device" in full.stderr, full.stderr
    assert_the_next_build_writes_the_page_whole(src, out)


def test_a_full_disk_while_a_doctree_is_written_is_one_line_naming_it(built):
    src, out = built
    edit_the_page(src)
    full = build(src, out, fault="doctree-full")
    assert full.returncode != 0
    lines = full.stderr.strip().splitlines()
    assert len(lines) == 1, full.stderr
    assert lines[0].startswith("sphinx-build: cannot write ") and "index.doctree: No space left on device; the " \
           "disk is full: free some space, then build again" in lines[0], lines[0]
    result = build(src, out)
    assert result.returncode == 0, result.stderr
    assert "新的一段。" in page(out)


def private_mounts() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-Urm", "sh", "-c", 'mount -t tmpfs -o ro tmpfs "$(mktemp -d)"'],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.skipif(os.geteuid() == 0 and not private_mounts(),
                    reason="root writes through file permissions, and no private mount namespace is available")
def test_a_read_only_build_folder_is_one_line_naming_it(tmp_path):
    """A read-only folder: a read-only tmpfs in a private mount namespace, or without root a folder
    without write permission."""
    src, out = tmp_path / "src", tmp_path / "readonly"
    shutil.copytree(FIXTURE, src, ignore=shutil.ignore_patterns("broken", "conf.py"))
    out.mkdir()
    sphinx = " ".join([sys.executable, "-m", "sphinx", *sphinx_args(src, out)])
    if os.geteuid() == 0:
        command = ["unshare", "-Urm", "bash", "-c", f"mount -t tmpfs -o ro tmpfs {out} && {sphinx}"]
    else:
        out.chmod(0o555)
        command = ["bash", "-c", sphinx]
    result = subprocess.run(command, capture_output=True, text=True, timeout=SPHINX_TIMEOUT)
    out.chmod(0o755)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sphinx-build: cannot write {out}"), result.stderr
    assert ("Read-only file system" in lines[0] or "Permission denied" in lines[0]), lines[0]
    assert not any(word in result.stderr for word in CRASH_REPORT)


def test_a_cut_off_doctree_says_to_run_make_clean(tmp_path):
    """Left by something the build cannot know about (an older build, a copy): one line, what to run.
    The source language: a translated build reads every page again after -a (its catalogs are compiled anew)."""
    src, out = tmp_path / "src", tmp_path / "out"
    shutil.copytree(FIXTURE, src, ignore=shutil.ignore_patterns("broken", "conf.py"))
    assert build(src, out, language="zh_CN").returncode == 0
    doctree = out / "doctrees" / "index.doctree"
    doctree.write_bytes(doctree.read_bytes()[:100])
    result = build(src, out, "-a", language="zh_CN")  # every page written: its doctree is read
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "index.doctree cannot be read" in lines[0] and "run make clean" in lines[0], \
        result.stderr
