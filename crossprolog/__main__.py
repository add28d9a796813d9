"""`crossprolog` and `python -m crossprolog`: the command line, quiet on Ctrl-C from the start."""

import sys
import time


def main() -> int:
    started = time.monotonic()  # --timeout counts from here
    try:
        from .cli import main as run  # the grammars, and more: a moment to load
    except KeyboardInterrupt:
        print("crossprolog: interrupted", file=sys.stderr)
        return 130
    code = run(started=started)
    from .output import finished

    return finished(code)  # whatever is still buffered must get out too, or be said lost


if __name__ == "__main__":
    sys.exit(main())
