"""The ranking engine: table results in, standings out (docs/rules.md §4), and who advances."""
