"""One tournament as a JSON file and back: `export_tournament` and `import_tournament` (docs/operations.md).

`format.py` says what a file holds, `export.py` writes it, `restore.py` loads it into a database
that does not have the tournament, and `payloads.py` re-links the ids that audit entries and sheet
revisions carry inside their JSON.
"""
