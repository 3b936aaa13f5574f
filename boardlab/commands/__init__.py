"""One module per `boardlab` sub-command: each has `register(subparsers)` that adds its parser
and sets `run(args) -> int` as the parser's default `run`."""
