"""The lowest layer: helpers every other layer uses, standard library only.

stopping (Ctrl-C, SIGTERM and SIGHUP answered with one line), files (files written whole or not at
all) and notes (progress and notes, silenced by `--quiet`).  Installed as `boardlab.common`; it
imports nothing of boardlab (tests/test_layers.py).
"""
