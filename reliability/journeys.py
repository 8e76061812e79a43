"""`make test-stack`: the browser journeys (organizer, referee on a tablet, player on a phone) through
`https://catan.test:<port>`, against the stack as deployed, in one pytest run and one stack start.

The pytest process becomes one more client of the stack's services: the same database (its factories write the
rows the journeys start from), the same cache and broker (so what it changes reaches the replicas' pages, and the
emails it causes go out through the stack's worker and mail server), the same SITE_URL. Its session fixture
(tests/e2e/conftest.py, tests/e2e/site.py) starts the stack with `STACK_ARGS`, waits for "stack ready", and at the
end stops it with SIGTERM and checks that no process it started is left.

`python -m reliability.journeys [pytest arguments]`; without arguments the tests marked `stack` under tests/e2e.
"""
import os
import shlex
import sys

from .stack import STACK_ENV, Stack

NAME, PORT, REDIS_PORT, CACHE_REDIS_PORT, WORKERS = "stack_e2e", 18700, 6398, 6399, 1
"""Its own database, folder and ports (`make stack` uses catan_stack and 18600…, 6394 and 6395)."""


def main() -> None:
    stack = Stack(NAME, PORT, REDIS_PORT, WORKERS, cache_redis_port=CACHE_REDIS_PORT)
    args = ["--name", NAME, "--port", str(PORT), "--redis-port", str(REDIS_PORT),
            "--cache-redis-port", str(CACHE_REDIS_PORT), "--workers", str(WORKERS)]
    known = {name: stack.env[name] for name in STACK_ENV if name in stack.env and not name.startswith(
        ("METRICS", "WEBPUSH"))}  # made when the stack starts: read from its env.json
    env = {**os.environ, **known, "STACK_ARGS": shlex.join(args), "STACK_ENV_FILE": str(stack.dir / "env.json")}
    pytest = [sys.executable, "-m", "pytest", *(sys.argv[1:] or ["-m", "stack", "tests/e2e"])]
    os.execve(sys.executable, pytest, env)


if __name__ == "__main__":
    main()
