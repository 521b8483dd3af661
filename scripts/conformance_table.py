"""Per-file results of StableHLO's interpreter test suite on a target.

    python scripts/conformance_table.py [SUITE_DIR] [--target NAME] [--failures]

Prints `file passed/total` for each file of the suite (default:
`../shared/stablehlo_interpret` beside the repository), then the totals, with
the collective files (those that run `interpreter.run_parallel`) counted
apart. `--target` picks the target (the interpreter by default; another
target compiles each test through `check-to-outputs`, tools/check_runner.py).
`--failures` also prints the first line of each failing test's problem (for
an op a target cannot lower, the first op it names).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xlir.tools.check_runner import CheckResult, check_source

SUITE = Path(__file__).resolve().parent.parent.parent / "shared" / "stablehlo_interpret"


def _first_problem(result: CheckResult) -> str:
    """The first line of the problem; for a list of ops a pass cannot lower,
    the first op (the line after the heading)."""
    lines = (result.problems or ["skipped"])[0].split("\n")
    if len(lines) > 1 and lines[0].endswith("of this module:"):
        return lines[1]
    return lines[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", nargs="?", default=str(SUITE))
    parser.add_argument("--target", default="interpreter")
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
        results = check_source(
            text, str(path.relative_to(root)), split=True, target=args.target
        )
        passed = sum(r.passed for r in results)
        totals[collective][0] += passed
        totals[collective][1] += len(results)
        mark = " (collective)" if collective else ""
        print(f"{path.relative_to(root)!s:40} {passed:3}/{len(results):<3}{mark}")
        if args.failures:
            for result in results:
                if not result.passed:
                    print(f"    @{result.function}: {_first_problem(result)[:200]}")
    for collective, label in ((False, "non-collective"), (True, "collective")):
        passed, total = totals[collective]
        print(f"{label}: {passed}/{total}")
    passed = sum(t[0] for t in totals.values())
    total = sum(t[1] for t in totals.values())
    print(f"all: {passed}/{total}")


if __name__ == "__main__":
    main()
