"""The lr_scheduler plots are drawn from the code the pages show, in every language.

Each scheduler page draws its figure at build time with Matplotlib's plot
directive, which runs a ``plot_<name>`` function of
``snippets/lr_scheduler/schedules.py``. These tests check that every schedule
of that file is plotted on exactly one page, that the learning rates it plots
are the ones the doctest on the same page prints, that every figure has alt
text that is translated in the catalog, that each built page (Chinese and
English) shows its image with alt text in the page's language, and that the
images are SVG that the books accept (docs/_ext/maths/plot_svg.py).
"""

import re
import runpy
from pathlib import Path

import polib
import pytest
from bs4 import BeautifulSoup
from conftest import BUILDDIR, LANGUAGES, ROOT, check_translated_content

DOCS = ROOT / "docs" / "lr_scheduler"
SNIPPET = ROOT / "snippets" / "lr_scheduler" / "schedules.py"
CATALOGS = ROOT / "locale" / "en" / "LC_MESSAGES" / "lr_scheduler"
PLOT = re.compile(r"^\.\. plot:: (\S+) (plot_\w+)\n((?:   :\S+:.*\n)+)", re.MULTILINE)
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def plots() -> list[dict]:
    """Every plot directive on the chapter's pages: page, script, function and options."""
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for match in PLOT.finditer(page.read_text(encoding="utf-8")):
            options = dict(re.findall(r"^   :(\S+): (.*)$", match.group(3), re.MULTILINE))
            found.append({"page": page, "script": match.group(1), "function": match.group(2), "options": options})
    return found


@pytest.fixture(scope="module")
def schedules() -> dict:
    return runpy.run_path(str(SNIPPET))  # run_path writes no __pycache__ into snippets/


def test_every_schedule_is_plotted_once_from_the_snippet(schedules):
    found = plots()
    assert found, "no plot directive on the lr_scheduler pages"
    assert {p["script"] for p in found} == {"../snippets/lr_scheduler/schedules.py"}
    assert sorted(p["function"] for p in found) == sorted(f"plot_{name}" for name in schedules["SCHEDULES"])
    assert all(callable(schedules[p["function"]]) for p in found)


def test_plotted_sequence_is_the_one_the_page_doctest_prints(schedules):
    for plot in plots():
        name = plot["function"].removeprefix("plot_")
        expected = str([round(lr, 4) for lr in schedules["lr_sequence"](name)])
        lines = plot["page"].read_text(encoding="utf-8").splitlines()
        assert expected in lines, f"{plot['page'].name} does not print the plotted sequence {expected}"


def test_every_plot_has_alt_text_that_is_translated():
    for plot in plots():
        assert plot["options"].get("show-source-link") == "false", plot["page"].name
        alt = plot["options"].get("alt", "")
        assert CJK.search(alt), f"{plot['page'].name}: {plot['function']} has no Chinese alt text"
        catalog = polib.pofile(str(CATALOGS / plot["page"].with_suffix(".po").name))
        entry = catalog.find(alt)
        assert entry is not None and entry.translated() and not CJK.search(entry.msgstr), \
            f"{plot['page'].name}: alt text of {plot['function']} is not translated"


def check_built_plots(html_dir: Path, language: str) -> list[str]:
    """Problems with the plot images of one language's build of the chapter."""
    problems = []
    pages = {p["page"].stem for p in plots()}
    for stem in sorted(pages):
        expected = sum(p["page"].stem == stem for p in plots())
        html = html_dir / "lr_scheduler" / f"{stem}.html"
        images = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser").select("img.plot-directive")
        if len(images) != expected:
            problems.append(f"{html}: {len(images)} plot images, expected {expected}")
        for image in images:
            alt = image.get("alt", "")
            # Chinese alt text on the Chinese site only (a language written with Han characters: any alt text).
            wrong_script = bool(CJK.search(alt)) != (language == "zh_CN") and not language.startswith(("ja", "ko"))
            if not alt or wrong_script:
                problems.append(f"{html}: alt text not in the page language: {alt!r}")
            if not (html.parent / image["src"]).is_file():
                problems.append(f"{html}: missing image {image['src']}")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_built_pages_show_the_plots_with_alt_text_in_their_language(html_builds, language):
    assert html_builds[language].returncode == 0
    problems = check_built_plots(BUILDDIR / "html" / language, language)
    missing = [p for p in problems if "alt text not in the page language" not in p]
    assert not missing, "\n".join(missing)
    check_translated_content(language, [p for p in problems if p not in missing], "plots with untranslated alt text")


def test_plots_write_nothing_into_the_source_tree(html_builds):
    for folder in (ROOT / "docs", ROOT / "snippets"):
        written = [p for p in folder.rglob("*") if p.name.startswith("schedules_plot_") or p.name == "plot_directive"]
        assert written == [], f"plot output in the source tree: {written}"


def svg_problems(svg: str) -> list[str]:
    """What epubcheck rejects in an SVG figure, and what makes it differ from one build to the next."""
    problems = []
    if "<!DOCTYPE" in svg:
        problems.append("a DOCTYPE (external DTD)")
    problems += [f"<path> without d: {tag}" for tag in re.findall(r"<path\b[^>]*>", svg) if not re.search(r"\sd=", tag)]
    if "<dc:date>" in svg:
        problems.append("the drawing's date")
    return problems


def test_matplotlibs_svg_is_cleaned_of_what_the_books_reject(tmp_path):
    """docs/_ext/maths/plot_svg.py on a figure as matplotlib writes it (a title: glyphs, among them a space)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from maths.plot_svg import clean_svg

    fig, ax = plt.subplots()
    ax.set_title("a b")
    fig.savefig(tmp_path / "figure.svg")
    plt.close(fig)
    raw = (tmp_path / "figure.svg").read_text(encoding="utf-8")
    assert len(svg_problems(raw)) >= 3, svg_problems(raw)
    assert svg_problems(clean_svg(raw)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_built_plots_are_svg_the_books_accept(html_builds, language):
    pages = sorted((BUILDDIR / "html" / language / "lr_scheduler").glob("*.html"))
    images = sorted({(page.parent / img["src"]).resolve() for page in pages for img in
                     BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select("img.plot-directive")})
    assert len(images) == len(plots()) and all(image.suffix == ".svg" for image in images), images
    assert {image.name: svg_problems(image.read_text(encoding="utf-8")) for image in images} == {
        image.name: [] for image in images}
