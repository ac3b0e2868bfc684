/* torch-notes: split a Chinese search query the way jieba split the index.
 * Readers type Chinese without spaces (计算梯度), but the index holds words
 * (计算, 梯度). Each run of Han characters is segmented against the Chinese
 * words of the loaded search index itself, so the dictionary is always the
 * index's own and costs nothing to ship. Of all segmentations, the one whose
 * words cover the most characters, each weighted by how many pages use the word
 * (log of its document frequency), wins: common words beat the odd fragments
 * jieba leaves in an index (给不同层设置 -> 不同, 设置, not 层设). A character
 * that starts no indexed word is dropped: the index holds no single characters
 * either. Everything else is split as Sphinx does. */
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) || {};
  const count = (entry) => (entry === undefined ? 0 : Array.isArray(entry) ? entry.length : 1);
  const frequency = (word) =>
    (Object.hasOwn(index.terms || {}, word) ? count(index.terms[word]) : 0)
    + (Object.hasOwn(index.titleterms || {}, word) ? count(index.titleterms[word]) : 0);
  const longest = 8;
  const segment = (run) => {
    // best[i]: [score, words] of the best segmentation of run[0:i]
    const best = [[0, []]];
    for (let end = 1; end <= run.length; end += 1) {
      best[end] = [best[end - 1][0], best[end - 1][1]]; // drop run[end - 1]
      for (let size = 2; size <= Math.min(longest, end); size += 1) {
        const word = run.substring(end - size, end);
        const df = frequency(word);
        if (!df) continue;
        const score = best[end - size][0] + size * Math.log(1 + df);
        if (score > best[end][0]) best[end] = [score, [...best[end - size][1], word]];
      }
    }
    const words = best[run.length][1];
    return words.length || run.length !== 1 ? words : [run];
  };
  const words = [];
  query
    .split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)
    .filter((chunk) => chunk)
    .forEach((chunk) => {
      chunk.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu).forEach((run) => {
        if (!/\p{Script=Han}/u.test(run)) return words.push(run);
        words.push(...segment(run));
      });
    });
  return words;
};
