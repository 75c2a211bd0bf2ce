import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import select

from annotator.domain.counting import Counting
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.bundle_manifest import BundleError
from annotator.services.stats import dataset_stats
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.factories import database_snapshot, make_png

pytestmark = pytest.mark.slow


def tree_hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def manifest_without_date(folder: Path) -> dict:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest.pop("created_at")
    return manifest


@pytest.fixture
def target(tmp_path: Path):  # type: ignore[no-untyped-def]
    opened = Workspace.open(tmp_path / "target")
    yield opened
    opened.close()


@pytest.mark.parametrize("suffix", ["", ".zip"])
def test_round_trip_is_bit_for_bit(populated: Workspace, target: Workspace, tmp_path: Path, suffix: str) -> None:
    first = export_bundle(populated, tmp_path / f"first{suffix}")
    assert (first.trajectories, first.steps) == (3, 7)
    result = import_bundle(target, first.path)
    assert (result.trajectories_added, result.steps_added, result.blobs_added) == (3, 7, 8)
    second = export_bundle(target, tmp_path / "second")
    if suffix == ".zip":
        with zipfile.ZipFile(first.path) as archive:
            archive.extractall(tmp_path / "first-unpacked")
        first_folder = tmp_path / "first-unpacked"
    else:
        first_folder = first.path
    blob_hashes = {k: v for k, v in tree_hashes(first_folder).items() if k.startswith("blobs/")}
    assert blob_hashes == {k: v for k, v in tree_hashes(second.path).items() if k.startswith("blobs/")}
    assert all(name == f"blobs/{digest}" for name, digest in blob_hashes.items())
    assert manifest_without_date(first_folder) == manifest_without_date(second.path)
    assert dataset_stats(target.database, Counting.ROWS) == dataset_stats(populated.database, Counting.ROWS)
    carried = manifest_without_date(second.path)
    first_step = carried["trajectories"][0]["steps"][0]
    assert first_step["usage"]["total_tokens"] == 960 and first_step["attempts"][0]["reply"] == "胡言乱语"
    assert first_step["flags"] == {"black_frame": False, "settled": True}
    assert carried["trajectories"][0]["settings"]["history_images"] == 2
    assert carried["trajectories"][0]["stop_reason"] == "terminate"
    assert carried["devices"][0]["app_packages"]["淘宝"] == "com.demo"


def test_importing_twice_adds_nothing(populated: Workspace, target: Workspace, tmp_path: Path) -> None:
    bundle = export_bundle(populated, tmp_path / "bundle.zip").path
    import_bundle(target, bundle)
    before = database_snapshot(target)
    again = import_bundle(target, bundle)
    assert (again.trajectories_added, again.trajectories_skipped, again.blobs_added) == (0, 3, 0)
    assert database_snapshot(target) == before


def test_export_filters_by_app_and_status(populated: Workspace, tmp_path: Path) -> None:
    by_app = export_bundle(populated, tmp_path / "taobao", app="淘宝")
    assert by_app.trajectories == 2
    accepted = export_bundle(populated, tmp_path / "accepted", status="accepted")
    assert accepted.trajectories == 2
    both = export_bundle(populated, tmp_path / "both", app="抖音", status="accepted")
    assert (both.trajectories, both.steps) == (1, 2)


def test_export_never_overwrites(populated: Workspace, tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(FileExistsError):
        export_bundle(populated, tmp_path / "taken")


# Each bad bundle is made from a good one, then imported into a workspace that already holds data.
def truncate_zip(folder: Path, tmp_path: Path) -> Path:
    archive = tmp_path / "good.zip"
    shutil.make_archive(str(archive.with_suffix("")), "zip", folder)
    data = archive.read_bytes()
    broken = tmp_path / "truncated.zip"
    broken.write_bytes(data[: len(data) * 2 // 3])
    return broken


def remove_a_blob(folder: Path, _tmp: Path) -> Path:
    next((folder / "blobs").iterdir()).unlink()
    return folder


def damage_a_blob(folder: Path, _tmp: Path) -> Path:
    blob = sorted((folder / "blobs").iterdir())[-1]
    blob.write_bytes(blob.read_bytes()[:-1] + b"\x00")
    return folder


def edit_manifest(change):  # type: ignore[no-untyped-def]
    def apply(folder: Path, _tmp: Path) -> Path:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        change(manifest)
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        return folder

    return apply


def escape_in_zip(folder: Path, tmp_path: Path) -> Path:
    archive = tmp_path / "escape.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in folder.rglob("*"):
            if path.is_file():
                out.write(path, str(path.relative_to(folder)))
        out.writestr("../outside.txt", "gotcha")
    return archive


def break_json(folder: Path, _tmp: Path) -> Path:
    (folder / "manifest.json").write_text('{"format": ', encoding="utf-8")
    return folder


def replace_a_screenshot(data: bytes):  # type: ignore[no-untyped-def]
    """The last step's screenshot swapped for `data`, under its own hash, as a hostile bundle would."""

    def apply(folder: Path, _tmp: Path) -> Path:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        step = manifest["trajectories"][-1]["steps"][-1]
        old, new = step["screenshot_sha256"], hashlib.sha256(data).hexdigest()
        (folder / "blobs" / new).write_bytes(data)
        entry = next(blob for blob in manifest["blobs"] if blob["sha256"] == old)
        manifest["blobs"].append(entry | {"sha256": new, "size": len(data)})
        step["screenshot_sha256"] = new
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        return folder

    return apply


def damage_a_zip_member(folder: Path, tmp_path: Path) -> Path:
    """A zip whose last blob fails its CRC when read: the blobs before it were copied already."""
    archive = tmp_path / "damaged.zip"
    blobs = sorted((folder / "blobs").iterdir())
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        out.write(folder / "manifest.json", "manifest.json")
        for blob in blobs:
            out.write(blob, f"blobs/{blob.name}")
    data = bytearray(archive.read_bytes())
    where = data.rfind(blobs[-1].read_bytes()[-200:])
    data[where + 100] ^= 0xFF
    archive.write_bytes(bytes(data))
    return archive


def blob_files(workspace: Workspace) -> list[Path]:
    return sorted(path for path in workspace.blobs.root.rglob("*") if path.is_file())


def point_blob_outside(manifest: dict) -> None:
    manifest["blobs"][0]["sha256"] = "../../manifest.json"


BAD_BUNDLES = {
    "a screenshot that is not an image": (
        replace_a_screenshot(b"<html>not a screenshot</html>"),
        "is not a readable image, but the bundle uses it as one",
    ),
    "a screenshot of another size": (
        replace_a_screenshot(make_png(100, 200)),
        "a 100x200 image, the manifest says 1080x2400",
    ),
    "truncated zip": (truncate_zip, "not a readable zip|damaged"),
    "missing blob": (remove_a_blob, "missing from the bundle"),
    "hash mismatch": (damage_a_blob, "does not match its name"),
    "damaged zip member": (damage_a_zip_member, "in the zip is damaged"),
    "unknown format version": (
        edit_manifest(lambda m: m.update(format_version=99)),
        "unknown format version 99",
    ),
    "path escaping in zip": (escape_in_zip, "escapes it: '../outside.txt'"),
    "path escaping in manifest": (edit_manifest(point_blob_outside), "not a sha256"),
    "broken json": (break_json, "not valid JSON: Expecting value at line 1 column 12"),
    "dangling instruction": (
        edit_manifest(lambda m: m["trajectories"][0].update(instruction_uid="nope")),
        "instruction 'nope' is not in the bundle",
    ),
    "size mismatch": (edit_manifest(lambda m: m["blobs"][0].update(size=1)), "the manifest says 1"),
    "privacy region off the screen": (
        edit_manifest(lambda m: m["trajectories"][0]["steps"][1]["label"].update(privacy_regions=[[0, 0, 2000, 9]])),
        r"steps\[1\]\.label\.privacy_regions: region 1: \[0\.0, 0\.0, 2000\.0, 9\.0\] is not within the 1080x2400",
    ),
}


@pytest.mark.parametrize("case", list(BAD_BUNDLES))
def test_a_bad_bundle_fails_clearly_and_changes_nothing(
    populated: Workspace, target: Workspace, tmp_path: Path, case: str
) -> None:
    from tests.factories import add_trajectory

    add_trajectory(target, "设置", "打开设置", 1, seed=9)
    good = export_bundle(populated, tmp_path / "good").path
    make_bad, message = BAD_BUNDLES[case]
    bad = make_bad(good, tmp_path)
    before, files = database_snapshot(target), blob_files(target)
    with pytest.raises(BundleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        import_bundle(target, bad)
    assert database_snapshot(target) == before
    assert blob_files(target) == files  # no blob file written, none left in blobs/tmp


def test_a_version_2_bundle_from_before_privacy_regions_imports_with_none(
    populated: Workspace, target: Workspace, tmp_path: Path
) -> None:
    folder = export_bundle(populated, tmp_path / "older").path
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    labels = [step["label"] for trajectory in manifest["trajectories"] for step in trajectory["steps"]]
    assert manifest["format_version"] == 3
    assert all(label.pop("privacy_regions") is None for label in labels)  # as bundles were written before
    manifest["format_version"] = 2
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert import_bundle(target, folder).steps_added == 7
    with target.database.session() as session:
        assert session.scalars(select(models.Step.privacy_regions)).all() == [None] * 7
