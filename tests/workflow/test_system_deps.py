"""make test sets up its own system tools: tools/workflow/system_deps.py, run with every tool missing.

The machine is not touched: the script runs with a PATH holding only a fake apt-get, whose
'install' writes stand-ins for the tools into that PATH and records the command.
"""

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "tools" / "workflow" / "system_deps.py"
FAKE_TIMEOUT = 60  # seconds; with the fake apt-get the script takes well under one
REAL_TIMEOUT = 1800  # seconds; on this machine it may run the real apt-get, as make test would
STAND_INS = {
    "msgfmt": "", "msgmerge": "", "msgattrib": "", "chromium": "",
    "fc-list": 'echo "WenQuanYi Micro Hei"', "hunspell": "/bin/cat >/dev/null", "node": "", "npm": "",
    "epubcheck": "", "java": "",
}
FAKE_APT_GET = """#!/bin/sh
echo "$@" >> "{log}"
if [ "$1" = install ]; then
{writes}
fi
"""


def fake_system(tmp_path: Path) -> tuple[Path, Path]:
    bin_dir, log = tmp_path / "bin", tmp_path / "apt.log"
    bin_dir.mkdir()
    writes = "\n".join(f"printf '#!/bin/sh\\n{body}\\n' > '{bin_dir / name}'; /bin/chmod +x '{bin_dir / name}'"
                       for name, body in STAND_INS.items())
    apt_get = bin_dir / "apt-get"
    apt_get.write_text(FAKE_APT_GET.format(log=log, writes=writes))
    apt_get.chmod(0o755)
    return bin_dir, log


def run(bin_dir: Path, root: str, *scope: str) -> subprocess.CompletedProcess:
    env = {"PATH": str(bin_dir), "SYSTEM_DEPS_ROOT": root,
           "SYSTEM_DEPS_APT_GET": str(bin_dir / "apt-get")}
    return subprocess.run([sys.executable, str(SCRIPT), *scope], env=env, capture_output=True, text=True,
                          timeout=FAKE_TIMEOUT)


def test_as_root_every_missing_tool_is_installed_with_apt_get(tmp_path):
    bin_dir, log = fake_system(tmp_path)
    result = run(bin_dir, root="1")
    assert result.returncode == 0, result.stderr
    assert log.read_text().splitlines() == [
        "update -qq", "install -y -qq gettext chromium fonts-wqy-microhei hunspell hunspell-en-us nodejs npm epubcheck"]
    again = run(bin_dir, root="1")
    assert again.returncode == 0 and log.read_text().count("install") == 1, "nothing to install the second time"


def test_without_root_it_stops_at_once_with_the_command_to_run(tmp_path):
    bin_dir, log = fake_system(tmp_path)
    result = run(bin_dir, root="0")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "system-deps: make test needs gettext, chromium, fonts-wqy-microhei, hunspell, hunspell-en-us, nodejs, npm, "
        "epubcheck; run: sudo apt-get install -y gettext chromium fonts-wqy-microhei hunspell hunspell-en-us nodejs npm "
        "epubcheck"]
    assert not log.exists(), "apt-get must not run without root"


def test_this_machine_has_everything(tmp_path):
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=dict(os.environ),
                            timeout=REAL_TIMEOUT)
    assert result.returncode == 0 and result.stdout == "", result.stdout + result.stderr


def test_make_html_needs_only_node_and_npm_and_says_so_in_one_line(tmp_path):
    """The README's first command builds the maths with KaTeX, which npm installs: on a machine without
    them, make html installs them as root, or stops with one line naming them."""
    bin_dir, log = fake_system(tmp_path)
    result = run(bin_dir, "0", "html")
    assert result.returncode == 1 and result.stderr.strip().splitlines() == [
        "system-deps: make html needs nodejs, npm; run: sudo apt-get install -y nodejs npm"], result.stderr
    assert run(bin_dir, "1", "html").returncode == 0
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq nodejs npm"]


def test_the_build_checks_node_and_npm_before_it_runs_npm():
    """What make would run to install KaTeX (make -n: print, run nothing): the check comes first."""
    katex = "tools/katex/node_modules/katex/dist/katex.mjs"
    result = subprocess.run(["make", "--no-print-directory", "-n", "-W", "tools/katex/package-lock.json", katex],
                            cwd=ROOT, capture_output=True, text=True, timeout=FAKE_TIMEOUT)
    lines = result.stdout.splitlines()
    assert lines[:2] == ["python3 tools/workflow/system_deps.py html", "cd tools/katex && npm ci --no-audit --no-fund --silent"], lines
