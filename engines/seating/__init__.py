"""The seating engine: tables and play order for every game of a stage (docs/rules.md §2)."""
