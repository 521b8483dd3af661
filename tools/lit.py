"""`xlir-lit [lit options] PATH...`: lit over a user's own FileCheck tests
(`.mlir` files with `// RUN:` lines using xlir-opt, xlir-run, filecheck,
...), with xlir's configuration (`xlir.testing.lit_config`) instead of a
`lit.cfg.py` of their own.

lit finds a suite by its config file, so the tests' common folder is
mirrored by a scratch folder holding the config, whose source root is the
user's folder; the paths given are passed to lit as paths in the mirror.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

CONFIG = """\
from xlir.testing.lit_config import configure
config.name = {name!r}
configure(config, lit_config, {root!r})
config.test_exec_root = {exec_root!r}
"""


def _mirrored(arguments: list[str], paths: list[str], scratch: Path) -> list[str]:
    """`arguments` with the test paths moved into the mirror under
    `scratch`, whose config names their common folder."""
    resolved = [Path(p).resolve() for p in paths]
    folders = [p if p.is_dir() else p.parent for p in resolved]
    root = Path(os.path.commonpath(folders))
    (scratch / "lit.cfg.py").write_text(
        CONFIG.format(name=root.name, root=str(root), exec_root=str(scratch / "out"))
    )
    rest = list(arguments)
    for path in paths:
        del rest[len(rest) - 1 - rest[::-1].index(path)]
    return rest + [str(scratch / p.relative_to(root)) for p in resolved]


def main() -> None:
    try:
        from lit.cl_arguments import parse_args
        from lit.main import main as lit_main
    except ImportError:  # pragma: no cover - lit is a dependency
        sys.exit("xlir-lit: error: lit is not installed (`pip install lit`)")
    options = parse_args()
    missing = [p for p in options.test_paths if not Path(p).exists()]
    if missing:
        sys.exit(f"xlir-lit: error: no such file or folder: {', '.join(missing)}")
    with tempfile.TemporaryDirectory(prefix="xlir-lit-") as scratch:
        sys.argv[1:] = _mirrored(sys.argv[1:], options.test_paths, Path(scratch))
        lit_main()


if __name__ == "__main__":
    main()
