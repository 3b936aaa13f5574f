"""`boardlab completion bash|zsh|fish`: a shell completion script, made from the command line parser.

The script holds the words it completes (commands, options, option values, game and variant
names), so a Tab press never starts Python; make it again after adding a game or a variant.
"""

from __future__ import annotations

import argparse
import shlex

#: the command's line in `boardlab --help`
HELP = "print a shell completion script (bash, zsh or fish)"

SHELLS = ("bash", "zsh", "fish")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "completion", help=HELP,
        description="Print a script that completes boardlab's commands, options, option values and game and "
                    "variant names in your shell. bash: add 'eval \"$(boardlab completion bash)\"' to ~/.bashrc; "
                    "zsh: 'eval \"$(boardlab completion zsh)\"' in ~/.zshrc; fish: 'boardlab completion fish > "
                    "~/.config/fish/completions/boardlab.fish'.")
    p.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print(script(args.shell), end="")
    return 0


def script(shell: str) -> str:
    """The completion script for `shell`."""
    commands = completions()
    return fish_script(commands) if shell == "fish" else bash_script(commands, zsh=shell == "zsh")


def completions() -> dict[str, dict]:
    """Per command (`export tts` for a command's own sub-commands; "" for `boardlab` itself): its
    help line, its options ({option: the words its value takes, None for a flag, [] for a free
    value}) and the words its positional arguments take."""
    from boardlab.layouts import game_ids, variants_of
    from boardlab.reference import command_parsers

    variants = [name for game in game_ids() for name in variants_of(game)]
    out: dict[str, dict] = {"": {"help": "", "options": {"--help": None, "--version": None}, "words": []}}
    parsers = command_parsers()
    for name, parser in parsers.items():
        options: dict[str, list[str] | None] = {}
        words: list[str] = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                words += list(action.choices)
                continue
            values = _values(action, variants)
            if action.option_strings:
                for option in action.option_strings:
                    options[option] = None if action.nargs == 0 else values
            else:
                words += values
        out[name] = {"help": _first_line(parser.description or ""), "options": options, "words": words}
    out[""]["words"] = [name for name in parsers if " " not in name]
    return out


def _values(action: argparse.Action, variants: list[str]) -> list[str]:
    """The words an argument's value can be: its choices, the games, or games and variants."""
    from boardlab.layouts import game_ids

    if action.choices is not None and not isinstance(action.choices, dict):
        return [str(choice) for choice in action.choices]
    if action.dest == "game":
        return list(game_ids())
    if action.dest == "variant":
        return variants
    if action.dest == "targets":
        return list(game_ids()) + variants
    return []


def _first_line(text: str) -> str:
    return text.split(". ")[0].rstrip(".")


def bash_script(commands: dict[str, dict], zsh: bool = False) -> str:
    """A bash completion function (zsh runs it through its bashcompinit)."""
    lines = ["# boardlab completion (made by `boardlab completion`); load it with",
             f'#   eval "$(boardlab completion {"zsh" if zsh else "bash"})"']
    if zsh:
        lines += ["autoload -U +X bashcompinit && bashcompinit"]
    lines += [
        "_boardlab() {",
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
        "    local command='' word i words=''",
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        "        word=${COMP_WORDS[i]}",
        "        [[ $word == -* ]] && continue",
        f"        case \"${{COMP_WORDS[i-1]}}\" in {_value_options(commands)}) continue;; esac",
        "        if [[ -z $command ]]; then command=$word",
        f"        elif [[ \" {' '.join(sorted({n.split()[0] for n in commands if ' ' in n}))} \" == *\" $command \"* "
        "&& $command != *' '* ]]; then command=\"$command $word\"",
        "        fi",
        "    done",
        "    case \"$command|$prev\" in",
    ]
    for name, spec in commands.items():
        for option, values in spec["options"].items():
            if values:
                lines.append(f"        {_quote(name + '|' + option)}) words={_quote(' '.join(values))};;")
            elif values == []:
                lines.append(f"        {_quote(name + '|' + option)}) COMPREPLY=(); return;;")
    for name, spec in commands.items():
        words = spec["words"] + list(spec["options"])
        lines.append(f"        {_quote(name)}'|'*) words={_quote(' '.join(words))};;")
    lines += [
        "    esac",
        "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
        "}",
        "complete -o default -F _boardlab boardlab",
        "",
    ]
    return "\n".join(lines)


def _value_options(commands: dict[str, dict]) -> str:
    """The options taking a value, as a bash case pattern (their value is not a command word)."""
    taking = sorted({option for spec in commands.values() for option, values in spec["options"].items()
                     if values is not None})
    return "|".join(taking) or "''"


def _quote(text: str) -> str:
    return shlex.quote(text)


def fish_script(commands: dict[str, dict]) -> str:
    """fish `complete` lines for every command, option and value."""
    lines = ["# boardlab completion (made by `boardlab completion fish`); save it as",
             "#   ~/.config/fish/completions/boardlab.fish",
             "complete -c boardlab -f"]
    top = [n for n in commands if n and " " not in n]
    for name in top:
        lines.append(f"complete -c boardlab -n __fish_use_subcommand -a {_quote(name)} "
                     f"-d {_quote(commands[name]['help'])}")
    for name, spec in commands.items():
        if not name:
            continue
        words = name.split()
        if len(words) == 1:
            condition = f"__fish_seen_subcommand_from {words[0]}"
        else:
            condition = f"__fish_seen_subcommand_from {words[0]}; and __fish_seen_subcommand_from {words[1]}"
        if spec["words"]:
            lines.append(f"complete -c boardlab -n {_quote(condition)} -a {_quote(' '.join(spec['words']))}")
        for option, values in spec["options"].items():
            flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
            value = "" if values is None else (" -r -f -a " + _quote(" ".join(values)) if values else " -r -F")
            lines.append(f"complete -c boardlab -n {_quote(condition)} {flag}{value}")
    return "\n".join(lines) + "\n"
