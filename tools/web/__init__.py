"""The built site: served (``make serve``, the root page that picks a language), driven in headless
chromium (the browser tests, the search evaluation), measured (Lighthouse), and checked for
Chinese outside elements marked as another language.

May import: ``tools.project``; ``search_documents`` imports ``search.zh_search`` from ``docs/_ext``, to split
Chinese exactly as the site's index does.
"""
