"""`FUZZ_SCALE=10 pytest tests/fuzz` runs ten times as many examples: a deeper search than CI's."""
import os

SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
