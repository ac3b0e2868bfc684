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
 *    "learning rate" on the Chinese site finds 学习率;
 *  - a page scores, per concept, the best of: a title word (section titles
 *    included), an API name (the py domain's objects), a body word, a partial
 *    match; weighted by how rare the concept is (idf) and more for a glossary
 *    term, plus a bonus where the page's own title contains the concept, and
 *    the sum is scaled
 *    by the share of concepts the page matches, so pages that match more of
 *    the query come first and a page matching one word still appears;
 *  - the glossary and the API list, which mention every term, count half.
 *
 * The excerpt under each result is prose: code blocks and maths are taken out
 * of the text it is cut from, and the matched words are highlighted.
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
  const WEIGHT = { pageTitle: 15, title: 15, object: 20, body: 5, partialTitle: 6, partialBody: 2, glossary: 1.5 };
  const DISCOUNTED = new Set(["glossary", "api", "genindex", "search", "translation-status"]);
  const HAN = /\p{Script=Han}/u;

  const stemmer = typeof Stemmer !== "undefined" ? new Stemmer() : { stemWord: (w) => w };
  const normal = (word) => (HAN.test(word) ? word : stemmer.stemWord(word.toLowerCase()));
  const files = (entry) => (entry === undefined ? [] : Array.isArray(entry) ? entry : [entry]);

  /* Index words of a form: 'learning rate' -> [learn, rate]; 批量维度 -> [批量, 维度]. */
  const formWords = (form) =>
    splitQuery(form).filter((w) => !STOPWORDS.has(w.toLowerCase())).map(normal);

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

  /* The query as concepts: each a list of alternatives, each alternative a list of index words. */
  const concepts = (query) => {
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
    return found;
  };

  /* {doc: score} of one index word: exact title and body words, then partial ones. */
  const wordScores = (index, word, cache) => {
    if (cache.has(word)) return cache.get(word);
    const scores = new Map();
    const add = (entry, weight) =>
      files(entry).forEach((doc) => scores.set(doc, Math.max(scores.get(doc) || 0, weight)));
    add(index.titleterms[word], WEIGHT.title);
    add(index.terms[word], WEIGHT.body);
    if (word.length > 2 || (HAN.test(word) && word.length > 1)) {
      for (const term in index.titleterms)
        if (term !== word && term.includes(word)) add(index.titleterms[term], WEIGHT.partialTitle);
      for (const term in index.terms)
        if (term !== word && term.includes(word)) add(index.terms[term], WEIGHT.partialBody);
    }
    cache.set(word, scores);
    return scores;
  };

  /* {doc: score} of API names: a query word equal to an object's name or its last dotted part. */
  const objectScores = (index, query) => {
    const scores = new Map();
    const words = new Set(query.toLowerCase().split(/[^\w.]+/).filter((w) => w.length > 1));
    for (const prefix in index.objects)
      index.objects[prefix].forEach((match) => {
        const full = (prefix ? prefix + "." : "") + match[4];
        const last = match[4].split(".").pop().toLowerCase();
        if (words.has(full.toLowerCase()) || words.has(last))
          scores.set(match[0], Math.max(scores.get(match[0]) || 0, WEIGHT.object));
      });
    return scores;
  };

  const rank = (query) => {
    const index = Search._index;
    const total = index.docnames.length;
    const cache = new Map();
    const wanted = concepts(query);
    const pageScores = new Map();
    const matched = new Map();
    wanted.forEach((concept) => {
      const best = new Map(); // doc -> best alternative score
      concept.alternatives.forEach((words) => {
        const perWord = words.map((w) => wordScores(index, w, cache));
        const docs = [...perWord[0].keys()].filter((d) => perWord.every((s) => s.has(d)));
        docs.forEach((doc) => {
          const score = Math.min(...perWord.map((s) => s.get(doc)));
          best.set(doc, Math.max(best.get(doc) || 0, score));
        });
      });
      const idf = Math.log(1 + total / Math.max(1, best.size)) * (concept.glossary ? WEIGHT.glossary : 1);
      const forms = [concept.text, ...concept.alternatives.map((words) => words.join(" "))];
      best.forEach((score, doc) => {
        const title = index.titles[doc].toLowerCase();
        const inTitle = forms.some((form) => form.length > 1 && title.includes(form));
        pageScores.set(doc, (pageScores.get(doc) || 0) + (score + (inTitle ? WEIGHT.pageTitle : 0)) * idf);
        matched.set(doc, (matched.get(doc) || 0) + 1);
      });
    });
    objectScores(index, query).forEach((score, doc) => {
      pageScores.set(doc, (pageScores.get(doc) || 0) + score);
      matched.set(doc, Math.max(matched.get(doc) || 0, 1));
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

  /* The text an excerpt is cut from: prose only, no code, no maths, no prompts. */
  const PROSE_ONLY = [".headerlink", "script", "style", "div.highlight", "pre", ".math", "mjx-container",
                      ".doctest", "dl.field-list dt", ".api-official-link", "nav", ".sig", ".parallel-counterpart"];
  const htmlToText = (htmlString, anchor) => {
    const html = new DOMParser().parseFromString(htmlString, "text/html");
    PROSE_ONLY.forEach((selector) => html.querySelectorAll(selector).forEach((el) => el.remove()));
    const main = (anchor && html.querySelector(`[role="main"] ${anchor}`)) || html.querySelector('[role="main"]');
    return main ? main.textContent.replace(/\s+/g, " ") : "";
  };

  return { rank, concepts, htmlToText, STOPWORDS, WEIGHT };
})();

// Highlight (and center the excerpt on) every form that matched: 广播 on the English site
// finds "broadcasting", so "broadcasting" is what the excerpt marks.
const _sphinxParseQuery = Search._parseQuery;
Search._parseQuery = (query) => {
  const [raw, searchTerms, excludedTerms, highlightTerms, objectTerms] = _sphinxParseQuery(query);
  TorchNotesSearch.concepts(query).forEach((concept) =>
    concept.forms.forEach((form) => {
      highlightTerms.add(form.toLowerCase());
      searchTerms.add(form.toLowerCase());
    }),
  );
  return [raw, searchTerms, excludedTerms, highlightTerms, objectTerms];
};
Search._performSearch = (query) => TorchNotesSearch.rank(query);
Search.htmlToText = TorchNotesSearch.htmlToText;
