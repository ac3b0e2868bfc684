"""The pages of a built site as search documents, for the engines tools/web/search_eval.py compares.

    python tools/web/search_documents.py SITE_DIR OUT.json

One document per page that Sphinx's index holds (``searchindex.js``'s
docnames), read from the built HTML: ``title`` (the page title), ``api`` (the
names of the API entries the page documents, in full and by last part, from
the index's ``objects``), ``headings`` (its section titles) and ``body`` (the
rest of the article, code and printed output included, as Sphinx indexes it;
maths as its TeX). What Sphinx leaves out of its index is left out here too:
elements marked ``no-search`` (the hidden other-language paragraphs) and the
headings' pilcrow links.

On a Chinese site each field is split as the site's index splits it (the
project's Chinese search language: jieba's ``cut_for_search`` with the
glossary's user dictionary, plus the Latin words), and written as those words
separated by spaces, so that an engine splitting at spaces indexes jieba's
words. Other languages are left as text for the engine to split.
"""

import json
import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.project import ROOT  # noqa: E402

WORD = re.compile(r"[\w]+")
HAN = re.compile(r"[\u3400-\u9fff]")
BLOCK = ["p", "li", "div", "pre", "dt", "dd", "td", "th", "tr", "br", "section", "blockquote", "figcaption",
         "caption", "h1", "h2", "h3", "h4", "h5", "h6"]


def site_index(site: Path) -> dict:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(re.match(r"Search\.setIndex\((.*)\)$", text.strip(), re.S).group(1))


def api_names(index: dict) -> dict[int, list[str]]:
    """{doc: [full name, last part, ...]} of the index's API entries."""
    names: dict[int, list[str]] = {}
    for prefix, matches in index["objects"].items():
        for match in matches:
            full = f"{prefix}.{match[4]}" if prefix else match[4]
            names.setdefault(match[0], []).extend([full, match[4].split(".")[-1]])
    return names


def article_fields(html: str) -> tuple[str, list[str], str]:
    """(title, section titles, body text) of a built page's article."""
    soup = BeautifulSoup(html, "html.parser")
    article = soup.find("article", attrs={"role": "main"}) or soup.body
    for hidden in article.select(".no-search, a.headerlink, script, style"):
        hidden.decompose()
    for formula in article.select("span.katex"):
        tex = formula.find("annotation", attrs={"encoding": "application/x-tex"})
        formula.replace_with(f" {tex.get_text()} " if tex else " ")
    for tag in article.find_all(BLOCK):  # words of two blocks stay apart; torch.<wbr>nn stays one
        tag.append(" ")
    headings = [text(h.extract()) for h in article.find_all(re.compile(r"^h[1-6]$"))]
    return (headings[0] if headings else ""), headings[1:], text(article)


def text(element) -> str:
    return " ".join(element.get_text("").split())


class ChineseSplitter:
    """The site's Chinese index split: jieba's words and the Latin words, joined by spaces."""

    def __init__(self, dictionary: Path):
        sys.path.insert(0, str(ROOT / "docs" / "_ext"))
        import jieba
        from search.zh_search import FixedSearchChinese  # the site's own split: the one extension a tool imports

        jieba.setLogLevel(60)
        self.language = FixedSearchChinese({"dict": str(dictionary)} if dictionary.is_file() else {})

    def __call__(self, text: str) -> str:
        # jieba returns the Latin words too, and Sphinx's split adds them once more: jieba's Han words, then
        # the Latin words once each time they occur
        han = [w for w in self.language.split(text) if HAN.search(w) and WORD.fullmatch(w)]
        return " ".join(han + self.language.latin1_letters.findall(text))


def documents(site: Path, split=None) -> list[dict]:
    index = site_index(site)
    names = api_names(index)
    docs = []
    for doc, (docname, filename) in enumerate(zip(index["docnames"], index["filenames"])):
        page = site / (Path(filename).with_suffix(".html"))
        title, headings, body = article_fields(page.read_text(encoding="utf-8"))
        fields = {"title": title or index["titles"][doc], "api": " ".join(names.get(doc, [])),
                  "headings": " ".join(headings), "body": body}
        if split:
            fields = {key: split(value) for key, value in fields.items()}
        docs.append({"id": doc, "page": docname, **fields})
    return docs


def splitter_for(site: Path, doctrees: Path | None):
    """The Chinese splitter for a Chinese site (its html lang), else None."""
    lang = re.search(r'<html[^>]*\blang="([^"]+)"', (site / "index.html").read_text(encoding="utf-8"))
    if not lang or not lang.group(1).startswith("zh"):
        return None
    dictionary = (doctrees or Path()) / "glossary-jieba-dict.txt"
    return ChineseSplitter(dictionary)


def main(argv: list[str]) -> int:
    site, out = Path(argv[0]), Path(argv[1])
    doctrees = Path(argv[2]) if len(argv) > 2 else None
    docs = documents(site, splitter_for(site, doctrees))
    out.write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
    print(f"{len(docs)} documents, {out.stat().st_size // 1000} kB: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
