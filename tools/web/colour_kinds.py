"""Which elements of a page the colour rules still have to read: one element of each *kind*.

axe's colour rules (color-contrast, link-in-text-block) judge an element by what the stylesheets
give it and what lies behind it: its colours, font, size and weight, decoration and borders, the
backgrounds and images of the ancestors that paint behind it and the opacity, filters and blending of
every ancestor, and for a link, whether it sits in a block of text and how it differs from that block.
Across a site of templated pages (the same sidebar, headings, code tokens and admonitions on every
page) most elements are alike in all of these. ``KINDS_SCRIPT`` gives every element the colour rules
may select its kind (a string of those computed styles, and of what decides whether a rule applies:
own text, a link's text, axe's own visibility test, an empty field), returns the page's kinds with the
rules that apply to each, and keeps the first element of each on the page as ``window.__colourKinds``.

A kind is settled, and its later elements skipped, only once axe has answered for its element under every
rule that applies to it: passed, violated, or given up for a reason the element alone holds (``KIND_REASONS``:
one character, only non-BMP characters, an empty field). An element that axe gave up on for any other reason
("incomplete": something not its ancestor drawn over or under it, an image behind it, a pseudo-element's size)
or did not select (disabled, inert, its text scrolled out of sight) settles nothing, and the next element of
its kind is read.

What this does not see: the layout, where it changes a verdict rather than stopping one. An element drawn
over another that is not its ancestor (a positioned box, a negative margin) gets another background than its
ancestors say, and axe looks at what is under the element on the screen; where axe can tell the colour of what
is under it, it judges and does not say "incomplete", so an element of the same kind elsewhere is skipped.
"""

import hashlib
import json
from collections.abc import Iterable
from typing import Protocol

from tools.web.browser import COLOUR_RULES, Chromium, load_axe

# Properties that change how an element's own text or its box looks to the colour rules (axe reads the text
# fill and stroke before the colour; font family, borders and outlines tell a link from its block).
OWN = ["color", "-webkit-text-fill-color", "-webkit-text-stroke-color", "-webkit-text-stroke-width", "font-family",
       "font-size", "font-weight", "font-style", "text-shadow", "text-decoration-line", "text-decoration-style",
       "text-decoration-color", "border-top-style", "border-top-width", "border-top-color", "border-bottom-style",
       "border-bottom-width", "border-bottom-color", "outline-style", "outline-width", "outline-color",
       "background-color", "background-image", "visibility", "display"]
# Properties of an element or ancestor that paint behind the text or change its colours.
PAINTS = ["background-color", "background-image", "opacity", "filter", "mix-blend-mode", "backdrop-filter"]
# Properties of any ancestor, up to the root, that change the colours of everything inside it.
TINTS = ["opacity", "filter", "mix-blend-mode"]

KINDS_SCRIPT = """(() => {
  const own = %(own)s, paints = %(paints)s, tints = %(tints)s;
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
  // The opacity, filters and blending of every ancestor up to the root, past the opaque one too: axe blends
  // the text's colour through each of them.
  const tinted = new Map();
  const tint = (el) => {
    if (!el || el.nodeType !== 1) return "";
    if (tinted.has(el)) return tinted.get(el);
    const s = style(el);
    const here = s.opacity !== "1" || s.filter !== "none" || s.mixBlendMode !== "normal" ? values(el, tints) : "";
    const above = tint(el.parentElement);
    const result = here && above ? here + ">" + above : here || above;
    tinted.set(el, result);
    return result;
  };
  // The block a link is read against: axe's own list of block displays (link-in-text-block).
  const blockDisplays = ["block", "list-item", "table", "flex", "grid", "inline-block"];
  const blockOf = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const d = style(p).display;
      if (blockDisplays.includes(d) || d.startsWith("table-")) return p;
    }
    return document.documentElement;
  };
  const ownText = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("")
    .replace(/\\s+/g, " ").trim();
  const text = axe.commons.text, dom = axe.commons.dom;
  // What of an element's text and box decides whether a rule reads it and whether axe can judge it: own text, and
  // whether any of it is left without punctuation and emoji (axe reads only such text), of one character, or only
  // characters axe calls non-BMP (emoji, maths letters: axe says "incomplete"), a link's text, axe's own test of
  // being on screen (axe does not select a hidden element, and passes a hidden field), a field's type and
  // whether it is empty.
  const realText = (words) => words !== "" && text.removeUnicode(words, {emoji: true, nonBmp: false, punctuations: true}) !== "";
  const onlyEmoji = (words) => text.hasUnicode(words, {nonBmp: true})
    && text.sanitize(text.removeUnicode(words, {nonBmp: true})) === "";
  const hints = (el, words, linkText, visible) => [words !== "", realText(words), words.length === 1, onlyEmoji(words),
    linkText, visible, fields.has(el.tagName) && text.sanitize(el.value || "") === ""].map(Number).join("")
    + (el.tagName === "INPUT" ? ":" + el.type : "");
  const controls = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON"]), fields = new Set(["INPUT", "SELECT", "TEXTAREA"]);
  // What the rules may select of each element (its text, whether it is on screen, whether a link sits in a block
  // of text: axe's own tests, which need axe's tree) is kept for the page's next survey, which reads only the
  // styles again; an element's facts are found again where the browser now draws it or hides it otherwise (a
  // theme may show or hide an element), and found for elements added since (search results).
  const known = window.__kindFacts || (window.__kindFacts = new WeakMap());
  const shown = (el) => el.checkVisibility({visibilityProperty: true, opacityProperty: true});
  const facts = [];
  let setUp = false;
  try {
    for (const el of document.querySelectorAll("body, body *")) {
      const link = el.matches("a[href], [role=link]");
      const words = ownText(el);
      if (!words && !link && !controls.has(el.tagName)) continue;
      let fact = known.get(el);
      if (!fact || fact.shown !== shown(el)) {
        if (!setUp) { axe.setup(document); setUp = true; }
        const visible = dom.isVisibleOnScreen(el);
        const linkText = link && text.sanitize(el.innerText) !== "";
        const inText = link && dom.isInTextBlock(el);
        // The rules that can give this element a verdict: the ones whose selection the kind decides.
        const rules = [];
        if (visible && (fields.has(el.tagName) || (realText(words) && !onlyEmoji(words)))) rules.push("color-contrast");
        if (visible && linkText && inText) rules.push("link-in-text-block");
        fact = {el, link, inText, rules, shown: shown(el), hints: hints(el, words, linkText, visible)};
        known.set(el, fact);
      }
      facts.push(fact);
    }
  } finally {
    if (setUp) axe.teardown();
  }
  const kinds = new Map();
  for (const {el, link, inText, rules, hints} of facts) {
    let kind = [el.tagName, values(el, own), hints, backdrop(el), tint(el)].join("#");
    if (link) {
      const block = blockOf(el);
      kind += "#link:" + pseudo(el) + ":" + inText + ":" + values(block, own) + ":" + backdrop(block);
    }
    if (!kinds.has(kind)) kinds.set(kind, {el, rules});
  }
  window.__colourKinds = [...kinds.values()].map((k) => k.el);
  return [...kinds].map(([kind, k]) => [kind, k.rules]);
})()""" % {"own": json.dumps(OWN), "paints": json.dumps(PAINTS), "tints": json.dumps(TINTS)}

# Why axe may give up on an element ("incomplete") for what the element alone holds (its own text, its text
# shadow, an empty field), so that every element of the kind gets the same answer. Any other reason settles
# nothing: something drawn over the element or under it that is not its ancestor, a pseudo-element's size, the
# viewport, and also an image, a gradient or a colour axe cannot read behind it, which may come from an element
# under it that is not its ancestor as well.
KIND_REASONS = ["nonBmp", "shortTextContent", "emptyValue", "complexTextShadows"]

# The colour rules on the elements of the kinds at these positions (and what they hold); back come axe's
# violations, one line each as wcag_violations writes them, and the positions whose element every rule of
# ``rules`` (a list per position) passed, failed, or gave up on for a reason of KIND_REASONS.
SETTLE_SCRIPT = """((positions, rules, kindReasons) => axe.run(positions.map((i) => window.__colourKinds[i]), {
    runOnly: {type: "rule", values: %(colour_rules)s}, resultTypes: ["passes", "violations", "incomplete"],
    elementRef: true, preload: false})
  .then((r) => {
    const answered = new Map();  // element: the rules that answered for it
    const answer = (node, rule) => answered.set(node.element, [...(answered.get(node.element) || []), rule]);
    for (const rule of [...r.passes, ...r.violations]) rule.nodes.forEach((node) => answer(node, rule.id));
    for (const rule of r.incomplete) {
      for (const node of rule.nodes) {
        const reasons = [...node.any, ...node.all, ...node.none].map((c) => c.data && c.data.messageKey);
        if (reasons.length && reasons.every((reason) => reason && kindReasons.includes(reason))) answer(node, rule.id);
      }
    }
    const settled = positions.filter((i, n) => rules[n].every((rule) =>
      (answered.get(window.__colourKinds[i]) || []).includes(rule)));
    const violations = r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length}x ${v.nodes[0].target.join(" ")}`);
    return [violations, settled];
  }))(%(positions)s, %(rules)s, %(reasons)s)"""


class Ledger(Protocol):
    """The kinds checked so far (hashed): where several processes check pages of one site, they share it."""

    def known(self) -> set[str]: ...

    def add(self, kinds: Iterable[str]) -> None: ...


def colour_violations_of_new_kinds(browser: Chromium, ledger: Ledger) -> list[str]:
    """axe's colour rules on one element of each kind of the page open in ``browser`` that ``ledger`` lacks;
    the kinds that got their verdicts (and those no rule can judge) are then added to it. Returns axe's
    violations, one line each."""
    load_axe(browser)  # KINDS_SCRIPT asks axe what is on screen and whether a link is in a block of text
    survey = browser.evaluate(KINDS_SCRIPT)
    kinds = [hashlib.sha1(kind.encode()).hexdigest() for kind, _ in survey]
    known = ledger.known()
    new = [position for position, kind in enumerate(kinds) if kind not in known]
    judgeable = [position for position in new if survey[position][1]]
    found, settled = [], [position for position in new if not survey[position][1]]
    if judgeable:
        violations, judged = browser.evaluate(SETTLE_SCRIPT % {
            "colour_rules": json.dumps(COLOUR_RULES), "positions": json.dumps(judgeable),
            "rules": json.dumps([survey[position][1] for position in judgeable]), "reasons": json.dumps(KIND_REASONS)})
        found, settled = violations, settled + judged
    ledger.add(kinds[position] for position in settled)
    return found
