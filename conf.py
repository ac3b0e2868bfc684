"""Sphinx configuration for torch-notes.

Built as ``sphinx-build -c . docs OUT``; the Makefile is the entry point.
The Chinese build is the default; the English build adds ``-D language=en``.
Anything that must differ between the two languages lives in
``language_overrides`` below (conf.py runs before ``-D language`` is applied).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

# -- General -----------------------------------------------------------------
project = "torch-notes"
author = "torch-notes contributors"
copyright = "2026, torch-notes contributors"

extensions = [
    # building/: how a build runs. catalog_check first: every catalog sound before Sphinx compiles one
    # (tools/catalogs/catalog_file.py), else no build; build_recovery: after an interrupted or disk-full
    # build the next one starts afresh, an OSError in one line; quiet_myst before myst_parser, whose
    # builder-inited hook logs the dump; config_status: no false "The configuration has changed";
    # reread_pages: make check's pages are read again (TORCH_NOTES_REREAD); navigation_cache: the sidebar's
    # tree resolved once per folder, not once per page.
    "building.catalog_check",
    "building.build_recovery",
    "building.quiet_myst",
    "building.config_status",
    "building.reread_pages",
    "building.navigation_cache",
    # Sphinx's and third parties'; the plot directive draws the lr_scheduler pages' plots at build time.
    "myst_parser",
    "sphinx.ext.doctest",
    "sphinx_copybutton",
    "matplotlib.sphinxext.plot_directive",
    # examples/: every example runs. doctest_guard replaces the doctest builder (a record of each page's
    # examples, a time limit per example); snippet_regions: a literalinclude's markers select whole statements.
    "examples.doctest_guard",
    "examples.snippet_ledger",
    "examples.snippet_regions",
    # reader/: what a reader sees and follows. findable: meta description, canonical URL, absolute hreflang,
    # sitemap.xml (site_url); field_typography: a field list's colon and dash in the page's language (参数：,
    # ——); page_contents: "On this page" lists each API entry once, long names broken after dots and underscores.
    "reader.api_links",
    "reader.api_index",
    "reader.corrections_index",
    "reader.glossary_terms",
    "reader.language_switcher",
    "reader.findable",
    "reader.version_stamp",
    "reader.output_blocks",
    "reader.field_typography",
    "reader.accessible_html",
    "reader.page_contents",
    # checks/: warnings about the pages' own text (hard-wrapped Chinese, emphasis markers left over).
    "checks.hardwrap_check",
    "checks.markup_leftovers",
    # i18n/: the translated build. math_translation: a translated display formula keeps its TeX (MyST read
    # Sphinx's "::" as text).
    "i18n.lang_overrides",
    "i18n.ui_strings",
    "i18n.translation_status",
    "i18n.untranslated_warnings",
    "i18n.translated_nodes",
    "i18n.field_sources",
    "i18n.fast_i18n",
    "i18n.parallel_view",
    "i18n.math_translation",
    # search/: the site's search. search_index_trim: searchindex.js without what the search page never reads
    # (index entries, numbers); search_term_weight after it: the pages that use a word often are marked.
    "search.zh_search",
    "search.search_synonyms",
    "search.search_excerpts",
    "search.search_index_trim",
    "search.search_term_weight",
    # maths/: drawn at build time. katex_math: node + tools/katex, no maths script in the browser; plot_svg: the
    # plot directive's SVG figures valid for the books, and the same from build to build.
    "maths.katex_math",
    "maths.plot_svg",
    # books/: the EPUB books and every page's links to them.
    "books.epub_books",
    "books.epub_downloads",
]

exclude_patterns = ["_ext", "_templates", "_static", "_locale"]
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist", "fieldlist"]
# Python is the default language of unlabelled blocks, so the ledger treats them as Python.
highlight_language = "python"

# Strict: every cross-reference must resolve.
nitpicky = True
nitpick_ignore_regex = [
    # Types named in signatures that this site does not document itself
    # (the official PyTorch/Python docs do).
    ("py:class", r"(torch|numpy|np|multiprocessing)\..*"),
    ("py:class", r"(int|float|bool|str|tuple|list|dict|None|Sequence|Callable|Iterable)"),
]

# -- i18n --------------------------------------------------------------------
language = "zh_CN"
# Relative to the source dir (docs/). The page catalogs first (glossary_terms reads
# locale_dirs[0]); docs/_locale holds the theme's Chinese UI strings (domain "sphinx").
locale_dirs = ["../locale/", "_locale/"]
gettext_compact = False  # one catalog per page
gettext_additional_targets = []  # code is never translated: both builds run the same code
gettext_last_translator = "torch-notes translators"
gettext_location = True  # update-po strips the line numbers (msgmerge --add-location=file)

# Per-language settings, applied by docs/_ext/i18n/lang_overrides.py once the
# final language is known.
language_overrides = {
    "zh_CN": {
        "html_title": "torch-notes：PyTorch 与 Python 参考",
        "html_short_title": "torch-notes",
        "api_links_label": "官方文档",
        "version_stamp_format": "本页示例已在 torch {torch}、Python {python} 下验证。",
        "epub_description": "PyTorch 与 Python 双语参考：每个 API 的签名、参数、形状与常见陷阱，并附经过测试的示例。",
        "epub_downloads_label": "下载 EPUB 电子书：",
    },
    "en": {
        "html_title": "torch-notes: a PyTorch and Python reference",
        "html_short_title": "torch-notes",
        "api_links_label": "Official documentation",
        "version_stamp_format": "The examples on this page were verified with torch {torch} and Python {python}.",
        "epub_description": "A bilingual PyTorch and Python reference: the signature, parameters, shapes "
                            "and pitfalls of each API, with tested examples.",
        "epub_downloads_label": "Download the EPUB book:",
    },
}

# -- Doctest -----------------------------------------------------------------
# Every group starts from the same state (seeds, print options, dtype, grad
# mode), whatever ran before it; see docs/_ext/examples/doctest_state.py.
doctest_global_setup = """
from examples.doctest_state import reset_global_state
reset_global_state()
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
"""
# No IGNORE_EXCEPTION_DETAIL: the error messages shown on the pages are checked too.
import doctest as _doctest  # noqa: E402

doctest_default_flags = _doctest.ELLIPSIS | _doctest.DONT_ACCEPT_TRUE_FOR_1
del _doctest
doctest_test_doctest_blocks = ""  # only explicit doctest/testcode blocks are tests
# Seconds one example may run before it fails as a hang (docs/_ext/examples/doctest_guard.py; the slowest
# examples, setup codes and groups of a run are in _build/doctest/<lang>/examples.json). Measured on
# the loaded 2-core machine (load average 9, both languages side by side): slowest example 4.9 s
# (data/image-transforms), slowest group 14.1 s (python/gil); the first group's setup, one full
# collection of Sphinx's environment, 4.3 s in a later run (load 5). 120 s is 24 times the slowest
# example and 8 times the slowest group.
doctest_time_limit = 120
# A hang inside one C call, which the limit cannot interrupt, ends the process this much later.
doctest_time_limit_grace = 30

# -- Snippets ----------------------------------------------------------------
snippet_dirs = ["../snippets"]  # literalincludes from here count as tested (tests/examples/test_snippets.py)
# plot_directive: no "(png, hires.png, pdf)" link line, whose text would put build paths into the catalogs.
plot_html_show_formats = False
# SVG only: sharp at any screen density, in the site and the books (hires.png and pdf cost 3 s a build);
# a fixed hash salt keeps the SVG's ids the same from build to build. Dark mode: torch-notes.css.
plot_formats = ["svg"]
plot_rcparams = {"svg.hashsalt": "torch-notes"}

# -- HTML --------------------------------------------------------------------
html_theme = "furo"
html_math_renderer = "katex"  # katex_math.py; the books use epub_books' "mathml", the same KaTeX rendering
html_static_path = ["docs/_static"]  # relative to the configuration dir
html_css_files = ["torch-notes.css"]
html_favicon = "docs/_static/favicon.svg"  # declared, so browsers do not probe /favicon.ico
templates_path = ["docs/_templates"]
html_copy_source = False  # the sources are Chinese; the English site must not ship them
html_show_sourcelink = False
html_last_updated_fmt = None
# The language switcher sits under the site name; no ads, no Read the Docs version menu.
html_sidebars = {"**": ["sidebar/brand.html", "sidebar/language-switcher.html", "sidebar/search.html",
                        "sidebar/scroll-start.html", "sidebar/navigation.html", "sidebar/scroll-end.html"]}
# Editions of every page, one folder per language (language_switcher.py).
site_languages = {
    "zh_CN": {"hreflang": "zh-CN", "label": "中文"},
    "en": {"hreflang": "en", "label": "English"},
}
# jieba's user dictionary is generated from the glossary (reader/glossary_terms.py): small,
# so the build does not reload jieba's whole default dictionary (seconds).
html_search_options = {}

# Copy code only: strip ">>> "/"... " prompts and drop every line without one (output).
copybutton_prompt_text = r">>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_exclude = ".linenos"  # not ".gp": the prompts must stay visible to the regexp above
# testoutput blocks are output, not code: output_blocks.py marks them no-copybutton.
copybutton_selector = "div:not(.no-copybutton) > div.highlight > pre"

# -- EPUB --------------------------------------------------------------------
# `make epub`: one book per language, Sphinx's epub builder with docs/_ext/books/epub_books.py
# (maths as MathML; language, title, identifier and file name derived per language).
from importlib.metadata import version as _installed_version  # noqa: E402

version = ".".join(_installed_version("torch").split(".")[:2])  # the PyTorch covered; EPUB3 metadata needs one
del _installed_version
epub_css_files = ["torch-notes-epub.css"]  # torch-notes.css styles furo; the books have their own
epub_show_urls = "no"  # links stay clickable; printed URLs would double the length of every API entry
epub_uid = "book-id"  # the XML id of dc:identifier
epub_contributor = author  # Sphinx would write "unknown"
