"""Add a translation language: ``make add-language L=ja``.

    python tools/catalogs/add_language.py [--conf conf.py] POT_DIR LOCALE_DIR LANGUAGE

* creates ``LOCALE_DIR/LANGUAGE/LC_MESSAGES/<page>.po`` for every template in
  POT_DIR (``make gettext``), every entry untranslated, with sphinx-intl (the
  tool translators of Sphinx projects know: ``sphinx-intl update -l LANGUAGE``),
  then brings them to the project's catalog style with ``update_po`` (locations
  without line numbers, msgmerge's wrapping), as every later update does; the Makefile's
  TRANSLATIONS, ``tools/project.py translations()`` and so the builds and the
  tests pick the language up from that folder;
  every catalog gets the project's header instead of gettext's placeholders, and
  every entry the English translation beside the Chinese source (``#. en: ...``,
  the pivot ``make update-po`` keeps in sync);
* gives the language an entry in every per-language dictionary of ``conf.py``
  (``language_overrides``, ``site_languages``), copied from the English entry
  as a starting point: ``hreflang`` and ``label`` (the language's own name, for
  the switcher) are set for the new language, ``site_languages`` marks it
  ``"draft": True`` (the published editions do not link to it until that line is
  deleted), and a comment marks the values still to translate;
* creates the theme's and the site's UI strings,
  ``docs/_locale/<lang>/LC_MESSAGES/sphinx.po``: every message the Chinese
  edition translates there, filled in from Sphinx's own catalog for the language
  where Sphinx has one;
* says which search tokenizer Sphinx will use for the language.

Nothing is written when the language exists already or the code is malformed. Every
catalog and ``conf.py`` are written as ``make update-po`` writes catalogs
(``tools/catalogs/catalog_write.py``: a temporary file renamed over the old one, never over a
newer save).
"""

import ast
import json

import polib
import re
import sys
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.catalogs.catalog_file import CatalogError, decode, read  # noqa: E402
from tools.catalogs.catalog_write import CatalogChanged, CatalogWriteError, save, write  # noqa: E402
from tools.project import DOCS, LOCALE, ROOT, SOURCE_LANGUAGE  # noqa: E402
from tools.catalogs.update_po import fill_header, update  # noqa: E402

UI_CATALOG = Path("LC_MESSAGES") / "sphinx.po"  # under docs/_locale/<lang>/: the theme's and the site's strings
# What Sphinx's search does for a language (sphinx.search.languages); the rest falls back to English.
SEARCH_NOTES = {
    "ja": "Japanese: Sphinx splits words with its built-in TinySegmenter (no extra package); "
          "html_search_options {'type': 'sphinx.search.ja.MecabSplitter'} or JanomeSplitter segment better "
          "but need mecab or janome installed",
    "zh": "Chinese: jieba with the glossary's dictionary (docs/_ext/search/zh_search.py)",
}

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
    if setting == "site_languages":
        entry["draft"] = True  # built and tested; linked from the other editions once this line is deleted
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


def ui_catalog(language: str, ui_dir: Path) -> str:
    """docs/_locale/<lang>/LC_MESSAGES/sphinx.po: the messages the source edition translates, pre-filled from
    Sphinx's own catalog of the language (furo's and the project's strings stay to translate)."""
    import sphinx

    source_path = ui_dir / SOURCE_LANGUAGE / UI_CATALOG
    if not source_path.exists():
        return f"no {source_path}: no theme and site strings to translate"
    source = read(source_path)
    builtin_path = Path(sphinx.__file__).parent / "locale" / language / UI_CATALOG
    builtin = {e.msgid: e.msgstr for e in polib.pofile(str(builtin_path)) if e.msgstr} if builtin_path.exists() else {}
    catalog = polib.POFile(wrapwidth=79)
    fill_header(catalog, language)
    for entry in source:
        catalog.append(polib.POEntry(msgid=entry.msgid, msgstr=builtin.get(entry.msgid, "")))
    path = ui_dir / language / UI_CATALOG
    path.parent.mkdir(parents=True, exist_ok=True)
    save(catalog, path, expected=None)
    filled = sum(1 for e in catalog if e.msgstr)
    return f"created {path}: {len(catalog)} theme and site strings, {filled} filled in from Sphinx's own catalog"


def search_note(language: str) -> str:
    from sphinx.search import languages

    base = language.split("_")[0]
    if base in SEARCH_NOTES:
        return f"search: {SEARCH_NOTES[base]}"
    if base in languages:
        return f"search: Sphinx's {languages[base].language_name} stemmer (built in)"
    return f"search: Sphinx has no search language {base!r}; it indexes the pages with its English rules"


def add_language(pot_dir: Path, locale_dir: Path, language: str, conf: Path,
                 ui_dir: Path = DOCS / "_locale") -> list[str]:
    if not CODE.match(language):
        sys.exit(f"{language!r} is not a language code like 'ja' or 'pt_BR'")
    if language == SOURCE_LANGUAGE or (locale_dir / language / "LC_MESSAGES").exists() \
            or (ui_dir / language).exists():
        sys.exit(f"{language} exists already: {locale_dir / language / 'LC_MESSAGES'} or {ui_dir / language}")
    conf_bytes = conf.read_bytes()
    conf_text = conf_bytes.decode("utf-8")
    new_conf = conf_with_language(conf_text, language)  # fails before anything is written
    from sphinx_intl.basic import update as sphinx_intl_update
    sphinx_intl_update(str(locale_dir), str(pot_dir), (language,), line_width=79, jobs=1)
    for po in sorted((locale_dir / language / "LC_MESSAGES").rglob("*.po")):
        raw = po.read_bytes()
        decode(po, raw)  # what sphinx-intl wrote is a sound catalog, or the file and line say why not
        catalog = read(po)
        fill_header(catalog, language)  # sphinx-intl leaves YEAR-MO-DA, FIRST AUTHOR and a fuzzy header
        save(catalog, po, expected=raw)
    # The project's style (what make update-po writes) and the English pivot comments.
    report = update(pot_dir, locale_dir, [language])
    report.append(ui_catalog(language, ui_dir))
    report.append(search_note(language))
    if new_conf != conf_text:
        write(conf, new_conf, expected=conf_bytes)
        report.append(f"{conf}: added {language!r} to {', '.join(PER_LANGUAGE_SETTINGS)}; translate the values")
    report.append(f"next: translate {locale_dir / language / 'LC_MESSAGES'}/*.po (each entry shows the English "
                  f"as '#. en:'), then `make html-lang-{language}` and `make todo L={language}`; "
                  f"{language} is a draft until its \"draft\" line in conf.py's site_languages is deleted")
    return report


def main(argv: list[str]) -> None:
    conf = ROOT / "conf.py"
    if argv[:1] == ["--conf"]:
        conf, argv = Path(argv[1]), argv[2:]
    if len(argv) != 3:
        sys.exit(__doc__)
    pot_dir, locale_dir, language = argv
    try:
        report = add_language(Path(pot_dir), Path(locale_dir or LOCALE), language, conf)
    except (CatalogError, CatalogChanged, CatalogWriteError) as error:
        sys.exit(f"{error}\nadd-language stopped: mend the cause, delete what it created and run it again")
    for line in report:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
