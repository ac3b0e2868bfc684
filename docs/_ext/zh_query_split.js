/* torch-notes: split a Chinese search query the way jieba split the index.
 * Readers type Chinese without spaces (计算梯度), but the index holds words
 * (计算, 梯度). Each run of Han characters is cut by forward maximum matching
 * against the Chinese words of the loaded search index itself, so the
 * dictionary is always the index's own and costs nothing to ship. Single
 * characters that start no indexed word are dropped: the index holds no
 * single-character words either. Everything else is split as Sphinx does. */
var splitQuery = (query) => {
  const index = (typeof Search !== "undefined" && Search._index) || {};
  const known = (word) =>
    Object.hasOwn(index.terms || {}, word) || Object.hasOwn(index.titleterms || {}, word);
  const longest = 8;
  const words = [];
  query
    .split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)
    .filter((chunk) => chunk)
    .forEach((chunk) => {
      chunk.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu).forEach((run) => {
        if (!/\p{Script=Han}/u.test(run)) return words.push(run);
        let start = 0;
        while (start !== run.length) {
          let size = Math.min(longest, run.length - start);
          while (size !== 1 && !known(run.substr(start, size))) size -= 1;
          if (size !== 1 || run.length === 1) words.push(run.substr(start, size));
          start += size;
        }
      });
    });
  return words;
};
