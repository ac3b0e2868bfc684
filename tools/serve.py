"""``make serve``: sphinx-autobuild for one language, served beside the other editions and the books.

    python tools/serve.py SPHINX_AUTOBUILD_ARGS... SOURCEDIR OUTDIR

OUTDIR is ``_build/html/<lang>``, inside the site that ``make html`` built (every language,
both books, the root index): the server's root is OUTDIR's parent, so the language switcher
(``../en/...``) and the book links (``../zh_CN/torch-notes-zh-CN.epub``) of the page being
edited lead to real files instead of 404s, while sphinx-autobuild rebuilds the one language.

sphinx-autobuild serves its output folder and nothing above it; ``_create_app`` (pinned
sphinx-autobuild 2025.8.25) is where it says which folder, so that is the one thing changed.
"""

import inspect
import sys
from pathlib import Path

import sphinx_autobuild.__main__ as autobuild

EXPECTED = ["watch_dirs", "ignore_handler", "builder", "out_dir", "url_host"]
served_by_autobuild = autobuild._create_app


def with_sibling_editions(watch_dirs, ignore_handler, builder, out_dir, url_host):
    site = Path(out_dir).resolve().parent
    print(f"serve: the site root is {site}; open {url_host}/{Path(out_dir).name}/index.html", flush=True)
    return served_by_autobuild(watch_dirs, ignore_handler, builder, str(site), url_host)


def install() -> None:
    found = list(inspect.signature(served_by_autobuild).parameters)
    if found != EXPECTED:  # a new sphinx-autobuild: say so instead of serving the wrong folder
        sys.exit(f"serve: sphinx-autobuild's _create_app takes {found}, not {EXPECTED}; update tools/serve.py")
    autobuild._create_app = with_sibling_editions


if __name__ == "__main__":
    install()
    autobuild.main(sys.argv[1:])
