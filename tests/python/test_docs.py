"""Pages generated from the code (docs/generate_pages.py): the configuration reference lists
every key of the schema, with its default and what is allowed; the command line's help is
whole."""

import sys

from conftest import REPO

import lockstep as ls

sys.path.insert(0, str(REPO / "docs"))
import generate_pages  # noqa: E402


def test_configuration_reference_lists_every_key():
    text = generate_pages.configuration()
    for k in ls.schema():
        assert f"| `{k['key']}` |" in text and k["allowed"] in text, k["key"]


def test_command_line_page_has_every_command():
    text = generate_pages.command_line()
    for command in ("run", "sweep", "bench"):
        assert f"## lockstep {command}\n" in text and f"usage: lockstep {command}" in text
