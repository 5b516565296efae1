"""real/harness's command line: plan (or run --dry-run), run, restore, status."""
import argparse
import os
import sys

from . import settings as st
from .harness import Harness
from .root import Root
from .runner import RealRunner

USAGE = """real/harness COMMAND --series DIR [settings]

  plan      print every setting it would change, every command and process,
            the refusals and the expected duration (reads only; = run --dry-run)
  run       run the series' pending runs (needs --change-this-machine, root)
  restore   undo the journal a killed run left, and check the machine
  status    the series' runs, complete or not, and the time still needed
"""


def parser():
    p = argparse.ArgumentParser(prog="real/harness", usage=USAGE)
    p.add_argument("command", choices=["plan", "run", "restore", "status"])
    p.add_argument("--series", required=True, help="the series directory")
    p.add_argument("--root", default="/", help="prefix of /proc and /sys (tests only)")
    p.add_argument("--change-this-machine", action="store_true",
                   help="run: allow the harness to change sysctls, swap and the hugetlb pool")
    p.add_argument("--dry-run", action="store_true", help="run: print the plan only")
    p.add_argument("--max-runs", type=int, default=None,
                   help="run: at most this many pending runs, then restore and stop")
    for key, default, text in st.SETTINGS:
        p.add_argument("--" + key.replace("_", "-"), dest=key, default=None,
                       help="%s (default %s)" % (text, default))
    return p


def main(argv):
    a = parser().parse_args(argv)
    root = Root(a.root)
    cmd = "plan" if a.command == "run" and a.dry_run else a.command
    if cmd in ("run", "restore") and not root.is_real:
        # only the tests run those on a fake tree, with their fake runner
        print("real/harness: %s with --root %s: a fake tree is for the tests (real/tests/), "
              "which bring a fake runner" % (cmd, a.root), file=sys.stderr)
        return 2
    cli = {k: getattr(a, k) for k, _, _ in st.SETTINGS}
    h = Harness(a.series, cli, root, RealRunner(root), change=a.change_this_machine)
    try:
        if cmd == "plan":
            return h.plan()
        if cmd == "run":
            return h.run(a.max_runs)
        if cmd == "restore":
            return h.restore()
        return h.status()
    except st.SettingsError as e:
        print("real/harness: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("real/harness: %s: %s" % (e.filename or "", e.strerror), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
