"""Read by gunicorn from the directory it starts in (the Dockerfile's, docker-compose's and `make load`'s command
lines): settings every deployment shares."""
# The access and error logs without the players' private tokens (the request line and the referrer of /me/<token>/).
logger_class = "catan_tournaments.gunicorn_logging.RedactingLogger"


def child_exit(server, worker):
    """A worker that exited: its live figures (gauges) leave /metrics; its counters stay in the sum."""
    import os

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
