"""The site's search: Chinese word segmentation (jieba) that cannot silently degrade, the
synonyms and ranking data of ``search-ranking.js``, the excerpts under the results, and a
``searchindex.js`` trimmed and weighted so that one query stays under 1 MB.

May import: ``tools`` (the catalog reader, ``tools.terminology``). No other package of
``docs/_ext``; ``reader`` imports it (the glossary's jieba dictionary).
"""
