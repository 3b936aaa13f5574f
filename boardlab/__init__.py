"""boardlab: design analysis and print-and-play files for small board and card games."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("boardlab")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"
