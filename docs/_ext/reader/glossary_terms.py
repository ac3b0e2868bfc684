"""The glossary page is the single source of the terminology.

``docs/glossary.md`` holds one ``{glossary}`` block: each term line is the
Chinese term, its ``msgstr`` in ``locale/en/LC_MESSAGES/glossary.po`` is the
English term. This extension reads exactly that and

* writes a small jieba user dictionary of the Chinese terms into the doctree
  directory and points ``html_search_options["dict"]`` at it, so the search
  index keeps domain terms such as 自动求导 and 学习率 whole (the full jieba
  default dictionary would cost seconds per build);
* shows the term in the other language next to each term on the glossary
  page (the English counterpart in the Chinese build, the Chinese term,
  marked ``lang="zh-CN"``, in the English build);
* gives each term a stable anchor made from its English term
  (``glossary.html#term-leaf-tensor`` in both languages). Sphinx can only
  number Chinese terms (``term-0``, ``term-1``, ...), which shift whenever the
  glossary is reordered. ``{term}`` links and the general index point at the
  stable anchor; the numbered id stays as a second anchor for old links.
"""

import html
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from search.search_synonyms import chinese_forms

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root, for tools.*
from tools.terminology import paths, read_pairs, read_terms  # noqa: E402  (the glossary page's and tables' readers)

logger = logging.getLogger(__name__)

def jieba_dictionary(terms: list[str]) -> str:
    """jieba user-dictionary text: one word a line, no frequency (jieba then suggests one that keeps it whole)."""
    return "".join(f"{term}\n" for term in terms if " " not in term)


def jieba_dictionary_path(app: Sphinx) -> Path:
    return Path(app.doctreedir) / "glossary-jieba-dict.txt"


def point_search_at_the_dictionary(app: Sphinx, config) -> None:
    """At config-inited, before Sphinx compares the configuration with the one it pickled: set at any
    later point, the value differs from conf.py's on every build ("The configuration has changed")."""
    if (config.language or "").startswith("zh"):
        config.html_search_options = {**config.html_search_options, "dict": str(jieba_dictionary_path(app))}


def write_jieba_dictionary(app: Sphinx) -> None:
    md, _ = paths(app)
    if app.builder.format != "html" or not (app.config.language or "").startswith("zh") or not md.is_file():
        return
    target = jieba_dictionary_path(app)
    text = jieba_dictionary(list(dict.fromkeys(read_terms(md) + chinese_forms(app))))  # variants too (zh.tsv)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def add_counterparts(app: Sphinx, doctree: nodes.document) -> None:
    if app.env.docname != app.config.glossary_docname:
        return
    md, po = paths(app)
    app.env.note_dependency(str(po))  # a new English term must rebuild the Chinese page too
    zh_to_en = read_pairs(md, po)
    en_to_zh = {en.lower(): zh for zh, en in zh_to_en.items()}
    for term in doctree.findall(nodes.term):
        text = term.astext().strip()
        if text in zh_to_en:
            lang, other = "en", zh_to_en[text]
        elif text.lower() in en_to_zh:
            lang, other = "zh-CN", en_to_zh[text.lower()]
        else:
            logger.warning("glossary term %r has no translation in %s", text, po, location=term)
            continue
        term += nodes.raw("", f' <span class="glossary-counterpart" lang="{lang}">{html.escape(other)}</span>',
                          format="html")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class StableTermIds(SphinxTransform):
    """Name each glossary term's anchor after its English term, in both languages.

    Runs after the i18n transform (the term text is final) and before the domains
    collect the page's index entries, so the index links to the same anchor.
    """

    default_priority = 840

    def apply(self, **kwargs) -> None:
        if self.env.docname != self.config.glossary_docname:
            return
        zh_to_en = read_pairs(*paths(self.app))
        for term in self.document.findall(nodes.term):
            text = term.astext().strip()
            english = zh_to_en.get(text, text)
            self.rename(term, "term-" + slug(english))

    def rename(self, term: nodes.term, stable: str) -> None:
        if not term["ids"] or stable in term["ids"]:
            return
        if stable in self.document.ids:
            logger.warning("two glossary terms share the anchor %r", stable, location=term)
            return
        numbered = term["ids"][0]
        term["ids"].insert(0, stable)  # the permalink uses the first id; the old one stays as an anchor
        self.document.ids[stable] = term
        for index in term.findall(addnodes.index):
            index["entries"] = [(kind, value, stable if target == numbered else target, main, key)
                                for kind, value, target, main, key in index["entries"]]
        std = self.env.domains.standard_domain
        for registry in (std.objects, std.data.get("terms", {})):  # name -> (docname, id), noted while parsing
            for name, (docname, labelid) in list(registry.items()):
                if docname == self.env.docname and labelid == numbered:
                    registry[name] = (docname, stable)


def setup(app: Sphinx) -> dict:
    app.add_config_value("glossary_docname", "glossary", "env", types=frozenset({str}))
    app.add_config_value("glossary_catalog_language", "en", "env", types=frozenset({str}))
    app.connect("config-inited", point_search_at_the_dictionary)
    app.connect("builder-inited", write_jieba_dictionary)
    app.connect("doctree-read", add_counterparts)
    app.add_transform(StableTermIds)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
