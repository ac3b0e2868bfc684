"""Every topic of the notes that belongs to a written chapter is labelled where it is covered.

tests/data/topic-pages.tsv lists each topic ID of the topic map with the page(s)
proposed for it. A topic is due once one of its pages (or that page's chapter) exists
under docs/; it must then carry a `(topic-<ID>)=` label on exactly one page.
"""

import re
from collections import Counter

from conftest import ROOT

DOCS = ROOT / "docs"
LABEL = re.compile(r"^\(topic-([0-9]{3}-[0-9]{2}[a-z]?)\)=$", re.MULTILINE)


def topic_pages() -> dict[str, list[str]]:
    rows = (ROOT / "tests" / "data" / "topic-pages.tsv").read_text(encoding="utf-8").splitlines()
    return {topic: pages.split() for topic, pages in (r.split("\t") for r in rows if not r.startswith("#"))}


def labels() -> Counter:
    found = Counter()
    for page in DOCS.rglob("*.md"):
        found.update(LABEL.findall(page.read_text(encoding="utf-8")))
    return found


def test_due_topics_are_labelled_once():
    written = {p.name for p in DOCS.iterdir() if p.is_dir() and not p.name.startswith("_")}
    written |= {p.stem for p in DOCS.glob("*.md")}  # root pages such as index
    due = {t for t, pages in topic_pages().items() if any(p.split("/")[0] in written for p in pages)}
    found = labels()
    assert due, "no chapter of the topic map is written yet"
    assert sorted(due - set(found)) == [], "topics with no label on any page"
    assert sorted(t for t, n in found.items() if n > 1) == [], "topics labelled on more than one page"


def test_every_topic_label_is_a_known_topic():
    assert sorted(set(labels()) - set(topic_pages())) == []
