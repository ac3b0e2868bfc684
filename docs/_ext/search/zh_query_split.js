/* torch-notes: split a Chinese search query the way jieba split the index.
 * Readers type Chinese without spaces (计算梯度), but the index holds words
 * (计算, 梯度). Each run of Han characters is segmented against the Chinese
 * words of the loaded search index itself, so the dictionary is always the
 * index's own and costs nothing to ship. Of all segmentations, the one whose
 * words cover the most characters wins, so a compound the index holds stays
 * whole (学习率调度器, not 学习率 + 调度 with 器 dropped; 数据集, not 数据);
 * between segmentations that cover as much, the one whose words are used by
 * more pages (each word's length times the log of its document frequency)
 * wins: common words beat the odd fragments jieba leaves in an index
 * (给不同层设置 -> 不同, 设置, not 层设). A character that starts no indexed
 * word is dropped: the index holds no single characters either. Everything
 * else is split as Sphinx does. */
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) || {};
  const count = (entry) => (entry === undefined ? 0 : Array.isArray(entry) ? entry.length : 1);
  const frequency = (word) =>
    (Object.hasOwn(index.terms || {}, word) ? count(index.terms[word]) : 0)
    + (Object.hasOwn(index.titleterms || {}, word) ? count(index.titleterms[word]) : 0);
  const longest = 8;
  const segment = (run) => {
    // best[i]: [characters covered, score, words] of the best segmentation of run[0:i]
    const best = [[0, 0, []]];
    const better = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
    for (let end = 1; end <= run.length; end += 1) {
      best[end] = best[end - 1]; // drop run[end - 1]
      for (let size = 2; size <= Math.min(longest, end); size += 1) {
        const word = run.substring(end - size, end);
        const df = frequency(word);
        if (!df) continue;
        const [covered, score, words] = best[end - size];
        const candidate = [covered + size, score + size * Math.log(1 + df), [...words, word]];
        if (better(candidate, best[end])) best[end] = candidate;
      }
    }
    const words = best[run.length][2];
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
