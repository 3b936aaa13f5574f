"""Links: the deck (`cards`), exact deck-count tables (`tables`), the rules engine with hidden
hands (`engine`), positions in JSON (`position`), agents (`agents`) and the compiled random
self-play path (`batch`)."""
