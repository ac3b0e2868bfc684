"""The terms and variants rules of ``make lint-po``: one concept, one term, in each language.

``terminology``  every sentence of the source that uses a glossary term (as a word: jieba's
                 segmentation) has its English term in the translation: the renderings are counted,
                 so a term translated once with the glossary's word and once with another fails
                 (``--count=occurrence`` counts every use instead of every sentence); the displayed
                 text of a ``{term}`` role is the English term of its target
``variant``      no rejected variant of a term: Chinese ones in the source, English ones in the
                 translation (``tools/terminology/zh.tsv``, ``en.tsv``: the preferred form, a tab, the
                 variants; ``en-allowed.tsv``: the forms that contain a variant and are allowed as they
                 stand), and the field form ``Default: `x``` (Chinese ``默认 `x```)

Glossary: the term lines of the ``{glossary}`` block of ``docs/glossary.md`` are the source terms;
the msgstr of each term line in ``<language>/LC_MESSAGES/glossary.po`` is its English term, and a
``# also: argument`` translator comment on it adds the accepted renderings of a homonym
(参数: parameter or argument) or an irregular form (冻结: frozen). In glossary.po, no ``# also:`` form
is a rejected variant and no two terms share an English term.

Pages listed in ``<locale>/terminology-pending.txt`` (``en tensors/where`` lines) have their
``terminology`` problems printed as pending instead of failing (``lint_po`` sets them apart); a
listed page with no problem left fails, so the list only shrinks.
"""

import functools
import re
import sys
from pathlib import Path

from tools.catalogs.catalog_file import read
from tools.lint.entry import Entry
from tools.lint.po_markup import Markup, Problem
from tools.project import GLOSSARY_PAGE, ROOT
from tools.terminology import also_variants, read_terms, read_variant_table  # the glossary page's parser

TERMINOLOGY = ROOT / "tools" / "terminology"  # zh.tsv, en.tsv: preferred form<TAB>rejected, variants
SENTENCE_END = re.compile(r"[。！？]|\n")
PENDING = "terminology-pending.txt"  # in the locale folder: '<language> <page>' lines, may only shrink


def problems(entry: Entry, pairs: dict[str, list[str]], variants: dict[str, dict], count: str = "sentence"
             ) -> list[Problem]:
    """The glossary's terms (``pairs``) and the rejected ``variants`` in ``entry``; on a term's own entry of
    glossary.po, the term's accepted forms."""
    found = terminology_problems(entry.source, entry.translation, pairs, count)
    found += variant_problems(entry.source, entry.translation, variants)
    if entry.po.stem == GLOSSARY_PAGE and entry.msgid in pairs:
        found += glossary_term_problems(entry.msgid, pairs, variants)
    return found


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


def glossary_pairs(glossary_md: Path, glossary_po: Path) -> dict[str, list[str]]:
    """{source term: [English term, accepted variants...]} for every term with a finished translation.

    The term lines are read by the glossary extension (docs/_ext/reader/glossary_terms.py), so the site
    and the lint always agree on what the terms are.
    """
    if not glossary_md.exists() or not glossary_po.exists():
        return {}
    catalog = read(glossary_po)
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


@functools.cache  # every entry asks for the same few hundred patterns; re's own cache holds 512 of all kinds
def english_pattern(term: str) -> re.Pattern:
    """The English term, case-insensitive, any ending on each word, spaces or hyphens between words,
    and between two words at most one explanation in parentheses ('pinned (page-locked) memory')."""
    words = [re.escape(stem(w)) + r"\w*" for w in re.split(r"[\s-]+", term) if w]
    return re.compile(r"(?<![A-Za-z])" + r"[\s-]+(?:\([^()]*\)[\s-]+)?".join(words), re.I)


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


def mask(text: str, start: int, end: int) -> str:
    return text[:start] + "\x01" * (end - start) + text[end:]


def renderings(forms: list[str], text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that render a term (any of its accepted forms; longest form first, no overlap)."""
    spans: list[tuple[int, int]] = []
    for form in sorted(forms, key=len, reverse=True):
        for match in english_pattern(form).finditer(text):
            if not any(s < match.end() and match.start() < e for s, e in spans):
                spans.append(match.span())
    return sorted(spans)


def term_uses(src: str, pairs: dict[str, list[str]]) -> dict[str, list[int]]:
    """{term: prose offsets of its uses as a word}; a shorter term inside a longer one is not a use."""
    boundaries = word_boundaries(src, pairs)
    uses = {}
    for term in sorted(pairs, key=len, reverse=True):  # longest first: 零维张量 before 张量
        if term not in src:  # most terms are not in a given entry: skip the regex
            continue
        at = [m.start() for m in re.finditer(re.escape(term), src)
              if m.start() in boundaries and m.end() in boundaries]  # a word, not 层 inside 底层
        for start in at:
            src = mask(src, start, start + len(term))
        if at:
            uses[term] = at
    return uses


def terminology_problems(src_markup: Markup, dst_markup: Markup, pairs: dict[str, list[str]],
                         count: str = "sentence") -> list[Problem]:
    """Every sentence (or, with count='occurrence', every use) of a glossary term has its English term."""
    src, dst = src_markup.prose, dst_markup.prose
    found = []
    uses = term_uses(src, pairs)
    sentence_ends = [m.end() for m in SENTENCE_END.finditer(src)]
    claims = {term: renderings(pairs[term], dst) for term in uses}  # each source term's renderings, unmasked
    for term in sorted(uses, key=len, reverse=True):
        at = uses[term]
        needed = len(at) if count == "occurrence" else len({sum(e <= s for e in sentence_ends) for s in at})
        spans = renderings(pairs[term], dst)
        others = [span for other, claimed in claims.items() if other != term for span in claimed]
        # The English of a longer term, as often as the source uses it, is not a shorter term's too
        # (零维张量 -> zero-dimensional tensor); take first the renderings no other term of the source
        # could claim ('batch size' before the one inside 'mini-batch size').
        spans.sort(key=lambda span: (any(s < span[1] and span[0] < e for s, e in others), span))
        for start, end in spans[:needed]:
            dst = mask(dst, start, end)
        if len(spans) >= needed:
            continue
        english = pairs[term][0]
        if not spans:
            message = f"uses glossary term {term!r} but not its English term {english!r}"
        else:
            unit = "uses" if count == "occurrence" else "sentences"
            message = (f"uses glossary term {term!r} in {needed} {unit} but its English term {english!r} "
                       f"only {len(spans)} time{'s' if len(spans) > 1 else ''}: translate each use with the glossary's term")
        message += hint(term, uses, pairs, dst) + f" (or add '# lint-ok: terminology {term}')"
        found.append(Problem("terminology", message, "msgid", src_markup.at(at[0]), term))
    for role in dst_markup.term_roles:
        forms = pairs.get(role.target)
        if forms is None:
            continue
        if role.title is None:
            found.append(Problem("terminology", f"the {{term}} role shows the Chinese term {role.target!r}: write "
                                                f"{{term}}`{forms[0]} <{role.target}>`", "msgstr", role.offset,
                                 role.target))
        elif not renderings(forms, role.title):
            found.append(Problem("terminology", f"the {{term}} role of {role.target!r} shows {role.title!r}, not the "
                                                f"glossary's English term {forms[0]!r}"
                                 + hint(role.target, {role.target: []}, pairs, role.title), "msgstr", role.offset,
                                 role.target))
    return found


def hint(term: str, uses: dict, pairs: dict, dst: str) -> str:
    """A near term (sharing a character) that the source lacks and whose English the translation has:
    步长 in the source where the English says stride (步幅)."""
    near = [other for other in pairs if other not in uses and set(other) & set(term)
            and renderings(pairs[other], dst)]
    if not near:
        return ""
    return "; the translation says " + ", ".join(f"{pairs[o][0]!r}, which is {o!r} in the glossary" for o in near)


def glossary_term_problems(term: str, pairs: dict[str, list[str]], variants: dict[str, dict]) -> list[Problem]:
    """One concept, one English term: a term's '# also:' forms are no rejected variant, and no two
    terms share an English term."""
    found = []
    rejected = {variant.casefold(): preferred for variant, preferred in variants["en"].items()}
    for form in pairs[term][1:]:
        if form.casefold() in rejected:
            found.append(Problem("terminology", f"'# also: {form}' accepts a rejected variant (tools/terminology/"
                                                f"en.tsv: {rejected[form.casefold()]!r}): remove it", "comment",
                                 None, form))
    for other, forms in pairs.items():
        if other != term and forms[0].casefold() == pairs[term][0].casefold():
            found.append(Problem("terminology", f"{other!r} has the same English term {forms[0]!r}: one concept, "
                                                "one term", "msgstr", None, other))
    return found


# -- Variants ----------------------------------------------------------------------

def read_variants(path: Path) -> dict[str, str]:
    """{rejected variant: preferred form} from one tsv file (absent file: none)."""
    try:
        rows = read_variant_table(path)
    except ValueError as error:
        sys.exit(str(error))
    return {variant: preferred for _, preferred, variants in rows for variant in variants}


def read_allowed(path: Path) -> list[str]:
    """The forms of an ``*-allowed.tsv`` file (form<TAB>why), which may contain a rejected variant."""
    if not path.is_file():
        return []
    forms = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if "\t" not in line:
            sys.exit(f"{path}:{number}: expected 'allowed form<TAB>why it is allowed', got {line!r}")
        forms.append(line.split("\t", 1)[0].strip())
    return forms


def rejected_variants(directory: Path | None = None) -> dict[str, dict]:
    directory = directory or TERMINOLOGY
    return {"zh": read_variants(directory / "zh.tsv"), "en": read_variants(directory / "en.tsv"),
            "en-allowed": read_allowed(directory / "en-allowed.tsv")}


# Field lists and parameter descriptions: 'Default: `x`' in English, '默认 `x`' in Chinese.
FIELD_FORMS = [
    ("msgstr", re.compile(r"(?<![\w-])Default\s+(?=`)"), "Default `x`", "Default: `x`"),
    ("msgid", re.compile(r"默认\s*[：:]\s*(?=`)"), "默认：`x`", "默认 `x`"),
]


@functools.cache
def literal_pattern(text: str) -> re.Pattern:
    return re.compile(re.escape(text), re.I)


@functools.cache
def word_pattern(text: str) -> re.Pattern:
    """``text`` as a whole word (not inside another word or a hyphenated compound), case-insensitive."""
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])", re.I)


def variant_problems(src: Markup, dst: Markup, variants: dict[str, dict]) -> list[Problem]:
    """Rejected variants: Chinese ones in the source text, English ones in the translation."""
    found = []
    text = src.prose
    for variant, preferred in sorted(variants["zh"].items(), key=lambda item: len(item[0]), reverse=True):
        if variant not in text:  # most variants are not in a given entry: skip the regex
            continue
        masked = text.replace(preferred, "\x01" * len(preferred))  # 批量维 inside 批量维度 is fine
        for match in re.finditer(re.escape(variant), masked):
            text = mask(text, *match.span())
            found.append(Problem("variant", f"the source writes {variant!r}; the project's form is {preferred!r} "
                                            "(fix the page in docs/)", "msgid", src.at(match.start()), variant))
    text = dst.prose
    for form in variants.get("en-allowed", []):
        for match in literal_pattern(form).finditer(text):
            text = mask(text, *match.span())
    for variant, preferred in sorted(variants["en"].items(), key=lambda item: len(item[0]), reverse=True):
        for match in word_pattern(variant).finditer(text):
            text = mask(text, *match.span())
            found.append(Problem("variant", f"writes {match.group()!r}; the project's form is {preferred!r}",
                                 "msgstr", dst.at(match.start()), variant))
    for field, pattern, wrong, right in FIELD_FORMS:
        for match in pattern.finditer(dst.text if field == "msgstr" else src.text):
            where = "writes" if field == "msgstr" else "the source writes"
            found.append(Problem("variant", f"{where} {wrong!r}; the project's form is {right!r}", field,
                                 match.start(), wrong))
    return found
