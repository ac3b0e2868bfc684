"""What a reader sees and follows on each page: the language switcher and the links between
editions, the version stamp, output blocks, field-list typography, "On this page", accessible
HTML, official-documentation links, the API and corrections pages, the glossary page's
counterparts and stable anchors, and what search engines read.

May import: ``search`` (the glossary's Chinese forms for jieba), ``tools``. ``books`` imports it.
"""
