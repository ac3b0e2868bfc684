"""The built site: served (``make serve``, the root page that picks a language), driven in headless
chromium (the browser tests, the search evaluation), measured (Lighthouse), and checked for
Chinese outside elements marked as another language.

May import: ``tools.project``.
"""
