"""The site as a reader uses it, in a real browser (Debian's headless chromium).

One browser and one local web server (127.0.0.1, a free port) for the whole
module, serving the fresh builds of the ``html_builds`` fixture. Every test
also asserts that the pages it visited logged no JavaScript error.
Screenshots go to ``_build/screenshots/`` for people to look at.
"""

import io
import json
import re
import time
import urllib.parse

import pytest
from tools.web import search_eval
from PIL import Image
from tools.web.browser import set_theme, wcag_violations
from conftest import LANGUAGES, ROOT, check_translated_content, html_dir

SCREENSHOTS = ROOT / "_build" / "screenshots"
ZH, EN = "zh_CN", "en"
SWITCH_PAGES = ["tensors/broadcasting", "autograd/overview", "nn/module"]



@pytest.fixture(autouse=True)
def no_javascript_errors(request):
    """Start each test with an empty error list; the test itself asserts it stays empty."""
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").errors.clear()


def assert_no_errors(browser):
    errors, browser.errors[:] = list(browser.errors), []
    assert not errors, "JavaScript errors on the pages visited:\n" + "\n".join(errors)


def path_of(browser) -> str:
    return browser.evaluate("window.location.pathname")


# -- 1. language switcher ------------------------------------------------------
@pytest.mark.parametrize("page", SWITCH_PAGES)
def test_language_switcher_opens_the_same_page_and_back(browser, site, page):
    browser.open(f"{site}{ZH}/{page}.html")
    assert browser.evaluate("document.documentElement.lang") == "zh-CN"
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{EN}/{page}.html"
    assert browser.evaluate("document.documentElement.lang") == "en"
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{ZH}/{page}.html"
    assert_no_errors(browser)


def test_language_switcher_falls_back_to_the_home_page(browser, site):
    browser.open(f"{site}{ZH}/nn/module.html")
    # Point the switcher at a page the English edition does not have.
    browser.evaluate("document.querySelector('a.language-switcher-link').href = '../../en/no-such-page.html'")
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{EN}/index.html"
    errors = [e for e in browser.errors if "no-such-page.html" not in e]  # the probe's own 404 is expected
    browser.errors[:] = errors
    assert_no_errors(browser)


# -- 2. search -----------------------------------------------------------------
def search(browser, site, language: str, query: str) -> list[str]:
    """Type the query into the sidebar search box, submit, and return the result links."""
    browser.open(f"{site}{language}/index.html")
    browser.evaluate(f"document.querySelector('input.sidebar-search').value = {json.dumps(query)}")
    browser.until_loaded(lambda: browser.evaluate("document.querySelector('form.sidebar-search-container').submit()",
                                                   user_gesture=True))
    assert "search.html?q=" in browser.location()
    browser.wait_for("(document.querySelector('#search-results p.search-summary') || {}).innerText",
                     f"the results of {query!r}")
    return browser.evaluate(
        "[...document.querySelectorAll('#search-results ul.search li > a')].map(a => a.getAttribute('href'))")


def pages(links: list[str]) -> set[str]:
    return {link.split("#")[0] for link in links}


@pytest.mark.parametrize("language, query, expected", [
    (ZH, "自动求导", "autograd/overview.html"),       # one term
    (ZH, "计算 梯度", "autograd/backward.html"),      # two terms, a space between them
    (ZH, "计算梯度", "autograd/backward.html"),       # the same two terms typed without a space
    (ZH, "学习率", "glossary.html"),                  # a glossary term kept whole by jieba
    (EN, "broadcasting", "tensors/broadcasting.html"),
    (EN, "leaf tensor", "autograd/overview.html"),
    (EN, "gradient accumulation", "autograd/backward.html"),
])
def test_search_lists_the_expected_page(browser, site, language, query, expected):
    found = pages(search(browser, site, language, query))
    assert expected in found, f"{query!r} did not list {expected}: {sorted(found)}"
    assert_no_errors(browser)


def test_chinese_query_without_spaces_finds_what_the_spaced_query_finds(browser, site):
    spaced = pages(search(browser, site, ZH, "计算 梯度"))
    unspaced = pages(search(browser, site, ZH, "计算梯度"))
    assert spaced and unspaced == spaced
    # Both words, plus the English form of the glossary term 梯度 that the ranking also looks for.
    assert browser.evaluate("[...Search._parseQuery('计算梯度')[1]].sort()") == ["gradient", "梯度", "计算"]
    assert_no_errors(browser)


def test_every_published_language_has_learner_queries():
    """A published translation is measured; a draft reports that nobody has written its queries yet."""
    for language in LANGUAGES:
        problems = [] if search_eval.query_file(language).exists() else [
            f"no {search_eval.query_file(language).relative_to(search_eval.QUERIES.parent.parent)}"]
        check_translated_content(language, problems, "search query files missing")


def ask_query_set(browser, site, language: str, which: str) -> tuple[float, dict, str]:
    """A query set of tests/data/ asked on the site's search page: the share found in the top three, the
    (found, asked) of each kind, and a report of it with the misses (printed: pytest shows it with -s)."""
    asked = search_eval.queries(language, which)
    ranked = search_eval.ranked_pages(browser, f"{site}{language}/search.html", [q for q, _, _ in asked])
    found, misses = search_eval.found_share(asked, ranked)
    kinds = search_eval.kind_shares(asked, ranked)
    report = (f"{language} {which}: {found}/{len(asked)} in the top three; "
              + ", ".join(f"{kind} {f}/{n}" for kind, (f, n) in kinds.items()) + "; misses:\n"
              + "\n".join(f"  {q!r} -> {got} (expected {want})" for q, want, got in misses))
    print(report)
    return found / len(asked), kinds, report


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if search_eval.query_file(lang).exists()])
def test_natural_queries_find_their_page_in_the_top_three(browser, site, language):
    """tests/data/search-queries-<lang>.tsv: at least 95% of the learner queries, per language, and at least 90%
    of each kind (name, typo, paraphrase, error; issue 28)."""
    share, kinds, report = ask_query_set(browser, site, language, "queries")
    assert share >= 0.95, report
    assert all(f / n >= 0.9 for f, n in kinds.values()), report
    assert_no_errors(browser)


# The held-out queries (tests/data/search-heldout-<lang>.tsv) were written before they were ever run and are
# never tuned on: their first measurement, before any change made after them, was 23/26 (88%) on the Chinese
# site and 24/26 (92%) on the English one. The floor is 80%, below what was measured: it catches a ranking
# change that loses what was not tuned for, and a query of this set that fails is not a reason to tune.
HELD_OUT_FLOOR = 0.8


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if search_eval.query_file(lang, "heldout").exists()])
def test_held_out_queries_find_their_page_in_the_top_three(browser, site, language):
    share, _, report = ask_query_set(browser, site, language, "heldout")
    assert share >= HELD_OUT_FLOOR, report
    assert_no_errors(browser)


@pytest.mark.parametrize("language, query, expected", [
    (ZH, "view 和 reshape 的区别", "tensors/view-reshape.html"),  # question words do not empty the list
    (ZH, "learning rate", "glossary.html"),  # an English term on the Chinese site finds its Chinese pages
    (EN, "广播", "tensors/broadcasting.html"),  # and the other way round
])
def test_results_show_the_title_and_a_prose_excerpt_with_the_match_highlighted(browser, site, language, query,
                                                                               expected):
    links = search(browser, site, language, query)
    assert expected in pages(links), f"{query!r}: {links}"
    browser.wait_for("document.querySelectorAll('#search-results ul.search li p.context').length >= 3",
                     "the excerpts")
    results = browser.evaluate("""[...document.querySelectorAll('#search-results ul.search li')].slice(0, 5).map(li => ({
        title: li.querySelector('a').textContent, excerpt: (li.querySelector('p.context') || {}).textContent || '',
        marked: li.querySelectorAll('p.context .highlighted').length}))""")
    assert all(r["title"].strip() for r in results), results
    excerpts = [r["excerpt"] for r in results if r["excerpt"]]
    assert excerpts and not [e for e in excerpts if "\\(" in e or "\\[" in e or ">>>" in e], excerpts
    assert any(r["marked"] for r in results), f"no highlighted match in {results}"
    assert_no_errors(browser)


# Issue 19: the two classes of query that found nothing or the wrong page (also in tests/data/).
@pytest.mark.parametrize("language, query, expected", [
    (ZH, "is 和 ==", "python/is-vs-eq"),  # operators and short words only: nothing was left to look for
    (EN, "is vs ==", "python/is-vs-eq"),
    (ZH, "学习率调度器", "lr_scheduler/base"),  # the compound, not its first half 学习率
    (ZH, "数据集", "data/dataset"),  # not 数据
])
def test_operator_queries_and_compounds_find_their_page_in_the_top_three(browser, site, language, query, expected):
    [top] = search_eval.ranked_pages(browser, f"{site}{language}/search.html", [query])
    assert expected in top, f"{query!r}: {top}"
    assert_no_errors(browser)


# Issue 28: a typo in an API name or an English word (one or two edits) finds the page, first.
@pytest.mark.parametrize("language, query, expected", [
    (ZH, "CrossEntropLoss", "losses/crossentropyloss"),
    (EN, "CrossEntropLoss", "losses/crossentropyloss"),
    (EN, "retian_graph", "autograd/retain-graph"),
    (ZH, "unsqeeze 用法", "tensors/squeeze-unsqueeze"),
    (EN, "dataloder shuffle", "data/dataloader"),
    (ZH, "ReduceLROnPlatue", "lr_scheduler/reducelronplateau"),  # two edits
])
def test_a_typo_finds_its_page_first(browser, site, language, query, expected):
    [top] = search_eval.ranked_pages(browser, f"{site}{language}/search.html", [query])
    assert top[:1] == [expected], f"{query!r}: {top}"
    assert_no_errors(browser)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if search_eval.query_file(lang).exists()])
def test_typo_tolerance_changes_no_query_typed_right(browser, site, language):
    """Near words are looked for only for a word the index does not hold: every query of the sets but the typos
    ranks the same pages with typo tolerance turned off."""
    asked = [q for q, _, kind in search_eval.queries(language) if kind != "typo"]
    with_typos = search_eval.ranked_pages(browser, f"{site}{language}/search.html", asked)
    browser.evaluate("TorchNotesSearch.options.typos = false")
    without = search_eval.ranked_here(browser, asked)
    changed = [(q, a, b) for q, a, b in zip(asked, with_typos, without) if a != b]
    assert not changed, "\n".join(f"{q!r}: {a} (without typos {b})" for q, a, b in changed)
    assert_no_errors(browser)


# Issue 28: said the way learners say it (tools/terminology/search-synonyms.tsv), the page is in the top three.
@pytest.mark.parametrize("language, query, expected", [
    (ZH, "每隔几个 epoch 把学习率乘以 0.1", "lr_scheduler/steplr"),
    (EN, "multiply learning rate by 0.1 every few epochs", "lr_scheduler/steplr"),
    (ZH, "断点续训", "serialization/state-dict-checkpoints"),  # not the pdb page (断点 = breakpoint)
    (ZH, "训练到一半停了怎么接着训", "serialization/state-dict-checkpoints"),
    (ZH, "为什么每次跑出来结果都不一样", "devices/cudnn-reproducibility"),
    (EN, "results differ every run", "devices/cudnn-reproducibility"),
    (ZH, "模型怎么放到显卡上", "devices/moving"),
    (EN, "how many weights does my model have", "nn/module-introspection"),
])
def test_a_learners_phrasing_finds_the_page(browser, site, language, query, expected):
    [top] = search_eval.ranked_pages(browser, f"{site}{language}/search.html", [query])
    assert expected in top, f"{query!r}: {top}"
    assert_no_errors(browser)


# Issue 28: a pasted error message ranks a page that prints it word for word first (search-messages.js), not
# a page that shares an ordinary word of it (leaf, Variable, size).
@pytest.mark.parametrize("language, query, printed_by", [
    (EN, "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.",
     {"autograd/data-vs-detach", "init/nn-init", "tensors/indexing", "tensors/pointwise", "tensors/random"}),
    (ZH, "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.",
     {"autograd/data-vs-detach", "init/nn-init", "tensors/indexing", "tensors/pointwise", "tensors/random"}),
    (ZH, "报错 grad can be implicitly created only for scalar outputs", {"autograd/backward"}),
    (EN, "ValueError: optimizer got an empty parameter list", {"optim/optimizer"}),
    (EN, "Given groups=1, weight of size [8, 3, 3, 3], expected input[1, 4, 8, 8] to have 3 channels, but got 4 "
         "channels instead", {"nn/conv2d"}),
    (ZH, "The size of tensor a (4) must match the size of tensor b (5) at non-singleton dimension 0",  # other sizes
     {"tensors/broadcasting", "tensors/recipes", "tensors/matmul", "tensors/random", "nn/attention"}),
])
def test_a_pasted_message_ranks_a_page_that_prints_it_first(browser, site, language, query, printed_by):
    [top] = search_eval.ranked_pages(browser, f"{site}{language}/search.html", [query])
    assert top[:1] and top[0] in printed_by, f"{query!r}: {top}"
    assert_no_errors(browser)


# Issue 28: a message that several pages print ranks first the page that is about it: the one that quotes it in
# its prose too (search_excerpts.QUOTED), or whose title or API entry the message names; and never a page that
# does not print it because a builtin's name (range) is a word of the message.
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("query, first, printed_by", [
    ("RuntimeError: Found dtype Long but expected Float", "losses/regression",  # quoted in its prose
     {"losses/bce", "losses/regression"}),
    ("RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after "
     "they have already been freed)", "autograd/retain-graph",  # retain_graph; nn/recurrent quotes it too
     {"autograd/retain-graph", "nn/recurrent"}),
    ("RuntimeError: output with shape [3] doesn't match the broadcast shape [2, 3]", "tensors/broadcasting",
     {"tensors/broadcasting", "tensors/indexing"}),  # torch.broadcast_to
    ("IndexError: index out of range in self", None, {"nn/embedding", "tensors/indexing"}),  # not range's page
])
def test_a_message_several_pages_print_ranks_the_page_about_it_first(browser, site, language, query, first,
                                                                      printed_by):
    [top] = search_eval.ranked_pages(browser, f"{site}{language}/search.html", [query])
    assert top[:1] and top[0] in printed_by and top[0] == (first or top[0]), f"{query!r}: {top}"
    assert_no_errors(browser)


SCORES = """(async (q) => {
  await new Promise((ok) => { const wait = () => Search.hasIndex() ? ok() : setTimeout(wait, 20); wait(); });
  return Search._performSearch(...Search._parseQuery(q)).reverse().map((r) => [r[0], r[4]]);
})"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_about_a_word_outranks_pages_that_mention_it(browser, site, language):
    """Issue 28: running_mean is in the body of a dozen pages; the BatchNorm page, which uses it most, ranks
    strictly first (search_term_weight), not first by a tie broken by title order."""
    browser.open(f"{site}{language}/search.html")
    (first, top), (_, second) = browser.evaluate(f"{SCORES}('running_mean')")[:2]
    assert first == "nn/batchnorm2d" and top > second, (first, top, second)
    assert_no_errors(browser)


API_ENTRIES = """(() => { const entries = [];
  for (const prefix in Search._index.objects) Search._index.objects[prefix].forEach((match) =>
    entries.push([(prefix ? prefix + "." : "") + match[4], Search._index.docnames[match[0]]]));
  return entries; })()"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_exact_name_of_each_api_entry_finds_its_page_first(browser, site, language):
    """Issue 28: torch.flatten finds the page that documents it (view-reshape), not the one with Flatten in its
    title; torch.abs its page, not one that mentions abs more."""
    search_eval.ranked_pages(browser, f"{site}{language}/search.html", ["x"])  # loads the index
    entries = browser.evaluate(API_ENTRIES)
    assert len(entries) > 400, len(entries)
    ranked = search_eval.ranked_here(browser, [name for name, _ in entries])
    wrong = [(name, page, top) for (name, page), top in zip(entries, ranked) if top[:1] != [page]]
    assert not wrong, f"{len(wrong)} of {len(entries)}:\n" + "\n".join(f"  {n}: {t} (expected {p})" for n, p, t in wrong[:20])
    assert_no_errors(browser)


@pytest.mark.parametrize("language, query, expected", [
    (ZH, "rsqrt", "tensors/pointwise.html#tensors-pointwise-rsqrt"),
    (EN, "rsqrt", "tensors/pointwise.html#tensors-pointwise-rsqrt"),
])
def test_a_result_links_to_the_section_its_excerpt_comes_from(browser, site, language, query, expected):
    """The excerpts file keeps an anchor without its page's prefix (search_excerpts.short_anchor)."""
    links = search(browser, site, language, query)
    browser.wait_for("document.querySelectorAll('#search-results ul.search li p.context').length", "the excerpts")
    links = browser.evaluate(
        "[...document.querySelectorAll('#search-results ul.search li > a')].map(a => a.getAttribute('href'))")
    assert expected in links, f"{query!r}: {links[:5]}"
    page, anchor = expected.split("#")
    browser.open(f"{site}{language}/{page}")
    assert browser.evaluate(f"!!document.getElementById({json.dumps(anchor)})"), f"no #{anchor} on {page}"
    assert_no_errors(browser)


RESULTS_AND_EXCERPTS = """[document.querySelectorAll('#search-results ul.search li').length,
  document.querySelectorAll('#search-results ul.search li p.context').length]"""


@pytest.mark.parametrize("language, query", [(ZH, "张量"), (EN, "tensor")])  # a word on nearly every page
def test_a_query_transfers_at_most_one_megabyte_and_fetches_no_result_page(browser, site, language, query):
    """The excerpts come with the index (search-excerpts.js); Sphinx fetched every result page (10 MB)."""
    url = f"{site}{language}/search.html?q={urllib.parse.quote(query)}"
    loaded = browser.transferred(lambda: browser.open(url))
    results, excerpts = browser.evaluate(RESULTS_AND_EXCERPTS)
    assert results >= 50 and excerpts == results, (results, excerpts)
    total = sum(loaded.values())
    assert total <= 1_000_000, f"{total / 1e6:.2f} MB for one query: " + ", ".join(
        f"{u.rsplit('/', 1)[-1]} {n // 1000} kB" for u, n in sorted(loaded.items(), key=lambda i: -i[1])[:5])
    fetched = [u for u in loaded if urllib.parse.urlsplit(u).path.endswith(".html")
               and not urllib.parse.urlsplit(u).path.endswith("/search.html")]
    assert not fetched, f"the search fetched {len(fetched)} pages, e.g. {fetched[:3]}"
    assert_no_errors(browser)


@pytest.mark.parametrize("language, query, expected", [(ZH, "广播", "tensors/broadcasting.html"),
                                                       (EN, "broadcasting", "tensors/broadcasting.html")])
def test_search_shows_results_and_excerpts_when_the_site_is_opened_from_the_file_system(browser, site, language,
                                                                                        query, expected):
    browser.open((html_dir(language) / "search.html").as_uri() + "?q=" + urllib.parse.quote(query))
    browser.wait_for("(document.querySelector('#search-results p.search-summary') || {}).innerText",
                     f"the results of {query!r}")
    time.sleep(0.5)  # what Sphinx fetched for the excerpts had time to fail
    links = browser.evaluate("[...document.querySelectorAll('#search-results ul.search li > a')]"
                             ".map(a => a.getAttribute('href'))")
    assert expected in pages(links), links
    results, excerpts = browser.evaluate(RESULTS_AND_EXCERPTS)
    assert results and excerpts == results, f"{excerpts} excerpts for {results} results"
    assert browser.evaluate("document.querySelectorAll('#search-results p.context .highlighted').length") > 0
    browser.screenshot(SCREENSHOTS / f"search-from-file-{language}.png")
    browser.offline.clear()
    assert_no_errors(browser)


def test_switching_language_on_the_search_page_keeps_the_query(browser, site):
    search(browser, site, ZH, "广播")
    browser.click_and_wait("a.language-switcher-link")
    assert path_of(browser) == f"/{EN}/search.html"
    assert browser.evaluate("new URLSearchParams(location.search).get('q')") == "广播"
    assert browser.evaluate("document.querySelector('input[name=q]').value") == "广播"
    assert_no_errors(browser)


# -- 3. copy button --------------------------------------------------------------
CAPTURE_COPY = """document.addEventListener("copy", (e) => {
  window.__copied = e.target.value !== undefined ? e.target.value : String(document.getSelection());
}, true)"""


def copy_block(browser, selector: str) -> str:
    browser.evaluate("window.__copied = null; " + CAPTURE_COPY)
    browser.click(f"{selector} button.copybtn")
    return browser.wait_for("window.__copied", "the copied text")


def test_copy_button_copies_doctest_code_without_prompts_or_output(browser, site):
    browser.open(f"{site}{ZH}/tensors/broadcasting.html")
    shown = browser.evaluate("document.querySelector('div.highlight-pycon pre').innerText")
    copied = copy_block(browser, "div.highlight-pycon")
    code = [line[4:] for line in shown.splitlines() if line.startswith((">>> ", "... "))]
    assert copied.splitlines() == code, f"copied:\n{copied}\nshown:\n{shown}"
    assert ">>>" not in copied and "torch.Size([" not in copied, copied
    assert_no_errors(browser)


def test_output_blocks_have_no_copy_button(browser, site):
    browser.open(f"{site}{ZH}/index.html")  # the conventions section: a testcode and its testoutput
    assert browser.evaluate("document.querySelectorAll('div.no-copybutton').length") >= 1
    assert browser.evaluate("document.querySelectorAll('div.no-copybutton button.copybtn').length") == 0
    assert "print(" in copy_block(browser, "div.highlight-python:not(.no-copybutton)")
    assert_no_errors(browser)


# -- 4. dark mode ----------------------------------------------------------------
READ_COLOURS = """(() => {
  const opaque = (el) => {
    for (; el; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor;
      if (c && c !== "transparent" && !c.endsWith(", 0)")) return c;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const text = document.querySelector("article p");
  const code = document.querySelector("article div.highlight pre");
  return {text: getComputedStyle(text).color, page: opaque(text),
          code: getComputedStyle(code).color, codeBackground: opaque(code)};
})()"""


def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("language", LANGUAGES)
def test_dark_mode_toggles_persists_and_stays_readable(browser, site, language):
    browser.open(f"{site}{language}/tensors/broadcasting.html")
    for theme in ("light", "dark"):
        set_theme(browser, theme)
        colours = browser.evaluate(READ_COLOURS)
        dark_page = luminance(colours["page"]) < 0.1
        assert dark_page == (theme == "dark"), f"{theme} mode has a page background of {colours['page']}"
        assert contrast(colours["text"], colours["page"]) >= 7, f"{theme}: prose hard to read: {colours}"
        assert contrast(colours["code"], colours["codeBackground"]) >= 4.5, f"{theme}: code hard to read: {colours}"
        browser.screenshot(SCREENSHOTS / f"{language}-{theme}.png")
    browser.open(f"{site}{language}/nn/module.html")  # the choice is remembered on the next page
    assert browser.evaluate("document.body.dataset.theme") == "dark"
    assert luminance(browser.evaluate(READ_COLOURS)["page"]) < 0.1
    set_theme(browser, "light")
    assert_no_errors(browser)


# -- 5. JavaScript errors --------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_load_without_javascript_errors(browser, site, language):
    for page in ["index", "glossary", "api", "genindex", "tensors/broadcasting", "autograd/backward"]:
        browser.open(f"{site}{language}/{page}.html")
        browser.wait_for("document.readyState === 'complete'", "the page")
    assert_no_errors(browser)


def test_a_javascript_error_is_caught(browser, site):
    # Negative check of the harness itself: a page that throws must be reported.
    browser.open("data:text/html,<p>x</p><script>undefinedFunction()</script>")
    assert any("undefinedFunction" in error for error in browser.errors), browser.errors
    browser.errors.clear()


# -- API entries ------------------------------------------------------------------------
OVERLAPS = """(() => {
  const hits = [];
  document.querySelectorAll("dt.sig .api-official-link").forEach((link) => {
    const box = link.getBoundingClientRect();
    const dt = link.closest("dt");
    // The signature's own parts, and the first lines of the entry below it (a float spills into them).
    const parts = [...dt.querySelectorAll(".sig-name, .sig-prename, .sig-param, .sig-paren, .sig-return")];
    const below = dt.nextElementSibling && dt.nextElementSibling.firstElementChild;
    if (below) parts.push(below);
    parts.forEach((part) => {
      for (const r of part.getClientRects()) {
        if (r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom) {
          hits.push(dt.id); return;
        }
      }
    });
  });
  return [...new Set(hits)];
})()"""
OVERLAP_PAGES = ["nn/conv2d", "tensors/reductions", "tensors/creation", "data/dataloader", "optim/adam",
                 "lr_scheduler/reducelronplateau", "serialization/save-load"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_official_documentation_link_never_covers_its_signature(browser, site, language):
    """Each page is loaded once and laid out again at each width (the link's place is the stylesheet's: no
    script moves it), not loaded once per width."""
    found = []
    try:
        for page in OVERLAP_PAGES:
            browser.open(f"{site}{language}/{page}.html")
            for width in (1000, 1200, 1400, 1600):
                browser.send("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1,
                             mobile=False)
                browser.wait_for(f"window.innerWidth === {width}", f"the window at {width}px")
                found += [f"{page} at {width}px: {entry}" for entry in browser.evaluate(OVERLAPS)]
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride")
    assert not found, "official-documentation link overlaps the signature:\n" + "\n".join(found)


# -- maths and layout (issue 19) ------------------------------------------------------
# The maths is drawn by the build (docs/_ext/maths/katex_math.py): the page arrives with it, no script draws it.
FORMULAS = {  # screenshot name: (page, a piece of the formula's TeX)
    "adam-aligned": ("optim/adam", "\\begin{aligned}"),
    "sgd-cases": ("optim/sgd", "\\begin{cases}"),
    "backward-pmatrix": ("autograd/backward", "\\begin{pmatrix}"),
    "regularization-underbrace": ("init/regularization", "\\underbrace"),
    "conv2d-floor": ("nn/conv2d", "\\left\\lfloor"),
}
FORMULA_BOX = """((tex) => {
  const block = [...document.querySelectorAll("article div.math")].find((b) =>
    [...b.querySelectorAll("annotation")].some((a) => a.textContent.includes(tex)));
  if (!block) return null;
  block.scrollIntoView({block: "center"});
  const drawn = block.querySelector(".katex-html").getBoundingClientRect();
  const r = block.getBoundingClientRect();
  return {x: r.left + scrollX - 8, y: r.top + scrollY - 8, width: r.width + 16, height: r.height + 16,
          drawn: drawn.width > 0 && drawn.height > 0,
          colour: getComputedStyle(block.querySelector(".katex")).color,
          page: getComputedStyle(document.body).backgroundColor};
})"""
MATHS_SCRIPTS = "[...document.scripts].map((s) => s.src + ' ' + s.textContent.slice(0, 200)).filter((s) => /mathjax|katex/i.test(s))"


@pytest.mark.parametrize("language", LANGUAGES)
def test_formulas_arrive_drawn_in_both_themes(browser, site, language):
    """Aligned equations, cases, matrices, floors, underbraces: drawn, readable light and dark (screenshots)."""
    for name, (page, tex) in FORMULAS.items():
        browser.open(f"{site}{language}/{page}.html")
        assert browser.evaluate(MATHS_SCRIPTS) == [], f"{page}: a script for the maths"
        for theme in ("light", "dark"):
            browser.evaluate(f"document.body.dataset.theme = {json.dumps(theme)}")
            browser.evaluate("document.fonts.ready.then(() => true)")
            box = browser.evaluate(FORMULA_BOX + f"({json.dumps(tex)})")
            assert box and box["drawn"], f"{page}: no drawn formula with {tex!r}"
            assert contrast(box["colour"], box["page"]) >= 7, f"{page} ({theme}): {box['colour']} on {box['page']}"
            browser.screenshot(SCREENSHOTS / f"maths-{language}-{name}-{theme}.png",
                               clip={k: box[k] for k in ("x", "y", "width", "height")})
        assert browser.evaluate("document.fonts.check('16px KaTeX_Main') && document.fonts.check('16px KaTeX_Math')")
    assert_no_errors(browser)


def test_a_page_with_maths_loads_no_maths_script_and_a_fifth_of_what_it_did(browser, site):
    """optim/adam loaded 1.36 MB of JavaScript, CSS and fonts with MathJax; KaTeX's CSS and fonts are 0.07 MB."""
    loaded = browser.transferred(lambda: browser.open(f"{site}{ZH}/optim/adam.html"))
    static = {url: size for url, size in loaded.items() if "/_static/" in url}
    assert not [url for url in loaded if "mathjax" in url.lower()]
    fonts = [url for url in static if url.endswith((".woff2", ".woff", ".ttf"))]
    assert fonts and all("/_static/katex/fonts/" in url for url in fonts), fonts
    assert sum(static.values()) <= 300_000, sorted(static.items(), key=lambda i: -i[1])[:5]
    assert_no_errors(browser)


SCROLLBARS = """[...document.querySelectorAll("article .math-wrapper, article div.math, article div.math *")]
  .filter((e) => { const s = getComputedStyle(e); return [s.overflowX, s.overflowY].some((o) => /auto|scroll/.test(o)); })
  .filter((e) => e.scrollWidth <= e.clientWidth && e.scrollHeight > e.clientHeight)
  .map((e) => `${e.className}: ${e.scrollHeight}px of content in a box ${e.clientHeight}px high`)"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", ["optim/adam", "optim/sgd"])
def test_display_equations_that_fit_have_no_scrollbar(browser, site, language, page):
    browser.open(f"{site}{language}/{page}.html")
    browser.evaluate("document.fonts.ready.then(() => true)")
    assert browser.evaluate("document.querySelectorAll('article div.math').length") >= 1
    assert browser.evaluate(SCROLLBARS) == [], f"{page}: a display equation that fits has a scrollbar"
    assert_no_errors(browser)


WIDE_CONTENT = """[...document.querySelectorAll("article *")]
  .filter((e) => /auto|scroll/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
  .map((e) => ({what: e.className || e.tagName, focusable: e.tabIndex >= 0}))"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_every_box_that_scrolls_sideways_can_be_reached_by_keyboard(browser, site, language):
    """At 360 px wide, long equations and wide tables scroll inside their box (axe: scrollable-region-focusable)."""
    found, scrolling = [], 0
    try:
        browser.send("Emulation.setDeviceMetricsOverride", width=360, height=740, deviceScaleFactor=2, mobile=True)
        for page in ["optim/adam", "init/theory", "optim/other-optimizers", "tensors/creation"]:
            browser.open(f"{site}{language}/{page}.html")
            browser.evaluate("document.fonts.ready.then(() => true)")
            boxes = browser.evaluate(WIDE_CONTENT)
            scrolling += len(boxes)
            found += [f"{page}: {box['what']} scrolls but cannot be focused" for box in boxes if not box["focusable"]]
            found += [f"{page}: {v}" for v in wcag_violations(browser, ["scrollable-region-focusable"])]
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride")
    assert scrolling >= 3, "no wide equation or table at phone width: the pages no longer test this"
    assert not found, "\n".join(found)
    assert_no_errors(browser)


CONTENTS_PAGES = ["optim/adam", "nn/conv2d", "lr_scheduler/steplr", "lr_scheduler/reducelronplateau",
                  "optim/grad-clipping", "init/nn-init", "data/dataloader"]
API_NAME = re.compile(r"[\w.]+\.\w+")
CONTENTS_LINES = """(() => [...document.querySelectorAll(".toc-tree a.reference")].map((a) => {
  const chars = [];
  const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode())
    for (let i = 0; i < t.length; i++) {
      const range = document.createRange(); range.setStart(t, i); range.setEnd(t, i + 1);
      const box = range.getClientRects()[0];
      if (box && t.data[i].trim()) chars.push({c: t.data[i], top: box.top});
    }
  const breaks = [];
  for (let i = 1; i < chars.length; i++)
    if (chars[i].top > chars[i - 1].top + 2) breaks.push(chars[i - 1].c + "|" + chars[i].c);
  return {text: a.textContent, breaks};
}))()"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contents_column_lists_each_api_once_and_breaks_names_after_dots(browser, site, language):
    """"On this page": an API entry was listed twice (its section and its signature), and broken mid-word."""
    found, broken_lines = [], 0
    try:
        browser.send("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
        for page in CONTENTS_PAGES:
            browser.open(f"{site}{language}/{page}.html")
            entries = [e for e in browser.evaluate(CONTENTS_LINES) if API_NAME.fullmatch(e["text"])]
            names = [e["text"] for e in entries]
            found += [f"{page}: {name} listed {names.count(name)} times" for name in sorted(set(names))
                      if names.count(name) > 1]
            for entry in entries:
                broken_lines += len(entry["breaks"])
                found += [f"{page}: {entry['text']} broken at {b!r}" for b in entry["breaks"] if b[0] not in "._"]
    finally:
        browser.send("Emulation.clearDeviceMetricsOverride")
    assert broken_lines, "no API name needed two lines: the check saw nothing"
    assert not found, "\n".join(found)
    assert_no_errors(browser)


PLOT = """(() => { const img = document.querySelector("article img.plot-directive"); img.scrollIntoView({block: "center"});
  const r = img.getBoundingClientRect();
  return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, src: img.currentSrc,
          natural: img.naturalWidth, alt: img.alt, page: getComputedStyle(document.body).backgroundColor}; })()"""


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(v) for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])


@pytest.mark.parametrize("language", LANGUAGES)
def test_learning_rate_plots_are_sharp_and_drawn_for_each_theme(browser, site, language):
    """SVG (or at least twice the pixels shown), on the page's own ground, its ink readable, alt text kept."""
    problems = []
    try:
        browser.send("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=2, mobile=False)
        browser.open(f"{site}{language}/lr_scheduler/steplr.html")
        # light, dark (the toggle), and auto with a dark system theme (prefers-color-scheme)
        for theme, scheme in (("light", "light"), ("dark", "light"), ("auto", "dark")):
            browser.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": scheme}])
            browser.evaluate(f"document.body.dataset.theme = {json.dumps(theme)}")
            plot = browser.evaluate(PLOT)
            if not plot["alt"].strip():
                problems.append("no alt text")
            if not (plot["src"].endswith(".svg") or plot["natural"] >= 2 * plot["width"]):
                problems.append(f"{plot['src']}: {plot['natural']} pixels wide, shown {plot['width']:.0f} wide")
            png = browser.screenshot(SCREENSHOTS / f"plot-{language}-{theme}-{scheme}.png",
                                     clip={k: plot[k] for k in ("x", "y", "width", "height")})
            image = Image.open(io.BytesIO(png)).convert("RGB")
            ground = max(image.getcolors(1 << 24))[1]
            page = rgb(plot["page"])
            if max(abs(a - b) for a, b in zip(ground, page)) > 12:
                problems.append(f"{theme}/{scheme}: the plot's ground {ground} on a page of {page}")
            ink = max((colour for _, colour in image.getcolors(1 << 24)),
                      key=lambda c: contrast(f"rgb{c}", f"rgb{ground}"))
            if contrast(f"rgb{ink}", f"rgb{ground}") < 7:
                problems.append(f"{theme}/{scheme}: text and axes {ink} on {ground}")
    finally:
        browser.send("Emulation.setEmulatedMedia", features=[])
        browser.send("Emulation.clearDeviceMetricsOverride")
    assert not problems, "\n".join(problems)
    assert_no_errors(browser)


# -- what a reader sees, on a desk and on a phone (issue 29) ------------------------------------
# Each check runs in both languages, light and dark, at a desk's width and a phone's; the screenshots
# (_build/screenshots/reader/) show what it looked at.
DESK, PHONE, NARROW = 1280, 390, 360
READER_SHOTS = SCREENSHOTS / "reader"


def show(browser, site, language: str, page: str, width: int, theme: str = "light", scheme: str = "light") -> None:
    """Open a page at a width (a phone below 700 px: mobile, two device pixels a CSS pixel) in a theme."""
    phone = width < 700
    browser.send("Emulation.setDeviceMetricsOverride", width=width, height=800 if phone else 900,
                 deviceScaleFactor=2 if phone else 1, mobile=phone)
    browser.send("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": scheme}])
    browser.open(f"{site}{language}/{page}")
    browser.evaluate(f"document.body.dataset.theme = {json.dumps(theme)}")
    browser.evaluate("document.fonts.ready.then(() => true)")


@pytest.fixture
def reader(browser):
    """The browser, with its window put back to the default size and colour scheme afterwards."""
    yield browser
    browser.send("Emulation.setEmulatedMedia", features=[])
    browser.send("Emulation.clearDeviceMetricsOverride")


def shoot(browser, name: str, selector: str | None = None, margin: int = 8) -> None:
    """A screenshot of the element matching ``selector`` (scrolled into view), or of the window."""
    clip = None
    if selector:
        clip = browser.evaluate(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
          if (!e) return null; e.scrollIntoView({{block: "center"}}); const r = e.getBoundingClientRect();
          const x = Math.max(0, r.left + scrollX - {margin}), y = Math.max(0, r.top + scrollY - {margin});
          return {{x, y, width: Math.min(r.width + 2 * {margin}, document.documentElement.clientWidth - x),
                   height: Math.min(r.height + 2 * {margin}, 1600)}}; }})()""")
    browser.screenshot(READER_SHOTS / f"{name}.png", clip=clip)


# A line break inside an inline code token or an inline formula whose natural width fits the line it is on.
# The natural width is a copy's, set on one line; the lines are counted where the text goes back to the left.
BROKEN_TOKENS = """(() => {
  const room = (el) => {
    let b = el.parentElement;
    while (getComputedStyle(b).display.startsWith("inline")) b = b.parentElement;
    const s = getComputedStyle(b);
    return b.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  };
  const natural = (el) => {
    const copy = el.cloneNode(true);
    copy.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;max-width:none;display:inline-block";
    el.parentElement.appendChild(copy);
    const width = copy.getBoundingClientRect().width;
    copy.remove();
    return width;
  };
  const lines = (boxes) => 1 + boxes.filter((r, i) => i && r.left < boxes[i - 1].left - 1).length;
  const found = [];
  document.querySelectorAll("article code.literal, article span.math").forEach((el) => {
    const parts = el.matches(".math") ? [...el.querySelectorAll(".katex-html > .katex-base, .katex-html > .base")] : [...el.querySelectorAll(".pre")];
    const boxes = parts.flatMap((p) => [...p.getClientRects()]).filter((r) => r.width > 0);
    const width = natural(el), line = room(el);
    if (lines(boxes) > 1 && width <= line)
      found.push(`${el.matches(".math") ? "formula" : "code"} ${JSON.stringify(el.matches(".math")
        ? el.querySelector("annotation").textContent : el.textContent)}: ${lines(boxes)} lines,`
        + ` ${Math.round(width)} px on a line of ${Math.round(line)} px`);
  });
  return found;
})()"""
WHOLE_TOKEN_PAGES = ["optim/adam", "optim/other-optimizers", "lr_scheduler/steplr"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_inline_code_and_inline_formulas_break_only_when_they_do_not_fit_a_line(reader, site, language):
    """Adam's eps and betas read `1e-` / `08` and `(0.9,` / `0.999)`; its m₀ = v₀ = 0 broke at "=" (issue 29: 1, 4)."""
    found = []
    for width, theme in ((DESK, "light"), (PHONE, "dark")):
        for page in WHOLE_TOKEN_PAGES:
            show(reader, site, language, f"{page}.html", width, theme)
            found += [f"{page} at {width} px: {problem}" for problem in reader.evaluate(BROKEN_TOKENS)]
            if page == "optim/adam":
                shoot(reader, f"inline-tokens-{language}-{width}-{theme}", "article dl.py.class dl.field-list")
                shoot(reader, f"inline-maths-{language}-{width}-{theme}", "#optim-adam-adam-algorithm > p")
    assert not found, "\n".join(found)
    assert_no_errors(reader)


FIELD_TYPOGRAPHY = """[...document.querySelectorAll("article dl.field-list")].flatMap((list) =>
  [...list.children].filter((e) => e.tagName === "DT").map((dt) => {
    const label = [...dt.childNodes].filter((n) => !(n.classList && n.classList.contains("parallel-counterpart")))
      .map((n) => n.textContent).join("").trim();
    const items = [...dt.nextElementSibling.querySelectorAll(":scope > p, :scope > ul > li > p")]
      .filter((p) => p.firstChild && p.firstChild.nodeName === "STRONG");  // a parameter's name, not bold prose
    const separators = items.map((p) => [...p.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => /-+|\\u2013+|\\u2014+/.exec(n.data)).filter((m) => m).map((m) => m[0])[0] || "");
    return {label, separators};
  }))"""
FIELD_STYLE = {ZH: ("：", "——"), EN: (":", "\u2013")}  # label colon, separator after a parameter's name and type


@pytest.mark.parametrize("language", [ZH, EN])
def test_parameter_lists_use_the_language_s_colon_and_a_typographic_dash(reader, site, language):
    """The Chinese lists showed `参数:` and a literal `--` where the English shows a dash (issue 29: 2)."""
    colon, dash = FIELD_STYLE[language]
    found, seen = [], 0
    for page in ["optim/adam", "lr_scheduler/steplr", "optim/grad-clipping"]:
        show(reader, site, language, f"{page}.html", DESK)
        for field in reader.evaluate(FIELD_TYPOGRAPHY):
            seen += len(field["separators"])
            if not field["label"].endswith(colon):
                found.append(f"{page}: field label {field['label']!r} does not end with {colon!r}")
            found += [f"{page}: {field['label']} separated by {s!r}, not {dash!r}" for s in field["separators"] if s != dash]
    for theme in ("light", "dark"):
        show(reader, site, language, "optim/adam.html", PHONE, theme)
        shoot(reader, f"field-list-{language}-{PHONE}-{theme}", "article dl.py.class dl.field-list")
    assert seen >= 20, f"only {seen} parameters with a separator: the check saw nothing"
    assert not found, "\n".join(found)
    assert_no_errors(reader)


IMPORT_NAMES = """(() => {
  const name = document.querySelector("article .highlight .n");
  return [...document.querySelectorAll("article .highlight .nn")].map((e) => ({
    text: e.textContent, colour: getComputedStyle(e).color, decoration: getComputedStyle(e).textDecorationLine,
    name: getComputedStyle(name).color}));
})()"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_module_names_in_import_lines_look_like_the_other_names_not_like_links(reader, site, language):
    """In the dark theme `torch`, `np`, `F` of the import lines were blue and underlined (issue 29: 3)."""
    found = []
    for theme, scheme in (("light", "light"), ("dark", "light"), ("auto", "dark")):
        show(reader, site, language, "index.html", DESK, theme, scheme)
        names = reader.evaluate(IMPORT_NAMES)
        assert len(names) >= 4, names  # import numpy as np / from torch import nn / import torch.nn.functional as F
        found += [f"{theme}/{scheme}: {n['text']!r} is {n['colour']}, {n['decoration']} (other names: {n['name']})"
                  for n in names if n["decoration"] != "none" or n["colour"] != n["name"]]
        shoot(reader, f"import-names-{language}-{theme}-{scheme}", "#index-conventions div.highlight")
    assert not found, "\n".join(found)
    assert_no_errors(reader)


# The smallest text of a plot as shown: matplotlib draws text as glyph paths, each run scaled by
# font size / 100 (its TextToPath.FONT_SCALE), in the SVG's own units; the image shows viewBox units at
# its rendered width.
PLOT_TEXT = """(async () => {
  const img = document.querySelector("article img.plot-directive");
  const svg = new DOMParser().parseFromString(await (await fetch(img.currentSrc)).text(), "image/svg+xml");
  const scales = [...svg.querySelectorAll("g[transform*='scale']")]
    .map((g) => /scale\\(([\\d.]+) -/.exec(g.getAttribute("transform"))).filter((m) => m).map((m) => +m[1]);
  const viewBox = svg.documentElement.getAttribute("viewBox").split(/\\s+/).map(Number);
  const shown = img.getBoundingClientRect().width;
  return {smallest: Math.min(...scales) * 100 * shown / viewBox[2], runs: scales.length, shown,
          width: img.getAttribute("width"), height: img.getAttribute("height"),
          natural: [img.naturalWidth, img.naturalHeight]};
})()"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_plot_text_is_readable_on_a_phone_and_the_plots_have_their_size(reader, site, language):
    """At 390 px the 614 px figures were shown 358 px wide, their text 6-7 px; the images had no size (issue 29: 4, 7)."""
    found = []
    for page in ["lr_scheduler/steplr", "lr_scheduler/reducelronplateau"]:
        for width, theme in ((PHONE, "light"), (PHONE, "dark"), (DESK, "light")):
            show(reader, site, language, f"{page}.html", width, theme)
            plot = reader.evaluate(PLOT_TEXT)
            assert plot["runs"] >= 10, plot
            if plot["smallest"] < 10:
                found.append(f"{page} at {width} px: text {plot['smallest']:.1f} px high, the image {plot['shown']:.0f} px wide")
            if not (plot["width"] and plot["height"]):
                found.append(f"{page}: the image has no width and height (the page shifts when it loads)")
            elif abs(int(plot["width"]) / int(plot["height"]) - plot["natural"][0] / plot["natural"][1]) > 0.01:
                found.append(f"{page}: width and height {plot['width']}x{plot['height']}, the figure {plot['natural']}")
            if page == "lr_scheduler/steplr" and width == PHONE:
                shoot(reader, f"plot-{language}-{width}-{theme}", "article img.plot-directive")
    assert not found, "\n".join(found)
    assert_no_errors(reader)


WIDEST_CODE = """[...document.querySelectorAll("article pre")].map((pre) => ({
  width: pre.scrollWidth, line: pre.textContent.split("\\n").reduce((a, b) => (b.length > a.length ? b : a), "")}))
  .sort((a, b) => b.width - a.width)[0]"""
# The widest line of code on these pages, about 100 characters; output lines longer than that wrap.
WIDEST_CODE_PX = 900


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_no_output_line_is_thousands_of_pixels_wide(reader, site, language):
    """A warning printed on lr_scheduler/steplr made its code box 3,055 px wide (issue 29: 4)."""
    found = []
    for page in ["lr_scheduler/steplr", "lr_scheduler/base", "nn/flatten-lazy", "serialization/save-load"]:
        for theme in ("light", "dark"):
            show(reader, site, language, f"{page}.html", PHONE, theme)
            widest = reader.evaluate(WIDEST_CODE)
            if widest["width"] > WIDEST_CODE_PX and theme == "light":
                found.append(f"{page}: a code box {widest['width']} px wide: {widest['line'][:100]}...")
            if page == "lr_scheduler/steplr":
                shoot(reader, f"long-output-{language}-{PHONE}-{theme}", "#lr-scheduler-steplr-steplr div.highlight-pycon")
    assert not found, "\n".join(found)
    assert_no_errors(reader)


CHAPTER_LINKS = """(() => {
  const chapters = [...document.querySelector(".sidebar-tree ul").children].map((li) => li.querySelector("a").href);
  const overview = [...document.querySelectorAll("article p")].find((p) => p.querySelector("a[href$='tensors/index.html']"))
    || [...document.querySelectorAll("article p")][1];
  return {chapters, overview: overview.textContent, links: [...overview.querySelectorAll("a")].map((a) => a.href)};
})()"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_overview_links_every_chapter(reader, site, language):
    """"Organized by topic: tensors, autograd, layers…" linked two glossary entries and no chapter (issue 29: 5)."""
    show(reader, site, language, "index.html", DESK)
    found = reader.evaluate(CHAPTER_LINKS)
    for width, theme in ((DESK, "light"), (PHONE, "dark")):
        show(reader, site, language, "index.html", width, theme)
        shoot(reader, f"home-chapters-{language}-{width}-{theme}", "#index > p:nth-of-type(2)")
    assert len(found["chapters"]) >= 12, found["chapters"]
    missing = [url.split("/")[-2] for url in found["chapters"] if url not in found["links"]]
    assert not missing, f"the overview does not link {missing}: {found['overview']}"
    assert not [url for url in found["links"] if url not in found["chapters"]], found["links"]
    assert_no_errors(reader)


PHONE_SWITCH = """(() => {
  const drawer = document.getElementById("__navigation").checked;
  return [...document.querySelectorAll("a.language-switcher-link")].map((a) => {
    const r = a.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {href: a.getAttribute("href"), drawer,
            visible: r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
                     && !!hit && (hit === a || a.contains(hit))};
  });
})()"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_language_switch_is_in_sight_without_opening_the_menu(reader, site, language):
    """The switch was only inside the menu drawer: a phone reader saw no way to change language (issue 29: 6)."""
    other = EN if language == ZH else ZH
    found = []
    for width in (PHONE, NARROW):
        for theme in ("light", "dark"):
            show(reader, site, language, "optim/adam.html", width, theme)
            links = reader.evaluate(PHONE_SWITCH)
            if not [link for link in links if link["visible"] and not link["drawer"]]:
                found.append(f"{width} px, {theme}: no language link in sight ({links})")
            shoot(reader, f"phone-header-{language}-{width}-{theme}", "header.mobile-header", margin=0)
    assert not found, "\n".join(found)
    reader.click_and_wait(".mobile-header a.language-switcher-link")
    assert path_of(reader) == f"/{other}/optim/adam.html"
    assert_no_errors(reader)


# Where the text of an element goes on to a new line: the characters either side and whether a space was between.
LINE_BREAKS = """((selector) => [...document.querySelectorAll(selector)].map((el) => {
  const chars = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {acceptNode: (t) =>
    t.parentElement.closest(".headerlink, .api-official-link, .parallel-counterpart") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let t = walker.nextNode(); t; t = walker.nextNode())
    for (let i = 0; i < t.length; i++) {
      if (!t.data[i].trim()) { if (chars.length) chars[chars.length - 1].space = true; continue; }
      const range = document.createRange(); range.setStart(t, i); range.setEnd(t, i + 1);
      const box = range.getClientRects()[0];
      if (box) chars.push({c: t.data[i], top: box.top, left: box.left, space: false});
    }
  const breaks = [];
  for (let i = 1; i < chars.length; i++)
    if (chars[i].top > chars[i - 1].top + 2 && chars[i].left < chars[i - 1].left)
      breaks.push({before: chars[i - 1].c, after: chars[i].c, space: chars[i - 1].space});
  return {text: el.textContent.trim(), breaks};
}))"""
# Inside a name: between two letters or digits, or before a dot or an opening parenthesis, with no space between.
MID_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.(]")
NAME_PAGES = ["lr_scheduler/steplr", "lr_scheduler/reducelronplateau", "optim/grad-clipping", "data/dataloader",
              "nn/conv2d"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_at_360_px_api_names_break_only_after_dots_and_underscores(reader, site, language):
    """"torch.optim.lr_sched / uler.StepLR" in headings and signatures at 360 px (issue 29: 7)."""
    found, seen = [], 0
    for page in NAME_PAGES:
        show(reader, site, language, f"{page}.html", NARROW)
        for element in reader.evaluate(LINE_BREAKS + "('article h1, article h2, article h3, article dt.sig')"):
            seen += len(element["breaks"])
            found += [f"{page}: {element['text'][:60]!r} broken at {b['before']}|{b['after']}"
                      for b in element["breaks"] if not b["space"] and MID_WORD.fullmatch(b["before"] + b["after"])]
    for theme in ("light", "dark"):
        show(reader, site, language, "lr_scheduler/steplr.html", NARROW, theme)
        shoot(reader, f"api-names-{language}-{NARROW}-{theme}", "#lr-scheduler-steplr-steplr > h2", margin=16)
        shoot(reader, f"api-signature-{language}-{NARROW}-{theme}", "#lr-scheduler-steplr-steplr dt.sig")
    assert seen >= 5, "no heading or signature needed two lines: the check saw nothing"
    assert not found, "\n".join(found)
    assert_no_errors(reader)


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_header_title_wraps_whole_words(reader, site, language):
    """The Chinese title wrapped with one character alone on its second line ("…参 / 考") (issue 29: 7)."""
    found = []
    for width in (NARROW, PHONE):
        show(reader, site, language, "index.html", width)
        [title] = reader.evaluate(LINE_BREAKS + "('header.mobile-header .brand')")
        found += [f"{width} px: {title['text']!r} broken at {b['before']}|{b['after']}"
                  for b in title["breaks"] if not b["space"] and b["before"] not in "：，、"]
    assert not found, "\n".join(found)
    assert_no_errors(reader)


NEGATIVE_SIZES = """[...document.querySelectorAll("article [style]")].map((e) => e.getAttribute("style"))
  .filter((s) => /(^|;)\\s*(min-|max-)?(height|width)\\s*:\\s*-/.test(s))"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_formulas_carry_no_negative_height_or_width(reader, site, language):
    """KaTeX wrote `height:-0.0983em` on optim/grad-clipping, an error for the Nu Html Checker (issue 29)."""
    for theme in ("light", "dark"):
        show(reader, site, language, "optim/grad-clipping.html", DESK, theme)
        reader.evaluate("""(() => { const m = [...document.querySelectorAll("article div.math")].find((b) =>
          b.querySelector("annotation").textContent.includes("\\\\right\\\\|_p")); if (m) m.id = "negative-height"; })()""")
        shoot(reader, f"grad-clipping-norm-{language}-{theme}", "#negative-height")
    assert reader.evaluate(NEGATIVE_SIZES) == []
    assert_no_errors(reader)


NO_ENTRY = {ZH: "没有 {name} 的条目", EN: "no entry for {name}"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name, closest", [("torch.jit.script", None),
                                           ("torch.nn.parallel.scatter", "tensors/indexing.html")])
def test_a_dotted_name_without_an_entry_is_answered_honestly(reader, site, language, name, closest):
    """torch.topk, before it had an entry, "found 104 pages" of unrelated results (issue 29: 8)."""
    for width, theme in ((DESK, "light"), (PHONE, "dark")):
        show(reader, site, language, f"search.html?q={urllib.parse.quote(name)}", width, theme)
        reader.wait_for("(document.querySelector('#search-results p.search-summary') || {}).innerText", name)
        shoot(reader, f"search-no-entry-{name}-{language}-{width}-{theme}", "#search-results")
    summary = reader.evaluate("document.querySelector('#search-results p.search-summary').innerText")
    links = pages(reader.evaluate("[...document.querySelectorAll('#search-results ul.search li > a')]"
                                  ".map(a => a.getAttribute('href'))"))
    assert NO_ENTRY[language].format(name=name).lower() in summary.lower(), summary
    assert 1 <= len(links) <= 10, f"{name}: {len(links)} pages offered: {sorted(links)}"
    if closest:
        assert closest in links, f"{name}: {sorted(links)}"
    assert_no_errors(reader)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name, expected", [("torch.topk", "tensors/sort-topk.html"),
                                            ("torch.nn.LayerNorm", "nn/normalization.html")])
def test_a_dotted_name_with_an_entry_finds_it_first(reader, site, language, name, expected):
    show(reader, site, language, f"search.html?q={urllib.parse.quote(name)}", DESK)
    reader.wait_for("(document.querySelector('#search-results p.search-summary') || {}).innerText", name)
    first = reader.evaluate("(document.querySelector('#search-results ul.search li > a') || {}).href || ''")
    assert first.split("#")[0].endswith(f"/{expected}"), f"{name}: {first}"
    summary = reader.evaluate("document.querySelector('#search-results p.search-summary').innerText")
    assert NO_ENTRY[language].format(name=name).lower() not in summary.lower(), summary
    assert_no_errors(reader)
