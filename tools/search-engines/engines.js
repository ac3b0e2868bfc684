/* torch-notes: MiniSearch and lunr over the same pages as the site's own search, for tools/web/search_eval.py.
 *
 * Runs on a built site's search page, after minisearch's UMD build or lunr.js: the page gives the words the
 * way the site's search reads them (the site's Stemmer, TorchNotesSearch's stop words, the Chinese query
 * splitter of docs/_ext/search/zh_query_split.js). The documents come from tools/web/search_documents.py: one a page,
 * fields title, api, headings and body; on the Chinese site already split by jieba into words and spaces.
 *
 *   TorchNotesEngines.build(engine, documents, zhSplitterSource)  engine: minisearch | minisearch+ | lunr
 *   TorchNotesEngines.pages(query)    the pages, best first
 *   TorchNotesEngines.serialized()    the index as the engine saves it (what a site would download)
 *
 * minisearch+ is MiniSearch with the project's query layer: each concept of TorchNotesSearch.concepts
 * (the glossary's and the learners' forms, search-synonyms.js) is an OR of its forms, a multi-word form
 * needs all its words; the glossary and the API list count half, as in search-ranking.js.
 */
"use strict";

window.TorchNotesEngines = (() => {
  const FIELDS = ["title", "api", "headings", "body"];
  // Field weights in the ratio of search-ranking.js's WEIGHT (title 15, API name 20, body 5); headings are
  // section titles, which the site's scorer weights as titles.
  const BOOST = { title: 3, api: 4, headings: 3, body: 1 };
  const DISCOUNTED = new Set(["glossary", "api"]);
  const HAN = /\p{Script=Han}/u;
  const WORDS = /[^\p{Letter}\p{Number}_]+/u;
  const stemmer = typeof Stemmer !== "undefined" ? new Stemmer() : { stemWord: (w) => w };
  const stop = (typeof TorchNotesSearch !== "undefined" && TorchNotesSearch.STOPWORDS) || new Set();

  /* A word as the site's index holds it: Latin words lowercased and stemmed, stop words dropped. */
  const normal = (word) => {
    const lower = word.toLowerCase();
    if (!lower || stop.has(lower)) return null;
    return HAN.test(lower) ? lower : stemmer.stemWord(lower);
  };
  const tokens = (text) => text.split(WORDS).filter((w) => w);

  let engine = null;
  let docs = null;
  let index = null;
  let querySplit = tokens;

  /* The Chinese query splitter of the site, segmenting against this engine's own words (not Sphinx's). */
  const chineseSplitter = (source) => {
    const pages = {};
    docs.forEach((doc, n) => FIELDS.forEach((field) => tokens(doc[field]).forEach((word) => {
      if (!HAN.test(word)) return;
      (pages[word] = pages[word] || new Set()).add(n);
    })));
    const terms = Object.fromEntries(Object.entries(pages).map(([word, set]) => [word, [...set]]));
    // eslint-disable-next-line no-new-func
    return new Function("Search", `${source}\nreturn splitQuery;`)({ _index: { terms, titleterms: {} } });
  };

  const build = (name, documents, zhSplitterSource) => {
    engine = name;
    docs = documents;
    querySplit = zhSplitterSource ? chineseSplitter(zhSplitterSource) : tokens;
    if (name.startsWith("minisearch")) {
      index = new MiniSearch({
        fields: FIELDS, storeFields: ["page"], tokenize: tokens, processTerm: normal,
        // MiniSearch's README: prefix search and fuzzy 0.2 (one edit from 3 letters, two from 8)
        searchOptions: { boost: BOOST, prefix: true, fuzzy: 0.2, combineWith: "OR", tokenize: (q) => querySplit(q),
                         boostDocument: name === "minisearch+" ? (id, term, stored) =>
                           (DISCOUNTED.has(stored.page) ? 0.5 : 1) : undefined },
      });
      index.addAll(documents);
    } else if (name === "lunr") {
      lunr.tokenizer.separator = WORDS;
      const process = (token) => {
        const word = normal(token.toString());
        return word ? token.update(() => word) : undefined;
      };
      lunr.Pipeline.registerFunction(process, "torchNotesNormal");
      index = lunr(function () {
        this.ref("id");
        FIELDS.forEach((field) => this.field(field, { boost: BOOST[field] }));
        this.pipeline.reset();
        this.searchPipeline.reset();
        this.pipeline.add(process);
        this.searchPipeline.add(process);
        documents.forEach((doc) => this.add(doc));
      });
    } else throw new Error(`no engine ${name}`);
    return documents.length;
  };

  /* MiniSearch with the project's query layer: a query tree of concepts and their forms. */
  const layered = (query) => {
    const concepts = TorchNotesSearch.concepts(query).filter((concept) => !concept.literal);
    if (!concepts.length) return query;
    return {
      combineWith: "OR",
      queries: concepts.map((concept) => ({
        combineWith: "OR",
        queries: [...new Set(concept.forms.map((form) => form.toLowerCase()))]
          .map((form) => ({ combineWith: "AND", queries: [form] })),
      })),
    };
  };

  const pages = (query) => {
    let found;
    if (engine === "minisearch") found = index.search(query).map((r) => r.page);
    else if (engine === "minisearch+") found = index.search(layered(query)).map((r) => r.page);
    else {
      const words = querySplit(query).map(normal).filter((w) => w);
      // lunr's guide for search as you type: the word, then words it starts, then words an edit or two away
      found = index.query((q) => words.forEach((word) => {
        q.term(word, { boost: 10, usePipeline: false });
        if (word.length > 2) q.term(word, { boost: 1, usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
        if (!HAN.test(word) && word.length >= 5)
          q.term(word, { boost: 1, usePipeline: false, editDistance: word.length >= 8 ? 2 : 1 });
      })).map((r) => docs[Number(r.ref)].page);
    }
    return [...new Set(found)];
  };

  const serialized = () => JSON.stringify(index);

  return { build, pages, serialized, normal };
})();
