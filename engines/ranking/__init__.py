"""The ranking engine: table results in, standings out (RULES.md §4), and who advances."""
