"""A clock for the seating search that runs fast: a machine slowed down, without waiting for one."""


class SlowClock:
    """`time` for `engines.seating.search`: each reading `step` seconds after the last."""

    def __init__(self, step: float = 1.0) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def perf_counter(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now
