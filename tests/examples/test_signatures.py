"""Every signature the pages document matches the installed torch and Python."""

import subprocess
import sys
from pathlib import Path

from tools.examples import check_signatures
from tools.examples.check_signatures import check, documented, main
from conftest import ROOT


def test_every_documented_signature_matches_the_installed_version():
    # In a process of its own: pytest replaces pdb.set_trace, whose signature a page documents.
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "examples" / "check_signatures.py")],
                            capture_output=True, text=True, timeout=300)  # it imports torch: seconds
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_or_outdated_signature_is_reported_with_file_and_line(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("# t\n\n```{py:function} torch.cat(tensors, axis=0)\n```\n\n"
                    "```{py:class} torch.nn.Dropout(p=0.3, inplace=False)\n```\n\n"
                    "```{py:function} torch.no_such_function(x)\n```\n\n"
                    "```{py:method} torch.Tensor.view(*shape)\n```\n", encoding="utf-8")
    assert main([str(page)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{page}:3: torch.cat(tensors, axis=0) does not match"), lines
    assert lines[1].startswith(f"{page}:6: torch.nn.Dropout(p=0.3, inplace=False) does not match"), lines
    assert lines[2].startswith(f"{page}:9: torch.no_such_function does not exist"), lines
    assert lines[3] == "signatures: 1 match, 2 differ, 1 do not resolve, 0 have no signature to compare with"


def test_docstring_overloads_and_torch_notation_are_understood(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```{py:function} torch.max(input, dim, keepdim=False, *, out=None) -> (Tensor, Tensor)\n```\n"
                    "```{py:function} torch.zeros(*size, *, out=None, dtype=None, layout=torch.strided, device=None, "
                    "requires_grad=False)\n```\n"
                    "```{py:function} isinstance(obj, class_or_tuple, /)\n```\n"
                    "```{py:function} next(iterator[, default])\n```\n"
                    "```{py:function} next(iterator, default)\n```\n", encoding="utf-8")
    assert [check(entry)[0] for entry in documented([page])] == ["ok", "ok", "ok", "ok", "mismatch"]


def test_an_exception_needs_a_reason(tmp_path, monkeypatch):
    listed = tmp_path / "exceptions.tsv"
    listed.write_text("torch.cat\n", encoding="utf-8")
    monkeypatch.setattr(check_signatures, "EXCEPTIONS", listed)
    try:
        check_signatures.exceptions(listed)
    except SystemExit as stop:
        assert "needs a name, a tab and the reason" in str(stop)
    else:
        raise AssertionError("an exception without a reason was accepted")


def test_a_class_known_only_by_its_overloads_and_a_function_default_are_compared(tmp_path, capsys):
    """nn.LSTM's __init__ is (*args, **kwargs): its parameters are typing overloads; TransformerEncoderLayer's
    activation defaults to the function F.relu. A wrong parameter or default in either is reported."""
    page = tmp_path / "page.md"
    page.write_text("# t\n\n```{py:class} torch.nn.LSTM(input_size, hidden_size, num_layers=2)\n```\n\n"
                    "```{py:class} torch.nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, "
                    "dropout=0.1, activation=F.gelu, layer_norm_eps=1e-05, batch_first=False, norm_first=False, "
                    "bias=True, device=None, dtype=None)\n```\n\n"
                    "```{py:class} torch.nn.GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False,"
                    " dropout=0.0, bidirectional=False, device=None, dtype=None)\n```\n", encoding="utf-8")
    assert main([str(page)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{page}:3: torch.nn.LSTM(input_size, hidden_size, num_layers=2) does not match"), lines
    assert lines[1].startswith(f"{page}:6: torch.nn.TransformerEncoderLayer("), lines
    assert lines[2] == "signatures: 1 match, 2 differ, 0 do not resolve, 0 have no signature to compare with"


def test_a_docstring_signature_written_with_its_namespace_is_read():
    """torch.linalg's docstrings start 'linalg.vector_norm(x, ord=2, ...)': compared, not skipped."""
    import torch

    assert check_signatures.from_docstring(torch.linalg.vector_norm, "vector_norm") == [
        "x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None"]


def test_out_written_without_its_default_in_a_docstring_is_out_none():
    """torch.abs's docstring says abs(input, *, out): the page writes out=None, which is what it is."""
    assert check(check_signatures.Documented(Path("p.md"), 1, "function", "torch.abs", "input, *, out=None"))[0] == "ok"
    assert check(check_signatures.Documented(Path("p.md"), 1, "function", "torch.abs", "input, *, out=1"))[0] == \
        "mismatch"
