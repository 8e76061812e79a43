"""The site's pages by audience, above the domain apps: each audience's views, forms, templates and URLs in one
place (`web/players`: the players' own pages). The domain apps never import it (pyproject.toml, the layers)."""
