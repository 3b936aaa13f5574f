"""Games written with `boardlab new-game NAME`: each one folder here (the package
`boardlab.games.NAME`), registered by the registration.toml in it (layouts/registry.py finds it)."""
