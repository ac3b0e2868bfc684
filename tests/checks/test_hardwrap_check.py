"""Hard-wrapped Chinese paragraphs (docs/_ext/checks/hardwrap_check.py)."""

import pytest

from checks.hardwrap_check import is_hard_wrapped


@pytest.mark.parametrize("text, wrapped", [
    ("一行写完的段落。", False),
    ("第一行，\n第二行。", True),
    ("English text\nwrapped freely", False),
    ("使用 torch.cat\n拼接", True),
])
def test_hard_wrap_detection(text, wrapped):
    assert is_hard_wrapped(text) is wrapped
