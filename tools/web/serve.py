"""``make serve``: sphinx-autobuild for one language, served beside the other editions and the books.

    python tools/web/serve.py SPHINX_AUTOBUILD_ARGS... SOURCEDIR OUTDIR

OUTDIR is ``_build/html/<lang>``, inside the site that ``make html`` built (every language,
both books, the root index): the server's root is OUTDIR's parent, so the language switcher
(``../en/...``) and the book links (``../zh_CN/torch-notes-zh-CN.epub``) of the page being
edited lead to real files instead of 404s, while sphinx-autobuild rebuilds the one language.

A preview must not look right when it is not: every warning of the last build (a broken entry,
an untranslated one, a reference that does not resolve) and a failed build are shown at the top
of every page served, with file and line, until a build is clean again. sphinx-autobuild itself
only prints them in the terminal and goes on serving.

sphinx-autobuild serves its output folder and nothing above it; ``_create_app`` (pinned
sphinx-autobuild 2025.8.25) is where it says which folder and what builds, so that is the one
thing changed.

The address is taken before anything else: sphinx-autobuild built the site, announced "Serving
on http://127.0.0.1:8000" and only then found the port busy. Here the port is bound first (a
busy one ends the command at once, exit status 1, saying so and how to choose another), and
uvicorn serves on that very socket, so no other program can take it during the build. ``make
serve`` asks first (``--check-port --host H --port P``: the same words, exit status 1), before the
``make html`` it runs, which takes minutes.
"""

import atexit
import errno
import html
import inspect
import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import sphinx_autobuild.__main__ as autobuild
import uvicorn
from sphinx_autobuild.utils import show_command, show_message
from starlette.datastructures import MutableHeaders

EXPECTED = ["watch_dirs", "ignore_handler", "builder", "out_dir", "url_host"]
served_by_autobuild = autobuild._create_app
SHOWN = 20  # problems listed in the banner; the terminal has them all


class BuildReport:
    """What the last build said: its warnings and errors, and whether it failed.

    sphinx-autobuild builds in a worker process, and the server answers in this one: the report
    lives in a small JSON file, whose path the worker inherits through the environment.
    """

    VARIABLE = "TORCH_NOTES_SERVE_REPORT"

    def __init__(self) -> None:
        if self.VARIABLE not in os.environ:
            handle, name = tempfile.mkstemp(prefix="torch-notes-serve-", suffix=".json")
            os.close(handle)
            os.environ[self.VARIABLE] = name
            atexit.register(Path(name).unlink, missing_ok=True)
        self.path = Path(os.environ[self.VARIABLE])
        self.problems: list[str] = []
        self.failed = False

    def save(self, failed: bool, problems: list[str]) -> None:
        self.path.write_text(json.dumps({"failed": failed, "problems": problems}), encoding="utf-8")

    def load(self) -> "BuildReport":
        try:
            data = json.loads(self.path.read_text(encoding="utf-8") or "{}")
        except (OSError, ValueError):
            data = {}
        self.failed, self.problems = data.get("failed", False), data.get("problems", [])
        return self

    def banner(self) -> bytes:
        if not self.problems and not self.failed:
            return b""
        title = ("The last build failed: this page is out of date." if self.failed else
                 f"The last build reported {len(self.problems)} problem{'s' * (len(self.problems) != 1)}:")
        items = "".join(f"<li>{html.escape(p)}</li>" for p in self.problems[:SHOWN])
        more = f"<li>… {len(self.problems) - SHOWN} more in the terminal</li>" if len(self.problems) > SHOWN else ""
        return (f'<div id="serve-build-report" role="alert" style="position:fixed;top:0;left:0;right:0;'
                f'z-index:1000;max-height:40vh;overflow:auto;background:#8b0000;color:#fff;padding:.6em 1em;'
                f'font:14px/1.4 monospace"><strong>make serve: {title}</strong><ul style="margin:.3em 0">'
                f"{items}{more}</ul></div>").encode()


REPORT = BuildReport()  # one server, one language: the last build's report
BUILD_TIMEOUT = 3600  # seconds; a whole language builds in under a minute, a rebuild in seconds


class RecordingBuilder(autobuild.Builder):
    """sphinx-autobuild's build, its output shown as it comes and its warnings kept for the banner."""

    def __call__(self, *, changed_paths):
        if self.pre_build_commands or self.post_build_commands:
            sys.exit("serve: pre- and post-build commands are not supported here")
        if changed_paths:
            show_message(f"Detected changes ({', '.join(p.name for p in changed_paths[:5])})")
            show_message("Rebuilding...")
        command = [sys.executable, "-m", "sphinx", "build", *self.sphinx_args]
        show_command(["python", *command[1:]])
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        problems = [line.strip() for line in echoed(process.stdout) if "WARNING" in line or "ERROR" in line]
        try:
            returncode = process.wait(timeout=BUILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            returncode = process.wait(timeout=60)
            problems.append(f"sphinx-build still running after {BUILD_TIMEOUT} s; killed")
        REPORT.save(returncode != 0, problems)
        if returncode != 0 or problems:
            print(f"serve: the build {'failed' if returncode != 0 else 'has warnings'}; every page says so "
                  "until a build is clean", flush=True)
        show_message(f"Serving on {self.uri}")


def echoed(lines):
    for line in lines:
        print(line, end="", flush=True)
        yield line


class BuildReportMiddleware:
    """Puts the banner of the last build's problems at the top of every HTML page served."""

    def __init__(self, app, report: BuildReport) -> None:
        self.app, self.report = app, report

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        banner = self.report.load().banner()
        is_html = False

        async def send_with_banner(message) -> None:
            nonlocal is_html
            if message["type"] == "http.response.start" and banner:
                headers = MutableHeaders(scope=message)
                is_html = headers.get("Content-Type", "").startswith("text/html")
                if is_html and "Content-Length" in headers:
                    headers["Content-Length"] = str(int(headers["Content-Length"]) + len(banner))
            elif message["type"] == "http.response.body" and is_html and not message.get("more_body", False):
                message["body"] += banner
            await send(message)

        await self.app(scope, receive, send_with_banner)


def with_sibling_editions(watch_dirs, ignore_handler, builder, out_dir, url_host):
    site = Path(out_dir).resolve().parent
    print(f"serve: the site root is {site}; open {url_host}/{Path(out_dir).name}/index.html", flush=True)
    app = served_by_autobuild(watch_dirs, ignore_handler, builder, str(site), url_host)
    app.add_middleware(BuildReportMiddleware, report=REPORT)
    return app


def address(argv: list[str]) -> tuple[str, int]:
    """--host and --port as sphinx-autobuild reads them (its defaults: 127.0.0.1 and 8000)."""
    found = {"--host": "127.0.0.1", "--port": "8000"}
    for i, arg in enumerate(argv):
        name, equals, value = arg.partition("=")
        if name in found:
            found[name] = value if equals else (argv[i + 1] if i + 1 < len(argv) else found[name])
    return found["--host"], int(found["--port"])


def hold_port(host: str, port: int) -> socket.socket:
    """The server's socket, bound now; a busy or forbidden port ends the command with one line."""
    family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                        flags=socket.AI_PASSIVE)[0]
    held = socket.socket(family, kind, proto)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a port in TIME_WAIT is free
    try:
        held.bind(where)
    except OSError as error:
        held.close()
        if error.errno == errno.EADDRINUSE:
            sys.exit(f"serve: port {port} on {host} is busy (another make serve, or another server): stop it, or "
                     f"choose another port: make serve PORT={port + 1}")
        sys.exit(f"serve: cannot listen on {host}:{port}: {error.strerror}")
    return held


class HeldSocketServer:
    """``uvicorn.run`` for sphinx-autobuild's main(), serving on the socket bound before the build."""

    def __init__(self, held: socket.socket) -> None:
        self.held = held

    def run(self, app, host: str, port: int, **options) -> None:
        uvicorn.Server(uvicorn.Config(app, host=host, port=port, **options)).run(sockets=[self.held])


def install(argv: list[str]) -> None:
    found = list(inspect.signature(served_by_autobuild).parameters)
    if found != EXPECTED:  # a new sphinx-autobuild: say so instead of serving the wrong folder
        sys.exit(f"serve: sphinx-autobuild's _create_app takes {found}, not {EXPECTED}; update tools/web/serve.py")
    autobuild._create_app = with_sibling_editions
    autobuild.Builder = RecordingBuilder  # main() makes its builder from this name
    host, port = address(argv)
    if port:  # 0: sphinx-autobuild picks a free one itself
        autobuild.uvicorn = HeldSocketServer(hold_port(host, port))  # main() calls uvicorn.run(app, host=, port=)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check-port"]:  # make serve, before make html: a busy port is said at once
        hold_port(*address(sys.argv[2:])).close()
        sys.exit(0)
    install(sys.argv[1:])
    autobuild.main(sys.argv[1:])
