"""Merge fresh gettext templates into the translation catalogs, losing nothing.

    python tools/catalogs/update_po.py [--only=PREFIX] POT_DIR LOCALE_DIR LANGUAGE [LANGUAGE ...]

``--only=tensors/`` limits the run to the pages under ``docs/tensors/``.

For every template ``POT_DIR/<page>.pot`` and every language:

* an existing catalog is merged with GNU ``msgmerge --previous``: unchanged
  entries keep their translation wherever the paragraph moved; a changed entry
  becomes fuzzy, keeps its old translation and records the previous source
  text (``#| msgid``) so the translator sees what changed; entries whose
  paragraph is gone become obsolete and are then dropped;
* a missing catalog is created from its template, every entry untranslated;
* in the catalogs of every language but English, each entry carries the English
  translation as an extracted comment (``#. en: ...``), refreshed on every run, so
  a translator who reads English but not Chinese can work from the pivot. Tools
  that read catalogs (msgfmt, the lint, statistics) ignore comments.

Locations are kept per file, project-relative (``docs/tensors/index.md``,
whatever BUILDDIR is) and without line numbers, and lines are wrapped at
msgmerge's default width (whatever a PO editor did), so catalog diffs show
only real changes and a second run changes nothing. Every
existing catalog is validated first (``tools/catalogs/catalog_file.py``: msgfmt and three checks of its own); if
one is broken, the run stops before touching any file and names the file and line.

A catalog is never torn: each is written to a temporary file in its own folder and
renamed over the old one (``catalog_write.write``), so a full disk or a kill leaves
the old catalog whole, and the run stops naming the file. A catalog saved by
someone else while it was merged (a translator's editor) is not replaced: the run
names it, goes on with the others and exits with status 1; run it again.
"""

import re
import subprocess
from datetime import datetime, timezone
import sys
import tempfile
from pathlib import Path

import polib

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import CatalogError, decode, read, report_lines  # noqa: E402
from tools.catalogs.catalog_write import CatalogChanged, CatalogWriteError, save, write  # noqa: E402
from tools.project import ROOT  # noqa: E402

LOCATION = "--add-location=file"  # no line numbers: no churn when text moves
WIDTH = "--width=79"  # msgmerge's default, stated: every catalog is wrapped the same way
GETTEXT_TIMEOUT = 120  # seconds; msgmerge or msgattrib on one catalog takes well under one


def run(*cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=GETTEXT_TIMEOUT)


def broken_catalogs(catalogs: list[Path]) -> list[str]:
    """Syntax, duplicate entries, charset: the same file checks as ``make lint-po``."""
    return [error for po in catalogs for error in report_lines(po)]


POT_DATE = re.compile(r'^"POT-Creation-Date: [^"]*"$', re.M)


def keep_pot_date(merged: str, before: str) -> str:
    """The catalog's own POT-Creation-Date instead of the fresh template's: every template has a new
    date, and a date alone changing would be a line of diff noise in every catalog an update touches."""
    old = POT_DATE.search(before)
    return POT_DATE.sub(lambda _: old.group(), merged, count=1) if old else merged


def project_relative_locations(pot_text: str, outdir: Path, root: Path = ROOT) -> str:
    """'#: ../../../docs/a.md:3' -> '#: docs/a.md:3': the same whatever BUILDDIR is.

    Sphinx writes each location relative to the gettext output folder (whatever the depth
    of BUILDDIR, inside the checkout or outside it): resolve it from there.
    """
    def relative(match: re.Match) -> str:
        path = (outdir / match["path"]).resolve()
        return path.relative_to(root).as_posix() if path.is_relative_to(root) else match["path"]

    location = re.compile(r"(?<=[ :])(?P<path>(?:\.\./)+[^\s:]+)")
    return re.sub(r"^#: .*$", lambda m: location.sub(relative, m.group()), pot_text, flags=re.M)


PIVOT_LANGUAGE = "en"  # the complete translation other translators work from
PIVOT_PREFIX = f"{PIVOT_LANGUAGE}: "


def pivot_catalog(locale_dir: Path, language: str, page: Path) -> Path | None:
    """The English catalog of the same page, for a language that is not English itself."""
    if language == PIVOT_LANGUAGE:
        return None
    english = locale_dir / PIVOT_LANGUAGE / "LC_MESSAGES" / page
    return english if english.exists() else None


def add_pivot(po: Path, pivot: Path) -> None:
    """Give every entry of ``po`` the pivot's translation of the same message as its extracted comment."""
    english = {(e.msgctxt, e.msgid): e.msgstr for e in read(pivot)
               if e.msgstr and not e.fuzzy and not e.obsolete}
    catalog = read(po, wrapwidth=0)
    for entry in catalog:
        kept = [line for line in entry.comment.splitlines() if not line.startswith(PIVOT_PREFIX.rstrip())] \
            if entry.comment else []
        translation = english.get((entry.msgctxt, entry.msgid))
        if translation:
            kept.append(PIVOT_PREFIX + translation.replace("\n", " "))
        entry.comment = "\n".join(kept)
    catalog.save(str(po))


def merge(pot: Path, po: Path, outdir: Path, pivot: Path | None = None) -> bool:
    """Merge into a copy; replace the catalog only if its text changed (True then).

    An unchanged catalog is not written at all, so its modification time stays and
    neither Sphinx nor the live preview re-reads its page. A fresh template always has
    a new creation date; the catalog keeps its own (``keep_pot_date``), and msgmerge keeps
    the rest of the catalog's header (``PO-Revision-Date`` is the translators' to change).
    The catalog is replaced atomically, and only if it still holds what was read
    (``CatalogChanged`` otherwise).
    """
    raw = po.read_bytes()
    before = decode(po, raw)  # CatalogError: file, line and cause (a cut-off catalog too)
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / pot.name
        template.write_text(project_relative_locations(pot.read_text(encoding="utf-8"), outdir), encoding="utf-8")
        merged = Path(tmp) / po.name
        merged.write_text(before, encoding="utf-8")
        merge_steps(template, merged)
        if pivot is not None:
            add_pivot(merged, pivot)
            normalize(merged)  # msgattrib's wrapping again, after polib wrote the comments
        after = keep_pot_date(merged.read_text(encoding="utf-8"), before)
    if after == before:
        return False
    write(po, after, expected=raw)
    return True


def merge_steps(pot: Path, po: Path) -> None:
    run_steps(po, [
        ("msgmerge", "--quiet", "--previous", "--update", "--backup=none", WIDTH, LOCATION, str(po), str(pot)),
        ("msgattrib", "--no-obsolete", WIDTH, LOCATION, "-o", str(po), str(po)),
    ])


def normalize(po: Path) -> None:
    run_steps(po, [("msgattrib", WIDTH, LOCATION, "-o", str(po), str(po))])


def run_steps(po: Path, steps: list[tuple[str, ...]]) -> None:
    for cmd in steps:
        try:
            result = run(*cmd)
        except subprocess.TimeoutExpired:
            sys.exit(f"{po}: {cmd[0]} still running after {GETTEXT_TIMEOUT} s; stopped")
        if result.returncode != 0:
            sys.exit(f"{po}: {cmd[0]} failed:\n{result.stderr}")


def fill_header(catalog: polib.POFile, language: str) -> None:
    """The project's header instead of gettext's placeholders (YEAR-MO-DA, FIRST AUTHOR, LL@li.org)."""
    catalog.header = f"{language} translation of torch-notes."
    catalog.metadata_is_fuzzy = False
    catalog.metadata.update({
        "Project-Id-Version": "torch-notes",
        "PO-Revision-Date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M+0000"),
        "Last-Translator": "torch-notes translators",
        "Language-Team": language,
        "Language": language,
        "Content-Type": "text/plain; charset=UTF-8",
    })
    catalog.metadata.pop("Generated-By", None)


def create(pot: Path, po: Path, language: str, outdir: Path, pivot: Path | None = None) -> None:
    # Not msginit: for English locales it copies every msgid into its msgstr,
    # which would count the Chinese text as translated.
    catalog = read(pot)
    fill_header(catalog, language)
    po.parent.mkdir(parents=True, exist_ok=True)
    save(catalog, po, expected=None)  # not over a catalog that appeared meanwhile
    merge(pot, po, outdir, pivot)  # same wrapping and location style as merged catalogs


def update(pot_dir: Path, locale_dir: Path, languages: list[str], only: str = "") -> list[str]:
    """Merge the templates whose page name starts with ``only`` (all by default)."""
    templates = sorted(p for p in pot_dir.rglob("*.pot") if p.relative_to(pot_dir).as_posix().startswith(only))
    if not templates:
        sys.exit(f"{pot_dir}: no .pot templates; run the gettext builder first")
    existing = sorted(p for lang in languages for p in (locale_dir / lang / "LC_MESSAGES").rglob("*.po"))
    errors = broken_catalogs(existing)
    if errors:
        sys.exit("broken catalogs, nothing was changed:\n" + "\n".join(errors))
    report, refused = [], []
    # English first: the other languages' pivot comments are taken from its catalogs as this run leaves them.
    for language in sorted(languages, key=lambda code: code != PIVOT_LANGUAGE):
        for pot in templates:
            page = pot.relative_to(pot_dir).with_suffix(".po")
            po = locale_dir / language / "LC_MESSAGES" / page
            pivot = pivot_catalog(locale_dir, language, page)
            try:
                if po.exists():
                    if merge(pot, po, pot_dir, pivot):
                        report.append(f"updated {po}")
                else:
                    create(pot, po, language, pot_dir, pivot)
                    report.append(f"created {po}")
            except CatalogChanged as error:
                refused.append(str(error))
            except (CatalogError, CatalogWriteError) as error:
                stopped(report, str(error))
            except OSError as error:  # reading a template, a temporary copy: say which catalog was being merged
                stopped(report, f"{po}: {error.strerror or error} ({error.filename or 'while merging it'}); the "
                                "catalog on disk is unchanged")
        pages = {p.relative_to(pot_dir).with_suffix("") for p in templates}
        for po in sorted((locale_dir / language / "LC_MESSAGES").rglob("*.po")):
            page = po.relative_to(locale_dir / language / "LC_MESSAGES").with_suffix("")
            if page.as_posix().startswith(only) and page not in pages:
                report.append(f"{po}: no page produces this catalog any more; kept, delete it by hand")
    if refused:
        sys.exit("\n".join(report + refused) + f"\nupdate-po: {len(refused)} catalog(s) changed on disk while "
                 "they were merged and were not replaced; run make update-po again")
    return report


def stopped(report: list[str], error: str) -> None:
    """End the run on an error that the next catalog would meet too (a full disk): what was done, then why."""
    sys.exit("\n".join(report + [error, "update-po stopped: the catalogs listed above were updated, every other "
                                         "one is as it was"]))


def main(argv: list[str]) -> None:
    only = ""
    if argv and argv[0].startswith("--only="):
        only = argv.pop(0).removeprefix("--only=")
    if len(argv) < 3:
        sys.exit(__doc__)
    pot_dir, locale_dir, *languages = argv
    for line in update(Path(pot_dir), Path(locale_dir), languages, only):  # errors end the run with sys.exit
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
