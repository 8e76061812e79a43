"""URL modules by audience: the public, referees, organizers and the JSON API each have their own."""
