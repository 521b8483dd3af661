"""Per-file results of StableHLO's interpreter test suite on the interpreter.

    python scripts/conformance_table.py [SUITE_DIR] [--failures]

Prints `file passed/total` for each file of the suite (default:
`../shared/stablehlo_interpret` beside the repository), then the totals, with
the collective files (those that run `interpreter.run_parallel`) counted
apart. `--failures` also prints the first line of each failing test's
problem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xlir.tools.check_runner import check_source

SUITE = Path(__file__).resolve().parent.parent.parent / "shared" / "stablehlo_interpret"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", nargs="?", default=str(SUITE))
    parser.add_argument("--failures", action="store_true")
    args = parser.parse_args()
    root = Path(args.suite)
    files = sorted(root.rglob("*.mlir"))
    if not files:
        sys.exit(f"no .mlir files under {root}")
    totals = {False: [0, 0], True: [0, 0]}
    for path in files:
        text = path.read_text()
        collective = "interpreter.run_parallel" in text
        results = check_source(text, str(path.relative_to(root)), split=True)
        passed = sum(r.passed for r in results)
        totals[collective][0] += passed
        totals[collective][1] += len(results)
        mark = " (collective)" if collective else ""
        print(f"{path.relative_to(root)!s:40} {passed:3}/{len(results):<3}{mark}")
        if args.failures:
            for result in results:
                if not result.passed:
                    first = (result.problems or ["skipped"])[0].split("\n")[0]
                    print(f"    @{result.function}: {first[:200]}")
    for collective, label in ((False, "non-collective"), (True, "collective")):
        passed, total = totals[collective]
        print(f"{label}: {passed}/{total}")
    passed = sum(t[0] for t in totals.values())
    total = sum(t[1] for t in totals.values())
    print(f"all: {passed}/{total}")


if __name__ == "__main__":
    main()
