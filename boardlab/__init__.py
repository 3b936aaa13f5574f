"""boardlab: design analysis and print-and-play files for small board and card games."""


def __getattr__(name: str) -> str:
    """`__version__`, read from the installed package's metadata when first asked for.

    Kept lazy so that starting the command imports as little as possible before it can answer
    a Ctrl-C (see `boardlab.entry`).
    """
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("boardlab")
        except PackageNotFoundError:  # running from a source tree that was never installed
            return "0.0.0"
    raise AttributeError(f"module 'boardlab' has no attribute {name!r}")
