"""Lint the translation catalogs: the mistakes Sphinx never warns about.

    python tools/lint_po.py [--docs DIR] [PATH ...]

PATH is a ``.po`` file or a folder of them (default: the catalogs of every
translation under ``locale/``); ``--docs`` is the source folder holding the
glossary page (default ``docs/``). Every problem is printed as
``path:line: [rule] msgid-excerpt: what is wrong``; the exit status is 1 if
there is any. The tool only reads: it never writes a file.

A catalog that does not parse is reported once and its entries are skipped:

``syntax``       GNU ``msgfmt --check`` rejects it (bad syntax, duplicate entry, ...)
``charset``      not valid UTF-8, or its header does not declare ``charset=UTF-8``

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
                 (a digit the msgid writes as a Chinese numeral, 两个 or 三维, is not added)
``placeholder``  exactly the same ``%s``/``%(name)s``/``{name}``/``{{name}}`` placeholders
``html``         no raw HTML tag that the msgid does not have
``url``          no URL that the msgid does not have
``markup``       no stray backtick or role name left over from broken markup
``terminology``  where the msgid uses a glossary term (as a word: jieba's segmentation), the msgstr uses
                 its English term
``variant``      no rejected variant of a term: Chinese ones in the msgid, English ones in the msgstr
                 (``tools/terminology/zh.tsv`` and ``en.tsv``: the preferred form, a tab, the variants)
``consistency``  the same msgid is translated the same way in every catalog of a language
``spelling``     every English word outside code, math, roles and links is in hunspell's en_US dictionary
                 or a project word list (``tools/spelling/*.txt``); see ``tools/spelling.py``
``fuzzy``        an entry still flagged fuzzy (its translation is not used)
``untranslated`` an entry with no translation

Glossary (the single source of term pairs): the term lines of the ``{glossary}``
directive in ``docs/glossary.md`` are the source terms; the msgstr of each term
line in ``<language>/LC_MESSAGES/glossary.po`` is its translation.

Exceptions: a translator comment on the entry, kept by ``make update-po``::

    # lint-ok: terminology 张量      (this term, in this entry)
    # lint-ok: number                (the whole rule, in this entry)

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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from project import DOCS, GLOSSARY_PAGE, LOCALE, PAGE_SUFFIX, ROOT, translations  # noqa: E402

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from glossary_terms import also_variants, read_terms, read_variant_table  # noqa: E402  (the glossary page's parser: one reading of the term lines)
from spelling import SpellCheckerMissing, misspelled, words  # noqa: E402

ROLE = re.compile(r"(?<!`)\{([A-Za-z][\w:+.-]*)\}(`+)(.+?)(?<!`)\2(?!`)", re.S)
CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
EXPLICIT_TITLE = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
MATH = re.compile(r"(?<![\\$])\$(?![\s$])([^$\n]+?)(?<![\s\\])\$(?!\d)")
LINK = re.compile(r"\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
URL = re.compile(r"(?:https?|ftp)://[^\s<>()\[\]`'\"，。；：！？（）]*[^\s<>()\[\]`'\".,;:!?，。；：！？（）]")
HTML = re.compile(r"<!--.*?-->|</?([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?/?>", re.S)
LABEL = re.compile(r"\(([\w.:-]+)\)=")
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:\.\d+)?")
# Not LaTeX's \\text{...}, x^{2}, x_{i}: a {name} placeholder follows no letter, backslash, ^ or _.
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]?\d*(?:\.\d+)?[sdifrxXeEgGc]|%[sdifr]|\{\{\s*[\w.]+\s*\}\}"
                         r"|(?<![A-Za-z\\^_}])\{[A-Za-z0-9_]*\}")
LEFTOVER = re.compile(r"`|(?<![A-Za-z\\^_}])\{[A-Za-z][\w:+.-]*\}")
CHARSET = re.compile(r"charset=([A-Za-z0-9_.:-]+)", re.I)
EXCEPTION = re.compile(r"^\s*lint-ok:\s*([\w-]+)\s*(.*?)\s*$")


def short(text: str, width: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


class Markup:
    """The pieces of one message that a translation must keep, and its plain prose."""

    def __init__(self, text: str) -> None:
        self.roles: list[tuple[str, str]] = []
        self.titles: list[str] = []  # explicit role titles: translated, so they belong to the prose
        self.code: list[str] = []
        self.links: list[str] = []
        self.urls: list[str] = []
        self.html: list[str] = []

        def role(match: re.Match) -> str:
            content = " ".join(match.group(3).split())
            explicit = EXPLICIT_TITLE.match(content)
            target = explicit.group(2) if explicit else content
            self.roles.append((match.group(1), target))
            if explicit:
                self.titles.append(explicit.group(1))
            return " " + (explicit.group(1) if explicit else "") + " "

        def code(match: re.Match) -> str:
            self.code.append(match.group(2))
            return " \x00 "

        def link(match: re.Match) -> str:
            target = match.group(1).strip("<>")
            self.links.append(target)
            if URL.fullmatch(target):
                self.urls.append(target)
            return "] "

        def autolink(match: re.Match) -> str:
            self.urls.append(match.group(1))
            return " "

        text = ROLE.sub(role, text)
        text = CODE.sub(code, text)
        self.math = MATH.findall(text)
        text = MATH.sub(" ", text)
        text = LINK.sub(link, text)
        text = AUTOLINK.sub(autolink, text)
        self.urls += URL.findall(text)
        text = URL.sub(" ", text)
        self.html = [(m.group(1) or "!--").lower() for m in HTML.finditer(text)]
        text = HTML.sub(" ", text)
        self.labels = LABEL.findall(text)
        text = LABEL.sub(" ", text)
        self.placeholders = PLACEHOLDER.findall(text)
        text = PLACEHOLDER.sub(" ", text)
        self.numbers = NUMBER.findall(text)
        self.leftovers = LEFTOVER.findall(text)
        self.prose = text.replace("\x00", " ")


CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
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


def number_problems(src: "Markup", dst: "Markup") -> list[tuple[str, str]]:
    """Digits compared as multisets: 'all 4 samples' -> 'all 5 samples' fails even if a 4 is elsewhere."""
    src_left = Counter(src.numbers)
    dst_left = Counter(dst.numbers)
    common = src_left & dst_left
    src_left -= common
    dst_left -= common
    in_code = Counter(NUMBER.findall(" ".join(dst.code)))  # `0` in a code span keeps the 0
    found = []
    for number in sorted(src_left.elements(), key=str):
        if in_code[number]:
            in_code[number] -= 1
        elif not spelled_out(number, dst.prose):
            found.append(("number", f"number {number!r} is missing or altered"))
    numerals = Counter(chinese_numerals(src.prose))
    for number in sorted(dst_left.elements(), key=str):
        if numerals[number]:
            numerals[number] -= 1
        else:
            found.append(("number", f"adds number {number!r} that the source does not have"))
    return found


def markup_problems(msgid: str, msgstr: str) -> list[tuple[str, str]]:
    """(rule, what is wrong) for every piece of markup the translation breaks.

    Role targets never change, ``{term}`` included: Sphinx resolves a translated term
    reference by the source term, so the translation writes ``{term}`tensor <张量>```
    (``{term}`tensor``` fails the build with i18n.inconsistent_references).
    """
    src, dst = Markup(msgid), Markup(msgstr)
    found = []
    # A code span with Chinese in it is pseudo-code in prose: it has to be translated.
    code = [c for c in src.code if not CJK.search(c)]
    for rule, what, src_items, dst_items in [
        ("code", "code span", code, dst.code),
        ("math", "math", [m for m in src.math if not CJK.search(m)], dst.math),
        ("label", "label", src.labels, dst.labels),
    ]:
        for item in missing(src_items, dst_items):
            found.append((rule, f"{what} {item!r} is missing or altered"))
    translated_pseudo_code = len(src.code) - len(code)
    for item in sorted(set(dst.code) - set(src.code))[translated_pseudo_code:]:
        found.append(("code", f"adds code span {item!r} that the source does not have"))
    found += number_problems(src, dst)
    for name, target in missing(src.roles, dst.roles):
        found.append(("role", f"role {{{name}}} with target {target!r} is missing or altered"))
    for target in missing(src.links, dst.links):
        found.append(("link", f"link target {target!r} is missing or altered"))
    for target in added(src.links, dst.links):
        if not URL.fullmatch(target) and target not in src.links:  # an added URL is reported by the url rule
            found.append(("link", f"adds link target {target!r}"))
    for item in added(dst.placeholders, src.placeholders):
        found.append(("placeholder", f"placeholder {item!r} is missing"))
    for item in added(src.placeholders, dst.placeholders):
        found.append(("placeholder", f"adds placeholder {item!r}"))
    for tag in missing(dst.html, src.html):
        found.append(("html", f"adds raw HTML <{tag}>"))
    for url in missing(dst.urls, src.urls):
        found.append(("url", f"adds URL {url!r}"))
    for item in added(src.leftovers, dst.leftovers):
        found.append(("markup", f"stray {item!r}: broken code span or role"))
    return found


# -- Terminology -----------------------------------------------------------------

def glossary_pairs(glossary_md: Path, glossary_po: Path) -> dict[str, list[str]]:
    """{source term: [English term, accepted variants...]} for every term with a finished translation.

    The term lines are read by the glossary extension (docs/_ext/glossary_terms.py), so the site
    and the lint always agree on what the terms are. Variants come from a translator comment on the
    term's entry in glossary.po: ``# also: argument, arguments`` (for homonyms such as 参数).
    """
    if not glossary_md.exists() or not glossary_po.exists():
        return {}
    catalog = polib.pofile(str(glossary_po))
    pairs = {}
    for term in read_terms(glossary_md):
        entry = catalog.find(term)
        if entry is not None and entry.msgstr.strip() and not entry.fuzzy:
            pairs[term] = [entry.msgstr.strip(), *also_variants(entry)]
    return pairs


# No -ization/-isation: 'initialization' stems to 'initializ', which 'initialize' matches and the
# British 'initialise' does not.
SUFFIX = re.compile(r"(?:ation|ions?|ing|ed|es|e|s|y)$")


def stem(word: str) -> str:
    """A crude English stem, so 'broadcasting' accepts 'broadcast', 'regularization' 'regularize'."""
    short = SUFFIX.sub("", word)
    return short if len(short) >= 4 else word


def english_pattern(term: str) -> re.Pattern:
    """The English term, case-insensitive, any ending on each word, spaces or hyphens between words."""
    words = [re.escape(stem(w)) + r"\w*" for w in re.split(r"[\s-]+", term) if w]
    return re.compile(r"(?<![A-Za-z])" + r"[\s-]+".join(words), re.I)


_segmenter = None


def word_boundaries(text: str, pairs: dict) -> set[int]:
    """Offsets where a word starts or ends: jieba's segmentation, with the glossary terms as words."""
    global _segmenter
    if _segmenter is None or _segmenter[0] != frozenset(pairs):
        import jieba
        jieba.setLogLevel(60)
        tokenizer = jieba.Tokenizer()
        for term in pairs:
            tokenizer.add_word(term)
        _segmenter = (frozenset(pairs), tokenizer)
    boundaries, offset = {0, len(text)}, 0
    for token in _segmenter[1].cut(text):
        offset += len(token)
        boundaries.add(offset)
    return boundaries


def terminology_problems(msgid: str, msgstr: str, pairs: dict[str, list[str]], allowed: set[str]) -> list[tuple[str, str]]:
    src, dst = Markup(msgid).prose, Markup(msgstr).prose
    found = []
    boundaries = word_boundaries(src, pairs)
    for term in sorted(pairs, key=len, reverse=True):  # longest first: 零维张量 before 张量
        at = [m.start() for m in re.finditer(re.escape(term), src)
              if m.start() in boundaries and m.end() in boundaries]  # a word, not 层 inside 底层
        if at:
            for start in at:  # a shorter term inside it is not counted again
                src = src[:start] + "\x01" * len(term) + src[start + len(term):]
            if term not in allowed and not any(english_pattern(en).search(dst) for en in pairs[term]):
                found.append(("terminology", f"uses glossary term {term!r} but not its English term "
                                             f"{pairs[term][0]!r} (or add '# lint-ok: terminology {term}')"))
    return found


TERMINOLOGY = ROOT / "tools" / "terminology"  # zh.tsv, en.tsv: preferred form<TAB>rejected, variants


def read_variants(path: Path) -> dict[str, str]:
    """{rejected variant: preferred form} from one tsv file (absent file: none)."""
    try:
        rows = read_variant_table(path)
    except ValueError as error:
        sys.exit(str(error))
    return {variant: preferred for _, preferred, variants in rows for variant in variants}


def rejected_variants(directory: Path | None = None) -> dict[str, dict[str, str]]:
    directory = directory or TERMINOLOGY
    return {"zh": read_variants(directory / "zh.tsv"), "en": read_variants(directory / "en.tsv")}


def variant_problems(msgid: str, msgstr: str, variants: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """Rejected variants: Chinese ones in the source text, English ones in the translation."""
    found = []
    src = Markup(msgid).prose
    for variant, preferred in variants["zh"].items():
        masked = src.replace(preferred, "\x01" * len(preferred))  # 批量维 inside 批量维度 is fine
        if variant in masked:
            found.append(("variant", f"the source writes {variant!r}; the glossary's form is {preferred!r} "
                                     "(fix the page in docs/)"))
    dst = Markup(msgstr).prose
    for variant, preferred in variants["en"].items():
        if re.search(rf"(?<![\w-]){re.escape(variant)}(?![\w-])", dst, re.I):
            found.append(("variant", f"writes {variant!r}; the project's form is {preferred!r}"))
    return found


def consistency_problems(entries: list[tuple[Path, polib.POEntry]]) -> list[str]:
    """One msgid, one translation across the catalogs of a language (the glossary's term lines aside)."""
    by_msgid: dict[str, dict[str, list[str]]] = {}
    for po, entry in entries:
        if po.stem == GLOSSARY_PAGE or "*" in allowed_exceptions(entry).get("consistency", set()):
            continue
        by_msgid.setdefault(entry.msgid, {}).setdefault(entry.msgstr, []).append(f"{po}:{entry.linenum}")
    errors = []
    for msgid, renderings in by_msgid.items():
        if len(renderings) > 1:
            listed = "; ".join(f"{msgstr!r} ({len(places)}x)" for msgstr, places in renderings.items())
            for places in renderings.values():
                errors += [f"{place}: [consistency] {short(msgid)!r}: translated in different ways: {listed}"
                           for place in places]
    return errors


def spelling_problems(entries: list[tuple[Path, polib.POEntry]]) -> list[str]:
    """Words hunspell (en_US) and the project word lists do not know; one hunspell run for all catalogs."""
    per_entry = [(po, entry, words(Markup(entry.msgstr).prose)) for po, entry in entries
                 if entry.msgstr != entry.msgid and "*" not in allowed_exceptions(entry).get("spelling", set())]
    try:
        unknown = misspelled({w for _, _, found in per_entry for w in found})
    except SpellCheckerMissing as error:
        return [f"[spelling] {error}"]
    errors = []
    for po, entry, found in per_entry:
        bad = sorted({w for w in found if w in unknown})
        if bad:
            errors.append(f"{po}:{entry.linenum}: [spelling] {short(entry.msgid)!r}: not in en_US or "
                          f"tools/spelling/*.txt: {', '.join(bad)}")
    return errors


# -- Files -------------------------------------------------------------------------

def file_problems(po: Path) -> list[tuple[int, str, str]]:
    """(line, rule, message) if the file cannot be trusted as a catalog at all."""
    raw = po.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return [(line, "charset", f"byte {raw[error.start]:#04x} is not UTF-8; save the file as UTF-8")]
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    if result.returncode != 0:
        problems = []
        for line in result.stderr.splitlines():
            located = re.match(rf"^{re.escape(str(po))}:(\d+):(?:\d+:)?\s*(.*)$", line)
            if located:
                problems.append((int(located.group(1)), "syntax", located.group(2)))
        return problems or [(1, "syntax", result.stderr.strip() or "msgfmt rejects this file")]
    lines = text.splitlines()
    header_end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    for number, line in enumerate(lines[:header_end], start=1):
        if line.startswith('"Content-Type:'):
            charset = CHARSET.search(line)
            if not charset or charset.group(1).upper().replace("_", "-") not in {"UTF-8", "UTF8"}:
                declared = charset.group(1) if charset else "no charset"
                return [(number, "charset", f"header declares {declared}; the catalogs are UTF-8: "
                                            'write "Content-Type: text/plain; charset=UTF-8\\n"')]
            return []
    return [(1, "charset", "header has no Content-Type line; add \"Content-Type: text/plain; charset=UTF-8\\n\"")]


def allowed_exceptions(entry: polib.POEntry) -> dict[str, set[str]]:
    """{rule: details} from '# lint-ok: RULE [DETAIL]' translator comments; an empty detail allows all."""
    allowed: dict[str, set[str]] = {}
    for line in (entry.tcomment or "").splitlines():
        match = EXCEPTION.match(line)
        if match:
            allowed.setdefault(match.group(1), set()).add(match.group(2) or "*")
    return allowed


def catalog_language(po: Path) -> tuple[Path, str] | None:
    """(locale dir, language) of a catalog stored as LOCALE/LANG/LC_MESSAGES/.../page.po."""
    parts = po.resolve().parts
    if "LC_MESSAGES" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("LC_MESSAGES")
    return Path(*parts[: i - 1]), parts[i - 1]


def catalog_file_errors(po: Path) -> list[str]:
    """``file_problems`` as report lines: ``path:line: [rule] message``."""
    return [f"{po}:{line}: [{rule}] {message}" for line, rule, message in file_problems(po)]


def lint_file(po: Path, docs_dir: Path = DOCS, _glossaries: dict | None = None) -> list[str]:
    problems = catalog_file_errors(po)
    if problems:
        return problems
    pairs: dict[str, list[str]] = {}
    located = catalog_language(po)
    if located:
        glossary_po = located[0] / located[1] / "LC_MESSAGES" / (GLOSSARY_PAGE + ".po")
        key = (docs_dir, glossary_po)
        cache = _glossaries if _glossaries is not None else {}
        if key not in cache:
            cache[key] = glossary_pairs(docs_dir / (GLOSSARY_PAGE + PAGE_SUFFIX), glossary_po)
        pairs = cache[key]
    errors = []
    variants = rejected_variants()
    for entry in polib.pofile(str(po)):
        if entry.obsolete or not entry.msgid:
            continue
        if entry.fuzzy:
            errors.append(f"{po}:{entry.linenum}: [fuzzy] {short(entry.msgid)!r}: review the translation against "
                          "the changed source (#| msgid), then remove the fuzzy flag")
            continue
        if not entry.msgstr.strip():
            errors.append(f"{po}:{entry.linenum}: [untranslated] {short(entry.msgid)!r}: no translation yet")
            continue
        allowed = allowed_exceptions(entry)
        found = markup_problems(entry.msgid, entry.msgstr)
        found += terminology_problems(entry.msgid, entry.msgstr, pairs, allowed.get("terminology", set()))
        found += variant_problems(entry.msgid, entry.msgstr, variants)
        for rule, message in found:
            if "*" in allowed.get(rule, set()):
                continue
            errors.append(f"{po}:{entry.linenum}: [{rule}] {short(entry.msgid)!r}: {message}")
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


def lint_report(paths: list[Path], docs_dir: Path = DOCS) -> tuple[list[str], list[str]]:
    """(errors, pending): terminology problems of the pages listed in <locale>/terminology-pending.txt
    are pending, not errors; a listed page that has none any more is an error (take it off the list)."""
    cache: dict = {}
    errors, pending = [], []
    translated: dict[str, list[tuple[Path, polib.POEntry]]] = {}  # per language, for the cross-file rules
    for po in catalogs(paths):
        problems = lint_file(po, docs_dir, cache)
        located = catalog_language(po)
        if not catalog_file_errors(po):
            language = located[1] if located else "?"
            translated.setdefault(language, []).extend(
                (po, e) for e in polib.pofile(str(po)) if e.translated() and not e.obsolete)
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
    for language, entries in translated.items():
        errors += consistency_problems(entries)
        if language.startswith("en"):
            errors += spelling_problems(entries)
    return errors, pending


def lint(paths: list[Path], docs_dir: Path = DOCS) -> list[str]:
    return lint_report(paths, docs_dir)[0]


def main(argv: list[str]) -> None:
    docs_dir = DOCS
    if argv[:1] == ["--docs"]:
        docs_dir, argv = Path(argv[1]), argv[2:]
    if any(a.startswith("-") for a in argv):
        sys.exit(__doc__)
    paths = [Path(a) for a in argv] or [LOCALE / lang / "LC_MESSAGES" for lang in translations()]
    errors, pending = lint_report(paths, docs_dir)
    if pending:
        print(f"pending ({PENDING}: not failing yet, fix and shrink the list):\n" + "\n".join(pending) + "\n")
    count = len(catalogs(paths))
    print("\n".join(errors) if errors else f"lint-po: {count} catalogs OK")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
