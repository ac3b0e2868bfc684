"""make lint-po: translations keep the source's markup and the glossary's terms; broken catalogs are named.

The project's own catalogs must pass. The fixture project tests/roots/test-lint-po/
breaks every rule: markup.po says in each entry's '#. expect:' comment what
the lint must report for it (and which tricky entries must pass); lines.po has
one problem per entry on a later line of a long msgid or msgstr, where the
report must point; malformed/ holds catalogs that do not parse. The project's
own decisions (docs/glossary.md, section glossary-conventions) are tried on
one-entry catalogs against the real glossary.po and tools/terminology/.
"""

import hashlib
import re
import subprocess
import sys

import polib
import pytest
from conftest import ROOT
from tools.terminology import read_terms
from tools.lint import lint_po
from tools.lint.lint_po import Markup, glossary_pairs, lint, lint_file

FIXTURE = ROOT / "tests" / "roots" / "test-lint-po"
MESSAGES = FIXTURE / "locale" / "en" / "LC_MESSAGES"
MALFORMED = FIXTURE / "malformed"
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): \[(?P<rule>[\w-]+)\] ")
TOOL_TIMEOUT = 300  # seconds; lint_po.py checks the fixture in about one; past this it is stuck


def test_project_catalogs_pass_the_lint():
    """Markup and terminology of every catalog (pages in locale/terminology-pending.txt: markup only)."""
    errors = lint([ROOT / "locale"])
    assert not errors, "\n".join(errors)


def test_glossary_terms_come_from_the_glossary_page_and_its_catalog():
    assert read_terms(FIXTURE / "glossary.md") == ["张量", "零维张量", "广播", "梯度", "概率", "参数", "优化器", "步幅", "步长"]
    pairs = glossary_pairs(FIXTURE / "glossary.md", MESSAGES / "glossary.po")
    assert pairs["零维张量"] == ["zero-dimensional tensor"] and pairs["张量"] == ["tensor"]
    assert pairs["参数"] == ["parameter", "argument"], "variants from '# also:' on the term's entry"
    assert "术语表之外的段落：这里的“张量”不是术语行。" not in pairs


def expected_rules(entry: polib.POEntry) -> list[str]:
    words = re.match(r"expect: ([\w -]+)", entry.comment).group(1).split()
    return [] if words == ["nothing"] else sorted(set(words))


def line_of(path, text: str) -> int:
    """The number of the first line of ``path`` that contains ``text``."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if text in line)


def entry_at(entries: list[polib.POEntry], line: int) -> polib.POEntry:
    """The entry whose lines hold ``line`` (an entry runs from its first comment to the next entry)."""
    return max((e for e in entries if e.linenum <= line), key=lambda e: e.linenum)


def test_every_rule_is_caught_and_every_correct_entry_passes(monkeypatch):
    monkeypatch.setattr(lint_po, "TERMINOLOGY", FIXTURE / "terminology")
    po = MESSAGES / "markup.po"
    entries = list(polib.pofile(str(po)))
    reported: dict[int, list[str]] = {}
    for error in lint_file(po, docs_dir=FIXTURE):
        match = LINE.match(error)
        assert match and match["path"] == str(po), error
        reported.setdefault(entry_at(entries, int(match["line"])).linenum, []).append(match["rule"])
    wrong = []
    for entry in entries:
        want, got = expected_rules(entry), sorted(set(reported.pop(entry.linenum, [])))
        if want != got:
            wrong.append(f"line {entry.linenum} {entry.msgid!r}: expected {want}, got {got}")
    assert not wrong and not reported, "\n".join(wrong) + f"\nunexpected: {reported}"
    rules = {rule for e in entries for rule in expected_rules(e)}
    assert rules == {"code", "role", "link", "label", "math", "number", "placeholder", "html", "url", "markup",
                     "terminology", "variant", "fuzzy", "untranslated", "lint-ok"}


def test_a_message_names_the_file_line_rule_entry_and_problem():
    errors = lint_file(MESSAGES / "markup.po", docs_dir=FIXTURE)
    line = line_of(MESSAGES / "markup.po", 'msgid "张量的梯度"')  # the line that uses the term
    assert (f"{MESSAGES / 'markup.po'}:{line}: [terminology] '张量的梯度': uses glossary term '梯度' "
            "but not its English term 'gradient'") in "\n".join(errors)


@pytest.mark.parametrize("name, line, rule, text", [
    # The line that holds the string without its closing quote (msgfmt said the line after it).
    ("syntax.po", 11, "syntax", "unterminated string"),
    ("duplicate.po", 13, "syntax", "duplicate message definition"),
    ("charset.po", 6, "charset", "header declares ISO-8859-1"),
    ("not-utf8.po", 10, "charset", "is not UTF-8"),
])
def test_a_malformed_catalog_is_reported_at_the_spot(name, line, rule, text):
    errors = lint_file(MALFORMED / name)
    assert errors and errors[0].startswith(f"{MALFORMED / name}:{line}: [{rule}] ") and text in errors[0], errors


def digest(folder):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_command_line_fails_and_writes_nothing():
    before = digest(FIXTURE)
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "lint" / "lint_po.py"), "--docs", str(FIXTURE), str(FIXTURE)],
                            capture_output=True, text=True, timeout=TOOL_TIMEOUT)
    assert result.returncode == 1
    assert "malformed/syntax.po:11: [syntax]" in result.stdout and "markup.po" in result.stdout
    assert digest(FIXTURE) == before


def test_update_po_refuses_a_malformed_catalog_and_touches_nothing(tmp_path):
    from tools.catalogs.update_po import update
    pot_dir, locale = tmp_path / "pot", tmp_path / "locale"
    (pot_dir).mkdir()
    (pot_dir / "index.pot").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                       'msgid "一段文字。"\nmsgstr ""\n', encoding="utf-8")
    messages = locale / "en" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "index.po").write_bytes((MALFORMED / "charset.po").read_bytes())
    (messages / "other.po").write_bytes((MESSAGES / "glossary.po").read_bytes())
    before = digest(tmp_path)
    with pytest.raises(SystemExit) as stop:
        update(pot_dir, locale, ["en"])
    assert f"{messages / 'index.po'}:6: [charset]" in str(stop.value) and "nothing was changed" in str(stop.value)
    assert digest(tmp_path) == before


def test_markup_extraction():
    markup = Markup("见 {ref}`标题 <label>` 和 `x` 与 [a](https://e.org/x) $y$ %(n)d <b>t</b> 42 https://f.org")
    assert markup.roles == [("ref", "label")] and markup.titles == ["标题"]
    assert markup.code == ["x"] and markup.math == ["y"] and markup.links == ["https://e.org/x"]
    assert sorted(markup.urls) == ["https://e.org/x", "https://f.org"]
    assert markup.placeholders == ["%(n)d"] and markup.html == ["b", "b"] and markup.numbers == ["42"]


def test_pending_pages_do_not_fail_and_the_list_only_shrinks(tmp_path):
    import shutil

    from tools.lint.lint_po import lint_report
    locale = tmp_path / "locale"
    shutil.copytree(FIXTURE / "locale", locale)
    (locale / "terminology-pending.txt").write_text("# comment\nen markup\nen glossary\n", encoding="utf-8")
    errors, pending = lint_report([locale], docs_dir=FIXTURE)
    assert pending and all("[terminology]" in p for p in pending)
    assert not any("[terminology]" in e and "markup.po" in e for e in errors)
    assert any("[code]" in e for e in errors), "only terminology problems wait"
    assert f"{locale / 'terminology-pending.txt'}:3: [terminology] en glossary: no terminology problem left" in \
        "\n".join(errors)


def catalog(path, *pairs):
    path.parent.mkdir(parents=True, exist_ok=True)
    po = polib.POFile()
    po.metadata = {"Project-Id-Version": "test", "PO-Revision-Date": "2026-12-01 00:00+0000",
                   "Last-Translator": "test", "Language-Team": "en", "Language": "en", "MIME-Version": "1.0",
                   "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit"}
    for msgid, msgstr in pairs:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    po.save(str(path))
    return path


def test_british_spelling_and_typos_fail_the_spell_check(tmp_path):
    po = catalog(tmp_path / "en" / "LC_MESSAGES" / "page.po",
                 ("归一化", "Normalise the input."), ("行为", "The behaviour of `normalise_`."),
                 ("笔误", "Teh result."), ("正确", "Normalize the input; its behavior is elementwise."))
    errors = [e for e in lint([po]) if "[spelling]" in e]
    assert [e.split(": ")[-1] for e in errors] == ["Normalise", "behaviour", "Teh"], errors
    assert all(e.startswith(f"{po}:") for e in errors)


def test_one_msgid_is_translated_one_way_in_every_catalog(tmp_path):
    first = catalog(tmp_path / "en" / "LC_MESSAGES" / "a.po", ("常见陷阱", "Pitfalls"))
    second = catalog(tmp_path / "en" / "LC_MESSAGES" / "b.po", ("常见陷阱", "Common pitfalls"))
    errors = [e for e in lint([tmp_path / "en"]) if "[consistency]" in e]
    assert len(errors) == 2 and {e.split(":")[0] for e in errors} == {str(first), str(second)}, errors
    assert all("no form is the usual one" in e for e in errors), errors


def test_the_odd_catalog_is_named_once_and_a_lint_of_one_catalog_still_sees_the_others(tmp_path):
    """Three catalogs agree and one does not: one report, on the odd one, naming the usual form; linting
    the odd catalog alone (make lint-po ONLY=, make check) finds it too, and linting a usual one finds nothing."""
    messages = tmp_path / "en" / "LC_MESSAGES"
    usual = [catalog(messages / f"{name}.po", ("常见陷阱", "Pitfalls")) for name in "abc"]
    odd = catalog(messages / "d.po", ("常见陷阱", "Common pitfalls"))
    for paths in ([tmp_path / "en"], [odd]):
        errors = [e for e in lint(paths) if "[consistency]" in e]
        assert len(errors) == 1 and errors[0].startswith(f"{odd}:"), errors
        assert "'Common pitfalls' here, but 'Pitfalls' in 3 other place(s)" in errors[0], errors
    assert not [e for e in lint([usual[0]]) if "[consistency]" in e]


def test_terminology_accepts_american_forms_of_a_term_but_not_british_ones():
    pattern = lint_po.english_pattern("weight initialization")
    assert pattern.search("the weight initialization") and pattern.search("initialize the weights") is None
    init = lint_po.english_pattern("initialization")
    assert init.search("initialize") and init.search("Initialization")
    assert not init.search("initialise") and not init.search("initialisation")


@pytest.mark.parametrize("rule, text", [
    ("variant", "the variant comes only here: an element-wise sum."),
    ("code", "too, and here the translation adds `x.clone()` to it."),
    ("variant", "只有这一行用了弃用的写法：在批维度上拼接。"),
    ("code", "第二行有一个代码片段 `torch.cat`，译文把它丢掉了。"),
    ("terminology", "第二行说到梯度。"),
    ("markup", "markup is here: `torch.cat."),
    ("fuzzy", 'msgstr "An old translation."'),
    ("untranslated", 'msgid "一段还没有翻译的原文。"'),
    ("spelling", "only here: teh end."),
    ("previous", '#| msgid "一段改过之前的原文。"'),
])
def test_a_problem_is_reported_on_the_line_that_holds_it(monkeypatch, rule, text):
    """Not on the entry's first line: on the line of a long msgid or msgstr where the problem is
    (for something the translation lacks, the source line that has it)."""
    monkeypatch.setattr(lint_po, "TERMINOLOGY", FIXTURE / "terminology")
    po = MESSAGES / "lines.po"
    line = line_of(po, text) + (1 if rule == "untranslated" else 0)  # untranslated: its empty msgstr line
    errors = lint([po], docs_dir=FIXTURE)
    assert any(e.startswith(f"{po}:{line}: [{rule}] ") for e in errors), "\n".join(errors)


@pytest.fixture
def project_glossary(tmp_path):
    """A catalog folder beside a copy of the project's glossary.po, linted with the project's tables."""
    messages = tmp_path / "en" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (messages / "glossary.po").write_bytes((ROOT / "locale" / "en" / "LC_MESSAGES" / "glossary.po").read_bytes())
    return messages


@pytest.mark.parametrize("msgid, msgstr, expected", [
    ("复制到页锁定内存中。", "Copies into page-locked memory.", "[variant] '复制到页锁定内存中。': writes 'page-locked memory'"),
    ("内存是否“页锁定”。", "whether the memory is page-locked.", "writes 'page-locked'; the project's form is 'pinned memory'"),
    ("卷积核每次滑动的步长。", "The stride of the kernel.", "which is '步幅' in the glossary"),
    ("只改变{term}`步长`。", "Changes only the {term}`strides <步长>`.", "shows 'strides', not the glossary's English"),
    ("反向传播时计算梯度。", "The backward pass computes the gradients.", "uses glossary term '反向传播' but not"),
    ("多次反向传播。第二次反向传播。", "Several rounds of backpropagation. The second backward pass.",
     "in 2 sentences but its English term 'backpropagation' only 1 time"),
    ("勘误索引", "Index of corrections", "writes 'Index of corrections'; the project's form is 'index of errata'"),
    ("调用 `backward()` 计算梯度。", "The backward pass of `backward()` computes the gradients.",
     "writes 'backward pass'; the project's form is 'backpropagation'"),
    ("一维张量。", "A one-dimensional tensor.", "writes 'one-dimensional'; the project's form is '1-D'"),
    ("勘误索引", "Index of corrections", "uses glossary term '勘误' but not its English term 'erratum'"),
    ("学习率调度器的状态", "the state of the learning-rate scheduler", "writes 'learning-rate'"),
    ("步长系数", "the step-size factor", "writes 'step-size'; the project's form is 'step size'"),
    ("默认 `None`。", "Default `None`.", "writes 'Default `x`'; the project's form is 'Default: `x`'"),
    ("默认：`None`。", "Default: `None`.", "the source writes '默认：`x`'; the project's form is '默认 `x`'"),
    ("按下标访问元素。", "Elements are accessed by index.", "the source writes '下标'; the project's form is '索引'"),
    ("传入它会引发 `TypeError`。", "Passing it raises `TypeError`.", "the source writes '引发'; the project's form is '抛出'"),
])
def test_the_projects_one_term_decisions_fail_with_file_and_line(project_glossary, msgid, msgstr, expected):
    """docs/glossary.md (section glossary-conventions) decides; tools/terminology/ and glossary.po hold it."""
    po = catalog(project_glossary / "page.po", (msgid, msgstr))
    errors = [e for e in lint([po], docs_dir=ROOT / "docs") if e.startswith(f"{po}:")]
    assert any(re.match(rf"^{re.escape(str(po))}:\d+: \[", e) and expected in e for e in errors), "\n".join(errors)


@pytest.mark.parametrize("msgid, msgstr", [
    ("页锁定内存", "pinned (page-locked) memory"),  # the one documented explanation
    ("把批量放进{term}`页锁定内存`。", "puts the batch into {term}`pinned (page-locked) memory <页锁定内存>`."),
    ("更新的步长。", "The step size of the update."),
    ("张量的{term}`步幅`。", "The {term}`strides <步幅>` of a tensor."),
    ("反向传播时计算梯度。", "Backpropagation computes the gradients."),
    # `backward()`, the method, is written as it is; "backward pass" is not (en.tsv, glossary conventions).
    ("调用 `backward()` 时计算梯度。", "A call of `backward()` computes the gradients."),
    ("勘误：旧的说法", "Erratum: the old claim"),
    ("修正偏差。", "A correction of the bias."),
    ("学习率调度器", "learning rate scheduler"),
    ("默认 `None`。", "Default: `None`."),
    ("按索引访问元素。", "Elements are accessed by index."),
    ("传入它会抛出 `TypeError`。", "Passing it raises `TypeError`."),
])
def test_the_decided_forms_pass(project_glossary, msgid, msgstr):
    po = catalog(project_glossary / "page.po", (msgid, msgstr))
    errors = [e for e in lint([po], docs_dir=ROOT / "docs") if e.startswith(f"{po}:")]
    assert not errors, "\n".join(errors)


def test_a_glossary_term_has_one_english_term(tmp_path, monkeypatch):
    """No '# also:' form that en.tsv rejects, no English term shared by two terms."""
    monkeypatch.setattr(lint_po, "TERMINOLOGY", FIXTURE / "terminology")
    messages = tmp_path / "en" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    text = (MESSAGES / "glossary.po").read_text(encoding="utf-8")
    text = text.replace("# also: argument\n", "# also: argument, element-wise\n")
    text = text.replace('msgid "概率"\nmsgstr "probability"', 'msgid "概率"\nmsgstr "gradient"')
    (messages / "glossary.po").write_text(text, encoding="utf-8")
    errors = lint_file(messages / "glossary.po", docs_dir=FIXTURE)
    po = messages / "glossary.po"
    assert f"{po}:{line_of(po, '# also: argument, element-wise')}: [terminology] '参数': '# also: element-wise' " \
           "accepts a rejected variant" in "\n".join(errors), errors
    assert any("'概率' has the same English term 'gradient'" in e for e in errors), errors
    assert any("'梯度' has the same English term 'gradient'" in e for e in errors), errors


def test_a_lone_backtick_is_reported_first_at_its_line_and_not_buried_under_its_consequences(tmp_path):
    """A dropped backtick makes every code span after it read wrong; the lint names the broken spot first,
    on its line, and leaves out what follows from it (spans and roles 'missing', code read as prose)."""
    msgid = "".join(f"第{n}个 `torch.op{n}` 和 {{py:func}}`torch.fn{n}`，" for n in range(1, 9)) + "结束。"
    msgstr = " ".join(f"the `torch.op{n}` number {n} and {{py:func}}`torch.fn{n}`," for n in range(1, 9)) + " the end."
    broken = msgstr.replace("`torch.op6`", "torch.op6`")
    po = catalog(tmp_path / "en" / "LC_MESSAGES" / "page.po", (msgid, broken))
    errors = lint([po])
    text = po.read_text(encoding="utf-8").splitlines()
    msgstr = next(n for n, row in enumerate(text) if row.startswith("msgstr"))
    line = next(n for n, row in enumerate(text[msgstr:], start=msgstr + 1) if " torch.op6`" in row)
    assert errors[0].startswith(f"{po}:{line}: [markup] "), errors
    assert not [e for e in errors if any(f"[{rule}]" in e for rule in ("code", "role", "spelling"))], errors


def test_a_placeholder_header_date_is_reported_as_msgfmt_c_and_a_po_editor_would(tmp_path):
    po = catalog(tmp_path / "en" / "LC_MESSAGES" / "page.po", ("一段。", "A paragraph."))
    text = po.read_text(encoding="utf-8").replace("2026-12-01 00:00+0000", "YEAR-MO-DA HO:MI+ZONE")
    po.write_text(text, encoding="utf-8")
    line = line_of(po, "PO-Revision-Date")
    errors = lint([po])
    assert errors == [f"{po}:{line}: [header] header field 'PO-Revision-Date' still has the initial default value"
                      " (msgfmt -c)"], errors


def test_every_catalog_of_the_project_is_clean_for_msgfmt_c():
    """What Poedit and other PO editors run on opening a catalog: no error, no warning."""
    found = []
    for po in sorted([*(ROOT / "locale").rglob("*.po"), *(ROOT / "docs" / "_locale").rglob("*.po")]):
        result = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(po)], capture_output=True, text=True,
                                timeout=60)
        if result.returncode or result.stderr:
            found.append(result.stderr.strip())
    assert not found, "\n".join(found)


def test_an_english_link_to_an_article_in_chinese_says_so(tmp_path):
    source = "原笔记引用的文章：<https://zhuanlan.zhihu.com/p/123>"
    unmarked = catalog(tmp_path / "en" / "LC_MESSAGES" / "a.po", (source, "The article cited: <https://zhuanlan.zhihu.com/p/123>"))
    marked = catalog(tmp_path / "en" / "LC_MESSAGES" / "b.po",
                     (source, "The article cited (in Chinese): <https://zhuanlan.zhihu.com/p/123>"))
    english = catalog(tmp_path / "en" / "LC_MESSAGES" / "c.po",
                      ("文档：<https://docs.pytorch.org/docs/stable/>", "The docs: <https://docs.pytorch.org/docs/stable/>"))
    errors = [e for e in lint([unmarked, marked, english]) if "[url]" in e]
    assert len(errors) == 1 and errors[0].startswith(f"{unmarked}:") and "(in Chinese)" in errors[0], errors
