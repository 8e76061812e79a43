"""`make stack`: the production stack on loopback (reliability/stack.py) in the foreground until Ctrl-C or SIGTERM,
or until whoever started it is gone; then every process stopped and, unless `--keep`, its database dropped."""
import argparse
import os
import signal
import sys
import threading
import time

from .stack import HOST, SITE, Stack, log


def orphaned(parent: int, stop: threading.Event) -> None:
    """`stop` set once whoever started the stack is gone (a test run killed by SIGKILL cannot stop it itself)."""
    while not stop.wait(1):
        if os.getppid() != parent:
            log("the process that started the stack is gone")
            stop.set()


def main(argv: list[str] | None = None) -> int:
    """`make stack`: the stack in the foreground until Ctrl-C or SIGTERM, then every process stopped."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=18600, help="nginx's TLS port (the others follow from it)")
    parser.add_argument("--redis-port", type=int, default=6394)
    parser.add_argument("--cache-redis-port", type=int, default=6395)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per replica")
    parser.add_argument("--name", default="stack", help="the database catan_<name> and the folder /tmp/catan_<name>")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    options = parser.parse_args(argv)
    stack = Stack(options.name, options.port, options.redis_port, options.workers,
                  cache_redis_port=options.cache_redis_port)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    threading.Thread(target=orphaned, args=(os.getppid(), stop), daemon=True).start()
    code = 0
    try:
        started = time.monotonic()
        log(f"preparing {stack.database} and {stack.dir}")
        stack.prepare()
        log(f"prepared in {time.monotonic() - started:.0f} s: "
            + ", ".join(f"{what} {how}" for what, how in stack.prepared.items()))
        stack.start_all()
        log(f"every process started, {time.monotonic() - started:.0f} s in all")
        assert stack.certificates is not None
        print(f"stack ready: {stack.site_url}/", flush=True)
        print(f"stack mail: {stack.mail_dir}", flush=True)
        print(f"stack push: {stack.push_url} (messages into {stack.push_dir})", flush=True)
        print(f"stack ca: {stack.certificates.ca} (Chromium: --ignore-certificate-errors-spki-list="
              f"{stack.certificates.spki} --host-resolver-rules=\"MAP {SITE} {HOST}\")",
              flush=True)
        print(f"stack env: {stack.write_env()}", flush=True)
        stop.wait()
    except Exception as error:  # said, then everything stopped
        log(f"the stack did not start: {type(error).__name__}: {error}")
        code = 1
    finally:
        log("stopping every process of the stack")
        for problem in stack.stop_all():
            log(problem)
        if not options.keep:
            stack.drop_database()
    log("stack stopped")
    return code


if __name__ == "__main__":
    sys.exit(main())
