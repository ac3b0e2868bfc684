"""Warnings about the pages' own text that Sphinx does not give: hard-wrapped Chinese paragraphs,
emphasis markers left in the rendered text.

May import: nothing of the project.
"""
