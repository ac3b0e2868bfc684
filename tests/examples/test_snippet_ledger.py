"""The ledger of code blocks (docs/_ext/examples/snippet_ledger.py): tested, or visibly not Python."""

from docutils import nodes

from examples.snippet_ledger import bare_prompt_lines, classify, count_examples


def block(text: str, **attributes) -> nodes.literal_block:
    node = nodes.literal_block(text, text)
    for name, value in attributes.items():
        node[name] = value
    return node


def test_ledger_classification(tmp_path):
    snippets = [tmp_path]
    assert classify(block(">>> 1", testnodetype="doctest"), snippets) == "doctest"
    assert classify(block("print(1)", testnodetype="testcode"), snippets) == "doctest"
    assert classify(block("x = 1", source=str(tmp_path / "a.py"), language="python"), snippets) == "snippet"
    assert classify(block("$ make html", language="console"), snippets) == "other"
    assert classify(block("x = 1", language="python"), snippets) is None
    assert classify(block(">>> 1", language="pycon"), snippets) is None
    assert classify(block(">>> 1", language="text"), snippets) is None, "a session hidden behind 'text'"
    assert classify(block("x = 1", source="/elsewhere/a.py", language="python"), snippets) is None
    assert classify(nodes.doctest_block(">>> 1", ">>> 1"), snippets) is None


def test_example_count_is_the_doctest_builders():
    """What the builder runs and reports as tests: each '>>>' of a doctest block, each testcode block
    (its testoutput is part of it), once per group; group '*' joins every other group of the page."""
    page = nodes.section()
    page += block(">>> 1\n1\n>>> x = 2\n>>> x\n2", testnodetype="doctest", groups=["default"])
    page += block("print(1)", testnodetype="testcode", groups=["default"])
    page += block("1", testnodetype="testoutput", groups=["default"])
    page += block(">>> 3\n3", testnodetype="doctest", groups=["a", "b"])
    page += nodes.comment("import os", "import os", testnodetype="testsetup", groups=["default"])
    page += block("print(2)", testnodetype="testcode", groups=["*"])
    page += block("x = 1", language="python")
    assert count_examples(page) == 3 + 1 + 2 + 3  # the '*' block in default, a and b
    assert count_examples(nodes.section()) == 0


def test_bare_prompts_outside_fences_only():
    source = "text\n>>> bare\n```{doctest}\n>>> fenced\n```\n~~~~\n```\n>>> still fenced\n~~~~\n>>> bare again\n"
    assert bare_prompt_lines(source) == [2, 10]
