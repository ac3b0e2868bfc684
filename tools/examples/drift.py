"""What another torch (or Python) changes on the pages: one readable report per run.

    python tools/examples/drift.py [--torch VERSION] [--torchvision VERSION] [--python INTERPRETER]
                          [--only PREFIX] [--out REPORT] DOCTREE_DIR [DOCTREE_DIR ...]
    python tools/examples/drift.py --reference-python PY --other-python PY [--reference-path DIR]
                          [--other-path DIR] [--docs DIR] [--conf DIR] --out REPORT DOCTREE_DIR ...

``make drift TORCH=2.13.0`` is the first form. It creates (once) a scratch venv outside the
checkout, ``~/.cache/torch-notes/drift/torch-<version>-py<X.Y>``, with that torch and the pinned
NumPy and Pillow (plus torchvision when ``--torchvision`` is given); ``--torch none`` installs no
torch, which with ``--python`` checks the pages that do not need it on another Python. Then it
runs every example of every language (the doctrees named on the command line) in the project's
venv and in the scratch venv with ``tools/examples/drift_run.py``, runs ``tools/examples/check_signatures.py`` in
both, and compares: for each page, the examples whose output or exception changed (with the
diff), the signatures that differ, and the warnings that are new or gone.

The second form compares two environments given as interpreters plus extra ``PYTHONPATH``
folders; the tests use it on a fixture project instead of installing torch.

Exit status: 0 when nothing changed, 1 when something did, 2 when the run itself failed.
When pip cannot install the scratch venv's packages, each package index it would ask is tried:
one that cannot be reached (no network, a wrong ``PIP_INDEX_URL``) is named, since pip's own
last words ("no matching distribution found for pillow==...") blame the first package instead.
"""

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import ssl
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.project import DOCS, ROOT  # noqa: E402

TOOLS = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "torch-notes" / "drift"
SIGNATURE_PROBLEM = re.compile(r"^(?P<where>\S+?:\d+): (?P<what>.*)$")
# Seconds each child may take; past them it is stuck, and the run stops with exit status 2.
PROBE_TIMEOUT = 60  # asking an interpreter its version
VENV_TIMEOUT = 300  # python -m venv, pip included: well under a minute
PIP_TIMEOUT = 3600  # pip install torch into the scratch venv: a download of gigabytes
INDEX_TIMEOUT = 15  # asking a package index for one small page
DEFAULT_INDEX = "https://pypi.org/simple"
RUN_TIMEOUT = 1800  # every example, or every signature, of every page in one environment


def say(message: str) -> None:
    print(f"drift: {message}", flush=True)


def pinned(package: str) -> str:
    """The exact version requirements.txt pins for a package (numpy, pillow)."""
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        name, _, version = line.split("#")[0].strip().partition("==")
        if name.lower() == package.lower():
            return f"{name}=={version}"
    sys.exit(f"requirements.txt pins no {package}")


def scratch_venv(torch: str, torchvision: str | None, python: str) -> Path:
    """Create (once) and return the interpreter of a venv with that torch, outside the checkout."""
    version = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                             capture_output=True, text=True, check=True, timeout=PROBE_TIMEOUT).stdout.strip()
    name = f"torch-{torch}" + (f"-torchvision-{torchvision}" if torchvision else "") + f"-py{version}"
    venv = CACHE / name
    interpreter = venv / "bin" / "python"
    if (venv / ".installed").exists():
        say(f"reusing the scratch venv {venv}")
        return interpreter
    say(f"creating the scratch venv {venv} (Python {version})")
    subprocess.run([python, "-m", "venv", "--clear", str(venv)], check=True, timeout=VENV_TIMEOUT)
    packages = [pinned("numpy"), pinned("pillow")]
    if torch != "none":
        packages.append(f"torch=={torch}")
    if torchvision:
        packages.append(f"torchvision=={torchvision}")
    say("pip install " + " ".join(packages))
    installed = subprocess.run([str(interpreter), "-m", "pip", "install", "--disable-pip-version-check", *packages],
                               timeout=PIP_TIMEOUT)
    if installed.returncode != 0:
        unreachable = unreachable_indexes(str(interpreter))
        if unreachable:
            raise SystemExit("drift: the package index cannot be reached, so pip could not look for "
                             f"{', '.join(packages)} (its 'no matching distribution' above says nothing about "
                             "the versions): " + "; ".join(f"{url}: {why}" for url, why in unreachable)
                             + ". Connect to the network (or set PIP_INDEX_URL to a mirror), then run make drift again")
        raise subprocess.CalledProcessError(installed.returncode, installed.args)
    (venv / ".installed").touch()
    return interpreter


def pip_settings(python: str) -> dict[str, str]:
    """pip's configuration as ``pip config list`` shows it (files and PIP_* variables; later wins)."""
    listed = subprocess.run([python, "-m", "pip", "config", "list"], capture_output=True, text=True,
                            timeout=PROBE_TIMEOUT)
    settings = {}
    for line in listed.stdout.splitlines():
        key, _, value = line.partition("=")
        settings[key.split(".", 1)[-1]] = value.strip().strip("'\"")
    return settings


def unreachable_indexes(python: str) -> list[tuple[str, str]]:
    """(index URL, why) for every package index pip is configured to ask that does not answer."""
    settings = pip_settings(python)
    if settings.get("no-index", "").lower() in ("1", "true", "yes", "on"):
        return []
    urls = shlex.split(settings.get("index-url") or DEFAULT_INDEX) + shlex.split(settings.get("extra-index-url", ""))
    context = ssl.create_default_context(cafile=settings.get("cert") or None)
    found = []
    for url in urls:
        if url.startswith("file:"):
            folder = Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))
            if not folder.is_dir():
                found.append((url, "no such folder"))
            continue
        try:
            with urllib.request.urlopen(url.rstrip("/") + "/pip/", timeout=INDEX_TIMEOUT, context=context):
                pass
        except urllib.error.HTTPError:
            pass  # it answered
        except (urllib.error.URLError, OSError, ValueError) as error:
            found.append((url, str(getattr(error, "reason", error))))
    return found


def extract(doctree_dirs: list[Path], conf_dir: Path, work: Path, only: str = "") -> dict[str, Path]:
    """Examples of each language's doctrees (the pages under ``only``), as doctest_floor.py extracts them."""
    from tools.examples.doctest_floor import extract as extract_groups
    import runpy

    sys.path.insert(0, str(conf_dir / "docs" / "_ext"))
    conf = runpy.run_path(str(conf_dir / "conf.py"))
    found = {}
    for doctrees in doctree_dirs:
        language = doctrees.parent.name if doctrees.name == "tree" else doctrees.name
        out = work / f"examples-{language}.json"
        extract_groups(doctrees, out, conf.get("doctest_global_setup", ""), conf.get("doctest_default_flags", 0))
        data = json.loads(out.read_text(encoding="utf-8"))
        data["pages"] = {page: groups for page, groups in data["pages"].items() if page.startswith(only)}
        out.write_text(json.dumps(data), encoding="utf-8")
        found[language] = out
    return found


def environment(extra_path: str | None) -> dict:
    env = dict(os.environ)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [extra_path, env.get("PYTHONPATH")]))
    return env


def run_examples(python: str, extra_path: str | None, examples: Path, results: Path, cwd: Path) -> dict:
    done = subprocess.run([python, str(TOOLS / "drift_run.py"), str(examples), str(results)],
                          env=environment(extra_path), cwd=cwd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if done.returncode != 0:
        raise SystemExit(f"drift: {python} could not run the examples of {examples.name}:\n{done.stderr[-3000:]}")
    return json.loads(results.read_text(encoding="utf-8"))


def signature_problems(python: str, extra_path: str | None, pages: list[Path], cwd: Path) -> dict[str, str]:
    """``file:line`` -> problem, for every documented signature this environment disagrees with."""
    done = subprocess.run([python, str(TOOLS / "check_signatures.py"), *map(str, pages)],
                          env=environment(extra_path), cwd=cwd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    problems = {}
    for line in done.stdout.splitlines():
        match = SIGNATURE_PROBLEM.match(line)
        if match:
            problems[match["where"]] = match["what"]
    if done.returncode not in (0, 1):
        raise SystemExit(f"drift: {python} could not check the signatures:\n{done.stderr[-3000:]}")
    return problems


def changed(reference: dict, other: dict) -> bool:
    """The page's verdict changed, or it failed in both and failed differently."""
    return reference["ok"] != other["ok"] or (not reference["ok"] and reference["got"] != other["got"])


def compare_examples(reference: dict, other: dict) -> dict[str, list[tuple[dict, dict]]]:
    """page -> [(reference outcome, other outcome)] for the examples that changed."""
    pages = {}
    for page, ref_page in reference["pages"].items():
        other_page = other["pages"].get(page, {"examples": []})
        others = {(o["group"], o["position"]): o for o in other_page["examples"]}
        for ref in ref_page["examples"]:
            theirs = others.get((ref["group"], ref["position"]))
            if theirs is not None and changed(ref, theirs):
                pages.setdefault(page, []).append((ref, theirs))
    return pages


def compare_warnings(reference: dict, other: dict) -> dict[str, tuple[list[str], list[str]]]:
    """page -> (new warnings, vanished warnings)."""
    pages = {}
    for page, ref_page in reference["pages"].items():
        before = set(ref_page["warnings"])
        after = set(other["pages"].get(page, {}).get("warnings", []))
        if before != after:
            pages[page] = (sorted(after - before), sorted(before - after))
    return pages


def indent(text: str, prefix: str = "    ") -> str:
    return "".join(prefix + line for line in text.splitlines(keepends=True)) or prefix + "\n"


def render(labels: tuple[str, str], examples: dict, warnings: dict, signatures: tuple[dict, dict],
           not_run: int, source_of=lambda page: page) -> tuple[str, str, int]:
    ref_label, other_label = labels
    ref_sigs, other_sigs = signatures
    lines = [f"# Drift report: {other_label} against {ref_label}", ""]
    page_names = sorted(set(examples) | set(warnings) | {k.split(":")[0] for k in set(ref_sigs) ^ set(other_sigs)})
    n_examples = n_pages = 0
    for page in page_names:
        section = []
        for languages, (ref, other) in examples.get(page, []):
            n_examples += 1
            section.append(f"Example changed ({', '.join(languages)}), group {ref['group']!r}:")
            first, *rest = ref["source"].rstrip("\n").split("\n")
            section += [f"    >>> {first}", *(f"    ... {line}" for line in rest)]
            section.append(f"  expected on the page: {'held' if ref['ok'] else 'failed'} with {ref_label}, "
                           f"{'held' if other['ok'] else 'failed'} with {other_label}")
            diff = difflib.unified_diff(ref["got"].splitlines(), other["got"].splitlines(),
                                        ref_label, other_label, lineterm="", n=2)
            section.append(indent("\n".join(diff) + "\n").rstrip())
            section.append("")
        for where in sorted(k for k in set(ref_sigs) | set(other_sigs) if k.split(":")[0] == page):
            shown = f"{source_of(page)}:{where.rsplit(':', 1)[1]}"
            if where in other_sigs and other_sigs[where] != ref_sigs.get(where):
                section.append(f"Signature differs with {other_label}: {shown}: {other_sigs[where]}")
            elif where in ref_sigs and where not in other_sigs:
                section.append(f"Signature matches {other_label}, not {ref_label}: {shown}: {ref_sigs[where]}")
        new, gone = warnings.get(page, ([], []))
        section += [f"Warning new with {other_label}: {w}" for w in new]
        section += [f"Warning gone with {other_label}: {w}" for w in gone]
        if section:
            n_pages += 1
            lines += [f"## {page}", "", *section, ""]
    n_sigs = len({k for k in set(ref_sigs) | set(other_sigs) if ref_sigs.get(k) != other_sigs.get(k)})
    n_new = sum(len(new) for new, _ in warnings.values())
    n_gone = sum(len(gone) for _, gone in warnings.values())
    summary = (f"drift {other_label} against {ref_label}: {n_examples} example(s) changed, {n_sigs} signature(s) "
               f"differ, {n_new} warning(s) new, {n_gone} gone, on {n_pages} page(s)")
    if not_run:
        summary += f"; {not_run} group(s) not run (they need torch)"
    return "\n".join(lines + [summary, ""]), summary, n_examples + n_sigs + n_new + n_gone


def merge_languages(per_language: dict[str, dict]) -> dict[str, list]:
    """The same change in several languages is reported once, naming the languages."""
    merged: dict[str, dict] = {}
    for language, pages in per_language.items():
        for page, pairs in pages.items():
            for ref, other in pairs:
                key = (ref["group"], ref["position"], ref["source"], ref["got"], other["got"])
                entry = merged.setdefault(page, {}).setdefault(key, ([], (ref, other)))
                entry[0].append(language)
    return {page: [(langs, pair) for langs, pair in entries.values()] for page, entries in merged.items()}


def compare(args, doctree_dirs: list[Path]) -> int:
    with tempfile.TemporaryDirectory(prefix="drift-") as tmp:
        work = Path(tmp)
        examples = extract(doctree_dirs, args.conf, work, args.only)
        say(f"examples of {', '.join(examples)} extracted")
        per_language, warnings_by_page, not_run, runs = {}, {}, 0, {}
        for language, path in examples.items():
            runs[language] = {}
            for side, python, extra in (("reference", args.reference_python, args.reference_path),
                                        ("other", args.other_python, args.other_path)):
                say(f"running the {language} examples in the {side} environment ({python})")
                runs[language][side] = run_examples(python, extra, path, work / f"{side}-{language}.json", args.conf)
            reference, other = runs[language]["reference"], runs[language]["other"]
            per_language[language] = compare_examples(reference, other)
            for page, (new, gone) in compare_warnings(reference, other).items():
                known_new, known_gone = warnings_by_page.setdefault(page, (set(), set()))
                known_new.update(new)
                known_gone.update(gone)
            not_run = max(not_run, other["groups_not_run"])
        pages = sorted(args.docs.rglob("*.md"))
        if args.only:
            pages = [p for p in pages if p.relative_to(args.docs).as_posix().startswith(args.only)]
        say("checking the documented signatures in both environments")
        signatures = (signature_problems(args.reference_python, args.reference_path, pages, args.conf),
                      signature_problems(args.other_python, args.other_path, pages, args.conf))
        if args.keep:
            shutil.copytree(work, args.keep, dirs_exist_ok=True)
    first = next(iter(runs.values()))
    labels = (args.reference_label or describe(first["reference"]), args.other_label or describe(first["other"]))
    # Signature locations are files (docs/<page>.md); examples and warnings are docnames.
    signatures = tuple({page_of(k, args.docs): v for k, v in side.items()} for side in signatures)
    warnings_sorted = {p: (sorted(new), sorted(gone)) for p, (new, gone) in warnings_by_page.items()}
    docs = args.docs.relative_to(args.conf) if args.docs.is_relative_to(args.conf) else args.docs
    report, summary, differences = render(labels, merge_languages(per_language), warnings_sorted, signatures,
                                          not_run, lambda page: f"{docs.as_posix()}/{page}.md")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report, encoding="utf-8")
    print(summary)
    print(f"drift: report written to {args.out}")
    return 1 if differences else 0


def page_of(where: str, docs: Path) -> str:
    """'/…/docs/optim/adam.md:12' -> 'optim/adam:12' (the docname, as examples and warnings are keyed)."""
    path, line = where.rsplit(":", 1)
    try:
        return f"{Path(path).resolve().relative_to(docs).with_suffix('').as_posix()}:{line}"
    except ValueError:
        return where


def describe(run: dict) -> str:
    return (f"torch {run['torch']}" if run["torch"] else "no torch") + f", Python {run['python']}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("doctrees", nargs="+", type=Path, help="doctree folder of each language")
    parser.add_argument("--torch", help="the other torch version (creates a scratch venv); 'none' for no torch")
    parser.add_argument("--torchvision", help="also install this torchvision in the scratch venv")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the scratch venv")
    parser.add_argument("--reference-python", default=str(ROOT / ".venv" / "bin" / "python"))
    parser.add_argument("--reference-path", help="extra PYTHONPATH folder of the reference environment")
    parser.add_argument("--other-python", help="an existing interpreter to compare with (instead of --torch)")
    parser.add_argument("--other-path", help="extra PYTHONPATH folder of the other environment")
    parser.add_argument("--reference-label")
    parser.add_argument("--other-label")
    parser.add_argument("--only", default="", help="limit the report to pages under this prefix (optim/)")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the pages whose signatures are checked")
    parser.add_argument("--conf", type=Path, default=ROOT, help="the project folder (conf.py, docs/_ext)")
    parser.add_argument("--out", type=Path, help="the report (default: _build/drift/<other>.txt)")
    parser.add_argument("--keep", type=Path, help="also keep the extracted examples and raw results here")
    args = parser.parse_args(argv)
    args.docs, args.conf = args.docs.resolve(), args.conf.resolve()
    if bool(args.torch) == bool(args.other_python):
        parser.error("give either --torch VERSION (a scratch venv) or --other-python INTERPRETER")
    missing = [str(d) for d in args.doctrees if not d.is_dir()]
    if missing:
        parser.error("no doctrees at " + ", ".join(missing) + " (make drift builds them first)")
    if args.torch:
        args.other_python = str(scratch_venv(args.torch, args.torchvision, args.python))
    if args.out is None:
        name = Path(args.other_python).parent.parent.name if args.torch else "other"
        args.out = ROOT / "_build" / "drift" / f"{name}.txt"
    return compare(args, args.doctrees)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except subprocess.CalledProcessError as error:
        print(f"drift: {' '.join(map(str, error.cmd))} failed with exit status {error.returncode}", file=sys.stderr)
        sys.exit(2)
    except subprocess.TimeoutExpired as error:
        print(f"drift: {' '.join(map(str, error.cmd))} still running after {error.timeout:.0f} s; stopped",
              file=sys.stderr)
        sys.exit(2)
    except SystemExit as error:
        if isinstance(error.code, str):
            print(error.code, file=sys.stderr)
            sys.exit(2)
        raise
