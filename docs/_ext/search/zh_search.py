"""Chinese full-text search that cannot silently degrade.

* Sphinx indexes no Chinese word at all when jieba is missing, and says
  nothing. A Chinese build without jieba is an error here.
* Sphinx 9.0.4's Chinese search language emits
  ``window.Stemmer = ChineseStemmer;`` into ``language_data.js`` although it
  ships the English stemmer (sphinx-doc/sphinx#14229), so the search page
  throws and hangs. ``FixedSearchChinese`` points ``Stemmer`` at the stemmer
  that is actually bundled.
* The browser splits a query only at spaces and punctuation, so 计算梯度
  typed without a space finds nothing. ``FixedSearchChinese`` ships
  ``zh_query_split.js`` as the language's ``splitQuery``: forward maximum
  matching against the Chinese words of the loaded search index.

The jieba user dictionary (``html_search_options["dict"]``) is generated
from the glossary by ``glossary_terms.py``.
"""

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.search import _MINIFIED_JS_PATH, languages
from sphinx.search.zh import SearchChinese


def bundled_stemmer_code(rawcode: str, stemmer_class: str) -> str:
    """The minified snowball stemmer JavaScript, bound to ``window.Stemmer``."""
    return "\n".join((
        (_MINIFIED_JS_PATH / "base-stemmer.js").read_text(encoding="utf-8"),
        (_MINIFIED_JS_PATH / rawcode).read_text(encoding="utf-8"),
        f"window.Stemmer = {stemmer_class};",
    ))


QUERY_SPLITTER = (Path(__file__).parent / "zh_query_split.js").read_text(encoding="utf-8")


class FixedSearchChinese(SearchChinese):
    """SearchChinese whose JavaScript stemmer is the one it actually bundles."""

    # Inline code instead of js_stemmer_rawcode: Sphinx derives the class name
    # from language_name ("ChineseStemmer"), but the file defines EnglishStemmer.
    js_stemmer_rawcode = ""
    js_stemmer_code = bundled_stemmer_code(SearchChinese.js_stemmer_rawcode, "EnglishStemmer")
    js_splitter_code = QUERY_SPLITTER


def is_chinese(language: str | None) -> bool:
    return (language or "").replace("-", "_").split("_")[0] == "zh"


def require_jieba(app: Sphinx) -> None:
    if not is_chinese(app.config.language) or app.builder.format != "html":
        return
    try:
        import jieba
    except ImportError as exc:
        raise ExtensionError(
            "jieba cannot be imported, so the Chinese search index would be empty; "
            "install the pinned requirements (make venv)"
        ) from exc
    jieba.setLogLevel(60)  # jieba logs its dictionary loading at DEBUG to stderr


def setup(app: Sphinx) -> dict:
    languages["zh"] = FixedSearchChinese
    app.connect("builder-inited", require_jieba)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
