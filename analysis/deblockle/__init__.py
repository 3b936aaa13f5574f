"""Deblockle: the cube (`cube`), the board and moves (`board`), the rules engine (`engine`),
positions in JSON (`position`), the single-block reachability graph (`reach`) and its tables
(`tables`), the agents (`agents`), the simulate summary (`summary`) and the compiled random
self-play (`kernel`, `batch`)."""
