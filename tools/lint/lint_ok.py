"""Exceptions to the rules of ``make lint-po``: a translator comment on the entry, kept by ``make
update-po``, one per line::

    # lint-ok: terminology 张量      (this term, in this entry)
    # lint-ok: number 20             (this number, in this entry: missing or added; one line per number)
    # lint-ok: variant 下标          (this variant, in this entry)
    # lint-ok: variant               (the whole rule, in this entry; not for number)

``lint-ok``  an exception that names no rule of the lint, allows nothing in its entry, or is a bare
             ``# lint-ok: number``: an exception that allows nothing fails, so none outlives its reason
"""

import re

import polib

from tools.lint.po_markup import Problem

EXCEPTION = re.compile(r"^\s*lint-ok:\s*([\w-]+)\s*(.*?)\s*$")
ENTRY_RULES = {"code", "role", "link", "label", "math", "number", "placeholder", "html", "url", "markup",
               "terminology", "variant"}
EXEMPTABLE = ENTRY_RULES | {"consistency", "spelling"}
NAMED_ONLY = {"number"}  # rules whose exception must name what it allows


def exceptions(entry: polib.POEntry) -> list[tuple[str, str, str]]:
    """(rule, detail, comment text) of every '# lint-ok: RULE [DETAIL]' translator comment; no detail: '*'."""
    found = []
    for line in (entry.tcomment or "").splitlines():
        match = EXCEPTION.match(line)
        if match:
            found.append((match.group(1), match.group(2) or "*", line.strip()))
    return found


def allowed_exceptions(entry: polib.POEntry) -> dict[str, set[str]]:
    """{rule: details} from '# lint-ok: RULE [DETAIL]' translator comments; an empty detail allows all."""
    allowed: dict[str, set[str]] = {}
    for rule, detail, _ in exceptions(entry):
        allowed.setdefault(rule, set()).add(detail)
    return allowed


def exception_problems(entry: polib.POEntry, used: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """(comment text, what is wrong) for every exception that is not a valid, needed one."""
    wrong = []
    for rule, detail, text in exceptions(entry):
        if rule not in EXEMPTABLE:
            wrong.append((text, f"'{text}': no rule {rule!r} (rules: {', '.join(sorted(EXEMPTABLE))})"))
        elif detail == "*" and rule in NAMED_ONLY:
            wrong.append((text, f"'{text}' must name the {rule} it allows, one per line: "
                                f"'# lint-ok: {rule} 20'"))
        elif rule in ENTRY_RULES and (rule, detail) not in used:
            wrong.append((text, f"'{text}' allows nothing in this entry: remove it"))
    return wrong


def is_allowed(problem: Problem, allowed: dict[str, set[str]]) -> tuple[str, str] | None:
    """The (rule, detail) exception that allows ``problem``, if any."""
    details = allowed.get(problem.rule, set())
    if "*" in details and problem.rule not in NAMED_ONLY:
        return problem.rule, "*"
    if problem.detail is not None:
        for detail in details:
            if detail.casefold() == problem.detail.casefold():
                return problem.rule, detail
    return None
