"""The markup rules of ``make lint-po``: a translation keeps the source's markup.

Broken MyST markup in a msgstr renders as plain text, silently. For every translated, non-fuzzy entry:

``code``         every code span, character for character (a span with Chinese in it is prose: translate it),
                 and no code span the msgid lacks
``role``         every role with its target (``{py:func}`torch.cat```, the ``<label>`` of ``{ref}`text <label>```);
                 the displayed text of a role with an explicit title is translated
``label``        every ``(label)=`` target
``math``         every inline ``$math$`` (unless it has Chinese in it, e.g. ``\\text{偏差}``)
``placeholder``  exactly the same ``%s``/``%(name)s``/``{name}``/``{{name}}`` placeholders
``html``         no raw HTML tag that the msgid does not have
``markup``       no stray backtick or role name left over from broken markup

Role targets never change, ``{term}`` included: Sphinx resolves a translated term reference by the
source term, so the translation writes ``{term}`tensor <张量>``` (``{term}`tensor``` fails the build
with i18n.inconsistent_references). Links and URLs are ``lint_links``'s.
"""

import re
from collections import Counter

from tools.lint.entry import Entry
from tools.lint.po_markup import CJK, Problem, added, find, lone_backtick, missing


def problems(entry: Entry) -> list[Problem]:
    """Every piece of markup the translation breaks, with where it is (or, if lacking, where the source has
    it). A lone backtick or role name comes first, without the code spans and roles it makes look missing:
    they are misread after it, and reported once the markup is mended."""
    found = markup_problems(entry)
    broken = [p for p in found if p.rule == "markup"]
    if broken:
        return broken + [p for p in found if p.rule not in {"markup", "code", "role"}]
    return found


def markup_problems(entry: Entry) -> list[Problem]:
    src, dst = entry.source, entry.translation
    msgid, msgstr = entry.msgid, entry.msgstr
    found = []
    # A code span with Chinese in it is pseudo-code in prose: it has to be translated.
    code = [c for c in src.code if not CJK.search(c)]
    for rule, what, src_items, dst_items, written in [
        ("code", "code span", code, dst.code, lambda c: c),
        ("math", "math", [m for m in src.math if not CJK.search(m)], dst.math, lambda m: m),
        ("label", "label", src.labels, dst.labels, lambda label: f"({label})="),
    ]:
        for item in missing(src_items, dst_items):
            found.append(Problem(rule, f"{what} {item!r} is missing or altered", "msgid", find(msgid, written(item))))
    translated_pseudo_code = len(src.code) - len(code)
    for item in sorted(set(dst.code) - set(src.code))[translated_pseudo_code:]:
        found.append(Problem("code", f"adds code span {item!r} that the source does not have", "msgstr",
                             find(msgstr, item)))
    for name, target in missing(src.roles, dst.roles):
        found.append(Problem("role", f"role {{{name}}} with target {target!r} is missing or altered", "msgid",
                             find(msgid, "{" + name + "}")))
    for item in added(dst.placeholders, src.placeholders):
        found.append(Problem("placeholder", f"placeholder {item!r} is missing", "msgid", find(msgid, item)))
    for item in added(src.placeholders, dst.placeholders):
        found.append(Problem("placeholder", f"adds placeholder {item!r}", "msgstr", find(msgstr, item)))
    for tag in missing(dst.html, src.html):
        at = re.search(r"<!--" if tag == "!--" else rf"</?{re.escape(tag)}\b", msgstr, re.I)
        found.append(Problem("html", f"adds raw HTML <{tag}>", "msgstr", at.start() if at else None))
    extra = Counter(added(src.leftovers, dst.leftovers))
    for item, how_many in sorted(extra.items()):
        offsets = [o for left, o in zip(dst.leftovers, dst.leftover_offsets) if left == item][-how_many:]
        if item == "`" and how_many == 1:  # the parser sees it at the end; the lone one is often much earlier
            offsets = [lone_backtick(src, dst) or offsets[0]]
        for offset in offsets:
            found.append(Problem("markup", f"stray {item!r}: broken code span or role", "msgstr", offset))
    return found
