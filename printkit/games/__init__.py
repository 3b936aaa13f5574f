"""One print module per game: `print_files(definition, options) -> list[PrintFile]`."""
