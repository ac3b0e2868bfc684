"""The spelling rule of ``make lint-po``: English prose checked with hunspell's en_US dictionary and the
project's word lists.

``spelling``  every English word outside code, math, roles and links is in hunspell's en_US dictionary
              or a project word list (``tools/spelling/*.txt``)

The project writes American English, as PyTorch's documentation does; en_US
rejects British forms (normalise, behaviour, centred) as misspellings, so one
real dictionary settles both typos and spelling variants. Words hunspell does
not know but the project needs (API names written outside code spans, proper
names) go into ``tools/spelling/*.txt``, one word a line; every file there is
read, so each chapter can keep its own list.

Words that look like identifiers are not checked: anything with a digit or an
underscore, and camel case (``ReLU``, ``BatchNorm``), which only code and
proper names have.
"""

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from tools.lint.entry import Entry, short
from tools.lint.lint_ok import allowed_exceptions

WORDLISTS = Path(__file__).resolve().parents[1] / "spelling"
WORD = re.compile(r"[A-Za-z][A-Za-z']*[A-Za-z]|[A-Za-z]")
IDENTIFIER_LIKE = re.compile(r"[A-Za-z][a-z]*[A-Z]")  # an upper-case letter after the first: camel case
INSTALL = "apt-get install hunspell hunspell-en-us (make test installs them when run as root)"
HUNSPELL_TIMEOUT = 120  # seconds; one run checks every word of every catalog in about one


class SpellCheckerMissing(RuntimeError):
    pass


def words(prose: str) -> list[str]:
    """The words of ``prose`` worth checking ('tensor's' → 'tensor')."""
    found = []
    prose = re.sub(r"\\[A-Za-z]+", " ", prose)  # LaTeX commands of display maths: \frac, \mathrm
    for match in WORD.finditer(prose):
        word = match.group()
        if word.endswith("'s"):
            word = word[:-2]
        word = word.strip("'")
        if len(word) < 2 or IDENTIFIER_LIKE.match(word):
            continue
        found.append(word)
    return found


def project_words(wordlists: Path = WORDLISTS) -> list[str]:
    listed = []
    for path in sorted(wordlists.glob("*.txt")):
        listed += [w.strip() for w in path.read_text(encoding="utf-8").splitlines() if w.strip() and not w.startswith("#")]
    return listed


def misspelled(candidates: set[str], wordlists: Path = WORDLISTS) -> set[str]:
    """The candidates that neither en_US nor a project word list accepts (one hunspell run for all)."""
    if not candidates:
        return set()
    if shutil.which("hunspell") is None:
        raise SpellCheckerMissing(f"hunspell not found: {INSTALL}")
    with tempfile.NamedTemporaryFile("w", suffix=".dic", encoding="utf-8") as personal:
        personal.write("\n".join(project_words(wordlists)) + "\n")
        personal.flush()
        result = subprocess.run(["hunspell", "-d", "en_US", "-p", personal.name, "-l"],
                                input="\n".join(sorted(candidates)), capture_output=True, text=True,
                                timeout=HUNSPELL_TIMEOUT)
    if result.returncode != 0 or "Can't open affix or dictionary" in result.stderr:
        raise SpellCheckerMissing(f"hunspell has no en_US dictionary ({result.stderr.strip()}): {INSTALL}")
    return set(result.stdout.split())


def problems(entries: list[Entry]) -> list[str]:
    """Words hunspell (en_US) and the project word lists do not know; one hunspell run for all catalogs.
    One report per line of the file, naming the unknown words of that line."""
    per_entry = []
    for entry in entries:
        if entry.msgstr != entry.msgid and "*" not in allowed_exceptions(entry.entry).get("spelling", set()):
            markup = entry.translation
            if markup.leftovers:  # broken markup (the markup rule reports it): its prose holds code
                continue
            per_entry.append((entry, markup, words(markup.prose)))
    try:
        unknown = misspelled({w for *_, found in per_entry for w in found})
    except SpellCheckerMissing as error:
        return [f"[spelling] {error}"]
    errors = []
    for entry, markup, found in per_entry:
        bad = sorted({w for w in found if w in unknown})
        if not bad:
            continue
        by_line: dict[int, list[str]] = {}
        for word in bad:
            at = re.search(rf"(?<![A-Za-z']){re.escape(word)}(?![A-Za-z])", markup.prose)
            line = entry.lines.line("msgstr", markup.at(at.start()) if at else None)
            by_line.setdefault(line, []).append(word)
        for line, listed in sorted(by_line.items()):
            errors.append(f"{entry.po}:{line}: [spelling] {short(entry.msgid)!r}: not in en_US or "
                          f"tools/spelling/*.txt: {', '.join(listed)}")
    return errors
