"""The link rules of ``make lint-po``: a translation links where the source links, and says where a
link leads when the reader cannot tell.

``link``  every link target (``[text](target)``), and no other
``url``   no URL that the msgid does not have; in English, a link to an article in Chinese (zhihu, csdn,
          cnblogs, jianshu, a .cn site...) says "(in Chinese)"
"""

import re

from tools.lint.entry import Entry
from tools.lint.po_markup import URL, Problem, added, find, missing

# Sites whose articles are written in Chinese: an English reader is told before following the link.
CHINESE_SITES = re.compile(r"https?://(?:[\w-]+\.)*(?:zhihu\.com|csdn\.net|cnblogs\.com|jianshu\.com|juejin\.cn"
                           r"|segmentfault\.com|oschina\.net|51cto\.com|bilibili\.com|[\w-]+\.cn)(?=[/:>\s]|$)")


def problems(entry: Entry) -> list[Problem]:
    """Link targets lost or added, URLs added, and (English) a link to an article in Chinese not said so."""
    src, dst = entry.source, entry.translation
    msgid, msgstr = entry.msgid, entry.msgstr
    found = []
    for target in missing(src.links, dst.links):
        found.append(Problem("link", f"link target {target!r} is missing or altered", "msgid", find(msgid, target)))
    for target in added(src.links, dst.links):
        if not URL.fullmatch(target) and target not in src.links:  # an added URL is reported by the url rule
            found.append(Problem("link", f"adds link target {target!r}", "msgstr", find(msgstr, target)))
    for url in missing(dst.urls, src.urls):
        found.append(Problem("url", f"adds URL {url!r}", "msgstr", find(msgstr, url)))
    if (entry.language or "").startswith("en"):
        found += chinese_article_problems(entry)
    return found


def chinese_article_problems(entry: Entry) -> list[Problem]:
    """A link to an article in Chinese is marked "(in Chinese)" in English (or "... in Chinese")."""
    links = [url for url in entry.source.urls if CHINESE_SITES.match(url)]
    if not links or re.search(r"\bin Chinese\b", entry.msgstr):
        return []
    return [Problem("url", f"links to an article in Chinese ({links[0]}): say so, e.g. '(in Chinese)'", "msgstr",
                    find(entry.msgstr, links[0]))]
