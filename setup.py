"""Package discovery: every folder named in pyproject's `package-dir` is a
layer of the `xlir` package (`dialects/` is `xlir.dialects`, ...); its
packages are found rather than listed, so a new folder needs no edit here."""

import tomllib
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).parent
PACKAGE_DIR: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())[
    "tool"
]["setuptools"]["package-dir"]

packages = []
for package, folder in PACKAGE_DIR.items():
    packages.append(package)
    packages += [f"{package}.{found}" for found in find_packages(ROOT / folder)]

setup(packages=packages)
