"""MkDocs hooks: the reference pages generated from the code (`boardlab.reference.pages`), and the
nav's "Definition keys" section, one page per game of the registry (a game added with
`boardlab new-game` gets its page and its place in the nav without an edit of mkdocs.yml)."""

from mkdocs.structure.files import File

#: the nav section the registry fills (mkdocs.yml gives it as an empty list)
DEFINITION_KEYS = "Definition keys"


def definition_nav():
    """[{game's name: reference/definitions/ID.md}] for every game with a definition, registry order."""
    from boardlab.layouts import game_ids, load

    return [{load(game_id).game.name: f"reference/definitions/{game_id}.md"} for game_id in game_ids("definition")]


def _fill(nav):
    """Fill the section titled DEFINITION_KEYS wherever it is in `nav`; whether it was found."""
    found = False
    for item in nav or []:
        if isinstance(item, dict):
            for title, value in item.items():
                if title == DEFINITION_KEYS and value == []:
                    item[title] = definition_nav()
                    found = True
                elif isinstance(value, list):
                    found = _fill(value) or found
    return found


def on_config(config):
    if not _fill(config["nav"]):
        raise ValueError(f"mkdocs.yml's nav has no empty '{DEFINITION_KEYS}' section for docs/hooks.py to fill")
    return config


def on_files(files, config):
    from boardlab.reference import pages

    for path, text in pages().items():
        files.append(File.generated(config, path, content=text))
    return files
