"""A build that was interrupted or ran out of disk space does not break the next one.

Sphinx reuses what the last build left: the pickled environment, the doctrees, the pages and
``.buildinfo``. When that build was killed, or the disk filled while it wrote, some of them are
cut off, and the next build crashed (an empty ``.buildinfo``: ``IndexError`` on every later
build; a cut-off doctree: ``EOFError``) or, worse, published a cut-off page whose modification
time said it was up to date. This extension

* leaves a marker in the doctree folder while a build runs (``.unfinished-build-<pid>``), removed
  when the build ends without an exception and without a write error (Sphinx logs some of
  those as warnings and goes on). A later build that finds a marker of a process that is gone
  reads and writes every page afresh (it deletes ``environment.pickle``), and says so;
* replaces a ``.buildinfo`` that cannot be read by one that matches no configuration, so Sphinx
  writes every page again instead of crashing;
* prints a disk or permission error in one line, naming the path and what to do, instead of
  Sphinx's crash report ("please open an issue"): ``sphinx-build: cannot write
  _build/doctrees/en/tree/optim/adam.doctree: No space left on device; free some space, then
  build again``; a file of an interrupted build that still cannot be read says to run
  ``make clean``. With ``-v`` or ``-T`` Sphinx's full report is printed as before.
"""

import errno
import io
import logging as std_logging
import os
import pickle
import sys
import traceback
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util import logging

logger = logging.getLogger(__name__)
MARKER = ".unfinished-build-"
ADVICE = {
    errno.ENOSPC: "the disk is full: free some space, then build again",
    errno.EDQUOT: "the disk quota is used up: free some space, then build again",
    errno.EFBIG: "the file is larger than this process may write (ulimit -f): raise the limit, then build again",
    errno.EROFS: "the file system is read-only: build into a writable folder (make ... BUILDDIR=<folder>)",
    errno.EACCES: "no permission to write there: make it writable, or build elsewhere (make ... BUILDDIR=<folder>)",
    errno.EPERM: "no permission to write there: make it writable, or build elsewhere (make ... BUILDDIR=<folder>)",
}
# A replacement .buildinfo that matches no configuration: Sphinx then writes every page again.
STALE_BUILDINFO = ("# Sphinx build info version 1\n"
                   "# Replaced by build_recovery: the previous file could not be read (an interrupted build).\n"
                   "config: unreadable\ntags: unreadable\n")
_state = {"app": None, "write_errors": 0}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_markers(doctrees: Path) -> list[Path]:
    found = []
    for marker in doctrees.glob(MARKER + "*"):
        pid = marker.name[len(MARKER):]
        if not pid.isdigit() or not alive(int(pid)):
            found.append(marker)
    return found


def shown(path) -> str:
    """Relative to the working directory when inside it, else as it is."""
    path = os.path.abspath(path)
    inside = os.path.commonpath([path, os.getcwd()]) == os.getcwd()
    return os.path.relpath(path) if inside else path


def repair_buildinfo(outdir: Path) -> None:
    from sphinx.builders.html._build_info import BuildInfo

    path = outdir / ".buildinfo"
    if not path.is_file():
        return
    try:
        BuildInfo.load(path)
        return
    except OSError:
        return  # Sphinx ignores an unreadable one itself
    except Exception:  # IndexError (empty), ValueError, UnicodeDecodeError (cut off)
        pass
    path.write_text(STALE_BUILDINFO, encoding="utf-8")
    logger.info("build_recovery: %s was cut off (an interrupted build?): every page is written again", shown(path))


def recover(app: Sphinx, config: Config) -> None:
    """config-inited, before Sphinx loads the pickled environment: start afresh after an unfinished build."""
    doctrees, outdir = Path(app.doctreedir), Path(app.outdir)
    try:
        stale = stale_markers(doctrees) if doctrees.is_dir() else []
        if stale:
            (doctrees / "environment.pickle").unlink(missing_ok=True)
            for marker in stale:
                marker.unlink(missing_ok=True)
            logger.info("build_recovery: the last build in %s did not finish (interrupted, or out of disk "
                        "space): every page is read and written again", shown(doctrees))
        repair_buildinfo(outdir)
    except OSError as error:
        stop(error)


def begin(app: Sphinx) -> None:
    """builder-inited: from here on the build writes; the marker says so until it has finished."""
    doctrees = Path(app.doctreedir)
    marker = doctrees / f"{MARKER}{os.getpid()}"
    try:
        doctrees.mkdir(parents=True, exist_ok=True)
        marker.write_text("a build is running, or was interrupted (see docs/_ext/building/build_recovery.py)\n",
                          encoding="utf-8")
    except OSError as error:  # the doctree folder cannot be written: say which folder, not which marker
        error.filename, error.filename2 = str(doctrees), None
        stop(error)
    _state["marker"] = marker


def stop(error: OSError) -> None:
    print(explain(error) or f"sphinx-build: {error}", file=sys.stderr)
    raise SystemExit(2) from None


def end(app: Sphinx, exception: BaseException | None) -> None:
    marker = _state.get("marker")
    if marker is not None and exception is None and not _state["write_errors"]:
        marker.unlink(missing_ok=True)


class WriteErrors(std_logging.Handler):
    """Counts the warnings Sphinx logs for an OSError it caught (a page or a static file not written)."""

    def emit(self, record: std_logging.LogRecord) -> None:
        if record.levelno >= std_logging.WARNING and isinstance(record.args, tuple) \
                and any(isinstance(arg, OSError) for arg in record.args):
            _state["write_errors"] += 1


def open_file_in(exception: BaseException) -> str | None:
    """The file being written when ``exception`` was raised: a file object open for writing in a frame."""
    frames = [frame for frame, _ in traceback.walk_tb(exception.__traceback__)]
    for writing in (True, False):
        for frame in reversed(frames):
            for value in frame.f_locals.values():
                if isinstance(value, io.IOBase) and isinstance(getattr(value, "name", None), str):
                    mode = getattr(value, "mode", "")
                    if not writing or any(c in mode for c in "wax+"):
                        return value.name
    return None


def unwrapped(exception: BaseException) -> BaseException:
    """The error behind Sphinx's wrappers (an extension's handler: ExtensionError)."""
    seen = 0
    while seen < 5 and getattr(exception, "orig_exc", None) is not None:
        exception, seen = exception.orig_exc, seen + 1
    return exception


def explain(exception: BaseException) -> str | None:
    """One line for a disk or permission error or a cut-off file of an earlier build; None otherwise."""
    exception = unwrapped(exception)
    if isinstance(exception, OSError) and exception.errno in ADVICE:
        path = exception.filename2 or exception.filename or open_file_in(exception) or where_it_writes()
        return (f"sphinx-build: cannot write {shown(path)}: {exception.strerror}; {ADVICE[exception.errno]} "
                "(the next build reads and writes every page afresh)")
    if isinstance(exception, OSError) and exception.errno is not None and (exception.filename or exception.filename2):
        path = exception.filename2 or exception.filename
        return f"sphinx-build: {shown(path)}: {exception.strerror}"
    if isinstance(exception, (EOFError, pickle.UnpicklingError)):
        path = open_file_in(exception) or where_it_writes()
        return (f"sphinx-build: {shown(path)} cannot be read ({type(exception).__name__}: {exception}): a file "
                "left cut off by an interrupted build or a full disk; run make clean, then build again")
    return None


def where_it_writes() -> str:
    app = _state["app"]
    return f"{shown(app.outdir)} or {shown(app.doctreedir)}" if app is not None else "the build folder"


def install_one_line_errors() -> None:
    """Sphinx's command line reports any exception with a crash report; the ones ``explain`` knows, in one line."""
    import sphinx._cli.util.errors as errors

    original = errors.handle_exception
    if getattr(original, "build_recovery", False):
        return

    def handle_exception(exception, /, *, stderr=sys.stderr, use_pdb=False, print_traceback=False, **rest):
        message = None if (use_pdb or print_traceback) else explain(exception)
        if message is None:
            return original(exception, stderr=stderr, use_pdb=use_pdb, print_traceback=print_traceback, **rest)
        print(message, file=stderr)
        return None

    handle_exception.build_recovery = True
    errors.handle_exception = handle_exception


def setup(app: Sphinx) -> dict:
    _state.update(app=app, write_errors=0, marker=None)
    install_one_line_errors()
    std_logging.getLogger("sphinx").addHandler(WriteErrors())
    app.connect("config-inited", recover, priority=20)
    app.connect("builder-inited", begin, priority=1)
    app.connect("build-finished", end)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
