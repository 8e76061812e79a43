"""Reads for the public pages (no login): each a fixed number of queries, whatever the number of players.

Standings and the rank after each game come from the standings cache (`ranking/standings.py`); everything a
page shows changes with the tournament's results version, which the views use as the ETag.
"""
