// KaTeX at build time for docs/_ext/maths/katex_math.py: one process per Sphinx process.
//
// Reads one JSON request per line on stdin, {"tex": "...", "display": true|false},
// and answers each on one line of stdout, in order:
//   {"html": "<span class=\"katex\">...</span>", "warnings": [...]}   rendered
//   {"error": "KaTeX parse error: ...", "warnings": [...]}             TeX KaTeX cannot read
// "html" is KaTeX's HTML and MathML ("htmlAndMathml"): the HTML is what the site
// shows, the MathML inside it is what screen readers read and what the books get.
// "warnings" holds what KaTeX would only have said on the console (strict-mode
// remarks, characters without metrics), so the build can show them with a location.
import { createInterface } from "node:readline";
import katex from "katex";

let warnings = [];
console.warn = (...args) => warnings.push(args.join(" "));

function render({ tex, display }) {
  warnings = [];
  try {
    const html = katex.renderToString(tex, {
      displayMode: Boolean(display),
      output: "htmlAndMathml",
      throwOnError: true,
      // Everything KaTeX would let pass with a remark is reported, and rendered as TeX would.
      strict: (code, message) => { warnings.push(`${message} [${code}]`); return "ignore"; },
      trust: false,
    });
    return { html, warnings };
  } catch (error) {
    return { error: String(error.message || error), warnings };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim()) process.stdout.write(JSON.stringify(render(JSON.parse(line))) + "\n");
}
