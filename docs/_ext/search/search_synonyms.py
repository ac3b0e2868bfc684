"""Write the glossary's term groups for the search page: ``_static/search-synonyms.js``.

A reader types a term the way they know it: a variant (批维度 for 批量维度), or
in the other language (``learning rate`` on the Chinese site, 广播 on the
English one), or the way learners say it (求和 for sum, 显卡 for GPU). Each group
lists every form of one concept: the glossary's Chinese term and its English term
with the ``# also:`` variants of glossary.po, the rejected variants of
``tools/terminology/zh.tsv`` and ``en.tsv`` beside their preferred form, and the
learners' forms of ``tools/terminology/search-synonyms.tsv``. ``docs/_static/search-ranking.js``
lets a query word match any form of its group. The same file is written for
both languages; each site's index decides which forms find anything.

The jieba dictionary of the Chinese index gets the Chinese forms too, so that
批量维度 stays one indexed word.

The same file names the page that explains each glossary term (the first
``{ref}`` of its definition, 详见 ...): ``window.TORCH_NOTES_TERM_PAGES`` maps
every form of a term to that page's docname, and the ranking gives that page
a bonus when a query asks for the term, so 学习率调度器 finds the scheduler
page rather than a page that only has the word in a heading.

The search page's weight is near its limit (one query under 1 MB,
``tests/web/test_browser.py``), and a third of ``search-ranking.js`` is comments
for its maintainers: the copy in the built site is written without its
comment lines (``without_comment_lines``; a comment after code on the same
line stays).
"""

import json
import re
import sys
from pathlib import Path

from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[3]
TERMINOLOGY = ROOT / "tools" / "terminology"
RANKING = "search-ranking.js"
sys.path.insert(0, str(ROOT))  # for tools.*
from tools.catalogs.catalog_file import read  # noqa: E402  (the reader of every tool)
from tools.terminology import FENCE_OPEN, also_variants, paths, read_terms, read_variant_table  # noqa: E402


def glossary_groups(glossary_md: Path, glossary_po: Path) -> list[list[str]]:
    catalog = read(glossary_po) if glossary_po.is_file() else []
    translated = {e.msgid: e for e in catalog if e.msgstr and not e.fuzzy and not e.obsolete}
    groups = []
    for term in read_terms(glossary_md):
        group = [term]
        entry = translated.get(term)
        if entry is not None:
            group += [entry.msgstr.strip(), *also_variants(entry)]
        groups.append(group)
    return groups


# How learners say it: a form a reader types (显卡, 求和, "results differ every run") and the words of the
# pages that answer it. Not rejected variants (the lint ignores this table): search only. Translators extend it.
LEARNER_FORMS = "search-synonyms.tsv"


def variant_groups(directory: Path = TERMINOLOGY) -> list[list[str]]:
    return [[preferred, *variants] for name in ("zh.tsv", "en.tsv", LEARNER_FORMS)
            for _, preferred, variants in read_variant_table(directory / name)]


def merged(groups: list[list[str]]) -> list[list[str]]:
    """Groups that share a form become one (批量维度 from zh.tsv joins nothing; 复制 may join a term)."""
    result: list[list[str]] = []
    for group in groups:
        keys = {form.lower() for form in group}
        joined = [g for g in result if keys & {form.lower() for form in g}]
        for g in joined:
            result.remove(g)
        combined = []
        for form in [f for g in joined for f in g] + group:
            if form.lower() not in {c.lower() for c in combined}:
                combined.append(form)
        result.append(combined)
    return [g for g in result if len(g) > 1]


def definition_labels(glossary_md: Path) -> dict[str, str]:
    """{term: the label of the first {ref} of its definition}, for the terms whose definition has one."""
    labels, term, fence = {}, None, None
    for line in glossary_md.read_text(encoding="utf-8").splitlines():
        if fence is None:
            match = FENCE_OPEN.match(line)
            fence = match.group(1) if match else None
        elif line.strip() == fence:
            fence = term = None
        elif line.strip() and not line[0].isspace() and not line.startswith(":"):
            term = line.strip()
        elif term and term not in labels:
            ref = re.search(r"\{ref\}`(?:[^`<]*<)?([^`<>]+)>?`", line)
            if ref:
                labels[term] = ref.group(1).strip()
    return labels


def term_pages(app: Sphinx) -> dict[str, str]:
    """{form (lower case): docname} of every form of every glossary term whose definition links a page."""
    md, po = paths(app)
    if not md.is_file():
        return {}
    std = app.env.domains.standard_domain
    labels = definition_labels(md)
    pages = {}
    for group in glossary_groups(md, po):
        target = std.labels.get(labels.get(group[0], ""))
        if target:
            pages.update({form.lower(): target[0] for form in group})
    return pages


def search_groups(app: Sphinx) -> list[list[str]]:
    md, po = paths(app)
    if not md.is_file():
        return []
    return merged(glossary_groups(md, po) + variant_groups())


def write_synonyms(app: Sphinx, exception) -> None:
    if exception or app.builder.format != "html" or app.builder.name in ("epub",):
        return
    target = Path(app.outdir) / "_static" / "search-synonyms.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    text = ("window.TORCH_NOTES_SYNONYMS = " + json.dumps(search_groups(app), ensure_ascii=False) + ";\n"
            + "window.TORCH_NOTES_TERM_PAGES = " + json.dumps(term_pages(app), ensure_ascii=False) + ";\n")
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def without_comment_lines(js: str) -> str:
    """``js`` without the lines that are only a comment: ``// ...``, and a ``/* ... */`` that starts a line and
    ends one, over one or several lines."""
    kept, in_comment = [], False
    for line in js.splitlines(keepends=True):
        text = line.strip()
        if in_comment or text.startswith("/*"):
            in_comment = not text.endswith("*/")
        elif not text.startswith("//"):
            kept.append(line)
    return "".join(kept)


def write_ranking(app: Sphinx, exception) -> None:
    """The built site's ``_static/search-ranking.js``, without its comment lines."""
    if exception or app.builder.format != "html" or app.builder.name in ("epub",):
        return
    target = Path(app.outdir) / "_static" / RANKING
    if target.is_file():
        text = without_comment_lines((Path(app.srcdir) / "_static" / RANKING).read_text(encoding="utf-8"))
        if target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")


def chinese_forms(app: Sphinx) -> list[str]:
    """Every Chinese form of the groups, for the jieba dictionary (glossary_terms reads it)."""
    return [form for group in search_groups(app) for form in group if any("\u4e00" <= c <= "\u9fff" for c in form)]


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", write_synonyms)
    app.connect("build-finished", write_ranking)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
