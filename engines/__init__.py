"""Pure code: the engines and the ruleset registry. Plain data in, plain data out, nothing from Django.

`rulesets` and `metrics` define how each ruleset plays and ranks; `ranking`, `seating` and `boards`
are the engines. The apps feed them rows from the database; the commands feed them CSV files.
"""
