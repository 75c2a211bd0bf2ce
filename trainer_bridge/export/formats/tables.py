"""Rows written straight to Arrow and Parquet files with pyarrow, a batch at a time, hashed as they are written.

The files are what `datasets`' writers make of the same rows: the schema of the `datasets.Features` with their
`huggingface` metadata (so an `Image` column loads back as an `Image` feature), image columns holding the
`{bytes, path}` structs the `Image` feature stores, and Parquet columns with `datasets`' own per-column options
(image bytes plain and uncompressed, the rest snappy with dictionaries). Those writers are not used because most of
an export's bytes are screenshots: they encode every row feature by feature in Python, and `save_to_disk` then turns
each embedded image into a Python object and back (`Image.embed_storage`) while it rewrites every byte; here each
image's bytes are copied into Arrow once and written once per file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from itertools import accumulate
from pathlib import Path
from typing import Any

# A record batch closes at this many image bytes or rows: a batch's buffers are then small enough to be reused from one
# batch to the next (memory the process has not touched yet costs more than the copy into it), far below Arrow's
# 2 GiB per binary array, and big enough that the per-batch cost vanishes.
BATCH_BYTES = 8 << 20
BATCH_ROWS = 1000
# Parquet row groups gather batches up to this size, what `datasets` aims at (its `config.MAX_ROW_GROUP_SIZE`): reading
# one row reads its row group.
ROW_GROUP_BYTES = 100 << 20
READ_BACK = 16 << 20  # bytes read back at a time to hash a file as it is written


def memory_pool() -> Any:
    """The C library's allocator, which keeps the pages one batch frees for the next. Arrow's default (mimalloc)
    returns them to the system within milliseconds, so every batch touched fresh memory: on a virtual machine that
    cost as much as writing the file (an easyr1 export of 1.6 GB: 4.6 s of batches and writing, 2.7 s with this)."""
    import pyarrow as pa

    return pa.system_memory_pool()


def batches(rows: Iterable[dict[str, Any]], schema: Any, images: set[str]) -> Iterator[Any]:
    """The rows as `pyarrow.RecordBatch`es of `schema`; `images` names the columns of image lists."""
    pending: list[dict[str, Any]] = []
    size = 0
    for row in rows:
        pending.append(row)
        size += sum(len(image["bytes"]) for name in images for image in row[name])
        if size >= BATCH_BYTES or len(pending) >= BATCH_ROWS:
            yield record_batch(pending, schema, images)
            pending, size = [], 0
    if pending:
        yield record_batch(pending, schema, images)


def record_batch(rows: list[dict[str, Any]], schema: Any, images: set[str]) -> Any:
    import pyarrow as pa

    columns = [
        image_lists([row[field.name] for row in rows], field.type)
        if field.name in images
        else pa.array([row.get(field.name) for row in rows], type=field.type, memory_pool=memory_pool())
        for field in schema
    ]
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def image_lists(lists: list[list[dict[str, Any]]], list_type: Any) -> Any:
    """A column of image lists (`{bytes, path}` structs), each image's bytes copied once into a buffer of exactly
    their size: pyarrow's converter grows its buffer as it goes, copying what it holds each time, which made that
    conversion most of an export's time."""
    import pyarrow as pa

    flat = [image for images in lists for image in images]
    ends = list(accumulate(len(image["bytes"]) for image in flat))
    pool = memory_pool()
    data = pa.allocate_buffer(ends[-1] if ends else 0, memory_pool=pool)
    view, start = memoryview(data).cast("B"), 0
    for image, end in zip(flat, ends, strict=True):
        view[start:end] = image["bytes"]
        start = end
    offsets = pa.array([0, *ends], pa.int32(), memory_pool=pool).buffers()[1]
    content = pa.Array.from_buffers(pa.binary(), len(flat), [None, offsets, data])
    paths = pa.array([image["path"] for image in flat], pa.string(), memory_pool=pool)
    structs = pa.StructArray.from_arrays([content, paths], fields=list(list_type.value_type), memory_pool=pool)
    list_offsets = pa.array([0, *accumulate(map(len, lists))], pa.int32(), memory_pool=pool)
    return pa.ListArray.from_arrays(list_offsets, structs, type=list_type, pool=pool)


class TableFile:
    """One output file: its pyarrow writer, which writes to the file directly (no Python in between), and the sha256
    of what it wrote, read back from the page cache after each batch (the writers only ever append)."""

    def __init__(self, path: Path, writer: Any, group_bytes: int = 0) -> None:
        """`group_bytes`: batches are held back until they add up to this many bytes, then written together."""
        self.path, self.writer, self.digest = path, writer, hashlib.sha256()
        self.written = open(path, "rb", buffering=0)  # noqa: SIM115 -- closed by close() or abandon()
        self.buffer = memoryview(bytearray(READ_BACK))
        self.group_bytes, self.held_bytes = group_bytes, 0
        self.held: list[Any] = []

    def write(self, batch: Any) -> None:
        self.held.append(batch)
        self.held_bytes += batch.nbytes
        if self.held_bytes >= self.group_bytes:
            self._write_held()

    def _write_held(self) -> None:
        import pyarrow as pa

        if self.held:  # one Parquet row group; one Arrow record batch per batch
            self.writer.write_table(pa.Table.from_batches(self.held))
        self.held, self.held_bytes = [], 0
        self._hash_new_bytes()

    def _hash_new_bytes(self) -> None:
        while size := self.written.readinto(self.buffer):  # up to the end of what is written so far
            self.digest.update(self.buffer[:size])  # releases the GIL, as the read does

    def close(self) -> str:
        """Finish the file (Parquet's footer) and return its sha256."""
        self._write_held()
        self.writer.close()
        self._hash_new_bytes()
        self.written.close()
        return self.digest.hexdigest()

    def abandon(self) -> None:
        """Close what is open after a failure (the caller removes the file)."""
        self.written.close()
        self.writer.close()  # closing twice does nothing


def open_files(features: Any, arrow: Path | None, parquet: Path | None) -> list[TableFile]:
    import pyarrow as pa
    import pyarrow.parquet as pq
    from datasets.arrow_writer import get_parquet_column_options

    schema, files = features.arrow_schema, []
    if arrow is not None:
        files.append(TableFile(arrow, pa.ipc.new_stream(str(arrow), schema)))
    if parquet is not None:
        options = get_parquet_column_options(features, schema)
        # min and max of screenshot bytes tell a reader nothing and cost as much as writing them: statistics only
        # for the other columns (those `datasets` encodes with dictionaries)
        statistics = options["use_dictionary"]
        writer = pq.ParquetWriter(
            str(parquet),
            schema,
            write_page_index=True,
            write_statistics=statistics,
            memory_pool=memory_pool(),
            **options,
        )
        files.append(TableFile(parquet, writer, ROW_GROUP_BYTES))
    return files


def write_tables(
    rows: Iterable[dict[str, Any]], features: Any, arrow: Path | None = None, parquet: Path | None = None
) -> dict[Path, str]:
    """`rows` written as they come (never all in memory) to an Arrow stream file (what `datasets.Dataset.from_file`
    and `load_from_disk` read), a Parquet file, or both in one pass. Returns each file's sha256 by path.

    Each file is written and hashed on a thread of its own while the next batch is made: pyarrow writes, and
    hashlib hashes, without the GIL."""
    files = open_files(features, arrow, parquet)
    with ThreadPoolExecutor(len(files), thread_name_prefix="export-tables") as pool:
        writing: list[Future[None]] = []
        try:
            for batch in batches(rows, features.arrow_schema, image_columns(features)):
                for future in writing:  # one batch in flight per file
                    future.result()
                writing = [pool.submit(file.write, batch) for file in files]
            for future in writing:
                future.result()
            return {file.path: sha for file, sha in zip(files, pool.map(TableFile.close, files), strict=True)}
        except BaseException:
            wait(writing)  # no file is closed under a write in flight
            for file in files:
                file.abandon()
            raise


def image_columns(features: Any) -> set[str]:
    """The columns of `Image` lists."""
    from datasets import Image, List

    return {
        name for name, feature in features.items() if isinstance(feature, List) and isinstance(feature.feature, Image)
    }


def write_saved_dataset(folder: Path, arrow_hashes: dict[Path, str], features: Any) -> None:
    """Beside Arrow files already in `folder`, the two files `datasets.load_from_disk` reads first, as
    `Dataset.save_to_disk` writes them. The fingerprint is a hash of the data files (what it stands for), not a
    random one, so that the same export is byte-identical."""
    from datasets import DatasetInfo

    fingerprint = hashlib.sha256("".join(arrow_hashes.values()).encode()).hexdigest()[:16]
    state: dict[str, Any] = {
        "_data_files": [{"filename": path.name} for path in arrow_hashes],
        "_fingerprint": fingerprint,
        "_format_columns": None,
        "_format_kwargs": {},
        "_format_type": None,
        "_output_all_columns": False,
        "_split": None,
    }
    (folder / "state.json").write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")
    DatasetInfo(features=features).write_to_directory(str(folder))
