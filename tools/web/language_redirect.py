"""Write the root ``index.html`` that sends a reader to the edition of their language.

    python tools/web/language_redirect.py OUT.html

The editions are the published languages of conf.py's ``site_languages`` (a draft is
left out until it is published, as everywhere else). The page picks the first of the
browser's preferred languages that has an edition, matching the primary subtag
(``zh-TW`` finds ``zh-CN``), and otherwise English, or the source language when there
is no English edition. Without JavaScript it is a list of links, each in its language.
"""

import html
import json
import sys
from pathlib import Path

if not __package__:  # python tools/<group>/<tool>.py: the repository root instead of this folder
    sys.path[0] = str(Path(__file__).resolve().parents[2])
from tools.project import SOURCE_LANGUAGE, published, site_languages  # noqa: E402

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>torch-notes</title>
{alternates}
<script>
  // The first preferred language with an edition, by primary subtag; else {fallback}.
  var editions = {editions};
  var wanted = navigator.languages || [navigator.language || ""];
  var target = {fallback_json};
  outer: for (var i = 0; i < wanted.length; i++) {{
    var primary = String(wanted[i]).toLowerCase().split("-")[0];
    for (var j = 0; j < editions.length; j++) {{
      if (editions[j].hreflang.toLowerCase().split("-")[0] === primary) {{ target = editions[j].code; break outer; }}
    }}
  }}
  window.location.replace(target + "/index.html");
</script>
</head>
<body>
{links}
</body>
</html>
"""


def redirect_page(languages: dict[str, dict]) -> str:
    codes = published(languages)
    fallback = "en" if "en" in codes else SOURCE_LANGUAGE
    editions = [{"code": code, "hreflang": languages[code]["hreflang"]} for code in codes]
    alternates = "\n".join(f'<link rel="alternate" hreflang="{languages[c]["hreflang"]}" href="{c}/index.html">'
                           for c in codes)
    links = "\n".join(f'<p lang="{languages[c]["hreflang"]}"><a href="{c}/index.html">torch-notes: '
                      f'{html.escape(languages[c]["label"])}</a></p>' for c in codes)
    return PAGE.format(alternates=alternates, editions=json.dumps(editions), fallback=fallback,
                       fallback_json=json.dumps(fallback), links=links)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    Path(sys.argv[1]).write_text(redirect_page(site_languages()), encoding="utf-8")
