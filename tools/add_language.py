"""Add a translation language: ``make add-language L=ja``.

    python tools/add_language.py [--conf conf.py] POT_DIR LOCALE_DIR LANGUAGE

* creates ``LOCALE_DIR/LANGUAGE/LC_MESSAGES/<page>.po`` for every template in
  POT_DIR (``make gettext``), every entry untranslated, with sphinx-intl (the
  tool translators of Sphinx projects know: ``sphinx-intl update -l LANGUAGE``),
  then brings them to the project's catalog style with ``update_po`` (locations
  without line numbers, msgmerge's wrapping), as every later update does; the Makefile's
  TRANSLATIONS, ``tools/project.py translations()`` and so the builds and the
  tests pick the language up from that folder;
* gives the language an entry in every per-language dictionary of ``conf.py``
  (``language_overrides``, ``site_languages``), copied from the English entry
  as a starting point: ``hreflang`` and ``label`` are set for the new language,
  and a comment marks the values still to translate.

Nothing is written when the language exists already or the code is malformed.
"""

import ast
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from project import LOCALE, ROOT, SOURCE_LANGUAGE  # noqa: E402
from update_po import update  # noqa: E402

# conf.py dictionaries keyed by language; each needs an entry for every language.
PER_LANGUAGE_SETTINGS = ["language_overrides", "site_languages"]
TEMPLATE_LANGUAGE = "en"  # new entries start as a copy of this language's entry
CODE = re.compile(r"^[a-z]{2,3}(_[A-Z]{2}|_[A-Z][a-z]{3})?$")  # ja, pt_BR, zh_Hant


def own_name(language: str) -> str:
    """The language's name in itself (日本語, Deutsch), from Babel's CLDR data."""
    from babel import Locale
    try:
        return Locale.parse(language).get_display_name(language)
    except Exception:  # an unknown code still gets an entry; the label can be fixed by hand
        return language


def new_entry(setting: str, template: dict, language: str) -> dict:
    entry = dict(template)
    if "hreflang" in entry:
        entry["hreflang"] = language.replace("_", "-")
    if "label" in entry:
        entry["label"] = own_name(language)
    return entry


def literal(value) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)


def formatted(language: str, entry: dict) -> str:
    """The entry as conf.py writes them: double quotes, one line if short, else one item a line."""
    items = [f"{literal(k)}: {literal(v)}" for k, v in entry.items()]
    one_line = f'    "{language}": {{{", ".join(items)}}},\n'
    if len(one_line) <= 100:
        return one_line
    return f'    "{language}": {{\n' + "".join(f"        {item},\n" for item in items) + "    },\n"


def conf_with_language(conf_text: str, language: str) -> str:
    """conf.py's text with an entry for ``language`` added to each per-language dictionary."""
    lines = conf_text.splitlines(keepends=True)
    inserts = []
    for node in ast.parse(conf_text).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        setting = node.targets[0].id
        if setting not in PER_LANGUAGE_SETTINGS or not isinstance(node.value, ast.Dict):
            continue
        table = ast.literal_eval(node.value)
        if language in table:
            continue
        template = table.get(TEMPLATE_LANGUAGE) or table[next(iter(table))]
        text = (f"    # Added by `make add-language L={language}`: copied from {TEMPLATE_LANGUAGE!r}; "
                f"translate the values.\n{formatted(language, new_entry(setting, template, language))}")
        closing = node.value.end_lineno - 1  # the line with the dictionary's closing brace
        inserts.append((closing, text))
    for line, text in sorted(inserts, reverse=True):
        lines.insert(line, text)
    return "".join(lines)


def add_language(pot_dir: Path, locale_dir: Path, language: str, conf: Path) -> list[str]:
    if not CODE.match(language):
        sys.exit(f"{language!r} is not a language code like 'ja' or 'pt_BR'")
    if language == SOURCE_LANGUAGE or (locale_dir / language / "LC_MESSAGES").exists():
        sys.exit(f"{language} exists already: {locale_dir / language / 'LC_MESSAGES'}")
    conf_text = conf.read_text(encoding="utf-8")
    new_conf = conf_with_language(conf_text, language)  # fails before anything is written
    from sphinx_intl.basic import update as sphinx_intl_update
    sphinx_intl_update(str(locale_dir), str(pot_dir), (language,), line_width=79, jobs=1)
    report = update(pot_dir, locale_dir, [language])  # the project's style: what make update-po writes
    if new_conf != conf_text:
        conf.write_text(new_conf, encoding="utf-8")
        report.append(f"{conf}: added {language!r} to {', '.join(PER_LANGUAGE_SETTINGS)}; translate the values")
    report.append(f"next: translate {locale_dir / language / 'LC_MESSAGES'}/*.po, "
                  f"then `make html-lang-{language}` and `make todo`")
    return report


def main(argv: list[str]) -> None:
    conf = ROOT / "conf.py"
    if argv[:1] == ["--conf"]:
        conf, argv = Path(argv[1]), argv[2:]
    if len(argv) != 3:
        sys.exit(__doc__)
    pot_dir, locale_dir, language = argv
    for line in add_language(Path(pot_dir), Path(locale_dir or LOCALE), language, conf):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
