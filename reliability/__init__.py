"""`make load` and `make chaos`: the app under gunicorn + PostgreSQL + Redis, driven over loopback HTTP.

Not a Django app and never imported by the app: these scripts start the stack as a deployment would,
seed it through the services (in a `manage.py`-style subprocess) and talk to it only over HTTP.
"""
