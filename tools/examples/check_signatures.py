"""Compare every documented signature with the installed torch and Python.

    python tools/examples/check_signatures.py [FILE.md ...]     (default: every page under docs/)

Each ``{py:function}``, ``{py:class}`` and ``{py:method}`` directive names an
object by its dotted path and gives its parameters. The object is imported
and its real signature taken from ``inspect.signature`` or, for a builtin
that has none (most of torch's C functions), from the signature lines its
docstring starts with (``cat(tensors, dim=0, *, out=None) -> Tensor``; an
overloaded function lists several and any of them may be documented). The
two are compared as parameter lists: names, kinds (``/``, ``*``, ``*args``,
``**kwargs``) and defaults; annotations and return types are not compared.

Prints ``file:line: problem`` for a name that does not import, or whose
parameters differ, and exits 1 if there is one. Objects with no signature
from either source are counted and listed with ``-v``.
"""

import ast
import importlib
import inspect
import re
import sys
import typing
from dataclasses import dataclass
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.project import DOCS, ROOT  # noqa: E402

EXCEPTIONS = ROOT / "tests" / "data" / "signature-exceptions.tsv"  # name<TAB>why it differs on purpose

DIRECTIVE = re.compile(r"^(?:```+|:::+)\{py:(function|class|method)\}\s+(.+?)\s*$")


@dataclass
class Documented:
    path: Path
    line: int
    kind: str
    name: str
    params: str  # the text between the outer parentheses, or None when no parentheses are given


def documented(paths: list[Path]) -> list[Documented]:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = DIRECTIVE.match(line)
            if match:
                name, params = split_signature(match.group(2))
                found.append(Documented(path, number, match.group(1), name, params))
    return found


def split_signature(text: str) -> tuple[str, str | None]:
    """'torch.cat(tensors, dim=0) -> Tensor' -> ('torch.cat', 'tensors, dim=0')."""
    if "(" not in text:
        return text.strip(), None
    name, rest = text.split("(", 1)
    depth, end = 1, 0
    for end, char in enumerate(rest):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            break
    return name.strip(), rest[:end]


def resolve(dotted: str):
    """Import the longest importable module prefix (builtins if none), then walk attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    obj = importlib.import_module("builtins")  # id, len, isinstance ...
    for attr in parts:
        obj = getattr(obj, attr)
    return obj


def split_top_level(text: str, separator: str = ",") -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(char, 0)
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [p.strip() for p in parts + [current] if p.strip()]


OPTIONAL = "<optional>"  # a parameter of the bracket notation: next(iterator[, default])


def normal_default(text: str | None) -> str | None:
    if text is None:
        return None
    if text == OPTIONAL:
        return OPTIONAL
    try:
        return repr(ast.literal_eval(text))  # 1e-05 == 1e-5, 'a' == "a"
    except (ValueError, SyntaxError):
        text = " ".join(text.split())
        # A name is compared by its last part: context_fn=noop_context_fn as the official docs write
        # it, torch.utils.checkpoint.noop_context_fn as inspect names it.
        return text.rsplit(".", 1)[-1] if re.fullmatch(r"[\w.]+", text) else text


def bracket_notation(params: str) -> str | None:
    """'start, stop[, step]' -> 'start, stop, step=<optional>'; None if it is not that notation."""
    if not re.search(r"\[\s*,|,\s*\[", params):
        return None
    names, optional = [], False
    for piece in re.split(r"([\[\],])", params):
        if piece == "[":
            optional = True
        elif piece.strip() and piece not in {",", "]"}:
            names.append(f"{piece.strip()}={OPTIONAL}" if optional else piece.strip())
    return ", ".join(names)


def canonical(params: str) -> tuple | None:
    """A parameter list as comparable data: ((kind, name, default), ...), annotations dropped.

    Written by hand rather than with ast, because torch's docstrings use forms that are not
    Python: ``(*size, *, out=None)`` and ``(start=0, end, step=1)``.
    """
    params = bracket_notation(params) or params
    result = []
    for param in split_top_level(params):
        name, _, default = param.partition("=")
        name = split_top_level(name, ":")[0] if ":" in name else name.strip()
        if name == "/":
            result = [("positional-only", n, d) for _, n, d in result]
        elif name == "*":
            if not any(kind == "*args" for kind, _, _ in result):
                result.append(("*", "", None))
        elif name.startswith("**"):
            result.append(("**kwargs", name[2:], None))
        elif name.startswith("*"):
            result.append(("*args", name[1:], None))
        elif re.fullmatch(r"[A-Za-z_]\w*", name):
            after_star = any(kind in {"*", "*args"} for kind, _, _ in result)
            result.append(("keyword-only" if after_star else "positional", name,
                           normal_default(default.strip() if default else None)))
        else:
            return None
    return tuple(result)


def from_inspect(obj, drop_self: bool) -> str | None:
    try:
        signature = inspect.signature(obj)
    except (ValueError, TypeError):
        return None
    parameters = list(signature.parameters.values())
    if drop_self and parameters and parameters[0].name in {"self", "cls"}:
        parameters = parameters[1:]
    parameters = [p.replace(default=named_default(obj, p.default)) for p in parameters]
    text = str(signature.replace(parameters=[p.replace(annotation=inspect.Parameter.empty) for p in parameters],
                                 return_annotation=inspect.Signature.empty))
    return text[1:-1]


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def named_default(obj, default):
    """An object default such as <torch._C.Generator object at 0x...> by the name a page writes for it."""
    if inspect.ismodule(default):  # pickle_module=pickle
        return _Named(default.__name__)
    if " at 0x" not in repr(default):
        return default
    # torch.nn.functional too: a layer's activation=F.relu is the function object itself
    for module in (sys.modules["torch"], sys.modules.get("torch.nn.functional"),
                   sys.modules.get(getattr(obj, "__module__", None) or "")):
        for name, value in vars(module or object).items():
            if value is default:
                return _Named(f"{module.__name__}.{name}")
    return default


def joined_continuations(doc: list[str]) -> list[str]:
    """A signature written over several lines (scaled_dot_product_attention's) as one line."""
    joined: list[str] = []
    for line in doc:
        if joined and joined[-1].count("(") > joined[-1].count(")"):
            joined[-1] = joined[-1].rstrip("\\ ") + " " + line.strip()  # torch.normal's ends with a backslash
        else:
            joined.append(line)
    return joined


def from_docstring(obj, short_name: str) -> list[str]:
    """Signature lines at the top of a builtin's docstring: 'view(*shape) -> Tensor'."""
    lines = []
    doc = joined_continuations((inspect.getdoc(obj) or "").splitlines())
    # 'vector_norm(' or with its namespace, 'linalg.vector_norm(' (torch.linalg's docstrings)
    starts = re.compile(rf"^(?:[A-Za-z_][\w.]*\.)?{re.escape(short_name)}\(")
    for number, line in enumerate(doc):
        line = line.strip()
        overload = line.startswith(f".. function:: {short_name}(") or line.startswith(f".. method:: {short_name}(")
        heading = bool(starts.match(line)) and all(not l.strip() or starts.match(l.strip()) for l in doc[:number])
        if overload or heading:
            lines.append(split_signature(line.split(":: ", 1)[-1])[1])
    return [line for line in lines if line is not None]


def overloads(cls) -> list[str]:
    """The typing.overload signatures of a class's __init__: nn.LSTM's own is (*args, **kwargs), and its
    parameter list exists only as overloads (torch/nn/modules/rnn.py)."""
    init = vars(cls).get("__init__") if inspect.isclass(cls) else None
    return [from_inspect(f, drop_self=True) for f in typing.get_overloads(init)] if inspect.isfunction(init) else []


def candidates(obj, kind: str, short_name: str) -> list[str]:
    if kind == "class":
        target = obj.__init__ if inspect.isclass(obj) and "__init__" in vars(obj) or hasattr(obj, "__init__") else obj
        found = [from_inspect(obj, drop_self=False)]
        if found[0] is None or found[0] in {"*args, **kwargs", "/, *args, **kwargs"}:
            found = [from_inspect(target, drop_self=True)]
        found += overloads(obj) + from_docstring(obj, short_name)
    else:
        found = [from_inspect(obj, drop_self=kind == "method" and not isinstance(obj, (staticmethod, classmethod)))]
        found += from_docstring(obj, short_name)
    generic = {"*args, **kwargs", "/, *args, **kwargs"}
    raw = from_inspect(obj, drop_self=kind == "method")  # Module.to really is (*args, **kwargs)
    return [c for c in found if c is not None and c not in generic] + ([raw] if raw in generic else [])


ALWAYS_OPTIONAL = {"out", "generator"}  # keyword-only in torch's functions, default None, whatever a docstring writes


def optional_out(params: tuple) -> tuple:
    """Many of torch's docstrings write a keyword-only ``out`` or ``generator`` without its default
    (``abs(input, *, out)``, ``bernoulli(input, *, generator, out)``); both are always optional in torch,
    their default None: the page writes ``out=None``."""
    return tuple((kind, name, "None") if kind == "keyword-only" and name in ALWAYS_OPTIONAL and default is None
                 else (kind, name, default) for kind, name, default in params)


def check(entry: Documented) -> tuple[str, str | None]:
    """('ok' | 'mismatch' | 'error' | 'unknown', problem)."""
    try:
        obj = resolve(entry.name)
    except (ImportError, AttributeError) as error:  # AttributeError: also a builtin that does not exist
        return "error", f"{entry.name} does not exist in the installed version ({error})"
    if entry.params is None:
        return "ok", None
    documented_params = canonical(entry.params)
    documented_params = documented_params and optional_out(documented_params)
    if documented_params is None:
        return "error", f"the documented parameters of {entry.name} are not valid Python: ({entry.params})"
    real = candidates(obj, entry.kind, entry.name.rsplit(".", 1)[-1])
    comparable = [optional_out(c) for c in (canonical(r) for r in real) if c is not None]
    if not comparable:
        return "unknown", None
    if documented_params in comparable:
        return "ok", None
    return "mismatch", (f"{entry.name}({entry.params}) does not match the installed signature"
                        f"{'s' if len(real) > 1 else ''}: " + " | ".join(f"({r})" for r in real))


def exceptions(path: Path = EXCEPTIONS) -> set[str]:
    rows = [line.split("\t", 1) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")] if path.exists() else []
    for row in rows:
        if len(row) != 2 or not row[1].strip():
            sys.exit(f"{path}: every exception needs a name, a tab and the reason: {row}")
    return {name for name, _ in rows}


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    paths = [Path(a) for a in argv if a != "-v"] or sorted(DOCS.rglob("*.md"))
    counts = {"ok": 0, "mismatch": 0, "error": 0, "unknown": 0}
    unknown = []
    allowed = exceptions()
    for entry in documented(paths):
        status, problem = check(entry)
        if status == "mismatch" and entry.name in allowed:
            status, problem = "ok", None
        counts[status] += 1
        if problem:
            print(f"{entry.path}:{entry.line}: {problem}")
        elif status == "unknown":
            unknown.append(f"{entry.path}:{entry.line}: {entry.name}: no signature to compare with")
    if verbose:
        print("\n".join(unknown))
    print(f"signatures: {counts['ok']} match, {counts['mismatch']} differ, {counts['error']} do not resolve, "
          f"{counts['unknown']} have no signature to compare with")
    return 1 if counts["mismatch"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
