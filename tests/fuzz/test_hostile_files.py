"""Hostile files, each refused with one line that says what is wrong, and nothing written: a zip that escapes the
bundle or unpacks to too much, XML entities, images that claim absurd sizes, a bundle or a database from a newer
version, a damaged or bomb-like TFRecord."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from annotator.cli.root import cli
from annotator.device.hierarchy import hierarchy_box, parse_hierarchy
from annotator.imaging.decode import UnreadableImage, checked_image_size, decoded, image_size
from annotator.importers import tfrecord
from annotator.importers.androidcontrol import read_androidcontrol
from annotator.importers.episode import EpisodeError
from annotator.services import bundle_io
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.bundle_manifest import BundleError
from annotator.services.importing import import_dataset
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, database_snapshot
from tests.workspaces import NewWorkspace, open_new

# Pillow warns of the images below its own limit that our limit refuses
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")]


def one_line(error: BaseException | str) -> str:
    text = str(error)
    assert "\n" not in text and len(text) < 400, text
    return text


def files_under(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    with open_new(root / "source", migrated_database) as source:
        add_trajectory(source, "淘宝", "打开淘宝", 1, seed=1)
        return export_bundle(source, root / "good").path


@pytest.fixture
def good_bundle(exported: Path, tmp_path: Path) -> Path:
    """A copy of a good bundle (a folder) for the test to spoil."""
    return Path(shutil.copytree(exported, tmp_path / "good"))


def zipped(folder: Path, out: Path, *, extra: dict[str, bytes] | None = None, method: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(out, "w", method) as archive:
        for path in files_under(folder):
            archive.write(path, path.relative_to(folder).as_posix())
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return out


def refused(workspace: Workspace, bundle: Path, words: str) -> str:
    """Import `bundle`: BundleError with `words` in one line, and the database and blob folder as they were."""
    before, files = database_snapshot(workspace), files_under(workspace.blobs.root)
    with pytest.raises(BundleError) as raised:
        import_bundle(workspace, bundle)
    assert words in one_line(raised.value)
    assert database_snapshot(workspace) == before
    assert files_under(workspace.blobs.root) == files
    return str(raised.value)


@pytest.mark.parametrize("member", ["../../x", "/etc/x", "C:/x", "blobs/../../x"])
def test_a_zip_slip_is_refused(workspace: Workspace, good_bundle: Path, tmp_path: Path, member: str) -> None:
    bundle = zipped(good_bundle, tmp_path / "slip.zip", extra={member: b"gotcha"})
    refused(workspace, bundle, "the bundle holds a path that escapes it")
    assert not (tmp_path / "x").exists()


def test_a_zip_bomb_is_refused_from_its_directory(workspace: Workspace, good_bundle: Path, tmp_path: Path) -> None:
    bomb = zipped(
        good_bundle, tmp_path / "bomb.zip", extra={"blobs/zeros": bytes(20 * 2**20)}, method=zipfile.ZIP_DEFLATED
    )
    assert refused(workspace, bomb, "refused as a zip bomb").startswith("'blobs/zeros' in the zip unpacks")


def test_a_zip_over_the_total_size_is_refused(
    workspace: Workspace, good_bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle_io, "MAX_TOTAL_BYTES", 1000)  # a real one would take 256 GiB of test data
    refused(workspace, zipped(good_bundle, tmp_path / "big.zip"), "more than the 1000 a bundle may hold")


@pytest.mark.parametrize("zip_it", [False, True], ids=["folder", "zip"])
def test_a_manifest_over_its_size_limit_is_refused(
    workspace: Workspace, good_bundle: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zip_it: bool
) -> None:
    monkeypatch.setattr(bundle_io, "MAX_MANIFEST_BYTES", 100)  # it is read whole: 512 MiB in earnest
    bundle = zipped(good_bundle, tmp_path / "b.zip") if zip_it else good_bundle
    refused(workspace, bundle, "more than the 100 a bundle may hold")


def test_a_blob_linked_to_a_file_outside_the_bundle_is_refused(workspace: Workspace, good_bundle: Path) -> None:
    secret = good_bundle.parent / "secret.png"
    blob = next((good_bundle / "blobs").iterdir())
    blob.rename(secret)
    blob.symlink_to(secret)
    refused(workspace, good_bundle, "the bundle holds a path that escapes it")


def test_a_zip_whose_directory_lies_is_refused_while_reading(
    workspace: Workspace, good_bundle: Path, tmp_path: Path
) -> None:
    """The directory says the manifest is 100 bytes; it unpacks to more: zipfile stops at 100 and the CRC fails."""
    archive = bytearray(zipped(good_bundle, tmp_path / "liar.zip", method=zipfile.ZIP_DEFLATED).read_bytes())
    entry = archive.rfind(b"manifest.json") - 46  # its central directory entry: the name's last mention
    assert archive[entry : entry + 4] == b"PK\x01\x02"
    struct.pack_into("<I", archive, entry + 24, 100)
    (tmp_path / "liar.zip").write_bytes(bytes(archive))
    refused(workspace, tmp_path / "liar.zip", "manifest.json in the zip is damaged")


def test_a_bundle_of_a_newer_format_is_refused(workspace: Workspace, good_bundle: Path) -> None:
    manifest = json.loads((good_bundle / "manifest.json").read_text(encoding="utf-8"))
    manifest["format_version"] = 4
    (good_bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    refused(workspace, good_bundle, "unknown format version 4, written by a newer annotator (upgrade to import it)")


def test_a_bundle_text_postgresql_cannot_store_is_refused(workspace: Workspace, good_bundle: Path) -> None:
    manifest = json.loads((good_bundle / "manifest.json").read_text(encoding="utf-8"))
    manifest["trajectories"][0]["stop_reason"] = "a\x00b"  # SQLite would take it; PostgreSQL fails mid-import
    (good_bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    refused(workspace, good_bundle, "trajectories[0].stop_reason: holds a NUL character")


def test_a_dataset_text_postgresql_cannot_store_is_reported(workspace: Workspace, tmp_path: Path) -> None:
    from tests.importers.datasets import aitz_good_steps, write_aitz

    write_aitz(tmp_path / "aitz", "1", aitz_good_steps()[-1:], instruction="open\x00Clock")
    before = database_snapshot(workspace)
    summary = import_dataset(workspace, "aitz", tmp_path / "aitz")
    assert summary.imported == 0 and "the instruction holds a NUL character" in one_line(summary.failures[0])
    assert database_snapshot(workspace) == before and files_under(workspace.blobs.root) == []


def png_claiming(width: int, height: int) -> bytes:
    """A small real PNG whose header is rewritten to claim another size (its IHDR CRC fixed up to match)."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "PNG")
    data = bytearray(out.getvalue())
    struct.pack_into(">II", data, 16, width, height)
    struct.pack_into(">I", data, 29, zlib.crc32(bytes(data[12:29])))
    return bytes(data)


@pytest.mark.parametrize("size", [(100_000, 100_000), (12_000, 12_000)])  # over and under Pillow's own limit
def test_an_image_claiming_absurd_size_is_refused_before_decoding(size: tuple[int, int]) -> None:
    data = png_claiming(*size)
    assert image_size(data) is None
    for read in (checked_image_size, decoded):
        with pytest.raises(UnreadableImage) as raised:
            read(data)
        assert f"{size[0]}x{size[1]}" in one_line(raised.value) or "exceeds limit" in str(raised.value)


def test_a_bundle_screenshot_claiming_absurd_size_is_refused(workspace: Workspace, good_bundle: Path) -> None:
    from tests.services.test_bundle import replace_a_screenshot

    replace_a_screenshot(png_claiming(12_000, 12_000))(good_bundle, good_bundle)
    refused(workspace, good_bundle, "its header claims 12000x12000 pixels, more than the 64000000")


def test_a_dataset_screenshot_claiming_absurd_size_is_refused(workspace: Workspace, tmp_path: Path) -> None:
    from tests.importers.datasets import aitz_good_steps, write_aitz

    file = write_aitz(tmp_path / "aitz", "1", aitz_good_steps()[-1:])
    next(file.parent.glob("*.png")).write_bytes(png_claiming(12_000, 12_000))
    before = database_snapshot(workspace)
    summary = import_dataset(workspace, "aitz", tmp_path / "aitz")
    assert summary.imported == 0 and len(summary.failures) == 1
    assert "claims 12000x12000 pixels" in one_line(summary.failures[0])
    assert database_snapshot(workspace) == before and files_under(workspace.blobs.root) == []


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE h [<!ENTITY a "ha">'
    + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    + ']><hierarchy><node bounds="[0,0][9,9]" clickable="true" text="&j;"/></hierarchy>'
)
EXTERNAL = (
    '<?xml version="1.0"?><!DOCTYPE h [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    '<hierarchy><node bounds="[0,0][9,9]" clickable="true">&x;</node></hierarchy>'
)


@pytest.mark.parametrize("xml", [LAUGHS, EXTERNAL], ids=["billion-laughs", "external-entity"])
def test_hierarchy_entities_are_refused(xml: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_hierarchy(xml)
    assert "declares a DTD" in one_line(raised.value)
    click = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [4, 4]}}
    assert hierarchy_box(xml, click) is None  # a stored dump like this suggests nothing


def records_file(path: Path, records: list[bytes], *, compress: bool = False) -> Path:
    data = b"".join(tfrecord.frame(record) for record in records)
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


def test_a_truncated_tfrecord_is_reported_where_it_breaks(tmp_path: Path) -> None:
    good = tfrecord.build_example({"episode_id": [1]})
    file = records_file(tmp_path / "android_control-1", [good, good])
    file.write_bytes(file.read_bytes()[:-10])
    errors = [item for item in read_androidcontrol(file) if isinstance(item, EpisodeError)]
    assert [e.detail for e in errors][-1].startswith("record 1: the file ends inside the record's data")


def test_a_tfrecord_length_that_lies_costs_no_memory(tmp_path: Path) -> None:
    length = struct.pack("<Q", 2**40)  # a terabyte, its CRC right: a header a hostile file can write
    header = length + struct.pack("<I", tfrecord.masked_crc32c(length))
    (tmp_path / "liar").write_bytes(header + b"x" * 100)
    with pytest.raises(tfrecord.TFRecordError, match="claims 1099511627776 bytes"):
        list(tfrecord.read_records(tmp_path / "liar"))
    length = struct.pack("<Q", 2**29)
    (tmp_path / "short").write_bytes(length + struct.pack("<I", tfrecord.masked_crc32c(length)) + b"x" * 100)
    with pytest.raises(tfrecord.TFRecordError, match="the file ends inside the record's data"):
        list(tfrecord.read_records(tmp_path / "short"))


def test_a_gzip_bomb_tfrecord_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tfrecord, "RATIO_FLOOR", 2**20)  # the real floor is 64 MiB: a smaller bomb tests the rule
    file = records_file(tmp_path / "bomb.gz", [bytes(4 * 2**20)], compress=True)
    with pytest.raises(tfrecord.TFRecordError) as raised:
        list(tfrecord.read_records(file))
    assert one_line(raised.value).endswith("record 0: the GZIP data unpacks more than 100-fold: refused as a gzip bomb")


def test_a_database_of_a_newer_schema_gets_one_line_from_the_cli(tmp_path: Path, new_workspace: NewWorkspace) -> None:
    with new_workspace(tmp_path / "data") as workspace, workspace.database.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path / "data"), "stats"])
    assert result.exit_code == 1 and result.exception is not None
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: the database schema is at revision '9999_from_the_future'")
    assert "newer version" in lines[0] and "Traceback" not in result.output
