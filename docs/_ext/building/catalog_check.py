"""No page is built from a malformed catalog: every catalog the build reads is checked first.

Sphinx compiles the catalogs with Babel at the start of a build, and Babel reads a malformed one
without a word: ``msgstr "Adam and AdamW`` without its closing quote became the title "Adam and
Adam", built with exit status 0 under ``-W``. A ``msgstr`` without its ``msgid`` crashed polib
(the bilingual view, the status page) with a "report this to the Sphinx developers" dump, in
the other language's build too. So at ``config-inited``, before Sphinx compiles a single
``.mo`` and before any extension reads a catalog, every ``.po`` under every folder of
``locale_dirs`` is read by ``tools/catalogs/catalog_file.py`` (the reader of ``make lint-po``, ``make
stats`` and ``make update-po``): all languages, because the status page counts every language
and the bilingual view of the Chinese build reads the English catalogs. A broken one stops
the build with one line per problem, ``path:line: ERROR: [syntax] unterminated string ...``, and
exit status 2, without a traceback.

The compiled catalogs of the build's language are checked too: a ``.mo`` cut off by an
interrupted build is newer than its ``.po``, so Sphinx would not compile it again, and gettext
would drop it silently (the English site showing Chinese). Such a ``.mo`` is deleted and
compiled again. GNU msgfmt checks each catalog in a few milliseconds, about half a second for
all of them on two cores; a catalog found sound is recorded with its modification time and size
in ``<doctrees>/catalog-check.json`` with what checked it (``checker``: the reader's code, msgfmt's
version), and the next build with the same checker checks only the catalogs changed since (a one-page
rebuild pays nothing, and neither do the extensions that read the catalogs later: an unchanged one is
taken as sound by ``tools/catalogs/catalog_file.py`` too). The check's time, and at the end how many
catalogs msgfmt read in the build's process, are logged at ``-v`` ("catalog_check: ...").
"""

import hashlib
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util import logging

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root, for tools.*
from tools.catalogs import catalog_file  # noqa: E402
from tools.catalogs.catalog_file import MSGFMT_RUNS, CatalogError, check_all, trust  # noqa: E402

logger = logging.getLogger(__name__)
MO_MAGIC = (0x950412DE, 0xDE120495)


def shown(path: Path) -> str:
    """A path as short as it can be said: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def catalog_folders(app: Sphinx, config: Config) -> list[Path]:
    return [(Path(app.srcdir) / directory).resolve() for directory in config.locale_dirs]


def stop(errors: list[CatalogError]) -> None:
    """Report each problem at its file and line, then end the build: exit status 2, no traceback."""
    for error in errors:
        for problem in error.problems:
            logger.error("[%s] %s", problem.rule, problem.message, location=f"{shown(error.path)}:{problem.line}")
    logger.error("%d malformed catalog%s: nothing was built (make lint-po reports the same problems)",
                 len(errors), "s" * (len(errors) != 1))
    raise SystemExit(2)


def mo_is_whole(mo: Path) -> bool:
    """The .mo's header and tables are there, and every string they point to lies inside the file."""
    data = mo.read_bytes()
    if len(data) < 28:
        return False
    magic = struct.unpack_from("<I", data)[0]
    order = "<" if magic == MO_MAGIC[0] else ">" if magic == MO_MAGIC[1] else None
    if order is None:
        return False
    _, count, originals, translations = struct.unpack_from(order + "4I", data, 4)
    try:
        for table in (originals, translations):
            pairs = struct.unpack_from(f"{order}{2 * count}I", data, table)
            # Each string ends with a NUL byte, which must be inside the file too.
            if count and max(map(sum, zip(pairs[::2], pairs[1::2]))) >= len(data):
                return False
    except struct.error:
        return False
    return True


def remove_cut_off_mo(app: Sphinx, folders: list[Path], language: str) -> None:
    """Delete every .mo of ``language`` that Sphinx would reuse although it is cut off."""
    for folder in folders:
        messages = folder / language / "LC_MESSAGES"
        if not messages.is_dir():
            continue
        for mo in messages.rglob("*.mo"):
            po = mo.with_suffix(".po")
            if not po.is_file() or mo.stat().st_mtime < po.stat().st_mtime or mo_is_whole(mo):
                continue  # Sphinx compiles an outdated one itself
            mo.unlink()
            logger.info("catalog_check: %s was cut off (an interrupted build?): compiled again", shown(mo))
            if mo.stem == "sphinx":  # the theme's strings were loaded before any extension: load them again
                reload_ui_strings(app)


def reload_ui_strings(app: Sphinx) -> None:
    from sphinx import locale

    locale.translators.pop(("general", "sphinx"), None)
    app._init_i18n()  # compiles the .mo again, then loads the project's and Sphinx's catalogs in order


def stamp(po: Path) -> list[int]:
    status = po.stat()
    return [status.st_mtime_ns, status.st_size]


def checker() -> str:
    """What the record's verdicts were reached with: the reader's code and msgfmt's version. A record made
    with another (a stricter rule, a newer msgfmt) vouches for nothing: every catalog is checked again."""
    try:
        version = subprocess.run(["msgfmt", "--version"], capture_output=True, timeout=60).stdout.split(b"\n")[0]
    except (OSError, subprocess.SubprocessError):
        version = b""  # no msgfmt: the check itself says so
    return hashlib.sha256(Path(catalog_file.__file__).read_bytes() + version).hexdigest()[:16]


def check_catalogs(app: Sphinx, config: Config) -> None:
    start = time.perf_counter()
    folders = catalog_folders(app, config)
    record = Path(app.doctreedir) / "catalog-check.json"
    made_with = checker()
    try:
        recorded = json.loads(record.read_text(encoding="utf-8"))
        sound = recorded["catalogs"] if recorded.get("checker") == made_with else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        sound = {}
    stamps, runs = {}, MSGFMT_RUNS[0]  # each taken before its catalog is read: a later save is checked next time

    def known_sound(po: Path) -> bool:
        stamps[str(po)] = stamp(po)
        if sound.get(str(po)) != stamps[str(po)]:
            return False
        trust(po, stamps[str(po)])  # the extensions that read it later (untranslated_warnings, parallel_view) too
        return True

    errors = check_all(folders, skip=known_sound)
    if errors:
        stop(errors)
    if config.language:
        remove_cut_off_mo(app, folders, config.language)
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps({"checker": made_with, "catalogs": stamps}), encoding="utf-8")
    except OSError:
        pass  # not recorded: the next build checks every catalog again (build_recovery names the folder)
    logger.verbose("catalog_check: %d catalogs, %d checked (the others unchanged since the last check), in %.0f ms",
                   len(stamps), MSGFMT_RUNS[0] - runs, 1000 * (time.perf_counter() - start))


def log_msgfmt_runs(app: Sphinx, exception) -> None:
    logger.verbose("catalog_check: catalogs checked by msgfmt in this process (the check and every later "
                   "reader): %d", MSGFMT_RUNS[0])


def setup(app: Sphinx) -> dict:
    # Before every other config-inited handler (lang_overrides runs at 100): nothing reads a catalog first.
    app.connect("config-inited", check_catalogs, priority=10)
    app.connect("build-finished", log_msgfmt_runs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
