"""API v1 (`/api/v1/`, docs/interfaces.md "HTTP"): the public JSON other programs use, versioned, with an OpenAPI
schema (`/api/v1/openapi.json`) and a browsable page (`/api/v1/docs`).

Built on django-ninja rather than Django REST framework with drf-spectacular: the schema is generated from the
same type hints and pydantic schemas that shape and check every answer, so the documentation cannot drift from
the code; it is small (pydantic is its one dependency), its operations are plain Django views that take the
project's own view decorators (the live pages' ETag and page cache, `ranking.live`), and it is typed for mypy.
Its Swagger page loads the package's own static files (no CDN).
"""
