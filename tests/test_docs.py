"""The docs cannot rot: the site builds with --strict, every example runs, the reference is complete.

- The MkDocs site (mkdocs.yml, docs/) builds with `--strict`: a broken link, a missing page or an
  anchor that does not exist fails the suite.
- Every fenced block of README.md and docs/ is run in an empty folder, page by page, in order:
  `console` blocks command by command (`$ ` lines; the lines under a command are output it must
  print), `python` blocks with this Python, `toml` blocks are parsed; a block under
  `<!-- file: NAME -->` is written to NAME first. Any other block that holds commands must say
  why it is not run (`<!-- not run: REASON -->` above it); `text`, `json` and `csv` blocks show
  output or file contents. No indented code blocks: each would escape these rules.
- The generated reference (`boardlab.reference`) has a sentence for every definition key and every
  command option, and holds every key the shipped definitions and variants write.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
#: the pages whose examples run: the README and every written page of the site
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: block languages that show output or a file's contents, never commands
SHOWN = {"text", "json", "csv", "markdown"}
MARKER = re.compile(r"<!--\s*(not run|file):\s*(.*?)\s*-->")


@dataclass
class Block:
    page: Path
    line: int
    language: str
    text: str
    not_run: str | None = None  # the reason given
    file: str | None = None  # the file the block's text is written to

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def fenced_blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, each with the marker comment right above it."""
    blocks: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(```+)\s*([\w-]*)", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, language = m.groups()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        i += 1
        above = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        marker = MARKER.search(above)
        block = Block(page, start + 1, language or "", "\n".join(body) + "\n")
        if marker and marker.group(1) == "not run":
            block.not_run = marker.group(2)
        elif marker:
            block.file = marker.group(2)
        blocks.append(block)
    return blocks


def commands_and_output(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown under it) for every `$ ` line of a console block.

    >>> commands_and_output("$ a \\\\\\n  b\\nout\\n$ c\\n")
    [('a b', ['out']), ('c', [])]
    """
    out: list[tuple[str, list[str]]] = []
    lines = iter(text.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1].rstrip() + " " + next(lines).strip()
            out.append((command, []))
        elif out and line.strip():
            out[-1][1].append(line.strip())
    return out


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOARDLAB_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = ""
    return env


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def run_block(block: Block, folder: Path) -> None:
    if block.file:
        (folder / block.file).write_text(block.text, encoding="utf-8")
    if block.language == "toml":
        tomllib.loads(block.text)
    elif block.language == "python":
        done = subprocess.run([sys.executable, "-c", block.text], cwd=folder, env=_environment(),
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{block.where()}: the example failed:\n{done.stderr}"
    elif block.language == "console":
        for command, shown in commands_and_output(block.text):
            done = subprocess.run(["bash", "-c", command], cwd=folder, env=_environment(), capture_output=True,
                                  text=True, timeout=600)
            assert done.returncode == 0, f"{block.where()}: `{command}` exited {done.returncode}:\n{done.stderr}"
            printed = _squeeze(done.stdout + "\n" + done.stderr)
            for line in shown:
                if line != "...":
                    assert _squeeze(line) in printed, f"{block.where()}: `{command}` no longer prints {line!r}"


@pytest.mark.parametrize("page", [p for p in PAGES if fenced_blocks(p)], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_of_the_page_runs(page, tmp_path):
    for block in fenced_blocks(page):
        if block.not_run is None:
            run_block(block, tmp_path)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_is_run_or_says_why_not(page):
    import markdown

    blocks = fenced_blocks(page)
    for block in blocks:
        if block.not_run is not None:
            assert block.not_run, f"{block.where()}: say why the block is not run"
        else:
            assert block.language in SHOWN | {"console", "python", "toml"}, (
                f"{block.where()}: a '{block.language or 'plain'}' block is neither run nor marked "
                "<!-- not run: REASON -->")
    html = markdown.markdown(page.read_text(encoding="utf-8"), extensions=["fenced_code", "tables"])
    assert html.count("<pre>") == len(blocks), f"{page.relative_to(ROOT)}: an indented code block (use a fenced one)"


def test_the_site_builds_strictly(tmp_path):
    # never --quiet: it hides the warnings that --strict counts, and the build passes whatever they say
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "reference" / "commands.html").is_file()
    tutorial = (tmp_path / "site" / "tutorial.html").read_text(encoding="utf-8")
    assert "<code>boardlab check my-variant.toml" in tutorial or "boardlab check my-variant.toml" in tutorial


def test_the_readme_stays_about_two_pages():
    """The README is the front page: what boardlab is, the two commands, a tour, links. Detail goes
    to a page of docs/ (a how-to, an explanation, the reference), which the README links."""
    size = len((ROOT / "README.md").read_bytes())
    assert size < 12 * 1024, f"README.md is {size:,} bytes: move the detail into docs/"


def test_no_page_points_outside_the_repository():
    offenders = [f"{page.relative_to(ROOT)}:{n}" for page in PAGES
                 for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
                 if re.search(r"\.\./shared|/work/|shared/spec", line)]
    assert offenders == []


# -- the generated reference ----------------------------------------------------------------------

def test_each_definition_page_names_its_games_own_files():
    """The page of a game in layouts/ or in games/ (`boardlab new-game`) names the TOML file and the
    schema module that are there in the source tree."""
    from boardlab.layouts import game_ids
    from boardlab.reference import definition_page, definition_sources

    for game_id in game_ids("definition"):
        toml, schema = definition_sources(game_id)
        assert (ROOT / toml).is_file() and (ROOT / schema).is_file(), (game_id, toml, schema)
        assert f"(`{toml}` and the variants" in definition_page(game_id)


def test_every_definition_key_has_its_sentence():
    from boardlab.layouts import game_ids
    from boardlab.reference import definition_keys

    silent = [f"{game}: {key.path}" for game in game_ids("definition") for key in definition_keys(game)
              if not key.meaning.strip()]
    assert silent == []


def test_the_reference_holds_every_key_the_shipped_definitions_write():
    from boardlab.layouts import game_ids
    from boardlab.reference import definition_keys, definition_page, shipped_keys

    for game in game_ids("definition"):
        schema = {key.path for key in definition_keys(game)}
        written = shipped_keys(game)
        assert written, game
        assert written - schema == set(), game
        page = definition_page(game)
        assert all(f"| `{path}` |" in page for path in written), game


def test_a_rule_option_carries_its_rulebook_names():
    from boardlab.layouts import load
    from boardlab.layouts.rulebook_markup import option_names, read_text
    from boardlab.reference import definition_keys

    names = option_names(read_text("blockd", "en"))  # read independently of the reference
    keys = {key.path: key for key in definition_keys("blockd")}
    assert names, "Blockd's rulebook names no optional rule"
    for (option, value), name in names.items():
        assert keys[f"rules.{option}"].rulebook_names[value] == name
    assert "Walled grid" in keys["rules.torus"].rulebook_names.values()
    assert load("blockd").rules.torus is True


def test_every_command_option_has_its_sentence():
    from boardlab.cli import COMMANDS
    from boardlab.reference import command_options, command_parsers, commands_page

    parsers = command_parsers()
    assert [name for name in parsers if " " not in name] == list(COMMANDS)
    page = commands_page()
    for name, parser in parsers.items():
        assert parser.description, f"boardlab {name} has no description"
        assert f"## {name}\n" in page
        for written, text in command_options(parser):
            assert text.strip(), f"boardlab {name} {written} has no help"
            assert f"| `{written}` |" in page


def test_help_texts_hold_no_format_escapes():
    """argparse %-formats help texts but not descriptions: '95%%' in a description prints as is."""
    from boardlab.reference import command_options, command_parsers

    for name, parser in command_parsers().items():
        texts = [parser.format_help(), *(text for _, text in command_options(parser))]
        assert not [t for t in texts if "%%" in t or "\\" in t], name


def test_the_playtest_log_page_has_every_column():
    from boardlab.analysis.playtests import COLUMNS, OUTCOME_COLUMNS
    from boardlab.reference import playtest_log_page

    page = playtest_log_page()
    assert [c for c in COLUMNS if f"| `{c}` |" not in page] == []
    assert all(f"| `{c}` | one of winners, scores, ranking |" in page for c in OUTCOME_COLUMNS)


def test_the_rulebook_markup_names_every_directive_and_filter():
    from boardlab.layouts.rulebook_facts import FILTERS
    from boardlab.layouts.rulebook_markup import CONTAINERS, LEAVES

    page = (ROOT / "docs" / "how-to" / "rulebooks.md").read_text(encoding="utf-8")
    assert [f"::: {d}" for d in CONTAINERS + LEAVES if f"::: {d}" not in page] == []
    assert [f for f in FILTERS.split(", ") if f not in page] == []


def test_reference_page_of_a_key_names_type_default_and_limits():
    from boardlab.layouts import load
    from boardlab.reference import definition_page

    d = load("blockd")
    page = definition_page("blockd")
    row = next(line for line in page.splitlines() if line.startswith("| `board.rows` |"))
    assert "a whole number" in row and "required" in row and "2 to 12" in row
    assert f"| `{d.board.rows}` |" in row  # Blockd's own value
    row = next(line for line in page.splitlines() if line.startswith("| `analysis.difference` |"))
    assert "`0.05`" in row
