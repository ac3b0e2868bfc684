"""Unit tests of the project's Sphinx extensions and helpers (docs/_ext/)."""

import pytest
import torch
from reader.api_links import official_url
from docutils import nodes
from examples.doctest_state import reset_global_state
from checks.hardwrap_check import is_hard_wrapped
from i18n.lang_overrides import apply_language_overrides
from examples.snippet_ledger import bare_prompt_lines, classify, count_examples
from sphinx.errors import ConfigError


class FakeConfig(dict):
    """Just enough of sphinx.config.Config for lang_overrides."""

    def __getattr__(self, name):
        return self[name]


def test_language_overrides_apply_for_the_final_language():
    config = FakeConfig(language="en", html_title="x", language_overrides={"en": {"html_title": "English"}})
    apply_language_overrides(None, config)
    assert config["html_title"] == "English"


def test_language_overrides_reject_an_unknown_language_or_option():
    with pytest.raises(ConfigError, match="no entry for language 'ja'"):
        apply_language_overrides(None, FakeConfig(language="ja", language_overrides={"en": {}}))
    with pytest.raises(ConfigError, match="unknown option 'html_titel'"):
        apply_language_overrides(None, FakeConfig(language="en", language_overrides={"en": {"html_titel": 1}}))


@pytest.mark.parametrize("text, wrapped", [
    ("一行写完的段落。", False),
    ("第一行，\n第二行。", True),
    ("English text\nwrapped freely", False),
    ("使用 torch.cat\n拼接", True),
])
def test_hard_wrap_detection(text, wrapped):
    assert is_hard_wrapped(text) is wrapped


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


@pytest.mark.parametrize("name, url", [
    ("torch.cat", "https://docs.pytorch.org/docs/stable/generated/torch.cat.html"),
    ("torch.Tensor.view", "https://docs.pytorch.org/docs/stable/generated/torch.Tensor.view.html"),
    ("torch.nn.Conv2d", "https://docs.pytorch.org/docs/stable/generated/torch.nn.Conv2d.html"),
    ("torch.nn.Module.train", "https://docs.pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.train"),
    ("torch.nn.init.xavier_uniform_", "https://docs.pytorch.org/docs/stable/nn.init.html#torch.nn.init.xavier_uniform_"),
    ("torch.utils.data.DataLoader", "https://docs.pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"),
    ("torch.device", "https://docs.pytorch.org/docs/stable/tensor_attributes.html#torch.device"),
    ("numpy.nanmean", "https://numpy.org/doc/stable/reference/generated/numpy.nanmean.html"),
    ("pickle.dumps", "https://docs.python.org/3/library/pickle.html#pickle.dumps"),
    ("iter", "https://docs.python.org/3/library/functions.html#iter"),
    ("torch.optim.Optimizer", "https://docs.pytorch.org/docs/stable/optim.html#torch.optim.Optimizer"),
    ("torch.optim.Optimizer.zero_grad",
     "https://docs.pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html"),
    ("torch.distributed.init_process_group",
     "https://docs.pytorch.org/docs/stable/distributed.html#torch.distributed.init_process_group"),
    ("torch.nn.SyncBatchNorm.convert_sync_batchnorm",
     "https://docs.pytorch.org/docs/stable/generated/torch.nn.SyncBatchNorm.html#torch.nn.SyncBatchNorm.convert_sync_batchnorm"),
    ("range", "https://docs.python.org/3/library/stdtypes.html#range"),
    ("torch.serialization.add_safe_globals",
     "https://docs.pytorch.org/docs/stable/notes/serialization.html#torch.serialization.add_safe_globals"),
    ("torchvision.transforms.v2.Resize",
     "https://docs.pytorch.org/vision/stable/generated/torchvision.transforms.v2.Resize.html"),
    ("torchvision.datasets.FakeData",
     "https://docs.pytorch.org/vision/stable/generated/torchvision.datasets.FakeData.html"),
    ("torchvision.models.resnet18",
     "https://docs.pytorch.org/vision/stable/models/generated/torchvision.models.resnet18.html"),
    ("torchvision.models.ResNet18_Weights",
     "https://docs.pytorch.org/vision/stable/models/generated/torchvision.models.resnet18.html"
     "#torchvision.models.ResNet18_Weights"),
])
def test_official_urls(name, url):
    assert official_url(name) == url


def test_reset_global_state_undoes_every_change():
    torch.manual_seed(123)
    torch.set_printoptions(precision=2)
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch.use_deterministic_algorithms(True)
    torch.autograd.set_detect_anomaly(True)
    torch.set_default_device("meta")
    torch.set_warn_always(True)
    reset_global_state()
    assert torch.get_default_device() == torch.device("cpu") and torch.empty(1).device.type == "cpu"
    assert not torch.is_warn_always_enabled()
    assert not torch.are_deterministic_algorithms_enabled()
    assert not torch.is_anomaly_enabled()
    assert torch.get_default_dtype() == torch.float32
    assert torch.is_grad_enabled()
    assert repr(torch.tensor([1 / 3])) == "tensor([0.3333])"
    first = torch.rand(2)
    reset_global_state()
    assert torch.equal(first, torch.rand(2))


def test_translated_nodes_are_rehomed_in_their_page():
    from docutils.utils import new_document
    from i18n.translated_nodes import rehome_nodes
    page, scratch = new_document("page"), new_document("scratch")
    paragraph = nodes.paragraph("", "")
    page += paragraph
    text = nodes.Text("translated")
    paragraph += text
    text._document = scratch  # as the i18n transform leaves it
    assert rehome_nodes(None, page) == 1
    assert text.document is page
    assert rehome_nodes(None, page) == 0


def test_verified_version_role_reads_the_build_environment():
    import platform
    from importlib import metadata
    from reader.version_stamp import version_role
    assert version_role("verified-version", "", "torch", 1, None) == ([nodes.Text(metadata.version("torch"))], [])
    assert version_role("verified-version", "", "python", 1, None)[0][0] == platform.python_version()

    class Inliner:  # just enough of docutils' Inliner for the error path
        class reporter:
            error = staticmethod(lambda text, line: nodes.paragraph(text, text))

        problematic = staticmethod(lambda rawtext, text, message: nodes.problematic(rawtext, text))

    result, messages = version_role("verified-version", "{verified-version}`numpy`", "numpy", 7, Inliner)
    assert isinstance(result[0], nodes.problematic) and "unknown name 'numpy'" in messages[0].astext()


def test_every_page_is_read_again_when_the_versions_change():
    from types import SimpleNamespace
    from reader.version_stamp import environment_versions, reread_on_new_versions
    env = SimpleNamespace(found_docs={"index", "a/b"})
    assert reread_on_new_versions(None, env, set(), set(), set()) == []  # a first build reads everything anyway
    assert reread_on_new_versions(None, env, set(), set(), set()) == []
    env.version_stamp_versions = {**environment_versions(), "torch": "2.12.0"}
    assert reread_on_new_versions(None, env, set(), set(), set()) == ["a/b", "index"]
    assert env.version_stamp_versions == environment_versions()
