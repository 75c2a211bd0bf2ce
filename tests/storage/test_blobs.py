import hashlib
import io
from pathlib import Path

import pytest

from annotator.storage.blobs import BlobCorruptError, BlobError, BlobMissingError, BlobStore


def test_put_and_read_back_by_hash(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    ref = store.put_bytes(b"screenshot bytes")
    assert ref.sha256 == hashlib.sha256(b"screenshot bytes").hexdigest()
    assert ref.size == 16
    assert store.path(ref.sha256) == tmp_path / ref.sha256[:2] / ref.sha256[2:]
    assert store.read_bytes(ref.sha256, size=16) == b"screenshot bytes"


def test_the_gui_reads_a_screenshot_from_the_file_the_store_names_and_only_by_its_hash(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    ref = store.put_bytes(b"\x89PNG screenshot")
    assert store.screenshot_path(ref.sha256).read_bytes() == store.read_bytes(ref.sha256)
    with pytest.raises(BlobError, match="not a sha256"):
        store.screenshot_path("../../annotator.sqlite")


def test_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    store.put_bytes(b"a")
    store.put_stream(io.BytesIO(b"b"))
    store.remove_temporaries()
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) == 2
    assert not any(p.name.startswith((".tmp-", "incoming-")) for p in files)


def test_a_corrupt_blob_is_reported_not_replaced(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    ref = store.put_bytes(b"original")
    store.path(ref.sha256).write_bytes(b"tampered")
    with pytest.raises(BlobCorruptError, match="hashes to"):
        store.read_bytes(ref.sha256)
    with pytest.raises(BlobCorruptError, match="8 bytes on disk, 9 recorded"):
        store.verify(ref.sha256, size=9)
    store.put_bytes(b"original")  # an existing name is never rewritten
    assert store.path(ref.sha256).read_bytes() == b"tampered"


def test_a_missing_blob_is_reported(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    with pytest.raises(BlobMissingError, match="missing"):
        store.read_bytes("0" * 64)
    with pytest.raises(BlobMissingError):
        store.copy_to("0" * 64, tmp_path / "out")


def test_stream_with_the_wrong_expected_hash_is_refused(tmp_path: Path) -> None:
    store = BlobStore(tmp_path)
    with pytest.raises(BlobCorruptError, match="expected"):
        store.put_stream(io.BytesIO(b"data"), expected_sha256="f" * 64)
    assert list(store.all_hashes()) == []


@pytest.mark.parametrize("name", ["../../etc/passwd", "ABC", "g" * 64, ""])
def test_names_that_are_not_hashes_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(BlobError, match="not a sha256"):
        BlobStore(tmp_path).path(name)
