"""Blockd: the rules engine (`engine`), walk tables (`walks`), positions in JSON (`position`),
the move graph (`graph`) and the tables over random deals (`tables`)."""
