# The web app, the Celery worker and beat all run from this image (see docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# Pango for WeasyPrint; the Noto fonts draw names in the scripts the fonts in static/fonts/ lack (CJK included).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-noto-core fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The locked versions, hash-checked: the image runs what CI tested (requirements/runtime.txt, from `make lock`).
COPY requirements/runtime.txt requirements/runtime.txt
RUN pip install --require-hashes -r requirements/runtime.txt
# The code, once: run from /app, not installed as a package beside it.
COPY . .
ENV PYTHONPATH=/app
# The app's user writes nothing under /app (beat's schedule and heartbeat go to /tmp, gunicorn opens no control
# socket in its home).
RUN python manage.py collectstatic --noinput \
 && useradd --system --home-dir /app catan \
 && mkdir -p /var/run/catan-metrics && chown catan /var/run/catan-metrics
# /var/run/catan-metrics: PROMETHEUS_MULTIPROC_DIR, a volume every process of the host shares (docker-compose.yml)
USER catan

EXPOSE 8000
CMD ["gunicorn", "catan_tournaments.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-", \
     "--no-control-socket"]
