"""Which versions a page's examples were verified with (docs/_ext/reader/version_stamp.py)."""

from docutils import nodes


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
