"""Issue 31, item 5: make serve on a busy port says so and stops; it never announces an address it cannot bind.

sphinx-autobuild built the site, printed "Serving on http://127.0.0.1:8000" and only then found the
port taken. tools/web/serve.py binds the port first. The fixture of the catalog faults is the site.
"""

import socket
import subprocess
import sys

import pytest

from conftest import ROOT

FIXTURE = ROOT / "tests" / "roots" / "test-catalog-faults"


def test_a_busy_port_is_named_before_any_build_and_the_command_fails(tmp_path):
    with socket.socket() as other_server:
        other_server.bind(("127.0.0.1", 0))
        other_server.listen()
        port = other_server.getsockname()[1]
        result = subprocess.run([sys.executable, str(ROOT / "tools" / "web" / "serve.py"), "-c", str(FIXTURE), "-q",
                                 "--host", "127.0.0.1", "--port", str(port), str(FIXTURE),
                                 str(tmp_path / "html" / "en")],
                                capture_output=True, text=True, timeout=120, cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert f"serve: port {port} on 127.0.0.1 is busy" in output and f"make serve PORT={port + 1}" in output, output
    assert "Serving on" not in output and "site root is" not in output and "initial build" not in output, output


def test_make_serve_on_a_busy_port_stops_before_make_html(tmp_path):
    """make serve runs make html first (minutes for the whole site): the busy port is said before it."""
    if subprocess.run(["make", "-q", ".venv/.installed"], cwd=ROOT, capture_output=True, timeout=60).returncode:
        pytest.skip("the venv is not up to date: make would install it first")
    with socket.socket() as other_server:
        other_server.bind(("127.0.0.1", 0))
        other_server.listen()
        port = other_server.getsockname()[1]
        result = subprocess.run(["make", "--no-print-directory", "serve", f"PORT={port}",
                                 f"BUILDDIR={tmp_path / 'build'}"], cwd=ROOT, capture_output=True, text=True,
                                timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"serve: port {port} on 127.0.0.1 is busy" in output, output
    assert not (tmp_path / "build").exists() and "sphinx" not in output.lower(), output
