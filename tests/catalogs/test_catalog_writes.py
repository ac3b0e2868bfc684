"""Issue 31, item 3: no catalog torn, none written over a newer save.

``make update-po`` rewrote each catalog in place: a full disk during the write left it cut off in
the middle of a character, and a translator's save that landed while the catalog was merged was
overwritten without a word. Every tool now writes a catalog through ``catalog_write.write``: a
temporary file in the same folder, renamed over the old one only if the old one still holds what
the tool read. The faults are injected: a file-size limit (``RLIMIT_FSIZE``, any user) that
stops the write half way, as a full disk does; a real full tmpfs where a private mount namespace
can be had (``unshare -Urm``; skipped elsewhere); an editor's save in the middle of the merge.
"""

import errno
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

UPDATE_PO = ROOT / "tools" / "catalogs" / "update_po.py"
FIXTURE = ROOT / "tests" / "roots" / "test-catalog-faults"
TOOL_TIMEOUT = 120  # seconds; update_po merges one small catalog in well under one
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
# A template with a long new paragraph: the merged catalog is larger than the one on disk.
NEW_PARAGRAPH = "新的一段：" + "这一段很长。" * 2000


def project(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(template folder, locale folder, the English catalog), the template adding a paragraph."""
    pot_dir, locale = tmp_path / "pot", tmp_path / "locale"
    pot_dir.mkdir()
    (pot_dir / "index.pot").write_text(HEADER + "".join(f'msgid "{text}"\nmsgstr ""\n\n' for text in
                                                        ("Adam 与 AdamW", "一段文字。", NEW_PARAGRAPH)),
                                       encoding="utf-8")
    po = locale / "en" / "LC_MESSAGES" / "index.po"
    po.parent.mkdir(parents=True)
    shutil.copy(FIXTURE / "locale" / "en" / "LC_MESSAGES" / "index.po", po)
    return pot_dir, locale, po


def merged(po: Path) -> bool:
    """The template's new paragraph is an entry of the catalog."""
    import polib

    return polib.pofile(str(po)).find(NEW_PARAGRAPH) is not None


def update_po(*args: str, driver: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", driver, *args] if driver else [sys.executable, str(UPDATE_PO), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=TOOL_TIMEOUT, env=env)


# update_po.py with a disk that fills once the merge is done: from then on no file may grow past
# half the catalog's size (past the limit a write fails with EFBIG, as one fails with ENOSPC).
FULL_DISK_DRIVER = f"""
import resource, signal, sys
sys.path.insert(0, {str(ROOT)!r})
sys.argv[0] = "update_po.py"
from tools.catalogs import update_po

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
keep_pot_date = update_po.keep_pot_date

def then_the_disk_fills(merged, before):
    limit = len(before.encode("utf-8")) // 2
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    return keep_pot_date(merged, before)

update_po.keep_pot_date = then_the_disk_fills
update_po.main(sys.argv[1:])
"""


def test_a_full_disk_during_update_po_leaves_the_catalog_whole_and_names_it(tmp_path):
    pot_dir, locale, po = project(tmp_path)
    before = po.read_bytes()
    result = update_po(str(pot_dir), str(locale), "en", driver=FULL_DISK_DRIVER)
    assert result.returncode != 0
    assert po.read_bytes() == before, "the catalog was torn"
    assert f"{po}: could not be written (File too large)" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert sorted(p.name for p in po.parent.iterdir()) == ["index.po"], "a temporary file was left behind"
    # With room on the disk again, the same command does the merge.
    again = update_po(str(pot_dir), str(locale), "en")
    assert again.returncode == 0, again.stderr
    assert merged(po)


def private_mounts() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-Urm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt 2>/dev/null || "
                            "mount -t tmpfs -o size=64k tmpfs \"$(mktemp -d)\""],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.skipif(not private_mounts(), reason="no private mount namespace here (unshare -Urm) for a small tmpfs")
def test_a_really_full_disk_during_update_po_leaves_the_catalog_whole(tmp_path):
    """The same on a 1 MB tmpfs filled to 8 KB of free space; then the space is freed and the update
    is run again. The mount exists in a private namespace only, so no root is needed where user
    namespaces are allowed."""
    pot_dir, locale, po = project(tmp_path)
    disk, work = tmp_path / "disk", tmp_path / "work"
    disk.mkdir()
    work.mkdir()
    script = f"""
set -u
mount -t tmpfs -o size=1m tmpfs {disk}
cp -r {locale} {disk}/locale
dd if=/dev/zero of={disk}/filler bs=4k 2>/dev/null
truncate -s -8k {disk}/filler
TMPDIR={work} {sys.executable} {UPDATE_PO} {pot_dir} {disk}/locale en >{work}/out 2>{work}/err
echo $? >{work}/status
cp {disk}/locale/en/LC_MESSAGES/index.po {work}/after-full.po
ls -A {disk}/locale/en/LC_MESSAGES >{work}/files
rm {disk}/filler
TMPDIR={work} {sys.executable} {UPDATE_PO} {pot_dir} {disk}/locale en >{work}/out2 2>&1
echo $? >{work}/status2
cp {disk}/locale/en/LC_MESSAGES/index.po {work}/after-freed.po
"""
    subprocess.run(["unshare", "-Urm", "bash", "-c", script], check=True, timeout=TOOL_TIMEOUT)
    disk_po = disk / "locale" / "en" / "LC_MESSAGES" / "index.po"
    error = (work / "err").read_text(encoding="utf-8")
    assert (work / "status").read_text().strip() != "0"
    assert (work / "after-full.po").read_bytes() == po.read_bytes(), "the catalog was torn"
    assert f"{disk_po}: could not be written (No space left on device)" in error, error
    assert (work / "files").read_text().split() == ["index.po"], "a temporary file was left behind"
    assert (work / "status2").read_text().strip() == "0", (work / "out2").read_text()
    assert merged(work / "after-freed.po")


def test_a_catalog_saved_while_update_po_merges_it_is_not_overwritten(tmp_path, monkeypatch):
    from tools.catalogs import update_po as tool

    pot_dir, locale, po = project(tmp_path)
    merge_steps = tool.merge_steps

    def a_translator_saves_meanwhile(template, merged):
        merge_steps(template, merged)
        po.write_text(po.read_text(encoding="utf-8").replace("A paragraph.", "A paragraph, edited."),
                      encoding="utf-8")

    monkeypatch.setattr(tool, "merge_steps", a_translator_saves_meanwhile)
    with pytest.raises(SystemExit) as stop:
        tool.update(pot_dir, locale, ["en"])
    assert f"{po}: changed on disk since it was read" in str(stop.value), stop.value
    assert "run make update-po again" in str(stop.value)
    assert 'msgstr "A paragraph, edited."' in po.read_text(encoding="utf-8"), "the translator's save was lost"
    assert sorted(p.name for p in po.parent.iterdir()) == ["index.po"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    from tools.catalogs import catalog_write

    po = tmp_path / "index.po"
    po.write_text("old\n", encoding="utf-8")
    po.chmod(0o640)

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(catalog_write.os, "fsync", disk_full)
    with pytest.raises(catalog_write.CatalogWriteError) as failed:
        catalog_write.write(po, "new\n", expected=b"old\n")
    assert str(failed.value) == f"{po}: could not be written (No space left on device); the catalog on disk is unchanged"
    assert po.read_text(encoding="utf-8") == "old\n" and [p.name for p in tmp_path.iterdir()] == ["index.po"]
    monkeypatch.undo()
    catalog_write.write(po, "new\n", expected=b"old\n")
    assert po.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(po.stat().st_mode) == 0o640, "the catalog's permissions are kept"
    with pytest.raises(catalog_write.CatalogChanged):
        catalog_write.write(po, "newer\n", expected=b"old\n")  # it holds "new" now: not what the caller read
    with pytest.raises(catalog_write.CatalogChanged):
        catalog_write.write(po, "other\n", expected=None)  # a file that appeared since it was found missing
    assert po.read_text(encoding="utf-8") == "new\n"


def test_save_writes_what_polib_writes(tmp_path):
    import polib

    from tools.catalogs import catalog_file
    from tools.catalogs import catalog_write

    source = FIXTURE / "locale" / "en" / "LC_MESSAGES" / "index.po"
    catalog = catalog_file.read(source)
    catalog.save(str(tmp_path / "polib.po"))
    catalog_write.save(catalog, tmp_path / "ours.po", expected=None)
    assert (tmp_path / "ours.po").read_bytes() == (tmp_path / "polib.po").read_bytes()
    assert isinstance(catalog, polib.POFile)
