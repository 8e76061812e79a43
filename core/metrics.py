"""The site's own Prometheus counters, beside django-prometheus's (requests by view, database queries, cache calls).

Counted in whichever process does the work (a web worker, the Celery worker); with `PROMETHEUS_MULTIPROC_DIR`
set, prometheus_client writes each process's figures into that folder and `/metrics` adds them up
(catan_tournaments/metrics.py), so every process of a host must be given the same folder.
"""
from prometheus_client import Counter

EMAILS = Counter("catan_emails", "Emails by outcome: sent, retried (the mail server failed, tried again later), "
                 "failed (given up)", ["outcome"])
