"""What is drawn at build time: formulas by KaTeX (node, ``tools/katex/``), so no maths script
runs in the browser, and the plot directive's SVG figures, valid for the books and the same on
every build.

May import: nothing of the project. ``books`` imports it (the MathML of the same rendering).
"""
