# torch-notes: the one entry point. `make help` lists the public targets.
# On a fresh machine: `make html`, then `make test`.

PYTHON3     ?= python3
VENV        ?= .venv
BUILDDIR    ?= _build
SPHINXOPTS  ?= -W --keep-going -n
PORT        ?= 8000
# Where the site root is served (canonical links, hreflang, sitemap.xml); empty: make serve's address.
SITE_URL    ?=
# Languages built at once by html and doctest.
JOBS        ?= 2
BASE        ?= main
SERVE_LANG  ?= zh_CN
PY          := $(VENV)/bin/python
SPHINXBUILD := $(VENV)/bin/sphinx-build
STAMP       := $(VENV)/.installed
AXE         := tools/axe/node_modules/axe-core/axe.min.js
LIGHTHOUSE  := tools/lighthouse/node_modules/lighthouse/package.json
KATEX       := tools/katex/node_modules/katex/dist/katex.mjs
BENCH_STAMP := $(VENV)/.installed-bench
SEARCH_ENGINES := tools/search-engines/node_modules/minisearch/package.json

SOURCE_LANG  := zh_CN
# Translation languages: every locale/<lang>/LC_MESSAGES folder (one list for build and tests).
TRANSLATIONS := $(sort $(patsubst locale/%/LC_MESSAGES,%,$(wildcard locale/*/LC_MESSAGES)))
LANGUAGES    := $(SOURCE_LANG) $(TRANSLATIONS)

# sphinx-build for one language: $(call sphinx,BUILDER,LANG,OUTDIR); each language keeps its own doctrees,
# one level down, because matplotlib's plot directive writes its images beside the doctree folder and the
# languages build side by side.
doctrees = $(BUILDDIR)/doctrees/$(1)/tree
# FILES= limits what is written (the doctest builder: the examples of those pages); the others are still read
# when they changed.
sphinx = $(SPHINXBUILD) -b $(1) -c . -d $(call doctrees,$(2)) -D language=$(2) $(if $(SITE_URL),-D site_url=$(SITE_URL)) \
         $(SPHINXOPTS) $(O) docs $(3) $(FILES)

# bash with pipefail: a build whose output goes through the language tag below keeps its exit status.
SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -c

# Side-by-side language builds print as they go, each line tagged with its language, instead of
# holding a whole build's output back until it ends (make's --output-sync). TAG=1 turns it on.
tag = $(if $(TAG),2>&1 | sed -u 's/^/[$(1)] /')

.DEFAULT_GOAL := help
.PHONY: drift help venv system-deps system-deps-html search-eval html html-zh html-en epub doctest gettext gettext-pages update-po check stats todo lint-po add-language serve test bench clean

help:
	@echo "torch-notes targets:"
	@echo "  html        build the site in every language into $(BUILDDIR)/html/<lang>/ (creates the venv first)"
	@echo "  html-zh     build the Chinese site only"
	@echo "  html-en     build the English site only"
	@echo "  epub        build the EPUB book of every language into $(BUILDDIR)/epub/<lang>/ (make html copies"
	@echo "              each into its site, whose pages link to both)"
	@echo "  doctest     run every example in every language; fails on failures, zero tests, differing counts,"
	@echo "              a page whose examples did not all run (checked against the build's record) and an"
	@echo "              example past its time limit (doctest_time_limit in conf.py), naming file and line"
	@echo "  gettext     extract message templates into $(BUILDDIR)/gettext/"
	@echo "  update-po   merge the templates into locale/<lang>/ (keeps translations; ONLY=tensors/ limits pages)"
	@echo "  check       before sending a change: the pages changed on the branch (BRANCH=1) or ONLY=optim/adam,"
	@echo "              built in every language (warnings are errors), their doctests, the whole lint of their"
	@echo "              catalogs; about a minute for one page"
	@echo "  stats       per-page translated / fuzzy / untranslated counts (fuzzy is not translated)"
	@echo "  todo        what is left to translate per page, most urgent first (BRANCH=1: pages changed since $(BASE))"
	@echo "  lint-po     check every translation keeps its markup and the glossary terms; names file, line, entry"
	@echo "              (stats, todo, lint-po: L=ja for one language, ONLY=optim/ or ONLY=optim/adam for a folder or page)"
	@echo "  add-language  add a translation language, e.g. make add-language L=ja (catalogs + conf.py entries;"
	@echo "              TEMPLATES=$(BUILDDIR)/gettext: from the templates of an earlier make gettext)"
	@echo "  serve       live-reloading preview on 127.0.0.1:$(PORT) (SERVE_LANG=en for English), inside the"
	@echo "              whole site (make html first), so the language switch and the book links work"
	@echo "  test        the whole test suite: builds, doctests in both languages, catalogs, snippets, and the"
	@echo "              site in headless chromium (screenshots in _build/screenshots/; .ci/run installs it)"
	@echo "  drift       what another torch changes on the pages: make drift TORCH=2.13.0 [TORCHVISION=...]"
	@echo "              [PYTHON=python3.12] [ONLY=optim/]; report in $(BUILDDIR)/drift/, exit 1 when anything changed"
	@echo "  bench       the figures the project holds itself to: build ratios, doctest/floor, search hits,"
	@echo "              Lighthouse scores of a few pages (tools/web/lighthouse.py)"
	@echo "  search-eval the learner queries of tests/data/ on the built site: its search vs Pagefind, MiniSearch, lunr"
	@echo "  venv        create $(VENV) from requirements.txt (done automatically when needed)"
	@echo "  system-deps check gettext, chromium, a CJK font, hunspell and epubcheck; apt-get them if root (make test does)"
	@echo "  clean       remove $(BUILDDIR) and compiled catalogs"

venv: $(STAMP)

# The first install is large: torch and torchvision are a CUDA build (about 5.5 GB in the venv) that pip
# takes from this machine's disk; pip's own progress bars show it is moving.
$(STAMP): requirements.txt
	@echo "==> creating $(VENV) from requirements.txt (first time: about 5.7 GB on disk, 1-5 minutes)"
	$(PYTHON3) -m venv $(VENV)
	$(VENV)/bin/pip install --disable-pip-version-check --progress-bar on -r requirements.txt
	@echo "==> $(VENV) ready"
	touch $@

# The languages are independent builds: run them side by side. Every page links to the EPUB book of
# each language: build the books (from the same doctrees) and put each at the root of its site.
html: $(STAMP) $(KATEX)
	@echo "==> building the site in $(LANGUAGES), side by side"
	$(MAKE) --no-print-directory -j$(JOBS) TAG=1 $(addprefix html-lang-,$(LANGUAGES))
	@echo "==> building the EPUB books"
	$(MAKE) --no-print-directory epub
	$(foreach l,$(LANGUAGES),cp $(BUILDDIR)/epub/$(l)/*.epub $(BUILDDIR)/html/$(l)/ &&) true
	$(PY) tools/web/language_redirect.py $(BUILDDIR)/html/index.html
	@echo "==> done: open $(BUILDDIR)/html/index.html"

html-zh: html-lang-zh_CN
html-en: html-lang-en

html-lang-%: $(STAMP) $(KATEX)
	$(call sphinx,html,$*,$(BUILDDIR)/html/$*) $(call tag,$*)

# One book per language, maths as MathML (docs/_ext/books/epub_books.py): $(BUILDDIR)/epub/<lang>/torch-notes-<hreflang>.epub.
epub: $(STAMP) $(KATEX)
	$(MAKE) --no-print-directory -j$(JOBS) TAG=1 $(addprefix epub-lang-,$(LANGUAGES))

epub-lang-%: $(STAMP) $(KATEX)
	$(call sphinx,epub,$*,$(BUILDDIR)/epub/$*) $(call tag,$*)

doctest: $(STAMP)
	$(MAKE) --no-print-directory -j$(JOBS) TAG=1 -k $(addprefix doctest-lang-,$(LANGUAGES)); status=$$?; \
	$(PY) tools/examples/doctest_report.py $(foreach l,$(LANGUAGES),$(BUILDDIR)/doctest/$(l)/output.txt) && exit $$status

doctest-lang-%: $(STAMP)
	$(call sphinx,doctest,$*,$(BUILDDIR)/doctest/$*) $(call tag,$*)

# The examples, signatures and warnings of every language under another torch (or Python), in a scratch
# venv outside the checkout (tools/examples/drift.py); the doctrees come from the same build as the site's (read
# without -W: a page that warns still has examples to compare).
drift: $(STAMP)
	@test -n "$(TORCH)" || { echo "usage: make drift TORCH=<version>|none [TORCHVISION=<version>] [PYTHON=<interpreter>] [ONLY=<prefix>]"; exit 2; }
	@echo "==> reading the pages of $(LANGUAGES)"
	$(MAKE) --no-print-directory -j$(JOBS) TAG=1 SPHINXOPTS="-n" $(addprefix doctrees-lang-,$(LANGUAGES))
	$(PY) tools/examples/drift.py --torch $(TORCH) $(if $(TORCHVISION),--torchvision $(TORCHVISION)) --python $(or $(PYTHON),$(PYTHON3)) \
	    $(if $(ONLY),--only $(ONLY)) $(foreach l,$(LANGUAGES),$(call doctrees,$(l)))

doctrees-lang-%: $(STAMP)
	$(call sphinx,dummy,$*,$(BUILDDIR)/dummy/$*) $(call tag,$*)

gettext: $(STAMP)
	$(SPHINXBUILD) -b gettext -c . -d $(BUILDDIR)/doctrees/gettext $(SPHINXOPTS) docs $(BUILDDIR)/gettext

# The messages of some pages only, into $(BUILDDIR)/gettext-pages: PAGES="optim/adam data/" (pages, or folders
# ending in /). Sphinx reads those and the root page it cannot do without, not all 100-odd pages; their
# references to other pages stay unresolved, which changes no message, so those warnings are not shown
# (make html shows every warning). Used by update-po ONLY= and make check.
comma := ,
empty :=
space := $(empty) $(empty)
page_patterns = $(subst $(space),$(comma),$(strip index.md $(foreach p,$(1),$(if $(filter %/,$(p)),$(p)**,$(p).md))))
gettext-pages: $(STAMP)
	@test -n "$(PAGES)" || { echo "usage: make gettext-pages PAGES='optim/adam data/'"; exit 2; }
	rm -rf $(BUILDDIR)/gettext-pages
	$(SPHINXBUILD) -b gettext -c . -d $(BUILDDIR)/doctrees/gettext-pages -q -D suppress_warnings=ref,toc \
	    -D include_patterns=$(call page_patterns,$(PAGES)) docs $(BUILDDIR)/gettext-pages

update-po: $(STAMP)
	$(MAKE) --no-print-directory $(if $(ONLY),gettext-pages PAGES=$(ONLY),gettext)
	$(PY) tools/catalogs/update_po.py --only=$(ONLY) $(BUILDDIR)/$(if $(ONLY),gettext-pages,gettext) locale $(TRANSLATIONS)

# Before sending a change: the pages it touches (BRANCH=1: changed since $(BASE); or ONLY=optim/adam), in every
# language: catalogs in step, the whole lint, the build with warnings as errors, the doctests (tools/workflow/check.py).
check: $(STAMP) $(KATEX)
	$(PY) tools/workflow/check.py $(if $(BRANCH),--branch $(BASE)) $(if $(ONLY),--only $(ONLY))

# The translator commands take L=<lang> (one language; default: all) and ONLY=<folder/ or page> (default: all).
SCOPED_LANGUAGES = $(or $(L),$(TRANSLATIONS))
scoped_catalogs = $(foreach l,$(SCOPED_LANGUAGES),locale/$(l)/LC_MESSAGES/$(if $(ONLY),$(if $(filter %/,$(ONLY)),$(ONLY),$(ONLY).po)))

stats: $(STAMP)
	$(PY) tools/catalogs/po_stats.py $(if $(ONLY),--only $(ONLY)) locale $(SCOPED_LANGUAGES)

todo: $(STAMP)
	@$(PY) tools/catalogs/po_todo.py $(if $(BRANCH),--branch $(BASE)) $(if $(ONLY),--only $(ONLY)) locale $(SCOPED_LANGUAGES)

lint-po: $(STAMP)
	@for path in $(scoped_catalogs); do test -e $$path || { echo "lint-po: no catalog $$path"; exit 2; }; done
	$(PY) tools/lint/lint_po.py $(scoped_catalogs)

# TEMPLATES=<folder>: start from message templates extracted before (make gettext, into BUILDDIR/gettext or a
# folder as deep) instead of extracting them again; the test suite's field test passes its own.
add-language: $(STAMP) $(if $(TEMPLATES),,gettext)
	@test -n "$(L)" || { echo "usage: make add-language L=<code>, e.g. L=ja or L=pt_BR"; exit 2; }
	$(PY) tools/catalogs/add_language.py $(or $(TEMPLATES),$(BUILDDIR)/gettext) locale $(L)

# The live preview of one language, inside the whole site that make html built (every edition, both
# books), so its language switch and book links work (tools/web/serve.py); only SERVE_LANG is rebuilt.
# A busy port is said before make html, not minutes later (tools/web/serve.py binds it again to serve).
serve: $(STAMP)
	@$(PY) tools/web/serve.py --check-port --host 127.0.0.1 --port $(PORT)
	@$(MAKE) --no-print-directory html
	$(PY) tools/web/serve.py -c . -d $(call doctrees,$(SERVE_LANG)) -D language=$(SERVE_LANG) \
	    --host 127.0.0.1 --port $(PORT) --watch locale --watch snippets --watch conf.py \
	    --re-ignore '.*\.mo$$' docs $(BUILDDIR)/html/$(SERVE_LANG)

system-deps:
	@$(PYTHON3) tools/workflow/system_deps.py

# KaTeX, which renders the maths of the sites and the books at build time (docs/_ext/maths/katex_math.py), at the
# version tools/katex/package-lock.json pins. A prerequisite of html, epub and test too: the languages' builds
# that run side by side must not both install it.
$(KATEX): tools/katex/package-lock.json | system-deps-html
	cd tools/katex && npm ci --no-audit --no-fund --silent
	touch $@

# node and npm, which install KaTeX: the one system tool a build needs (installed as root, else one line to run).
system-deps-html:
	@$(PYTHON3) tools/workflow/system_deps.py html

# axe-core for the accessibility tests, at the version tools/axe/package-lock.json pins.
$(AXE): tools/axe/package-lock.json | system-deps
	cd tools/axe && npm ci --no-audit --no-fund --silent
	touch $@

# Two pytest workers (pytest-xdist), each taking whole files: one builds the site while the other runs the
# tests that need no build (tests/conftest.py orders them so); then both share the built site.
TEST_WORKERS ?= 2
test: $(STAMP) system-deps $(AXE) $(KATEX)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=10 tests

$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	$(VENV)/bin/pip install --disable-pip-version-check -r requirements-bench.txt
	touch $@

# Lighthouse for make bench (tools/web/lighthouse.py), at the version tools/lighthouse/package-lock.json pins.
$(LIGHTHOUSE): tools/lighthouse/package-lock.json | system-deps
	cd tools/lighthouse && npm ci --no-audit --no-fund --silent
	touch $@

bench: $(STAMP) $(BENCH_STAMP) $(LIGHTHOUSE)
	$(PY) tools/workflow/bench.py

# MiniSearch and lunr for make search-eval, at the versions tools/search-engines/package-lock.json pins.
$(SEARCH_ENGINES): tools/search-engines/package-lock.json | system-deps
	cd tools/search-engines && npm ci --no-audit --no-fund --silent
	touch $@

# The learner queries of tests/data/ against the site's search and against Pagefind, MiniSearch and lunr
# on the same pages (needs make html).
search-eval: $(STAMP) $(BENCH_STAMP) $(SEARCH_ENGINES)
	$(PY) tools/web/search_eval.py --engine all $(BUILDDIR)

clean:
	rm -rf $(BUILDDIR)
	find locale -name '*.mo' -delete
