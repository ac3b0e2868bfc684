"""``make check``: what a contributor runs before sending a change, on the pages the change touches.

    python tools/workflow/check.py [--branch BASE] [--only PAGE_OR_FOLDER]

The pages: those under ``--only`` (``optim/adam`` or ``optim/``, as the translator commands take
it), or those changed on the branch (``--branch``: the page's source, one of its catalogs, or a
snippet it includes differs between the merge-base with BASE and the working tree, committed or
not). For them, in every language:

1. in step: the pages' messages, extracted from the sources now, each have an entry in every
   catalog (otherwise ``make update-po`` was forgotten and the translation shows Chinese);
2. lint: every rule of ``make lint-po`` on their catalogs, the cross-catalog consistency
   measured against every catalog of the language, and the spelling;
3. build: the site of every language, incrementally, those pages read again, warnings as errors;
4. doctest: their examples in every language, the same count in each.

Every failure names a file and line. The steps run one after the other and each prints how long it
took; the exit status is 1 if any failed. ``make test`` stays the whole suite.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.check_catalogs import missing_messages  # noqa: E402
from tools.lint.lint_po import lint_report  # noqa: E402
from tools.catalogs.po_todo import changed_pages, git  # noqa: E402
from tools.project import DOCS, PAGE_SUFFIX, ROOT, SOURCE_LANGUAGE, catalog_path, in_scope, pages  # noqa: E402
from tools.project import translations  # noqa: E402

BUILD_TIMEOUT = 1200  # seconds; an incremental build of two languages: well under a minute
REREAD = "TORCH_NOTES_REREAD"  # docs/_ext/building/reread_pages.py: these pages are read again
BUILDDIR = Path(os.environ.get("BUILDDIR", ROOT / "_build"))


def pages_including_snippets(snippets: set[str], docs_dir: Path = DOCS) -> set[str]:
    """Pages whose source names one of these snippet files (``snippets/data/x.py``)."""
    found = set()
    for page in pages(docs_dir):
        text = (docs_dir / (page + PAGE_SUFFIX)).read_text(encoding="utf-8")
        if any(Path(name).relative_to("snippets").as_posix() in text for name in snippets):
            found.add(page)
    return found


def branch_pages(base: str) -> set[str]:
    found = changed_pages(base)
    from tools.catalogs.po_todo import merge_base  # the same merge-base as make todo BRANCH=1

    names = git("diff", "--name-only", merge_base(base), "--", "snippets").splitlines()
    names += [n for n in git("ls-files", "--others", "--exclude-standard", "snippets").splitlines()]
    found |= pages_including_snippets({n for n in names if n.endswith(".py")})
    return found & set(pages())


def make(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """A make target, its output shown as it comes (the builds tag each line with its language)."""
    command = ["make", "--no-print-directory", *args]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, **(env or {})})
    lines = []
    for line in process.stdout:  # shown as it comes: a build of every language says what it reads and writes
        lines.append(line)
        print("  " + line.rstrip(), flush=True)
    try:
        returncode = process.wait(timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=60)
        returncode = -9
    return subprocess.CompletedProcess(command, returncode, "".join(lines), "")


def shown(path: Path) -> Path:
    """Relative to the checkout, as make lint-po and the builds name files."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def in_step(docnames: list[str], languages: list[str]) -> list[str]:
    """Extract the pages' messages now (make gettext-pages) and look each up in every catalog."""
    pot_dir = BUILDDIR / "gettext-pages"
    done = make("gettext-pages", f"PAGES={' '.join(docnames)}")
    if done.returncode != 0:
        return [line for line in done.stdout.splitlines() if "ERROR" in line or "rror" in line][:20] or \
            [f"make gettext-pages failed:\n{done.stdout[-2000:]}"]
    errors = []
    for docname in docnames:
        pot = pot_dir / (docname + ".pot")
        for language in languages:
            po = catalog_path(docname, language)
            if not po.exists():
                errors.append(f"{shown(DOCS / docname)}{PAGE_SUFFIX}:1: page has no {language} catalog "
                              "(run make update-po)")
            elif pot.exists():
                errors += missing_messages(shown(po), pot)
    return errors


def lint(docnames: list[str], languages: list[str]) -> list[str]:
    catalogs = [shown(catalog_path(d, lang)) for d in docnames for lang in languages if catalog_path(d, lang).exists()]
    if not catalogs:
        return []
    errors, _pending = lint_report(catalogs)
    return errors


def build(docnames: list[str], languages: list[str]) -> list[str]:
    done = make(f"-j{min(len(languages), 2)}", "TAG=1", *[f"html-lang-{lang}" for lang in languages],
                env={REREAD: " ".join(docnames)})
    if done.returncode == 0:
        return []
    found = [line.split("] ", 1)[-1] for line in done.stdout.splitlines() if "WARNING" in line or "ERROR" in line]
    return found or [f"the build failed:\n{done.stdout[-3000:]}"]


def doctest(docnames: list[str], languages: list[str]) -> list[str]:
    files = " ".join(f"docs/{d}{PAGE_SUFFIX}" for d in docnames)
    done = make(f"-j{min(len(languages), 2)}", "TAG=1", "-k", *[f"doctest-lang-{lang}" for lang in languages],
                f"FILES={files}")
    report = subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "doctest_report.py"),
                             *[str(BUILDDIR / "doctest" / lang / "output.txt") for lang in languages]],
                            capture_output=True, text=True, timeout=60)
    if done.returncode == 0 and report.returncode == 0:
        print("  " + report.stdout.strip())
        return []
    return [(report.stderr or report.stdout).strip() or f"the doctest build failed:\n{done.stdout[-3000:]}"]


STEPS = [("in step", in_step), ("lint", lint), ("build", build), ("doctest", doctest)]


def main(argv: list[str]) -> int:
    base, only = None, ""
    while argv[:1] in (["--branch"], ["--only"]) and len(argv) > 1:
        base, only = (argv[1], only) if argv[0] == "--branch" else (base, argv[1])
        argv = argv[2:]
    if argv:
        sys.exit(__doc__)
    if base is not None:
        docnames = sorted(branch_pages(base))
        scope = f"changed on this branch since {base}"
    elif only:
        docnames = [p for p in pages() if in_scope(p, only)]
        scope = f"under {only}"
    else:
        sys.exit("make check: name the pages: BRANCH=1 (those changed on this branch) or ONLY=optim/adam")
    if not docnames:
        print(f"check: no page {scope}; nothing to check")
        return 0 if base is not None else 2
    languages = translations()
    shown = ", ".join(docnames[:6]) + (f" and {len(docnames) - 6} more" if len(docnames) > 6 else "")
    print(f"check: {len(docnames)} page{'s' if len(docnames) != 1 else ''} {scope}: {shown}", flush=True)
    failed = []
    for name, step in STEPS:
        print(f"check: {name} ...", flush=True)
        started = time.monotonic()
        args = (docnames, languages) if name in ("in step", "lint") else (docnames, [SOURCE_LANGUAGE, *languages])
        errors = step(*args)
        seconds = time.monotonic() - started
        print(f"check: {name}: {'FAILED' if errors else 'OK'} ({seconds:.1f} s)", flush=True)
        for error in errors:
            print("  " + error.replace("\n", "\n  "), flush=True)
        if errors:
            failed.append(name)
    print(f"check: {'FAILED: ' + ', '.join(failed) if failed else 'OK'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
