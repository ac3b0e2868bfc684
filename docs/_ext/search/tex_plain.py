"""A formula's TeX as plain text, for the search excerpts: ``\\frac{\\lambda}{2}\\lVert\\theta\\rVert^2`` is
``λ/2‖θ‖²``, ``(*, C_{in}, H_{in})`` is ``(*, Cᵢₙ, Hᵢₙ)``.

Excerpts are plain text (``search_excerpts.py``): a formula left out leaves a
gap in the sentence ("scaled to , resizing"). This renders the inline maths
the pages use (Greek letters, operators, fractions, roots, scripts, fonts,
delimiters, ``\\text``) well enough to read; a command it does not know is
written without its backslash, so nothing is lost.
"""

import re

GREEK = {name: chr(code) for name, code in {
    "alpha": 0x3B1, "beta": 0x3B2, "gamma": 0x3B3, "delta": 0x3B4, "epsilon": 0x3F5, "varepsilon": 0x3B5,
    "zeta": 0x3B6, "eta": 0x3B7, "theta": 0x3B8, "vartheta": 0x3D1, "iota": 0x3B9, "kappa": 0x3BA,
    "lambda": 0x3BB, "mu": 0x3BC, "nu": 0x3BD, "xi": 0x3BE, "pi": 0x3C0, "rho": 0x3C1, "sigma": 0x3C3,
    "tau": 0x3C4, "upsilon": 0x3C5, "phi": 0x3D5, "varphi": 0x3C6, "chi": 0x3C7, "psi": 0x3C8, "omega": 0x3C9,
    "Gamma": 0x393, "Delta": 0x394, "Theta": 0x398, "Lambda": 0x39B, "Xi": 0x39E, "Pi": 0x3A0, "Sigma": 0x3A3,
    "Upsilon": 0x3A5, "Phi": 0x3A6, "Psi": 0x3A8, "Omega": 0x3A9}.items()}
SYMBOLS = {
    "times": "×", "cdot": "·", "ldots": "…", "cdots": "⋯", "dots": "…", "approx": "≈", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "pm": "±", "mp": "∓", "infty": "∞", "to": "→",
    "rightarrow": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒", "partial": "∂", "nabla": "∇",
    "sum": "Σ", "prod": "∏", "int": "∫", "in": "∈", "notin": "∉", "sim": "~", "odot": "⊙", "otimes": "⊗",
    "oplus": "⊕", "div": "÷", "top": "ᵀ", "lvert": "|", "rvert": "|", "vert": "|", "mid": "|", "lVert": "‖",
    "rVert": "‖", "Vert": "‖", "|": "‖", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
    "langle": "⟨", "rangle": "⟩", "bmod": " mod ", "mod": " mod ", "circ": "∘", "star": "⋆", "ast": "*",
    "forall": "∀", "exists": "∃", "emptyset": "∅", "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩",
    "propto": "∝", "equiv": "≡", "ll": "≪", "gg": "≫", "prime": "′", "{": "{", "}": "}", "_": "_", "%": "%",
    "&": "&", "#": "#", "$": "$", ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ",
}
NAMED = {"max", "min", "log", "ln", "exp", "sin", "cos", "tan", "tanh", "sinh", "cosh", "arctan", "det", "tr",
         "arg", "argmax", "argmin", "sup", "inf", "lim", "sgn", "dim", "diag", "rank", "softmax", "mod"}
FONTS = {"text", "mathrm", "mathbf", "mathsf", "mathcal", "mathbb", "mathit", "mathtt", "boldsymbol",
         "operatorname", "textrm", "textbf", "textit", "texttt", "mbox", "bm"}
ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "bar": "\u0304", "overline": "\u0305", "tilde": "\u0303",
           "widetilde": "\u0303", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308"}
SIZES = {"left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big", "biggl", "biggr", "displaystyle",
         "textstyle", "limits", "nolimits"}
FRACTIONS = {"frac", "dfrac", "tfrac", "cfrac"}
SUPERSCRIPT = dict(zip("0123456789+-=()niTᵀ′", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀᵀ′"))
SUBSCRIPT = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
COMMAND = re.compile(r"\\([A-Za-z]+|.)")


def scripted(base: str, text: str, table: dict[str, str], mark: str) -> str:
    """x², x_max, x^(n+1): Unicode scripts where every character has one, else the mark and the text."""
    text = text.strip()
    if text and all(c in table for c in text):
        return base + "".join(table[c] for c in text)
    if len(text) > 1 and not re.fullmatch(r"\w+", text):
        text = f"({text})"
    return base + mark + text


class _Reader:
    def __init__(self, tex: str):
        self.tex, self.at = tex, 0

    def argument(self) -> str:
        """One argument: a {group}, a command, or one character."""
        while self.at < len(self.tex) and self.tex[self.at] == " ":
            self.at += 1
        if self.at >= len(self.tex):
            return ""
        if self.tex[self.at] == "{":
            return self.group()
        if self.tex[self.at] == "\\":
            return self.command()
        self.at += 1
        return self.tex[self.at - 1]

    def group(self) -> str:
        self.at += 1  # {
        out = self.sequence(closing="}")
        self.at += 1  # }
        return out

    def command(self) -> str:
        match = COMMAND.match(self.tex, self.at)
        self.at = match.end()
        name = match.group(1)
        if name in FONTS:
            return self.argument()
        if name in FRACTIONS:
            top, bottom = self.argument(), self.argument()
            wrap = lambda s: s if re.fullmatch(r"[\w.·′]*", s) else f"({s})"  # noqa: E731
            return f"{wrap(top)}/{wrap(bottom)} "  # 1/n Σ, not 1/nΣ
        if name == "sqrt":
            body = self.argument()
            return "√" + (body if re.fullmatch(r"[\w.]+", body) else f"({body})")
        if name in ACCENTS:
            body = self.argument()
            return body + ACCENTS[name] if len(body) == 1 else f"{name}({body})"
        if name in SIZES:
            return ""
        if name in ("begin", "end"):
            self.argument()
            return " "
        if name in GREEK:
            return GREEK[name]
        if name in SYMBOLS:
            return SYMBOLS[name]
        if name in NAMED:
            return name
        return name  # unknown: its name, without the backslash

    def sequence(self, closing: str = "") -> str:
        out = ""
        while self.at < len(self.tex) and self.tex[self.at] != closing:
            c = self.tex[self.at]
            if c in "^_":
                self.at += 1
                script = self.argument()
                out = scripted(out, script, SUPERSCRIPT if c == "^" else SUBSCRIPT, c)
            elif c == "{":
                out += self.group()
            elif c == "\\":
                out += self.command()
            elif c == "~":
                self.at += 1
                out += " "
            elif c == "&":
                self.at += 1
            else:
                self.at += 1
                out += c
        return out


def tex_plain(tex: str) -> str:
    """The formula as text a reader can follow: Unicode symbols, no backslashes or braces."""
    try:
        text = _Reader(tex).sequence()
    except (AttributeError, IndexError):  # unbalanced input: the TeX without its backslashes
        text = re.sub(r"\\([A-Za-z]+)", r"\1", tex).replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip()
