"""Make sure the system tools a make target needs are installed; install them if we can.

    python3 tools/workflow/system_deps.py          (make test runs it first: everything below)
    python3 tools/workflow/system_deps.py html     (make html, epub, check: node and npm, which install KaTeX)

Everything Python is pinned in requirements.txt and lives in .venv; these come
from Debian packages, because they are programs, not Python packages:

    gettext             msgfmt, msgmerge, msgattrib: the catalogs
    chromium            the real browser the browser tests drive (tests/browser.py)
    fonts-wqy-microhei  a CJK font, so Chinese pages and their screenshots show glyphs
    hunspell-en-us      the en_US dictionary of the English spell check (with hunspell)
    nodejs, npm         KaTeX (tools/katex), which draws the maths of every build; axe-core (tools/axe)
    epubcheck           W3C's EPUB checker, run on both books (a Java program: it brings java)

Missing packages are installed with apt-get when this runs as root (as CI and
a fresh container do). Otherwise it stops at once with one line naming the
exact command to run. Runs with the system python3: it has to work before the
virtual environment exists.

For the tests of this script only: SYSTEM_DEPS_APT_GET names the apt-get to
run and SYSTEM_DEPS_ROOT=0/1 overrides the root check.
"""

import os
import shutil
import subprocess
import sys

PROBE_TIMEOUT = 60  # seconds; fc-list or hunspell answers in well under one
APT_TIMEOUT = 1800  # seconds; apt-get update or install on a slow mirror: minutes


def has_commands(*names: str) -> bool:
    return all(shutil.which(name) for name in names)


def has_cjk_font() -> bool:
    if not shutil.which("fc-list"):
        return False
    result = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=PROBE_TIMEOUT)
    return result.returncode == 0 and bool(result.stdout.strip())


def has_en_us_dictionary() -> bool:
    if not shutil.which("hunspell"):
        return False
    result = subprocess.run(["hunspell", "-d", "en_US", "-l"], input="", capture_output=True, text=True,
                            timeout=PROBE_TIMEOUT)
    return result.returncode == 0 and "Can't open" not in result.stderr


# Debian package -> how to tell it is there.
CHECKS = {
    "gettext": lambda: has_commands("msgfmt", "msgmerge", "msgattrib"),
    "chromium": lambda: has_commands("chromium"),
    "fonts-wqy-microhei": has_cjk_font,
    "hunspell": lambda: has_commands("hunspell"),
    "hunspell-en-us": has_en_us_dictionary,
    "nodejs": lambda: has_commands("node"),
    "npm": lambda: has_commands("npm"),
    "epubcheck": lambda: has_commands("epubcheck", "java"),
}


# What each target needs (make test: all of it).
SCOPES = {"test": list(CHECKS), "html": ["nodejs", "npm"]}


def missing_packages(scope: str = "test") -> list[str]:
    return [package for package in SCOPES[scope] if not CHECKS[package]()]


def is_root() -> bool:
    override = os.environ.get("SYSTEM_DEPS_ROOT")
    return override == "1" if override in {"0", "1"} else os.geteuid() == 0


def install(packages: list[str]) -> None:
    apt_get = os.environ.get("SYSTEM_DEPS_APT_GET") or shutil.which("apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print(f"system-deps: installing {' '.join(packages)} with apt-get", flush=True)
    for command in ([apt_get, "update", "-qq"], [apt_get, "install", "-y", "-qq", *packages]):
        try:
            result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=APT_TIMEOUT)
        except subprocess.TimeoutExpired:
            sys.exit(f"system-deps: '{' '.join(command)}' still running after {APT_TIMEOUT} s; stopped")
        if result.returncode != 0:
            sys.exit(f"system-deps: '{' '.join(command)}' failed:\n{result.stdout}{result.stderr}")


def main(argv: list[str]) -> int:
    scope = argv[0] if argv else "test"
    if scope not in SCOPES:
        print(f"system-deps: no target {scope!r}; one of {', '.join(SCOPES)}", file=sys.stderr)
        return 2
    missing = missing_packages(scope)
    if not missing:
        return 0
    command = f"apt-get install -y {' '.join(missing)}"
    apt_get = os.environ.get("SYSTEM_DEPS_APT_GET") or shutil.which("apt-get")
    if not is_root() or not apt_get:
        print(f"system-deps: make {scope} needs {', '.join(missing)}; run: sudo {command}", file=sys.stderr)
        return 1
    install(missing)
    still = missing_packages(scope)
    if still:
        print(f"system-deps: still missing after apt-get: {', '.join(still)}; run: sudo {command}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
