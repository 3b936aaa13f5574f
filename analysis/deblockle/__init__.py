"""Deblockle: the cube (`cube`), the rules engine (`engine`), positions in JSON (`position`),
the single-block reachability graph (`reach`) and its tables (`tables`)."""
