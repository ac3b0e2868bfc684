"""make stats (tools/catalogs/po_stats.py) and the translation status page: a share done is never rounded up to 100%."""

import polib

from tools.catalogs import po_stats
from tools.catalogs.po_stats import PageStats, done_percent, format_table, language_stats


def catalog(path, translated: int, fuzzy: int = 0, untranslated: int = 0):
    path.parent.mkdir(parents=True, exist_ok=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "en"}
    for i in range(translated):
        po.append(polib.POEntry(msgid=f"段落 {i}", msgstr=f"Paragraph {i}"))
    for i in range(fuzzy):
        po.append(polib.POEntry(msgid=f"改过的段落 {i}", msgstr=f"Old paragraph {i}", flags=["fuzzy"]))
    for i in range(untranslated):
        po.append(polib.POEntry(msgid=f"新段落 {i}", msgstr=""))
    po.save(str(path))


def test_one_fuzzy_entry_in_two_thousand_is_not_shown_as_done(tmp_path):
    catalog(tmp_path / "en" / "LC_MESSAGES" / "big.po", translated=1999, fuzzy=1)
    catalog(tmp_path / "en" / "LC_MESSAGES" / "done.po", translated=3)
    rows = language_stats(tmp_path, "en")
    table = format_table("en", rows).splitlines()
    big = next(line for line in table if line.startswith("big "))
    assert big.endswith(" 99.9%") and "100.0%" not in big, table  # 99.95% rounded would print 100.0%
    assert next(line for line in table if line.startswith("done ")).endswith("100.0%")
    assert table[-1].startswith("total") and table[-1].endswith(" 99.9%"), table  # 2002 of 2003


def test_the_share_is_rounded_down_and_is_100_only_when_nothing_is_left():
    assert done_percent(1999, 2000) == 99.9 and done_percent(19999, 20000) == 99.9
    assert done_percent(2000, 2000) == 100.0 and done_percent(0, 0) == 100.0
    assert done_percent(2, 3) == 66.6 and done_percent(0, 5) == 0.0
    assert PageStats("p", 1999, 1, 0).percent == 99.9 and PageStats("p", 5, 0, 0).percent == 100.0
    assert po_stats.PageStats("p", 0, 0, 1).percent == 0.0
