"""A region of a program included by its markers ends where its code ends.

Pages include a part of a program in ``snippets/`` between two marker comments
(``:start-after: "# [fit]"``, ``:end-before: "# [/fit]"``). A marker moved by one line
still includes something: the program runs as before (markers are comments), the page
builds, and the listing silently loses its last line (or gains one from the next part).
Which lines belong together is not written anywhere, so the check reads it from the
program itself, with three rules:

1. No statement crosses a marker: a statement that begins inside the region and ends
   after it (a loop whose body the end marker cuts, a call over several lines), or a
   simple statement that begins before the region and ends inside it. A region inside a
   block (a function's body) is fine: that block begins before the region and ends after.
2. The region parses on its own (dedented, as the page shows it): what rule 1 does not
   name, such as a region that starts inside a block and runs on past its end.
3. A marker does not stand inside a run of code: the line just outside the region, past
   its marker lines, is blank, a file edge, or code of an enclosing block (less indented
   than the region). A line of the region's own level right after the end marker
   (``y = 2 * x + 1`` under a ``# [/data]`` moved up one line) or right before the start
   marker was cut off from it. Regions are separated from the code around them by a
   blank line, which every snippet does.

Rules 1 and 2 catch a marker moved into a statement; rule 3 a marker moved between two
statements of one run of code, which is what a one-line slip usually does. One message per
marker: rule 3 is not reported where rule 1 or 2 already was. Not caught: a
marker moved across a blank line onto another paragraph boundary (the region is then a
different but well-formed part of the program).

A problem is a build warning at the page's ``literalinclude`` naming the program's file,
line and marker, so ``-W`` fails. ``tests/examples/test_snippets.py`` applies the same rules to
every pair of markers in ``snippets/``, included or not.
"""

import ast
import os
import re
import textwrap
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.directives.code import LiteralInclude
from sphinx.util import logging

logger = logging.getLogger(__name__)

MARKER = re.compile(r"^\s*#\s*\[(?P<end>/?)(?P<name>[^\]\s]+)\]\s*$")
COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.FunctionDef,
            ast.AsyncFunctionDef, ast.ClassDef, ast.Match) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())


def shown(path: Path) -> str:
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


def indentation(line: str) -> int:
    return len(line) - len(line.lstrip())


def region_lines(lines: list[str], options: dict) -> tuple[int, int, int | None, int | None] | None:
    """(first, last, start marker line, end marker line) of the included code, 1-based and inclusive,
    found as Sphinx's LiteralIncludeReader finds it (the first line containing the text); None when a
    marker is missing (Sphinx reports that itself)."""
    first, last, start_marker, end_marker = 1, len(lines), None, None
    start = options.get("start-at") or options.get("start-after")
    if start:
        found = next((n for n, line in enumerate(lines, 1) if start in line), None)
        if found is None:
            return None
        start_marker = found
        first = found if options.get("start-at") else found + 1
    end = options.get("end-at") or options.get("end-before")
    if end:
        # end-before never matches the first included line (LiteralIncludeReader.end_filter)
        skip_first = not options.get("end-at")
        found = next((n for n, line in enumerate(lines, 1)
                      if n >= first + (1 if skip_first else 0) and end in line), None)
        if found is None:
            return None
        end_marker = found
        last = found if options.get("end-at") else found - 1
    return first, last, start_marker, end_marker


def statement_span(node: ast.stmt) -> tuple[int, int]:
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno] + [d.lineno for d in decorators])
    return start, node.end_lineno or node.lineno


def region_problems(path: Path, options: dict, text: str | None = None) -> list[str]:
    """What is wrong with the region of ``path`` that these literalinclude options select, one
    message each, as ``file:line: ...`` (the line of the marker at fault)."""
    text = Path(path).read_text(encoding="utf-8") if text is None else text
    lines = text.splitlines()
    found = region_lines(lines, options)
    if found is None:
        return []
    first, last, start_marker, end_marker = found
    name = shown(Path(path))
    start_text = options.get("start-at") or options.get("start-after")
    end_text = options.get("end-at") or options.get("end-before")
    start_at = f"{name}:{start_marker or first}"
    end_at = f"{name}:{end_marker or last}"
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        return [f"{name}:{error.lineno}: the program does not parse ({error.msg}), so its regions cannot be checked"]

    problems, cut_start, cut_end = [], False, False
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        begins, ends = statement_span(node)
        if first <= begins <= last < ends and not cut_end:
            cut_end = True
            problems.append(f"{end_at}: the region ends at {end_text!r} inside the statement of lines {begins}-{ends}: "
                            "move the marker below its last line")
        elif begins < first <= ends and not isinstance(node, COMPOUND) and not cut_start:
            cut_start = True
            problems.append(f"{start_at}: the region starts at {start_text!r} inside the statement of lines "
                            f"{begins}-{ends}: move the marker above its first line")
    if not problems:
        region = "\n".join(lines[first - 1:last])
        try:
            ast.parse(textwrap.dedent(region))
        except SyntaxError as error:
            line = first - 1 + (error.lineno or 1)
            message = re.sub(r"on line (\d+)", lambda m: f"on line {first - 1 + int(m[1])}", error.msg)
            problems.append(f"{start_at}: the region between {start_text!r} and {end_text!r} does not parse on its "
                            f"own ({message}, line {line}): a marker stands inside a statement")
            cut_start = cut_end = True

    code = [n for n in range(first, last + 1) if lines[n - 1].strip() and not MARKER.match(lines[n - 1])]
    if code:
        level = min(indentation(lines[n - 1]) for n in code)
        before = (start_marker or first) - 1 if start_text else 0
        while before >= 1 and MARKER.match(lines[before - 1]):
            before -= 1
        if not cut_start and before >= 1 and lines[before - 1].strip() and indentation(lines[before - 1]) >= level:
            problems.append(f"{start_at}: the region starts at {start_text!r} in the middle of a run of code: line "
                            f"{before} ({lines[before - 1].strip()!r}) comes right before it; start the region above "
                            "the code it belongs to, or put a blank line between")
        after = (end_marker or last) + 1 if end_text else len(lines) + 1
        while after <= len(lines) and MARKER.match(lines[after - 1]):
            after += 1
        if not cut_end and after <= len(lines) and lines[after - 1].strip() and indentation(lines[after - 1]) >= level:
            problems.append(f"{end_at}: the region ends at {end_text!r} in the middle of a run of code: line "
                            f"{after} ({lines[after - 1].strip()!r}) follows it; end the region below the code "
                            "it belongs to, or put a blank line between")
    return problems


def marker_pairs(lines: list[str]) -> tuple[list[tuple[str, int, int]], list[str]]:
    """Every ``# [name]`` ... ``# [/name]`` pair of a program as (name, line, end line), and the
    markers without a partner."""
    pairs, unpaired, open_at = [], [], {}
    for number, line in enumerate(lines, 1):
        match = MARKER.match(line)
        if not match:
            continue
        if not match["end"]:
            open_at[match["name"]] = number
        elif match["name"] in open_at:
            pairs.append((match["name"], open_at.pop(match["name"]), number))
        else:
            unpaired.append(f"line {number}: '# [/{match['name']}]' closes no '# [{match['name']}]'")
    unpaired += [f"line {number}: '# [{name}]' is never closed by '# [/{name}]'" for name, number in open_at.items()]
    return sorted(pairs, key=lambda pair: pair[1]), unpaired


class CheckedLiteralInclude(LiteralInclude):
    """Sphinx's literalinclude, which also checks the region a Python program's markers select."""

    def run(self):
        keys = ("start-after", "start-at", "end-before", "end-at")
        if any(key in self.options for key in keys) and "pyobject" not in self.options:
            _, filename = self.env.relfn2path(self.arguments[0])
            language = self.options.get("language", "")
            if str(filename).endswith(".py") or language in ("python", "python3", "py"):
                try:
                    problems = region_problems(Path(filename), {k: self.options[k] for k in keys if k in self.options})
                except (OSError, UnicodeDecodeError):
                    problems = []  # the directive itself reports a file it cannot read
                for problem in problems:
                    logger.warning(problem, location=(self.env.docname, self.lineno), type="snippet", subtype="region")
        return super().run()


def setup(app: Sphinx) -> dict:
    app.add_directive("literalinclude", CheckedLiteralInclude, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
