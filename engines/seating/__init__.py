"""The seating engine: tables and play order for every game of a stage (RULES.md §2)."""
