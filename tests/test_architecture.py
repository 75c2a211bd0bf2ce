"""Every module of the two packages sits in a layer of pyproject.toml's layer contracts, so the contracts cover
code added later: a new package outside every layer fails here until it is given its place."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("annotator", "trainer_bridge")
# Not code of any layer: the packages themselves (a version string), `python -m` and the demo's folder docstring.
OUTSIDE_LAYERS = {
    "annotator",
    "annotator.__main__",
    "annotator.demo",
    "trainer_bridge",
    "trainer_bridge.__main__",
}


def layer_packages() -> list[str]:
    """Every package named in a layer of a `layers` contract (siblings split on | and :)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = [layer for contract in contracts if contract["type"] == "layers" for layer in contract["layers"]]
    return [name.strip() for layer in layers for name in re.split(r"[|:]", layer)]


def in_layer(module: str, packages: list[str]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def test_every_module_belongs_to_a_layer() -> None:
    graph = grimp.build_graph(*PACKAGES)
    packages = layer_packages()
    outside = sorted(m for m in graph.modules if not in_layer(m, packages) and m not in OUTSIDE_LAYERS)
    assert outside == [], f"modules in no layer of pyproject.toml's contracts: {outside}"


def test_a_new_package_outside_the_layers_would_be_found() -> None:
    packages = layer_packages()
    assert not in_layer("annotator.newthing.module", packages)
    assert in_layer("annotator.storage.models", packages) and in_layer("trainer_bridge.train.sft", packages)
