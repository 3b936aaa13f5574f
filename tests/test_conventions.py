"""Command-line conventions every command keeps: `--quiet`, `--json` on list, check and report,
shell completion (`boardlab completion bash|zsh|fish`)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.common import notes
from boardlab.cli import COMMANDS, main
from boardlab.layouts import game_ids, load, variants_of

# a report small enough for the suite: its search levels stop at 16 (the default 1,024 tripled its time)
TINY = ["--games", "48", "--skill-games", "6", "--decision-games", "4", "--deals", "4", "--skill-budget", "16",
        "--workers", "1", "--lang", "en"]


@pytest.fixture(autouse=True)
def _loud_again():
    yield
    notes.set_quiet(False)  # main() sets it per command; a test that fails midway must not leave it on


# -- --quiet --------------------------------------------------------------------------------------

def test_every_command_takes_quiet():
    from boardlab.reference import command_options, command_parsers

    parsers = command_parsers()
    assert {name.split()[0] for name in parsers} == set(COMMANDS)
    for name, parser in parsers.items():
        if any(written.startswith("FORMAT") or "= " in written for written, _ in command_options(parser)):
            continue  # a command of sub-commands: each of them takes it
        assert "-q, --quiet" in [written for written, _ in command_options(parser)], name


def test_check_quiet_says_only_problems(tmp_path, capsys):
    assert main(["check", "blockd", "links"]) == 0
    assert capsys.readouterr().out.count(": ok (") == 2
    assert main(["check", "--quiet", "blockd", "links"]) == 0
    assert capsys.readouterr() == ("", "")
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "blockd"\n[rules]\ntorus = "no"\n')
    assert main(["check", "-q", "blockd", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and f"{bad}:3: rules.torus" in err


def test_rulebook_quiet_writes_its_files_and_says_nothing(tmp_path, capsys):
    assert main(["rulebook", "deblockle", "--lang", "en", "--out", str(tmp_path / "loud")]) == 0
    said = capsys.readouterr().out.split()
    assert said == [str(p) for p in sorted((tmp_path / "loud").iterdir())]
    assert main(["rulebook", "deblockle", "--lang", "en", "--out", str(tmp_path / "quiet"), "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert sorted(p.name for p in (tmp_path / "quiet").iterdir()) == sorted(Path(p).name for p in said)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_silent_when_quiet():
    from boardlab.analysis.runner import Progress

    loud, silent = Terminal(), Terminal()
    bar = Progress(10, stream=loud, delay=0.0)
    bar.update(10)
    bar.close()
    notes.set_quiet(True)
    bar = Progress(10, stream=silent, delay=0.0)
    bar.update(10)
    bar.close()
    assert "10/10 games" in loud.getvalue() and silent.getvalue() == ""


# -- --json ---------------------------------------------------------------------------------------

def test_list_json_holds_what_the_definitions_say(capsys):
    assert main(["list", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in games] == list(game_ids())
    for game in games:
        info = load(game["id"]).game
        assert (game["name"], game["min_players"], game["max_players"], game["minutes"], game["summary"]) == (
            info.name, info.min_players, info.max_players, info.minutes, info.summary)
        assert [v["name"] for v in game["variants"]] == variants_of(game["id"])
        assert all(v["summary"] for v in game["variants"])
    assert main(["list"]) == 0
    text = capsys.readouterr().out
    assert all(v["summary"] in text for g in games for v in g["variants"])


def test_check_json_lists_the_same_problems_as_the_text(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "blockd"\n[rules]\ntorus = "no"\nbogus = 1\n')
    assert main(["check", str(bad), "links"]) == 2
    problems = capsys.readouterr().err.splitlines()
    assert main(["check", "--json", str(bad), "links"]) == 2
    out, err = capsys.readouterr()
    assert err == ""
    results = json.loads(out)
    assert [r["target"] for r in results] == [str(bad), "links"]
    assert results[0]["ok"] is False and sorted(results[0]["problems"]) == sorted(problems) and len(problems) == 2
    assert results[1]["ok"] is True and results[1]["problems"] == [] and results[1]["file"].endswith("links.toml")


def test_report_json_prints_what_the_report_file_holds(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["report", "deblockle", "--store", str(tmp_path / "r.sqlite"), "--out", str(out), *TINY,
                 "--json", "--quiet"]) == 0
    printed, err = capsys.readouterr()
    assert err == ""
    (entry,) = json.loads(printed)
    assert entry["language"] == "en"
    assert sorted(entry["files"]) == sorted(str(p) for p in [out / "deblockle.md", out / "deblockle.pdf",
                                                             out / "deblockle.json", *(out / "deblockle").glob("*.svg")])
    assert entry["report"] == json.loads((out / "deblockle.json").read_text(encoding="utf-8"))
    # the Markdown renders as written: every bullet of the report is a list item in python-markdown
    import markdown

    text = (out / "deblockle.md").read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables"])
    bullets = [line for line in text.splitlines() if re.match(r"(- |\* |\d+\. )", line)]
    assert len(bullets) > 5 and html.count("<li>") == len(bullets)
    assert html.count("<table>") == text.count("\n|---") + text.count("\n| ---")


# -- completion -----------------------------------------------------------------------------------

def _complete(script: Path, *words: str) -> list[str]:
    """What bash completes after `words` (the last one being typed), with the script loaded."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (f"source {script}\nCOMP_WORDS=({quoted})\nCOMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))\n"
               "_boardlab\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_commands_options_and_values(tmp_path):
    script = tmp_path / "boardlab.bash"
    done = subprocess.run([sys.executable, "-m", "boardlab", "completion", "bash"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    script.write_text(done.stdout)
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    loaded = subprocess.run(["bash", "-c", f"source {script} && complete -p boardlab"], capture_output=True, text=True)
    assert loaded.returncode == 0 and "_boardlab" in loaded.stdout
    assert _complete(script, "boardlab", "") == list(COMMANDS) + ["--help", "--version"]
    assert _complete(script, "boardlab", "si") == ["simulate"]
    assert _complete(script, "boardlab", "report", "") [:len(game_ids("engine"))] == list(game_ids("engine"))
    assert "--quiet" in _complete(script, "boardlab", "report", "blockd", "--")
    assert _complete(script, "boardlab", "report", "--variant", "blockd-pawns-b") == ["blockd-pawns-block"]
    assert _complete(script, "boardlab", "tables", "blockd", "--format", "") == ["md", "json", "csv"]
    assert _complete(script, "boardlab", "export", "") == ["tts", "cards", "-h", "--help"]
    assert "--relative" in _complete(script, "boardlab", "export", "tts", "blockd", "--")
    assert _complete(script, "boardlab", "report", "--games", "") == []  # a number: nothing to offer
    # a value of an option is not taken for the command: `--variant X report` is not `report`
    assert _complete(script, "boardlab", "report", "--seed", "3", "--ag") == ["--agent"]


def test_zsh_and_fish_scripts_complete_every_command_and_option(capsys):
    from boardlab.reference import command_options, command_parsers

    assert main(["completion", "zsh"]) == 0
    zsh = capsys.readouterr().out
    assert "bashcompinit" in zsh and "complete -o default -F _boardlab boardlab" in zsh
    assert main(["completion", "fish"]) == 0
    fish = capsys.readouterr().out
    for name in COMMANDS:
        assert f"-n __fish_use_subcommand -a {name} " in fish
    for name, parser in command_parsers().items():
        for written, _ in command_options(parser):
            for option in (w.split()[0] for w in written.split(", ") if w.startswith("--")):
                assert f" -l {option[2:]}" in fish, (name, option)
    for shell, text in (("zsh", zsh), ("fish", fish)):
        if shutil.which(shell):
            assert subprocess.run([shell, "-n"], input=text, text=True).returncode == 0, shell


def test_completion_of_an_unknown_shell_is_one_line(capsys):
    assert main_exit(["completion", "tcsh"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tcsh" in err


def main_exit(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code or 0)
