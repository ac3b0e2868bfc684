"""Which elements of a page the colour rules still have to read: one element of each *kind*.

axe's colour rules (color-contrast, link-in-text-block) judge an element by what the stylesheets
give it and what lies behind it: its colour, size and weight, the backgrounds, images, opacity and
filters of the ancestors that paint behind it, and for a link, whether it sits in a block of text
and how it differs from that block. Two elements alike in all of these get the same verdict, so
across a site of templated pages (the same sidebar, headings, code tokens and admonitions on every
page) one element of each kind is enough. ``KINDS_SCRIPT`` gives every element the colour rules
select its kind (a string of those computed styles), returns the page's kinds, and keeps the first
element of each on the page, in the same order, as ``window.__colourKinds``.

What this does not see: the layout. An element drawn over another one that is not its ancestor (a
positioned box, a negative margin) gets another background than its ancestors say; axe looks at what
is under the element on the screen. Those elements are of the page's chrome (header, drawers), which
every page shares.
"""

import hashlib
import json
from collections.abc import Iterable
from typing import Protocol

from tools.web.browser import COLOUR_RULES, Chromium, load_axe, wcag_violations

# Properties that change how an element's own text or its box looks to the colour rules.
OWN = ["color", "font-size", "font-weight", "font-style", "text-shadow", "text-decoration-line",
       "text-decoration-style", "text-decoration-color", "border-top-style", "border-top-color",
       "border-bottom-style", "border-bottom-color", "outline-style", "outline-color", "background-color",
       "background-image", "visibility", "display", "-webkit-text-stroke-width"]
# Properties of an element or ancestor that paint behind the text or change its colours.
PAINTS = ["background-color", "background-image", "opacity", "filter", "mix-blend-mode", "backdrop-filter"]

KINDS_SCRIPT = """(() => {
  const own = %(own)s, paints = %(paints)s;
  const styles = new Map();
  const style = (el) => { if (!styles.has(el)) styles.set(el, getComputedStyle(el)); return styles.get(el); };
  const values = (el, names) => { const s = style(el); return names.map((n) => s.getPropertyValue(n)).join("|"); };
  const pseudo = (el) => ["::before", "::after"].map((p) => {
    const s = getComputedStyle(el, p);
    return s.content === "none" ? "" : [s.content, s.color, s.backgroundColor, s.position].join("|");
  }).join("/");
  // What paints behind an element: every ancestor that draws or tints something, up to the first opaque one.
  const behind = new Map();
  const backdrop = (el) => {
    if (!el || el.nodeType !== 1) return "";
    if (behind.has(el)) return behind.get(el);
    const s = style(el);
    const drawsSomething = s.backgroundColor !== "rgba(0, 0, 0, 0)" || s.backgroundImage !== "none"
      || s.opacity !== "1" || s.filter !== "none" || s.mixBlendMode !== "normal" || s.backdropFilter !== "none"
      || pseudo(el) !== "/";
    const opaque = /^rgb\\(/.test(s.backgroundColor) && s.backgroundImage === "none";
    // An ancestor that draws nothing is left out, so that the depth of the nesting makes no kind of its own.
    const here = drawsSomething ? values(el, paints) + "~" + pseudo(el) : "";
    const below = opaque ? "" : backdrop(el.parentElement);
    const result = here && below ? here + ">" + below : here || below;
    behind.set(el, result);
    return result;
  };
  const blockOf = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const d = style(p).display;
      if (!d.startsWith("inline") || d === "inline-block") return p;
    }
    return document.documentElement;
  };
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("")
    .replace(/\\s+/g, " ").trim();
  // What of an element's text and box makes axe give up or pass it whatever its colours: text of one character
  // or only emoji (axe: "incomplete"), an element not drawn (axe: hidden, so it passes).
  const text = axe.commons.text;
  const verdictHints = (el, words) => [words.length === 1,
    text.hasUnicode(words, {nonBmp: true}) && text.sanitize(text.removeUnicode(words, {nonBmp: true})) === "",
    el.checkVisibility({opacityProperty: true, visibilityProperty: true})].map(Number).join("");
  const controls = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON"]);
  const kinds = new Map();
  // Whether a link sits in a block of text (axe's own test, which needs axe's tree): it does not depend on the
  // theme, so it is kept for the page's next run.
  const inTextBlock = window.__inTextBlock || (window.__inTextBlock = new Map());
  let setUp = false;
  const inText = (el) => {
    if (!inTextBlock.has(el)) {
      if (!setUp) { axe.setup(document); setUp = true; }
      inTextBlock.set(el, axe.commons.dom.isInTextBlock(el));
    }
    return inTextBlock.get(el);
  };
  try {
    for (const el of document.body.querySelectorAll("*")) {
      const link = el.matches("a[href], [role=link]");
      const words = ownText(el);
      if (!words && !link && !controls.has(el.tagName)) continue;
      let kind = [el.tagName, values(el, own), verdictHints(el, words), backdrop(el)].join("#");
      if (link) {
        const block = blockOf(el);
        kind += "#link:" + pseudo(el) + ":" + inText(el) + ":" + values(block, own) + ":" + backdrop(block);
      }
      if (!kinds.has(kind)) kinds.set(kind, el);
    }
  } finally {
    if (setUp) axe.teardown();
  }
  window.__colourKinds = [...kinds.values()];
  return [...kinds.keys()];
})()""" % {"own": json.dumps(OWN), "paints": json.dumps(PAINTS)}
# The elements of the kinds at these positions of what KINDS_SCRIPT returned: the context of an axe run.
KIND_ELEMENTS = "%s.map((i) => window.__colourKinds[i])"


class Ledger(Protocol):
    """The kinds checked so far (hashed): where several processes check pages of one site, they share it."""

    def known(self) -> set[str]: ...

    def add(self, kinds: Iterable[str]) -> None: ...


def colour_violations_of_new_kinds(browser: Chromium, ledger: Ledger) -> list[str]:
    """axe's colour rules on one element of each kind of the page open in ``browser`` that ``ledger`` lacks;
    those kinds are then added to it. Returns axe's violations, one line each."""
    load_axe(browser)  # KINDS_SCRIPT asks axe whether a link is in a block of text
    kinds = [hashlib.sha1(kind.encode()).hexdigest() for kind in browser.evaluate(KINDS_SCRIPT)]
    known = ledger.known()
    new = [position for position, kind in enumerate(kinds) if kind not in known]
    found = wcag_violations(browser, COLOUR_RULES, context=KIND_ELEMENTS % json.dumps(new)) if new else []
    ledger.add(kinds[position] for position in new)
    return found
