"""The one reader of the translation catalogs (``.po`` files): every tool asks it before using one.

Babel (which Sphinx compiles the catalogs with), polib and GNU msgfmt each read a malformed
catalog their own way: a ``msgstr "Adam and AdamW`` without its closing quote is "Adam and
Adam" for Babel and polib and an error for msgfmt; a ``msgstr`` without its ``msgid`` is
skipped by Babel; a UTF-8 byte order mark is nothing for Babel and a bare "syntax error" for
msgfmt. So the build published what the lint rejected. Here the strictest of them decides,
once, for all: ``msgfmt --check``, after three checks it does not make or words badly (a byte
order mark, bytes that are not UTF-8 or a file cut off inside a character, a header that does
not declare UTF-8). Its messages are given the cause a translator needs: "end-of-line within
string" (which msgfmt puts at the line after) is an unterminated string at its own line, a
"syntax error" at a ``msgstr`` line is a ``msgstr`` without its ``msgid``.

Users: the build (``docs/_ext/building/catalog_check.py``, before Sphinx compiles a single ``.mo``), the
bilingual view, the glossary and search extensions, ``make stats``, the status page, ``make
todo``, ``make update-po``, ``make add-language`` and ``make lint-po``.

    problems(path)   -> [Problem(line, rule, message)], [] for a sound catalog
    check(path)      -> its text, or CatalogError: one ``path:line: [rule] message`` line per problem
    read(path)       -> polib.POFile of a checked catalog (checked once per modification)
    check_all(paths) -> a CatalogError for every unsound catalog under the files or folders

Writing is ``tools/catalogs/catalog_write.py``'s job.
"""

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

BOM = b"\xef\xbb\xbf"
CHARSET = re.compile(r"charset=([A-Za-z0-9_.:-]+)", re.I)
MSGFMT_TIMEOUT = 60  # seconds; msgfmt checks one catalog in milliseconds
MSGFMT_LINE = re.compile(r"^<stdin>:(\d+)(?::\d+)?: (.*)$")
RESTORE = "restore it from git or from your editor's backup"


@dataclass(frozen=True)
class Problem:
    line: int
    rule: str  # 'syntax' or 'charset', as make lint-po names them
    message: str


class CatalogError(Exception):
    """A catalog that cannot be trusted: ``str()`` is one ``path:line: [rule] message`` line per problem."""

    def __init__(self, path, problems: list[Problem]) -> None:
        self.path, self.problems = Path(path), problems
        super().__init__("\n".join(f"{self.path}:{p.line}: [{p.rule}] {p.message}" for p in problems))


def encoding_problems(data: bytes) -> list[Problem]:
    if data.startswith(BOM):
        return [Problem(1, "charset", "the file starts with a UTF-8 byte order mark (BOM), which msgfmt rejects "
                                      "and Babel hides: save it as UTF-8 without BOM")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        if error.reason == "unexpected end of data":
            return [Problem(line, "charset", "the file ends in the middle of a character: it was cut off (a full "
                                             f"disk or an interrupted write?); {RESTORE}")]
        return [Problem(line, "charset", f"byte {data[error.start]:#04x} is not UTF-8; save the file as UTF-8")]
    if not text.strip():
        return [Problem(1, "syntax", f"the file is empty: it has no header entry (cut off?); {RESTORE}")]
    return []


MSGFMT_RUNS = [0]  # how many catalogs msgfmt checked in this process (a build logs it at -v)


def msgfmt_problems(data: bytes) -> list[Problem]:
    """What ``msgfmt --check`` rejects, each at the line a translator must edit, with its cause."""
    MSGFMT_RUNS[0] += 1
    result = subprocess.run(["msgfmt", "--check", "-o", os.devnull, "-"], input=data, capture_output=True,
                            timeout=MSGFMT_TIMEOUT, env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE=""))
    if result.returncode == 0:
        return []
    lines = data.decode("utf-8").split("\n")
    stderr = result.stderr.decode("utf-8", "replace")
    found: list[Problem] = []
    for said in stderr.splitlines():
        located = MSGFMT_LINE.match(said)
        if not located or " warning: " in f" {located.group(2)}":
            continue
        line, message = int(located.group(1)), located.group(2)
        text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        if message == "end-of-line within string":  # msgfmt is at the next line by then
            line -= 1
            message = ("unterminated string: the closing quote is missing (cut off, or a line break typed "
                       "inside it?)")
        elif message == "end-of-file within string":
            message = f"unterminated string at the end of the file: it was cut off; {RESTORE}"
        elif message == "syntax error" and text.startswith("msgstr"):
            message = ("msgstr without a msgid: the msgid line above it is missing (deleted, or the entry was "
                       "pasted without it)")
        elif message.startswith("...this is the location of the first definition") and found:
            found[-1] = Problem(found[-1].line, "syntax", f"duplicate message definition: the same msgid as the "
                                                         f"entry at line {line}")
            continue
        elif message == "syntax error":
            message = f"syntax error (msgfmt): the line reads {text[:40]!r}"
        found.append(Problem(line, "syntax", message.rstrip(".")))
    return found or [Problem(1, "syntax", stderr.strip() or "msgfmt rejects this file")]


def header_problems(text: str) -> list[Problem]:
    """The header (the lines up to the first blank one) must declare charset=UTF-8."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            break
        if line.startswith('"Content-Type:'):
            charset = CHARSET.search(line)
            if charset and charset.group(1).upper().replace("_", "-") in {"UTF-8", "UTF8"}:
                return []
            declared = charset.group(1) if charset else "no charset"
            return [Problem(number, "charset", f"header declares {declared}; the catalogs are UTF-8: "
                                               'write "Content-Type: text/plain; charset=UTF-8\\n"')]
    return [Problem(1, "charset", 'header has no Content-Type line; add "Content-Type: text/plain; '
                                  'charset=UTF-8\\n"')]


# Catalogs found sound in this process, by (modification time, size): a build checks every catalog at
# its start (catalog_check), then the extensions read them without running msgfmt again. Keyed by the
# resolved path: the readers name a catalog differently (the status page as docs/../locale/...).
_checked: dict[Path, tuple[int, int]] = {}


def _key(path) -> Path:
    return Path(path).resolve()


def trust(path, stamp) -> None:
    """Take ``path`` as sound while it keeps ``stamp`` (modification time, size): a record of an earlier
    process's check says so (catalog_check's), and reading it again need not run msgfmt again."""
    _checked[_key(path)] = tuple(stamp)


def _stamp(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_mtime_ns, status.st_size


def problems(path, data: bytes | None = None) -> list[Problem]:
    """Everything that makes ``path`` (or ``data``, its bytes) unsound, in line order; [] when sound."""
    path = Path(path)
    stamp = _stamp(path) if data is None else None
    if data is None:
        data = path.read_bytes()
    found = encoding_problems(data) or msgfmt_problems(data) or header_problems(data.decode("utf-8"))
    if stamp is not None and not found:
        _checked[_key(path)] = stamp
    return sorted(found, key=lambda p: p.line)


def report_lines(path) -> list[str]:
    """``problems(path)`` as every tool prints them, one a line: ``path:line: [rule] message``."""
    return [f"{path}:{problem.line}: [{problem.rule}] {problem.message}" for problem in problems(path)]


def decode(path, data: bytes) -> str:
    """The text of a sound catalog's bytes; CatalogError (file, line, cause) otherwise."""
    found = problems(path, data)
    if found:
        raise CatalogError(path, found)
    return data.decode("utf-8")


def check(path) -> str:
    """The text of the catalog at ``path``; CatalogError naming the file, line and cause if it is unsound."""
    path = Path(path)
    stamp = _stamp(path)
    text = decode(path, path.read_bytes())
    _checked[_key(path)] = stamp
    return text


def read(path, **polib_options):
    """The catalog at ``path`` as a ``polib.POFile``, once it is known to be sound."""
    import polib

    path = Path(path)
    if _checked.get(_key(path)) != _stamp(path):
        check(path)
    return polib.pofile(str(path), encoding="utf-8", **polib_options)


def catalogs_under(paths) -> list[Path]:
    """Every ``.po`` file under the given folders (or the files themselves), sorted."""
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(path.rglob("*.po"))
        elif path.suffix == ".po" and path.is_file():
            found.append(path)
    return found


def check_all(paths, skip=lambda po: False) -> list[CatalogError]:
    """The unsound catalogs among ``paths`` (files or folders), one error each; ``skip(po)``: known sound."""
    todo = [po for po in catalogs_under(paths) if not skip(po)]
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:  # msgfmt runs outside the GIL
        return [CatalogError(po, found) for po, found in zip(todo, pool.map(problems, todo)) if found]


def main(argv: list[str]) -> None:
    """python tools/catalogs/catalog_file.py PATH...: every problem of the catalogs under PATH; exit 1 if any."""
    errors = check_all(argv or ["locale"])
    for error in errors:
        print(error)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
