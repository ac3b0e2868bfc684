/* torch-notes: ranked search over Sphinx's own index, in both languages.
 *
 * Sphinx's searchtools.js lists only the pages that contain every word of the
 * query, so one question word a page does not contain (如何, 区别, "how")
 * empties the list. This file replaces Search._performSearch with a ranking
 * over the same index (searchindex.js) and the same query splitter:
 *
 *  - every query word is a "concept"; question and function words of both
 *    languages (STOPWORDS) are dropped, so they never decide what is found;
 *  - a concept also matches its glossary forms (search-synonyms.js, written
 *    from the glossary and tools/terminology at build time): its recorded
 *    variants and its term in the other language, so 批维度 finds 批量维度 and
 *    "learning rate" on the Chinese site finds 学习率; and the learners' forms
 *    of tools/terminology/search-synonyms.tsv (乘以 0.1 -> StepLR, 结果不一样 ->
 *    reproducibility), where a phrase the index cannot hold whole is looked
 *    for as its other forms, not as the fragment of it the index holds;
 *  - a page scores, per concept, the best of: a title word (section titles
 *    included), an API name (the py domain's objects), a body word, a partial
 *    match; weighted by how rare the concept is (idf) and more for a glossary
 *    term (a body word counts more on a page that uses it often: the index
 *    marks those pages, docs/_ext/search/search_term_weight.py), plus a bonus where
 *    the page's own title contains the concept, and
 *    the sum is scaled
 *    by the share of concepts the page matches, so pages that match more of
 *    the query come first and a page matching one word still appears;
 *  - typos (issue 28): a Latin query word that the index does not hold at all
 *    (CrossEntropLoss, retian_graph) matches the index words one edit away
 *    (from 5 letters; two from 8; a swap of neighbours is one edit), and API
 *    names, weighted below an exact match (WEIGHT.typo); a word the index holds
 *    is never matched this way, so a query typed right ranks as it did;
 *  - a pasted error or warning message: a page whose examples print it
 *    (search-messages.js) gets a bonus for the longest run of the query's
 *    words that the message holds in that order (at least PHRASE words;
 *    numbers match numbers), and counts as matching the whole query, so the
 *    page that quotes the message outranks pages that share a word of it;
 *    of the pages that print it, those about it come first (WEIGHT.about):
 *    a page whose prose quotes the message too (search_excerpts.py marks the
 *    message), or whose title or API entry the query names (view size is not
 *    compatible... names view-reshape; a word of at most NAMING pages);
 *  - the page the glossary names for a term (search-synonyms.js) gets a bonus
 *    when the query asks for that term;
 *  - the glossary and the API list, which mention every term, count half;
 *  - a query that is an API entry's whole dotted name (torch.flatten) puts
 *    the page that documents it first (WEIGHT.fullName).
 *
 * Operators and keywords: a query made only of short and function words, or
 * one with an operator in it (is 和 ==, "is vs =="), would have nothing left
 * to look for, and Sphinx's index holds neither symbols nor stop words. When
 * the query has an operator, or nothing but Python keywords (is not), each
 * operator and each Python keyword of the query (is, in, not, and, ...) is a
 * literal concept: it matches page and section titles (the index's titles and
 * alltitles) and the excerpt texts, as a whole token.
 *
 * A full dotted name that has no entry (torch.jit.script, nn.Foo): its
 * words are on every page (torch), so the ranking found a hundred pages that
 * have nothing to do with it. Such a query is answered with what is closest
 * instead, at most ten pages: the entries with the same last name
 * (torch.scatter for torch.nn.parallel.scatter), the few entries of the same
 * module (torch.nn.parallel.*), the pages that mention every part of the name
 * after the package; and the summary says that there is no entry for it
 * (the template's TORCH_NOTES_SEARCH_TEXT, in the page's language). A dotted
 * name that has an entry, under its full name or a short one (torch.topk,
 * nn.LayerNorm, F.relu), or a module with entries (torch.optim), is ranked as
 * any query.
 *
 * The excerpt under each result comes from search-excerpts.js, written with
 * the index (docs/_ext/search/search_excerpts.py): the prose of the page's section
 * that matches most of the query, with the matched words highlighted, and the
 * result links to that section. No result page is fetched (a query used to
 * download every matching page), so excerpts work from file:// too.
 */
"use strict";

const TorchNotesSearch = (() => {
  const STOPWORDS = new Set([
    // Chinese question and function words (the index has no single characters anyway)
    "的", "了", "和", "与", "及", "或", "是", "在", "有", "吗", "呢", "吧", "把", "被", "给", "用", "让", "对",
    "如何", "怎么", "怎样", "怎么样", "什么", "为什么", "为何", "哪些", "哪个", "区别", "不同", "差别", "作用",
    "用法", "使用", "方法", "一个", "一下", "可以", "能", "需要", "时候", "问题", "如果", "还是", "以及",
    "几个", "一些", "某些", "这个", "那个", "哪里", "每个", "所有",
    // English question and function words
    "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "between", "but", "by", "can",
    "difference", "do", "does", "each", "every", "few", "just", "many", "much", "only", "other", "some", "very",
    "for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "my", "of", "on", "or", "should",
    "than", "that", "the", "their", "then", "there", "these", "they", "this", "to", "use", "using", "vs",
    "was", "what", "when", "where", "which", "why", "will", "with", "work", "works", "you",
  ]);
  const WEIGHT = { pageTitle: 15, title: 15, object: 20, body: 5, partialTitle: 6, partialBody: 2, glossary: 1.5,
                   termPage: 15, typo: [1, 0.5, 0.3], phrase: 12, fullName: 10, frequent: 8,
                   about: 48 };
  const PHRASE = 4; // words of a pasted message in a row that make a phrase match
  const QUOTED = "!"; // before a message the page quotes in its prose (search_excerpts.QUOTED)
  const NAMING = 3; // a word in more pages' titles and API names than this (tensor, nn) names no page
  // Python keywords that are also stop words: literal concepts in an operator query (see above).
  const KEYWORDS = new Set(["and", "as", "for", "from", "if", "in", "is", "not", "or", "with"]);
  const OPERATOR = /[=!<>+*\/%@&|^~:-]+/gu;
  const WORDLIKE = /[\p{Letter}\p{Number}_]/u;
  const DISCOUNTED = new Set(["glossary", "api", "genindex", "search", "translation-status"]);
  const HAN = /\p{Script=Han}/u;

  const stemmer = typeof Stemmer !== "undefined" ? new Stemmer() : { stemWord: (w) => w };
  const normal = (word) => (HAN.test(word) ? word : stemmer.stemWord(word.toLowerCase()));
  // A page list of the index; ~n marks a page that uses the word often (docs/_ext/search/search_term_weight.py).
  const marks = (entry) => (entry === undefined ? [] : Array.isArray(entry) ? entry : [entry]);
  const files = (entry) => marks(entry).map((doc) => (doc < 0 ? ~doc : doc));

  /* Index words of a form: 'learning rate' -> [learn, rate]; 批量维度 -> [批量, 维度]. */
  const formWords = (form) => {
    const all = splitQuery(form);
    const words = all.filter((w) => !STOPWORDS.has(w.toLowerCase()));
    // A learner's phrase the index does not hold as such is no alternative when what is left of it is a
    // fragment: "how many parameters" is not "parameters", 每一轮都乘 is not 每一 (the splitter drops the
    // characters that start no index word). Kept: at least two words, or every word, or three quarters of the
    // Han characters.
    const han = [...form].filter((c) => HAN.test(c)).length;
    const kept = words.join("").length;
    if (han ? kept < 0.75 * han : all.length > 1 && words.length < 2) return [];
    return words.map(normal);
  };

  /* Glossary groups containing a form, from search-synonyms.js. */
  const groupsByForm = (() => {
    const map = new Map();
    (window.TORCH_NOTES_SYNONYMS || []).forEach((group) =>
      group.forEach((form) => {
        const key = form.toLowerCase();
        if (!map.has(key)) map.set(key, []);
        map.get(key).push(group);
      }),
    );
    return map;
  })();

  const termPages = window.TORCH_NOTES_TERM_PAGES || {};
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  /* Operators typed as such (==, +=, @, //); a lone hyphen or colon inside a word is not one. */
  const operators = (query) =>
    [...query.matchAll(OPERATOR)]
      .filter((m) => m[0].length > 1 || !(/[-:]/.test(m[0]) && WORDLIKE.test(query[m.index - 1] || "")
                                          && WORDLIKE.test(query[m.index + 1] || "")))
      .map((m) => m[0]);

  /* A literal concept's token, as a whole token: == not inside ===, is not inside this. */
  const literalPattern = (token) => {
    const edge = WORDLIKE.test(token) ? "\\p{Letter}\\p{Number}_" : "=!<>+*\\/%@&|^~:\\-";
    return new RegExp(`(?<![${edge}])${escape(token)}(?![${edge}])`, "iu");
  };

  /* The query as concepts: each a list of alternatives, each alternative a list of index words. */
  let lastQuery = null;
  let lastConcepts = null;
  const concepts = (query) => {
    if (query === lastQuery) return lastConcepts;
    lastConcepts = conceptsOf(query);
    lastQuery = query;
    return lastConcepts;
  };
  const conceptsOf = (query) => {
    let rest = ` ${query.toLowerCase()} `;
    const found = [];
    // Multi-word and Chinese glossary forms first, longest first: "learning rate", 批量维度.
    [...groupsByForm.keys()]
      .filter((form) => form.length > 1 && (form.includes(" ") || HAN.test(form)))
      .sort((a, b) => b.length - a.length)
      .forEach((form) => {
        const at = HAN.test(form) ? rest.indexOf(form) : rest.search(new RegExp(`\\b${form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`));
        if (at < 0) return;
        rest = rest.slice(0, at) + " ".repeat(form.length) + rest.slice(at + form.length);
        const forms = groupsByForm.get(form).flat();
        const alternatives = forms.map(formWords).filter((w) => w.length);
        if (alternatives.length) found.push({ text: form, forms, alternatives, glossary: true });
      });
    splitQuery(rest.trim()).forEach((word) => {
      const lower = word.toLowerCase();
      if (STOPWORDS.has(lower) || /^\d+$/.test(word)) return;
      // A lone Chinese character (上, 时) is a function word unless the glossary has it (层).
      if (HAN.test(word) && word.length === 1 && !groupsByForm.has(lower)) return;
      const alternatives = [[normal(word)]];
      const forms = [word, ...(groupsByForm.get(lower) || []).flat()];
      forms.slice(1).forEach((form) => {
        const words = formWords(form);
        if (words.length) alternatives.push(words);
      });
      found.push({ text: word, forms, alternatives, glossary: groupsByForm.has(lower) });
    });
    // Operators, and the Python keywords of the query when it has an operator or nothing but keywords
    // (is not, not in): then those are looked for as they are written.
    const symbols = operators(query);
    if (!symbols.length && !found.every((concept) => KEYWORDS.has(concept.text.toLowerCase()))) return found;
    const keywords = splitQuery(query).map((w) => w.toLowerCase()).filter((w) => KEYWORDS.has(w));
    const literals = [...new Set([...keywords, ...symbols])].map((token) =>
      ({ text: token, forms: [token], alternatives: [], glossary: false, literal: literalPattern(token) }));
    return [...found.filter((concept) => !KEYWORDS.has(concept.text.toLowerCase())), ...literals];
  };

  /* {doc: score} of a literal concept: page title, section titles, excerpt texts. */
  const literalScores = (index, pattern) => {
    const scores = new Map();
    const add = (doc, weight) => scores.set(doc, Math.max(scores.get(doc) || 0, weight));
    index.titles.forEach((title, doc) => {
      if (pattern.test(title)) add(doc, WEIGHT.title + WEIGHT.pageTitle);
    });
    Object.entries(index.alltitles).forEach(([title, places]) => {
      if (pattern.test(title)) places.forEach(([doc]) => add(doc, WEIGHT.title));
    });
    const docs = new Map(index.docnames.map((name, doc) => [name, doc]));
    Object.entries(window.TORCH_NOTES_EXCERPTS || {}).forEach(([name, sections]) => {
      if (docs.has(name) && sections.some(([, text]) => pattern.test(text))) add(docs.get(name), WEIGHT.body);
    });
    return scores;
  };

  /* {doc: score} of one index word: exact title and body words, then partial ones. */
  const wordScores = (index, word, cache) => {
    if (cache.has(word)) return cache.get(word);
    const scores = new Map();
    const add = (entry, weight) =>
      files(entry).forEach((doc) => scores.set(doc, Math.max(scores.get(doc) || 0, weight)));
    add(index.titleterms[word], WEIGHT.title);
    // The pages that use the word often come first, marked, most uses first: a little more for each place.
    const listed = marks(index.terms[word]);
    const often = listed.filter((doc) => doc < 0).length;
    listed.forEach((doc, place) =>
      add(doc < 0 ? ~doc : doc, doc < 0 ? WEIGHT.frequent + (often - place) / often : WEIGHT.body));
    if (word.length > 2 || (HAN.test(word) && word.length > 1)) {
      for (const term in index.titleterms)
        if (term !== word && term.includes(word)) add(index.titleterms[term], WEIGHT.partialTitle);
      for (const term in index.terms)
        if (term !== word && term.includes(word)) add(index.terms[term], WEIGHT.partialBody);
    }
    cache.set(word, scores);
    return scores;
  };

  /* Typos: the index words within the edit distance a word's length allows (transposed letters count one):
   * one edit from 5 letters, two from 8. Only for a Latin word the index does not hold at all, so a query
   * typed right finds what it found before. [[term, distance], ...], nearest first. */
  const distance = (a, b, limit) => {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let before = null;
    let previous = [...Array(b.length + 1).keys()];
    for (let i = 1; i <= a.length; i += 1) {
      const row = [i];
      let smallest = i;
      for (let j = 1; j <= b.length; j += 1) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          row[j] = Math.min(row[j], before[j - 2] + 1);
        smallest = Math.min(smallest, row[j]);
      }
      if (smallest > limit) return limit + 1;
      [before, previous] = [previous, row];
    }
    return previous[b.length];
  };
  let indexWords = null;
  const options = { typos: true }; // the tests turn typo tolerance off to compare
  const nearWords = (index, word) => {
    if (!options.typos || HAN.test(word) || !/[a-z]/.test(word) || word.length < 5
        || Object.hasOwn(index.terms, word) || Object.hasOwn(index.titleterms, word)) return [];
    if (!indexWords)
      indexWords = [...new Set([...Object.keys(index.terms), ...Object.keys(index.titleterms)])]
        .filter((term) => /[a-z]/.test(term) && !HAN.test(term));
    const limit = word.length >= 8 ? 2 : 1;
    return indexWords.map((term) => [term, distance(word, term, limit)])
      .filter(([, d]) => d <= limit).sort((a, b) => a[1] - b[1]);
  };

  /* Pasted messages: the longest run of the query's words, in order, that a message printed by a page's
   * examples contains (search-messages.js); a number matches any number (the sizes in a message differ from
   * run to run). {doc: [words in a row, about]}, for runs of at least PHRASE words; about: the page quotes
   * that message in its prose, or the query names the page. */
  const messageWords = (text) =>
    (text.toLowerCase().match(/[\p{Letter}\p{Number}_]+/gu) || []).map((w) => (/^\d+$/.test(w) ? "#" : w));
  let messages = null;
  const phraseRuns = (index, query) => {
    const runs = new Map();
    const asked = messageWords(query);
    if (asked.length < PHRASE) return runs;
    if (!messages)
      messages = Object.entries(window.TORCH_NOTES_MESSAGES || {}).map(([name, texts]) =>
        [index.docnames.indexOf(name), texts.map((text) => [messageWords(text), text.startsWith(QUOTED)])]);
    messages.forEach(([doc, texts]) => {
      if (doc < 0) return;
      texts.forEach(([words, quoted]) => {
        let previous = new Array(words.length + 1).fill(0);
        let longest = 0;
        asked.forEach((word) => {
          const row = [0];
          words.forEach((other, j) => {
            row[j + 1] = word === other ? previous[j] + 1 : 0;
            longest = Math.max(longest, row[j + 1]);
          });
          previous = row;
        });
        if (longest < PHRASE) return;
        const [run, about] = runs.get(doc) || [0, false];
        if (longest >= run) runs.set(doc, [longest, (longest === run && about) || quoted]);
      });
    });
    runs.forEach((found, doc) => { found[1] = found[1] || namesPage(index, doc, asked); });
    return runs;
  };

  /* Does a query word name the page: a word of its title, or the last part of one of its API entries, that is
   * in at most NAMING pages' titles and API names? */
  let pageNames = null;
  const namesPage = (index, doc, words) => {
    if (!pageNames) {
      // retain_graph names the page for "graph" too (not one_hot for "one")
      const words = (text) => messageWords(text).flatMap((word) => [word, ...word.split("_").filter((w) => w.length > 3)]);
      pageNames = index.titles.map((title) => new Set(words(title)));
      entries(index).forEach(([full, page]) => words(full.split(".").pop()).forEach((w) => pageNames[page].add(w)));
      const pages = new Map();
      pageNames.forEach((names) => names.forEach((name) => pages.set(name, (pages.get(name) || 0) + 1)));
      pageNames = pageNames.map((names) => new Set([...names].filter((name) => pages.get(name) <= NAMING)));
    }
    return words.some((word) => word.length > 2 && !STOPWORDS.has(word) && pageNames[doc].has(word));
  };

  /* {doc: score} of API names: a query word equal to an object's name or its last dotted part, or a typo
   * away from it (near: {index word: weight}). */
  const objectScores = (index, query, near) => {
    const scores = new Map();
    const words = new Set(query.toLowerCase().split(/[^\w.]+/).filter((w) => w.length > 1));
    for (const prefix in index.objects)
      index.objects[prefix].forEach((match) => {
        const full = (prefix ? prefix + "." : "") + match[4];
        const last = match[4].split(".").pop().toLowerCase();
        // The whole dotted name (torch.flatten) names one entry: its page first. The last part alone
        // (flatten) may name several (torch.flatten, nn.Flatten). A builtin's name (range, next, id) is a
        // whole name only as the whole query: in "index out of range in self" it is a word.
        const whole = words.has(full.toLowerCase()) && (full.includes(".") || words.size === 1);
        const weight = whole ? WEIGHT.fullName : words.has(last) ? 1 : near.get(last) || 0;
        if (weight) scores.set(match[0], Math.max(scores.get(match[0]) || 0, WEIGHT.object * weight));
      });
    return scores;
  };

  /* A query that is one dotted name of the library, written in full or with the usual short module names. */
  const DOTTED = /^(torch|torchvision|nn|F)((?:\.[A-Za-z_]\w*)+)(?:\(\))?$/;
  const SHORT = { nn: "torch.nn", F: "torch.nn.functional" };
  const CLOSEST = 10; // pages offered at most
  const SIBLINGS = 5; // a module with more entries than this says nothing about the name

  /* [full name, doc] of every API entry of the index. */
  let entryList = null;
  const entries = (index) => {
    if (!entryList) {
      entryList = [];
      for (const prefix in index.objects)
        index.objects[prefix].forEach((match) => entryList.push([(prefix ? prefix + "." : "") + match[4], match[0]]));
    }
    return entryList;
  };

  /* For a dotted name without an entry: {name, results} (results ranked as rank() ranks); otherwise null. */
  const noEntry = (query) => {
    const written = DOTTED.exec(query.trim());
    if (!written) return null;
    const index = Search._index;
    const name = (SHORT[written[1]] || written[1]) + written[2];
    const all = entries(index);
    const lower = name.toLowerCase();
    // An entry of that name, or a module with entries (torch.optim): ranked as any query.
    if (all.some(([full]) => full.toLowerCase() === lower || full.toLowerCase().startsWith(lower + "."))) return null;
    const parts = name.split(".");
    const last = parts[parts.length - 1].toLowerCase();
    const module = parts.slice(0, -1).join(".").toLowerCase() + ".";
    const scores = new Map();
    const add = (doc, score) => scores.set(doc, Math.max(scores.get(doc) || 0, score));
    all.forEach(([full, doc]) => {
      if (full.toLowerCase().split(".").pop() === last) add(doc, 3);
    });
    const siblings = parts.length > 2 ? all.filter(([full]) => full.toLowerCase().startsWith(module)) : [];
    if (siblings.length <= SIBLINGS) siblings.forEach(([, doc]) => add(doc, 2));
    const mentions = parts.slice(1).map((part) => {
      const word = normal(part);
      return new Set([...files(index.terms[word]), ...files(index.titleterms[word])]);
    });
    [...mentions[0]].filter((doc) => mentions.every((docs) => docs.has(doc))).forEach((doc) => add(doc, 1));
    const results = [...scores]
      .filter(([doc]) => !DISCOUNTED.has(index.docnames[doc]) && index.docnames[doc] !== "index") // lists of everything
      .sort((a, b) => b[1] - a[1] || (index.titles[a[0]] < index.titles[b[0]] ? -1 : 1))
      .slice(0, CLOSEST)
      .map(([doc, score]) => [index.docnames[doc], index.titles[doc], "", null, score, index.filenames[doc],
                              SearchResultKind.text]);
    return { name, results: results.reverse() }; // searchtools.js shows the results from the end of the list
  };

  const rank = (query) => {
    const missing = noEntry(query);
    if (missing) return missing.results;
    const index = Search._index;
    const total = index.docnames.length;
    const cache = new Map();
    const wanted = concepts(query);
    const pageScores = new Map();
    const matched = new Map();
    const docs = new Map(index.docnames.map((name, doc) => [name, doc]));
    const near = new Map(); // index word a typo away from a query word: its weight
    wanted.forEach((concept) => {
      if (concept.literal) {
        const scores = literalScores(index, concept.literal);
        const idf = Math.log(1 + total / Math.max(1, scores.size));
        scores.forEach((score, doc) => {
          pageScores.set(doc, (pageScores.get(doc) || 0) + score * idf);
          matched.set(doc, (matched.get(doc) || 0) + 1);
        });
        return;
      }
      const best = new Map(); // doc -> best alternative score
      concept.alternatives.forEach((words) => {
        const perWord = words.map((w) => wordScores(index, w, cache));
        const docs = [...perWord[0].keys()].filter((d) => perWord.every((s) => s.has(d)));
        docs.forEach((doc) => {
          const score = Math.min(...perWord.map((s) => s.get(doc)));
          best.set(doc, Math.max(best.get(doc) || 0, score));
        });
      });
      // A word the index does not have: the index words a typo away, weighted below an exact match.
      const typos = new Map();
      if (!best.size && concept.alternatives.length === 1 && concept.alternatives[0].length === 1)
        nearWords(index, concept.alternatives[0][0]).forEach(([term, edits]) => {
          const add = (entry, weight) => files(entry).forEach((doc) =>
            best.set(doc, Math.max(best.get(doc) || 0, weight * WEIGHT.typo[edits])));
          add(index.titleterms[term], WEIGHT.title);
          add(index.terms[term], WEIGHT.body);
          typos.set(term, Math.max(typos.get(term) || 0, WEIGHT.typo[edits]));
          near.set(term, Math.max(near.get(term) || 0, WEIGHT.typo[edits]));
        });
      // The page the glossary names for the term, found or not by its words.
      const page = concept.glossary && concept.forms.map((f) => termPages[f.toLowerCase()]).find((p) => p);
      if (page && docs.has(page)) {
        const doc = docs.get(page);
        best.set(doc, (best.get(doc) || 0) + WEIGHT.termPage);
      }
      const idf = Math.log(1 + total / Math.max(1, best.size)) * (concept.glossary ? WEIGHT.glossary : 1);
      const forms = [concept.text, ...concept.alternatives.map((words) => words.join(" "))];
      best.forEach((score, doc) => {
        const title = index.titles[doc].toLowerCase();
        const inTitle = forms.some((form) => form.length > 1 && title.includes(form)) ? 1
          : Math.max(0, ...[...typos].filter(([term]) => title.includes(term)).map(([, weight]) => weight));
        pageScores.set(doc, (pageScores.get(doc) || 0) + (score + inTitle * WEIGHT.pageTitle) * idf);
        matched.set(doc, (matched.get(doc) || 0) + 1);
      });
    });
    objectScores(index, query, near).forEach((score, doc) => {
      pageScores.set(doc, (pageScores.get(doc) || 0) + score);
      matched.set(doc, Math.max(matched.get(doc) || 0, 1));
    });
    // A page that prints the pasted message: its words in a row count, and the page covers the query.
    phraseRuns(index, query).forEach(([run, about], doc) => {
      pageScores.set(doc, (pageScores.get(doc) || 0) + WEIGHT.phrase * run + (about ? WEIGHT.about : 0));
      matched.set(doc, Math.max(matched.get(doc) || 0, wanted.length));
    });
    const results = [];
    pageScores.forEach((score, doc) => {
      const coverage = matched.get(doc) / Math.max(1, wanted.length);
      let final = score * (0.5 + coverage);
      if (DISCOUNTED.has(index.docnames[doc])) final *= 0.5;
      results.push([index.docnames[doc], index.titles[doc], "", null, Math.round(final * 100) / 100,
                    index.filenames[doc], SearchResultKind.text]);
    });
    // searchtools.js shows the results from the end of the list.
    results.sort((a, b) => a[4] - b[4] || (a[1] < b[1] ? 1 : -1));
    return results;
  };

  /* The section titles of the index, by page and anchor ("" for the page itself). */
  let sectionTitles = null;
  const titleOf = (index, doc, anchor) => {
    if (!sectionTitles) {
      sectionTitles = new Map();
      Object.entries(index.alltitles).forEach(([title, places]) =>
        places.forEach(([d, a]) => sectionTitles.set(`${d}#${a || ""}`, title)));
    }
    return sectionTitles.get(`${doc}#${anchor}`) || (anchor ? "" : index.titles[doc]);
  };

  /* [anchor, text] of the page's section that matches the most concepts of the query (the first on a tie). */
  const bestSection = (docName, query) => {
    const index = Search._index;
    const pagePrefix = docName.replace(/\//g, "-");  // search_excerpts.short_anchor took it off
    const sections = ((window.TORCH_NOTES_EXCERPTS || {})[docName] || [])
      .map(([anchor, text]) => [anchor.startsWith("-") ? pagePrefix + anchor : anchor, text]);
    const doc = index.docnames.indexOf(docName);
    const tests = concepts(query).map((concept) => {
      if (concept.literal) return (text) => concept.literal.test(text);
      const needles = [...concept.forms, ...concept.alternatives.flat()].map((f) => f.toLowerCase()).filter((f) => f);
      return (text) => needles.some((needle) => text.includes(needle));
    });
    let best = null;
    let bestScore = -1;
    sections.forEach(([anchor, text]) => {
      const haystack = `${titleOf(index, doc, anchor)} ${text}`.toLowerCase();
      const score = tests.filter((test) => test(haystack)).length;
      if (score > bestScore) [best, bestScore] = [[anchor, text], score];
    });
    return best && bestScore > 0 ? best : sections[0] || null;
  };

  /* Put the excerpt under a result Sphinx has just listed, and link the result to that section. */
  const addExcerpt = (item, query, highlightTerms) => {
    const link = item.querySelector("a");
    if (!link || item.querySelector("p.context")) return;
    const suffix = DOCUMENTATION_OPTIONS.LINK_SUFFIX;
    let docName = link.getAttribute("href").split("#")[0];
    if (suffix && docName.endsWith(suffix)) docName = docName.slice(0, -suffix.length);
    const section = bestSection(docName, query);
    if (!section) return;
    const [anchor, text] = section;
    if (anchor) link.setAttribute("href", `${link.getAttribute("href").split("#")[0]}#${anchor}`);
    const excerpt = item.appendChild(document.createElement("p"));
    excerpt.classList.add("context");
    excerpt.textContent = text;
    if (typeof SPHINX_HIGHLIGHT_ENABLED !== "undefined" && SPHINX_HIGHLIGHT_ENABLED)
      highlightTerms.forEach((term) => _highlightText(item, term, "highlighted"));
  };

  /* What the summary says of a dotted name without an entry, in the page's language (search.html). */
  const noEntrySummary = (name, found) => {
    const text = window.TORCH_NOTES_SEARCH_TEXT || {};
    return ((found ? text.closest : text.nothingClose) || "").replace("{name}", name);
  };

  return { rank, concepts, bestSection, addExcerpt, noEntry, noEntrySummary, STOPWORDS, WEIGHT, options };
})();

// Highlight every form that matched: 广播 on the English site
// finds "broadcasting", so "broadcasting" is what the excerpt marks.
const _sphinxParseQuery = Search._parseQuery;
Search._parseQuery = (query) => {
  const [raw, searchTerms, excludedTerms, highlightTerms, objectTerms] = _sphinxParseQuery(query);
  TorchNotesSearch.concepts(query).forEach((concept) =>
    concept.forms.forEach((form) => {
      // A keyword looked for as written (is) would be marked inside every word that contains it (this).
      if (!(concept.literal && /^\w+$/.test(form))) highlightTerms.add(form.toLowerCase());
      searchTerms.add(form.toLowerCase());
    }),
  );
  return [raw, searchTerms, excludedTerms, highlightTerms, objectTerms];
};
Search._performSearch = (query) => TorchNotesSearch.rank(query);

// Excerpts from search-excerpts.js instead of fetching every result page.
DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
// Search.query runs once the index is there, and lists the results into Search.output.
const _sphinxQuery = Search.query;
Search.query = (query) => {
  const list = Search.output;
  const append = list.appendChild.bind(list);
  const highlightTerms = Search._parseQuery(query)[3];
  list.appendChild = (item) => {
    append(item);
    TorchNotesSearch.addExcerpt(item, query, highlightTerms);
    return item;
  };
  // A dotted name without an entry: once searchtools.js has written its summary ("found 3 pages"), say so.
  const missing = TorchNotesSearch.noEntry(query);
  if (missing) {
    const summary = TorchNotesSearch.noEntrySummary(missing.name, missing.results.length);
    const watch = new MutationObserver(() => {
      if (!Search.status.textContent || Search.status.textContent === summary) return;
      watch.disconnect();
      Search.status.textContent = summary;
      Search.status.classList.add("search-no-entry");
    });
    watch.observe(Search.status, { childList: true, characterData: true, subtree: true });
  }
  return _sphinxQuery(query);
};
