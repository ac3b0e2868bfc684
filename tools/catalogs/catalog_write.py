"""The one writer of the translation catalogs: a catalog is replaced whole, and never over a newer save.

``make update-po`` rewrote each catalog in place: a full disk or a kill during the write left it
cut off (in the middle of a character), and a translator's save that landed while the catalog
was merged was overwritten without a word. Every tool that writes a catalog (``update-po``,
``add-language``) goes through ``write``: the text goes to a temporary file in the same folder
(``.<name>.<random>.tmp``), flushed to disk, which is then renamed over the catalog, so a full
disk or a killed process leaves the old catalog whole and the error names the file.
``expected`` is what the caller read; if the file holds anything else when it is to be
replaced (a translator saved it meanwhile), nothing is written and ``CatalogChanged`` says so.

    write(path, text, expected)    -> replaces the file atomically, unless it changed since it was read
    save(catalog, path, expected)  -> the same for a polib.POFile (what ``catalog.save`` writes)
"""

import os
import stat
import tempfile
from pathlib import Path


class CatalogChanged(Exception):
    """The catalog on disk is not the one the tool read: it was saved meanwhile."""


class CatalogWriteError(Exception):
    """The catalog could not be written (full disk, read-only folder...); the one on disk is unchanged."""


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _on_disk(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def write(path, text: str, expected: bytes | None) -> None:
    """Replace ``path`` by ``text`` (UTF-8) atomically.

    ``expected`` is the file's content when the caller read it (None: it did not exist). If the file
    holds anything else now, it is left alone and ``CatalogChanged`` is raised. Any ``OSError``
    (a full disk, a read-only folder) becomes ``CatalogWriteError`` naming the file; the catalog on
    disk is then the old one, whole, and no temporary file is left.
    """
    path = Path(path)
    data = text.encode("utf-8")
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, _mode(path))
        if _on_disk(path) != expected:
            what = "was created" if expected is None else ("was deleted" if not path.exists() else "changed")
            raise CatalogChanged(f"{path}: {what} on disk since it was read (a save in an editor while the tool "
                                 "ran?); not replaced, the version on disk is kept: run the command again")
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise CatalogWriteError(f"{path}: could not be written ({error.strerror or error}); the catalog on disk "
                                "is unchanged") from error
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def save(catalog, path, expected: bytes | None) -> None:
    """``catalog.save(path)`` (polib), written as ``write`` does."""
    write(path, catalog.__unicode__(), expected)

