"""The `xlir` package laid out as it is installed, for tools that read the
package from its folders rather than import it through the editable
install's package-dir mapping (pyright, import-linter): `dialects/` becomes
`xlir/dialects/`, ..., each source file linked in."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE_DIRS = {
    package.removeprefix("xlir."): folder
    for package, folder in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]["package-dir"].items()
    if package != "xlir"
}
"""The layers below `xlir` (`dialects`, ...) and the folder each lives in."""


def link_installed_tree(folder: Path) -> None:
    """`folder/xlir`: the package as installed, its `.py` files linked in
    (pyright does not look for sources inside linked folders)."""
    package = folder / "xlir"
    if package.exists():
        shutil.rmtree(package)
    sources = {package: ROOT / "xlir"} | {
        package / name: ROOT / source for name, source in PACKAGE_DIRS.items()
    }
    for target, source in sources.items():
        for file in source.rglob("*.py"):
            link = target / file.relative_to(source)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(file)
