"""Games written with `boardlab new-game NAME`: each one folder here (the package
`boardlab.games.NAME`) and its line in layouts/registry.py."""
