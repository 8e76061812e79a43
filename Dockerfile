# The web app, the Celery worker and beat all run from this image (see docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# Pango for WeasyPrint; the Noto fonts draw names in the scripts the fonts in static/fonts/ lack (CJK included).
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-noto-core fonts-noto-cjk \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY catan_tournaments catan_tournaments
COPY engines engines
COPY core core
COPY audit audit
COPY championships championships
COPY scheduling scheduling
COPY results results
COPY ranking ranking
COPY organize organize
COPY demo demo
RUN pip install .
COPY . .
RUN python manage.py collectstatic --noinput \
 && mkdir -p /app/media \
 && useradd --system --home /app catan && chown -R catan /app
USER catan

EXPOSE 8000
CMD ["gunicorn", "catan_tournaments.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
