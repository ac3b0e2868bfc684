"""Lint the translation catalogs: the mistakes Sphinx never warns about.

    python tools/lint/lint_po.py [--docs DIR] [--count=occurrence] [PATH ...]

PATH is a ``.po`` file or a folder of them (default: the catalogs of every
translation under ``locale/``); ``--docs`` is the source folder holding the
glossary page (default ``docs/``). Every problem is printed as
``path:line: [rule] msgid-excerpt: what is wrong``, the line being the one
that holds the problem (the word, code span or term in question; for
something the translation lacks, the source line that has it); the exit
status is 1 if there is any. The tool only reads: it never writes a file.

A catalog that does not parse is reported once and its entries are skipped. The reader is
``tools/catalogs/catalog_file.py``, the one the build, ``make stats``, the status page, the bilingual view
and ``make update-po`` use (GNU ``msgfmt --check`` and three checks of its own), so they all
reject the same catalogs with the same words:

``syntax``       msgfmt rejects it: an unterminated string, a ``msgstr`` without its ``msgid``, a duplicate
                 entry, ...
``charset``      not valid UTF-8 (or cut off in the middle of a character), a byte order mark, or a header
                 that does not declare ``charset=UTF-8``

A sound catalog's header:

``header``       ``msgfmt -c`` (what a PO editor runs) warns about it, e.g. a placeholder date

For every translated, non-fuzzy entry, the msgstr must keep the msgid's markup
(broken MyST markup in a msgstr renders as plain text, silently):

``code``         every code span, character for character (a span with Chinese in it is prose: translate it),
                 and no code span the msgid lacks
``role``         every role with its target (``{py:func}`torch.cat```, the ``<label>`` of ``{ref}`text <label>```);
                 the displayed text of a role with an explicit title is translated
``link``         every link target (``[text](target)``), and no other
``label``        every ``(label)=`` target
``math``         every inline ``$math$`` (unless it has Chinese in it, e.g. ``\\text{偏差}``)
``number``       the numbers written in digits, compared as multisets both ways: each one of the msgid once
                 in the msgstr (0-12 may be spelled out: "zeros", "one"), and no number the msgid lacks
                 (a digit the msgid writes as a Chinese numeral, 两个 or 三维, is not added); and the numbers
                 spelled out in English ("zero" to "twenty", "a dozen", "twice"): one that the msgid has
                 nowhere (as digits or a Chinese numeral) while a number the msgid states (两个, 三维, 2) is
                 not in the msgstr in any form is a changed number (两个进程 -> "three ranks")
``placeholder``  exactly the same ``%s``/``%(name)s``/``{name}``/``{{name}}`` placeholders
``html``         no raw HTML tag that the msgid does not have
``url``          no URL that the msgid does not have; in English, a link to an article in Chinese (zhihu,
                 csdn, cnblogs, jianshu, a .cn site...) says "(in Chinese)"
``markup``       no stray backtick or role name left over from broken markup
``terminology``  every sentence of the msgid that uses a glossary term has the term's English term in the
                 msgstr, counted (two sentences, two renderings), and a ``{term}`` role shows its term's
                 English term; ``--count=occurrence`` counts every use instead (see ``tools/lint/lint_terms.py``);
                 in glossary.po, no ``# also:`` form is a rejected variant and no two terms share an English term
``variant``      no rejected variant of a term: Chinese ones in the msgid, English ones in the msgstr
                 (``tools/terminology/zh.tsv`` and ``en.tsv``: the preferred form, a tab, the variants;
                 ``en-allowed.tsv``: forms allowed as they stand), and ``Default: `x``` in field text
``consistency``  the same msgid is translated the same way in every catalog of a language
``spelling``     every English word outside code, math, roles and links is in hunspell's en_US dictionary
                 or a project word list (``tools/spelling/*.txt``); see ``tools/lint/spelling.py``
``fuzzy``        an entry still flagged fuzzy (its translation is not used)
``previous``     ``#|`` lines (the source before it changed) left on an entry that is no longer fuzzy
``untranslated`` an entry with no translation
``lint-ok``      an exception that names no rule of this list, allows nothing in its entry, or is a bare
                 ``# lint-ok: number``

Glossary (the single source of term pairs): the term lines of the ``{glossary}``
directive in ``docs/glossary.md`` are the source terms; the msgstr of each term
line in ``<language>/LC_MESSAGES/glossary.po`` is its translation.

Exceptions: a translator comment on the entry, kept by ``make update-po``, one per line::

    # lint-ok: terminology 张量      (this term, in this entry)
    # lint-ok: number 20             (this number, in this entry: missing or added; one line per number)
    # lint-ok: variant 下标          (this variant, in this entry)
    # lint-ok: variant               (the whole rule, in this entry; not for number)

An exception that allows nothing fails, so none outlives its reason.
A homonym gets accepted variants in glossary.po, on the term's entry
(``# also: argument`` under 参数 → parameter). Pages listed in
``<locale>/terminology-pending.txt`` (``en tensors/where`` lines) have their
terminology problems printed as pending instead of failing; a listed page with
no problem left fails, so the list only shrinks.
"""

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polib

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import problems as catalog_problems, read, report_lines  # noqa: E402
from tools.lint.lint_terms import (english_pattern, glossary_pairs, glossary_term_problems,  # noqa: E402,F401  (re-exported)
                        rejected_variants, terminology_problems, variant_problems)
from tools.catalogs.po_lines import FUZZY_ADVICE, CatalogLines, EntryLines  # noqa: E402
from tools.lint.po_markup import CJK, NUMBER, URL, Markup, Problem, lone_backtick  # noqa: E402,F401
from tools.project import DOCS, GLOSSARY_PAGE, LOCALE, PAGE_SUFFIX, ROOT, site_languages, translations  # noqa: E402
from tools.lint.spelling import SpellCheckerMissing, misspelled, words  # noqa: E402

TERMINOLOGY = ROOT / "tools" / "terminology"  # zh.tsv, en.tsv, en-allowed.tsv
MSGFMT_TIMEOUT = 60  # seconds; msgfmt checks one catalog in milliseconds
EXCEPTION = re.compile(r"^\s*lint-ok:\s*([\w-]+)\s*(.*?)\s*$")
ENTRY_RULES = {"code", "role", "link", "label", "math", "number", "placeholder", "html", "url", "markup",
               "terminology", "variant"}
EXEMPTABLE = ENTRY_RULES | {"consistency", "spelling"}
NAMED_ONLY = {"number"}  # rules whose exception must name what it allows


def short(text: str, width: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve"]


def missing(source: list, translation: list) -> list:
    """Distinct items of the source that the translation lacks (a translation may mention a thing once)."""
    return sorted(set(source) - set(translation), key=str)


def added(source: list, translation: list) -> list:
    """Items the translation has more often than the source."""
    return sorted((Counter(translation) - Counter(source)).elements(), key=str)


def spelled_out(number: str, text: str) -> bool:
    """'0' may be written 'zero'/'zeros', '1' 'one'/'ones' ... in English prose."""
    return number.isdigit() and int(number) < len(NUMBER_WORDS) and bool(
        re.search(rf"(?<![A-Za-z]){NUMBER_WORDS[int(number)]}", text, re.I))


# A Chinese numeral that stands for a digit: 两个, 三维, 第二个, 一维, 零维; a bare 一 is mostly "a".
CHINESE_DIGITS = {"零": "0", "一": "1", "两": "2", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6",
                  "七": "7", "八": "8", "九": "9", "十": "10"}
CHINESE_NUMERAL = re.compile(r"(?<=第)([一二三四五六七八九十])|([零一])(?=维)|(?<=[验证例])(一)(?=[：:])"
                             r"|([两二三四五六七八九十])(?=[个维次种层步行列组倍类阶项份轮批])")


def chinese_numerals(text: str) -> list[str]:
    return [CHINESE_DIGITS[next(g for g in m.groups() if g)] for m in CHINESE_NUMERAL.finditer(text)]


# Numbers spelled out in English prose. Not numbers: "one of" (其中一个, partitive), "one another", "no one",
# "one by one" and a word inside a longer one or an identifier (one_hot, zero_grad).
SPELLED_VALUES = {word: value for value, word in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])}
SPELLED_VALUES.update(twice=2, dozen=12)
# What renders a number besides its digits and its word: ordinals (第二 -> "second"), both, a pair, once...
RENDERINGS = dict(SPELLED_VALUES, both=2, pair=2, double=2, once=1, single=1, half=2,
                  **{word: value for value, word in enumerate(
                      ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                       "ninth", "tenth", "eleventh", "twelfth"])})


def _words(table: dict[str, int]) -> re.Pattern:
    alternatives = "|".join(sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<![\w'-])({alternatives})(?![\w'])(?!\s+(?:of|another|by\s+one)\b)", re.I)


SPELLED_NUMBER = _words(SPELLED_VALUES)
RENDERED_NUMBER = _words(RENDERINGS)
NOT_A_NUMBER = re.compile(r"\bno\s+one\b", re.I)
CHINESE_NUMBER = re.compile(r"[零〇一二两俩三四五六七八九十]+")


def chinese_values(text: str) -> set[int]:
    """Every number a run of Chinese numerals can stand for (十二 -> 12, 两 -> 2, 一千 -> 1, 二十 -> 20)."""
    values = set()
    for run in CHINESE_NUMBER.findall(text):
        if "十" in run:
            before, _, after = run.partition("十")
            values.add(10 * (int(CHINESE_DIGITS.get(before[-1], "1")) if before else 1)
                       + (int(CHINESE_DIGITS.get(after[0], "0")) if after and after[0] != "十" else 0))
        values.update(int(CHINESE_DIGITS[c]) for c in run if c in CHINESE_DIGITS and c != "十")
        values.update({"俩": 2, "〇": 0}.get(c, -1) for c in run)
    return values - {-1}


def whole_numbers(numbers) -> set[int]:
    return {int(float(n)) for n in numbers if float(n).is_integer()}


def spelled_number_problems(src: Markup, dst: Markup) -> list[Problem]:
    """A number spelled out in English that the source has nowhere, where a number the source states is gone.

    Both halves are needed: "two different batches" for 不同的批 adds a word, but the source states no
    number that went missing; 两个进程 -> "three ranks" adds 3 and loses 2.
    """
    stated = whole_numbers(src.numbers) | {int(n) for n in chinese_numerals(src.prose)}
    prose = NOT_A_NUMBER.sub(" ", dst.prose)
    rendered = whole_numbers(dst.numbers + NUMBER.findall(" ".join(dst.code + dst.math)))
    rendered |= {RENDERINGS[m.group(1).lower()] for m in RENDERED_NUMBER.finditer(prose)}
    gone = sorted(stated - rendered)
    if not gone:
        return []
    anywhere = whole_numbers(src.numbers + NUMBER.findall(" ".join(src.code + src.math))) | chinese_values(src.prose)
    found = []
    for match in SPELLED_NUMBER.finditer(prose):
        value = SPELLED_VALUES[match.group(1).lower()]
        if value not in anywhere:
            found.append(Problem("number", f"writes {match.group(1)!r} ({value}), a number the source does not "
                                           f"have, and leaves out the source's {', '.join(map(str, gone))}",
                                 "msgstr", dst.at(match.start()), match.group(1).lower()))
    return found


def last_offsets(markup: Markup, number: str, how_many: int) -> list[int]:
    """Where the last ``how_many`` uses of ``number`` are (the unmatched ones, most likely)."""
    offsets = [o for n, o in zip(markup.numbers, markup.number_offsets) if n == number]
    return offsets[-how_many:] if how_many else []


def number_problems(src: Markup, dst: Markup) -> list[Problem]:
    """Digits compared as multisets: 'all 4 samples' -> 'all 5 samples' fails even if a 4 is elsewhere."""
    src_left = Counter(src.numbers)
    dst_left = Counter(dst.numbers)
    common = src_left & dst_left
    src_left -= common
    dst_left -= common
    in_code = Counter(NUMBER.findall(" ".join(dst.code)))  # `0` in a code span keeps the 0
    found = []
    for number in sorted(src_left, key=str):
        unmatched = 0
        for _ in range(src_left[number]):
            if in_code[number]:
                in_code[number] -= 1
            elif not spelled_out(number, dst.prose):
                unmatched += 1
        for offset in last_offsets(src, number, unmatched):
            found.append(Problem("number", f"number {number!r} is missing or altered", "msgid", offset, number))
    numerals = Counter(chinese_numerals(src.prose))
    for number in sorted(dst_left, key=str):
        unmatched = 0
        for _ in range(dst_left[number]):
            if numerals[number]:
                numerals[number] -= 1
            else:
                unmatched += 1
        for offset in last_offsets(dst, number, unmatched):
            found.append(Problem("number", f"adds number {number!r} that the source does not have", "msgstr",
                                 offset, number))
    return found + spelled_number_problems(src, dst)


# Sites whose articles are written in Chinese: an English reader is told before following the link.
CHINESE_SITES = re.compile(r"https?://(?:[\w-]+\.)*(?:zhihu\.com|csdn\.net|cnblogs\.com|jianshu\.com|juejin\.cn"
                           r"|segmentfault\.com|oschina\.net|51cto\.com|bilibili\.com|[\w-]+\.cn)(?=[/:>\s]|$)")


def chinese_article_problems(msgid: str, msgstr: str) -> list[Problem]:
    """A link to an article in Chinese is marked "(in Chinese)" in English (or "... in Chinese")."""
    links = [url for url in Markup(msgid).urls if CHINESE_SITES.match(url)]
    if not links or re.search(r"\bin Chinese\b", msgstr):
        return []
    return [Problem("url", f"links to an article in Chinese ({links[0]}): say so, e.g. '(in Chinese)'", "msgstr",
                    find(msgstr, links[0]))]


def find(text: str, item: str) -> int | None:
    at = text.find(item)
    return at if at >= 0 else None


def markup_problems(msgid: str, msgstr: str) -> list[Problem]:
    """Every piece of markup the translation breaks, with where it is (or, if lacking, where the source has it).

    Role targets never change, ``{term}`` included: Sphinx resolves a translated term
    reference by the source term, so the translation writes ``{term}`tensor <张量>```
    (``{term}`tensor``` fails the build with i18n.inconsistent_references).
    """
    src, dst = Markup(msgid), Markup(msgstr)
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
    found += number_problems(src, dst)
    for name, target in missing(src.roles, dst.roles):
        found.append(Problem("role", f"role {{{name}}} with target {target!r} is missing or altered", "msgid",
                             find(msgid, "{" + name + "}")))
    for target in missing(src.links, dst.links):
        found.append(Problem("link", f"link target {target!r} is missing or altered", "msgid", find(msgid, target)))
    for target in added(src.links, dst.links):
        if not URL.fullmatch(target) and target not in src.links:  # an added URL is reported by the url rule
            found.append(Problem("link", f"adds link target {target!r}", "msgstr", find(msgstr, target)))
    for item in added(dst.placeholders, src.placeholders):
        found.append(Problem("placeholder", f"placeholder {item!r} is missing", "msgid", find(msgid, item)))
    for item in added(src.placeholders, dst.placeholders):
        found.append(Problem("placeholder", f"adds placeholder {item!r}", "msgstr", find(msgstr, item)))
    for tag in missing(dst.html, src.html):
        at = re.search(r"<!--" if tag == "!--" else rf"</?{re.escape(tag)}\b", msgstr, re.I)
        found.append(Problem("html", f"adds raw HTML <{tag}>", "msgstr", at.start() if at else None))
    for url in missing(dst.urls, src.urls):
        found.append(Problem("url", f"adds URL {url!r}", "msgstr", find(msgstr, url)))
    extra = Counter(added(src.leftovers, dst.leftovers))
    for item, how_many in sorted(extra.items()):
        offsets = [o for left, o in zip(dst.leftovers, dst.leftover_offsets) if left == item][-how_many:]
        if item == "`" and how_many == 1:  # the parser sees it at the end; the lone one is often much earlier
            offsets = [lone_backtick(src, msgstr) or offsets[0]]
        for offset in offsets:
            found.append(Problem("markup", f"stray {item!r}: broken code span or role", "msgstr", offset))
    return found


# -- Cross-file rules ----------------------------------------------------------------

_lines_cache: dict[Path, tuple[int, CatalogLines]] = {}


def catalog_lines(po: Path) -> CatalogLines:
    """The file's lines, read once per version of the file."""
    stamp = po.stat().st_mtime_ns
    cached = _lines_cache.get(po)
    if cached is None or cached[0] != stamp:
        cached = (stamp, CatalogLines(po))
        _lines_cache[po] = cached
    return cached[1]


def entry_lines(po: Path, entry: polib.POEntry) -> EntryLines:
    return catalog_lines(po).entry(entry)


def consistency_problems(entries: list[tuple[Path, polib.POEntry]], scope: set[Path] | None = None) -> list[str]:
    """One msgid, one translation across the catalogs of a language (the glossary's term lines aside).

    ``entries`` are those of every catalog of the language; problems are reported for the catalogs
    in ``scope`` (resolved paths; all by default). Where most catalogs agree, only the odd ones are reported, each
    once, naming the form the others use and where; with no majority, every place is.
    """
    by_msgid: dict[str, dict[str, list[tuple[Path, int]]]] = {}
    for po, entry in entries:
        if po.stem == GLOSSARY_PAGE or "*" in allowed_exceptions(entry).get("consistency", set()):
            continue
        line = entry_lines(po, entry).line("msgstr")
        by_msgid.setdefault(entry.msgid, {}).setdefault(entry.msgstr, []).append((po, line))
    errors = []
    for msgid, renderings in by_msgid.items():
        if len(renderings) < 2:
            continue
        ranked = sorted(renderings.items(), key=lambda item: -len(item[1]))
        (usual, usual_places), runner_up = ranked[0], ranked[1]
        if len(usual_places) > len(runner_up[1]):
            example = f"{usual_places[0][0]}:{usual_places[0][1]}"
            for msgstr, places in ranked[1:]:
                for po, line in places:
                    if scope is None or po.resolve() in scope:
                        errors.append(f"{po}:{line}: [consistency] {short(msgid)!r}: translated {short(msgstr, 60)!r}"
                                      f" here, but {short(usual, 60)!r} in {len(usual_places)} other place(s)"
                                      f" (e.g. {example}): use one translation")
        else:
            listed = "; ".join(f"{msgstr!r} ({len(places)}x)" for msgstr, places in renderings.items())
            errors += [f"{po}:{line}: [consistency] {short(msgid)!r}: translated in different ways, no form is "
                       f"the usual one: {listed}"
                       for places in renderings.values() for po, line in places if scope is None or po.resolve() in scope]
    return errors


def language_catalogs(locale_dir: Path, language: str) -> list[Path]:
    return sorted((locale_dir / language / "LC_MESSAGES").rglob("*.po"))


def spelling_problems(entries: list[tuple[Path, polib.POEntry]]) -> list[str]:
    """Words hunspell (en_US) and the project word lists do not know; one hunspell run for all catalogs.
    One report per line of the file, naming the unknown words of that line."""
    per_entry = []
    for po, entry in entries:
        if entry.msgstr != entry.msgid and "*" not in allowed_exceptions(entry).get("spelling", set()):
            markup = Markup(entry.msgstr)
            if markup.leftovers:  # broken markup (the markup rule reports it): its prose holds code
                continue
            per_entry.append((po, entry, markup, words(markup.prose)))
    try:
        unknown = misspelled({w for *_, found in per_entry for w in found})
    except SpellCheckerMissing as error:
        return [f"[spelling] {error}"]
    errors = []
    for po, entry, markup, found in per_entry:
        bad = sorted({w for w in found if w in unknown})
        if not bad:
            continue
        where = entry_lines(po, entry)
        by_line: dict[int, list[str]] = {}
        for word in bad:
            at = re.search(rf"(?<![A-Za-z']){re.escape(word)}(?![A-Za-z])", markup.prose)
            line = where.line("msgstr", markup.at(at.start()) if at else None)
            by_line.setdefault(line, []).append(word)
        for line, listed in sorted(by_line.items()):
            errors.append(f"{po}:{line}: [spelling] {short(entry.msgid)!r}: not in en_US or "
                          f"tools/spelling/*.txt: {', '.join(listed)}")
    return errors


# -- Files -------------------------------------------------------------------------

def file_problems(po: Path) -> list[tuple[int, str, str]]:
    """(line, rule, message) if the file cannot be trusted as a catalog at all: what the reader of every
    tool and of the build (``catalog_file.problems``: msgfmt --check and its own checks) rejects."""
    return [(p.line, p.rule, p.message) for p in catalog_problems(po)]


def header_warnings(po: Path) -> list[str]:
    """What ``msgfmt -c`` (and so a PO editor) warns about in a sound catalog: a placeholder header field."""
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True,
                            timeout=MSGFMT_TIMEOUT)
    found = []
    lines = po.read_text(encoding="utf-8").splitlines()[:40]
    for line in result.stderr.splitlines():
        located = re.match(rf"^{re.escape(str(po))}:(\d+):(?:\d+:)?\s*warning:\s*(.*)$", line)
        if located:
            number, message = int(located.group(1)), located.group(2)
            field = re.search(r"header field '([\w-]+)'", message)  # msgfmt names the header's first line:
            if field:  # the field's own line is the one to edit
                number = next((n for n, text in enumerate(lines, 1) if text.startswith(f'"{field.group(1)}:')),
                              number)
            found.append(f"{po}:{number}: [header] {message} (msgfmt -c)")
    return found


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


def catalog_language(po: Path) -> tuple[Path, str] | None:
    """(locale dir, language) of a catalog stored as LOCALE/LANG/LC_MESSAGES/.../page.po."""
    parts = po.resolve().parts
    if "LC_MESSAGES" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("LC_MESSAGES")
    return Path(*parts[: i - 1]), parts[i - 1]


def catalog_file_errors(po: Path) -> list[str]:
    """``file_problems`` as report lines: ``path:line: [rule] message`` (``catalog_file.report_lines``)."""
    return report_lines(po)


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


def lint_file(po: Path, docs_dir: Path = DOCS, _glossaries: dict | None = None, count: str = "sentence") -> list[str]:
    problems = catalog_file_errors(po)
    if problems:
        return problems
    errors = header_warnings(po)
    pairs: dict[str, list[str]] = {}
    located = catalog_language(po)
    if located:
        glossary_po = located[0] / located[1] / "LC_MESSAGES" / (GLOSSARY_PAGE + ".po")
        key = (docs_dir, glossary_po)
        cache = _glossaries if _glossaries is not None else {}
        if key not in cache:
            cache[key] = glossary_pairs(docs_dir / (GLOSSARY_PAGE + PAGE_SUFFIX), glossary_po)
        pairs = cache[key]
    variants = rejected_variants(TERMINOLOGY)
    for entry in read(po):
        if entry.obsolete or not entry.msgid:
            continue
        where = entry_lines(po, entry)
        if entry.fuzzy:
            errors.append(f"{po}:{where.line('msgstr')}: [fuzzy] {short(entry.msgid)!r}: {FUZZY_ADVICE}")
            continue
        if where.previous_lines:
            errors.append(f"{po}:{where.previous_lines[0]}: [previous] {short(entry.msgid)!r}: '#|' lines left "
                          "from a fuzzy entry (the source text before it changed): delete them")
        if not entry.msgstr.strip():
            errors.append(f"{po}:{where.line('msgstr')}: [untranslated] {short(entry.msgid)!r}: no translation yet")
            continue
        allowed = allowed_exceptions(entry)
        found = markup_problems(entry.msgid, entry.msgstr)
        broken = [p for p in found if p.rule == "markup"]
        if broken:  # a lone backtick or role name: the code spans and roles after it are misread, so their
            # problems are consequences, reported once the markup is mended; the broken spot comes first
            found = broken + [p for p in found if p.rule not in {"markup", "code", "role"}]
        found += terminology_problems(entry.msgid, entry.msgstr, pairs, count)
        found += variant_problems(entry.msgid, entry.msgstr, variants)
        if located and located[1].startswith("en"):
            found += chinese_article_problems(entry.msgid, entry.msgstr)
        if po.stem == GLOSSARY_PAGE and entry.msgid in pairs:
            found += glossary_term_problems(entry.msgid, pairs, variants)
        used: set[tuple[str, str]] = set()
        reported = []
        for problem in found:
            allowing = is_allowed(problem, allowed)
            if allowing:
                used.add(allowing)
                continue
            line = where.line(problem.field, problem.offset)
            if problem.field == "comment":  # on the translator comment that says it
                line = next((n for n, text in where.comment_lines
                             if text.startswith("also:") and (problem.detail or "") in text), line)
            reported.append((line, problem))
        for line, problem in sorted(reported, key=lambda item: (item[1].rule != "markup", item[0])):
            error = f"{po}:{line}: [{problem.rule}] {short(entry.msgid)!r}: {problem.message}"
            if error not in errors:  # the same variant twice on one line: one report
                errors.append(error)
        comment_lines = {text.strip(): number for number, text in where.comment_lines}
        for text, message in exception_problems(entry, used):
            errors.append(f"{po}:{comment_lines.get(text, where.first_line)}: [lint-ok] {short(entry.msgid)!r}: "
                          f"{message}")
    return errors


def catalogs(paths: list[Path]) -> list[Path]:
    found = []
    for path in paths:
        found += sorted(path.rglob("*.po")) if path.is_dir() else [path]
    return found


PENDING = "terminology-pending.txt"  # in the locale folder: '<language> <page>' lines, may only shrink


def pending_pages(locale_dir: Path) -> dict[tuple[str, str], int]:
    """{(language, page): line} of the pages whose terminology problems do not fail the lint yet."""
    path = locale_dir / PENDING
    if not path.exists():
        return {}
    found = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if len(words) == 2:
            found[tuple(words)] = number
    return found


def lint_report(paths: list[Path], docs_dir: Path = DOCS, count: str = "sentence") -> tuple[list[str], list[str]]:
    """(errors, pending): terminology problems of the pages listed in <locale>/terminology-pending.txt
    are pending, not errors; a listed page that has none any more is an error (take it off the list)."""
    cache: dict = {}
    errors, pending = [], []
    translated: dict[str, list[tuple[Path, polib.POEntry]]] = {}  # per language, for the cross-file rules
    for po in catalogs(paths):
        problems = lint_file(po, docs_dir, cache, count)
        located = catalog_language(po)
        if not catalog_file_errors(po):
            language = located[1] if located else "?"
            translated.setdefault(language, []).extend(
                (po, e) for e in read(po) if e.translated() and not e.obsolete)
        if located:
            locale_dir, language = located
            page = po.resolve().relative_to(locale_dir / language / "LC_MESSAGES").with_suffix("").as_posix()
            listed = pending_pages(locale_dir).get((language, page))
            if listed:
                waiting = [p for p in problems if re.match(r"^.*?:\d+: \[terminology\] ", p)]
                problems = [p for p in problems if p not in waiting]
                pending += waiting
                if not waiting:
                    errors.append(f"{locale_dir / PENDING}:{listed}: [terminology] {language} {page}: "
                                  "no terminology problem left; remove the page from the list")
        errors += problems
    scoped = {po.resolve() for entries in translated.values() for po, _ in entries}
    for language, entries in translated.items():
        # Consistency is a rule across catalogs: a lint of some catalogs measures them against all of the language.
        locale_dirs = {catalog_language(po)[0] for po, _ in entries if catalog_language(po)}
        everything = list(entries)
        for locale_dir in locale_dirs:
            for po in language_catalogs(locale_dir, language):
                if po.resolve() not in scoped and not catalog_file_errors(po):
                    everything += [(po, e) for e in read(po) if e.translated() and not e.obsolete]
        errors += consistency_problems(everything, scoped)
        if language.startswith("en"):
            errors += spelling_problems(entries)
    # A draft language (site_languages in conf.py) is expected to be incomplete, and to fall behind when the
    # source changes: its untranslated and fuzzy entries are counted, not listed as errors (as in the build
    # and the tests); everything else about its translations is checked as for any language.
    for language in sorted(draft_languages() & {catalog_language(po)[1] for po in catalogs(paths)
                                               if catalog_language(po)}):
        unfinished = {kind: [e for e in errors if f"/{language}/LC_MESSAGES/" in e and f": [{kind}] " in e]
                      for kind in ("untranslated", "fuzzy")}
        if any(unfinished.values()):
            errors = [e for e in errors if not any(e in found for found in unfinished.values())]
            pending.append(f"{language} is a draft: {len(unfinished['untranslated'])} entries not translated yet, "
                           f"{len(unfinished['fuzzy'])} fuzzy (make todo L={language})")
    return errors, pending


def draft_languages() -> set[str]:
    try:
        return {code for code, info in site_languages().items() if info.get("draft")}
    except (OSError, KeyError):  # a checkout without conf.py (a fixture): no drafts
        return set()


def lint(paths: list[Path], docs_dir: Path = DOCS, count: str = "sentence") -> list[str]:
    return lint_report(paths, docs_dir, count)[0]


def main(argv: list[str]) -> None:
    docs_dir, count = DOCS, "sentence"
    while argv[:1] and argv[0].startswith("-"):
        if argv[0] == "--docs" and len(argv) > 1:
            docs_dir, argv = Path(argv[1]), argv[2:]
        elif argv[0] in ("--count=occurrence", "--count=sentence"):
            count, argv = argv[0].split("=", 1)[1], argv[1:]
        else:
            sys.exit(__doc__)
    paths = [Path(a) for a in argv] or [LOCALE / lang / "LC_MESSAGES" for lang in translations()]
    errors, pending = lint_report(paths, docs_dir, count)
    if pending:
        print("pending (not failing yet; fix them, and shrink " + PENDING + "):\n" + "\n".join(pending) + "\n")
    count_files = len(catalogs(paths))
    print("\n".join(errors) if errors else f"lint-po: {count_files} catalogs OK")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
