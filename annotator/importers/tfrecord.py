"""Reading TFRecord files of ``tf.train.Example`` records without TensorFlow.

A TFRecord file (optionally GZIP-compressed as a whole) is a sequence of records, each framed as
``uint64 length, uint32 masked-crc32c(length), bytes data, uint32 masked-crc32c(data)`` (little endian);
both checksums are checked here, so a damaged or truncated file is reported at the record where it breaks.
A record is read in pieces and may not claim more than MAX_RECORD_BYTES, so a length that lies costs no more memory
than the data there is; GZIP data may not unpack to more than MAX_RATIO times its size (a gzip bomb: the
screenshots in the records are PNGs, which GZIP hardly shrinks).
The record itself is decoded by protobuf, with the ``Example`` schema of TensorFlow's
``core/example/{example,feature}.proto`` declared below in protobuf's text format (a private descriptor
pool, so an installed TensorFlow is never disturbed).
"""

from __future__ import annotations

import gzip
import struct
import zlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

import google_crc32c
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format
from google.protobuf.message import DecodeError

GZIP_MAGIC = b"\x1f\x8b"
_MASK_DELTA = 0xA282EAD8
MAX_RECORD_BYTES = 2**30  # an AndroidControl episode (all its screenshots) is tens of megabytes
_PIECE = 2**20
MAX_RATIO = 100  # unpacked / packed bytes of a GZIP file, checked once past RATIO_FLOOR
RATIO_FLOOR = 64 * 2**20

# TensorFlow's Example schema (tensorflow/core/example/feature.proto and example.proto), field for field.
_EXAMPLE_PROTO = """
name: "annotator_tf_example.proto" package: "tensorflow" syntax: "proto3"
message_type { name: "BytesList" field { name: "value" number: 1 label: LABEL_REPEATED type: TYPE_BYTES } }
message_type { name: "FloatList"
  field { name: "value" number: 1 label: LABEL_REPEATED type: TYPE_FLOAT options { packed: true } } }
message_type { name: "Int64List"
  field { name: "value" number: 1 label: LABEL_REPEATED type: TYPE_INT64 options { packed: true } } }
message_type { name: "Feature"
  field { name: "bytes_list" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".tensorflow.BytesList"
          oneof_index: 0 }
  field { name: "float_list" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".tensorflow.FloatList"
          oneof_index: 0 }
  field { name: "int64_list" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".tensorflow.Int64List"
          oneof_index: 0 }
  oneof_decl { name: "kind" } }
message_type { name: "Features"
  field { name: "feature" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE
          type_name: ".tensorflow.Features.FeatureEntry" }
  nested_type { name: "FeatureEntry" options { map_entry: true }
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".tensorflow.Feature" } } }
message_type { name: "Example"
  field { name: "features" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".tensorflow.Features" } }
"""


class TFRecordError(ValueError):
    """A TFRecord file that cannot be read on from `record` (0-based): damaged, truncated or not a TFRecord."""

    def __init__(self, file: Path, record: int, detail: str) -> None:
        super().__init__(file, record, detail)
        self.file, self.record, self.detail = file, record, detail

    def __str__(self) -> str:
        return f"{self.file}: record {self.record}: {self.detail}"


def masked_crc32c(data: bytes) -> int:
    """TFRecord's checksum: crc32c rotated right by 15 bits plus a constant, as TensorFlow writes it."""
    crc = google_crc32c.value(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One record framed as a TFRecord file holds it (what TensorFlow's writer produces)."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))


class _GzipBomb(OSError):
    pass


def _gzip_failure(error: Exception) -> str:
    return str(error) if isinstance(error, _GzipBomb) else f"the GZIP data is damaged or cut short ({error})"


class _Unpacked(gzip.GzipFile):
    """A GZIP file that refuses to unpack more than MAX_RATIO times what it has read of the file (a gzip bomb)."""

    def __init__(self, file: Path) -> None:
        self.packed = file.open("rb")
        super().__init__(fileobj=self.packed, mode="rb")
        self.unpacked = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.unpacked += len(data)
        if self.unpacked > RATIO_FLOOR and self.unpacked > MAX_RATIO * self.packed.tell():
            raise _GzipBomb(f"the GZIP data unpacks more than {MAX_RATIO}-fold: refused as a gzip bomb")
        return data

    def close(self) -> None:
        super().close()
        self.packed.close()


def _open(file: Path) -> BinaryIO:
    with file.open("rb") as probe:
        gzipped = probe.read(2) == GZIP_MAGIC
    return _Unpacked(file) if gzipped else file.open("rb")  # type: ignore[return-value]


def _read_exactly(stream: BinaryIO, size: int, file: Path, record: int, what: str) -> bytes:
    pieces: list[bytes] = []
    left = size
    try:
        while left > 0:
            piece = stream.read(min(left, _PIECE))
            if not piece:
                break
            pieces.append(piece)
            left -= len(piece)
    except (EOFError, OSError, zlib.error) as error:  # gzip: truncated stream, bad header, bad data or CRC
        raise TFRecordError(file, record, _gzip_failure(error)) from None
    data = b"".join(pieces)
    if len(data) != size:
        raise TFRecordError(file, record, f"the file ends inside the record's {what}; it is truncated")
    return data


def read_records(file: Path) -> Iterator[bytes]:
    """The records of a TFRecord file (GZIP-compressed or not), each checked against its checksums."""
    with _open(file) as stream:
        number = 0
        while True:
            try:
                header = stream.read(12)
            except (EOFError, OSError, zlib.error) as error:
                raise TFRecordError(file, number, _gzip_failure(error)) from None
            if not header:
                return
            if len(header) != 12:
                raise TFRecordError(file, number, "the file ends inside a record header; it is truncated")
            length, length_crc = struct.unpack("<QI", header)
            if masked_crc32c(header[:8]) != length_crc:
                raise TFRecordError(file, number, "the record length fails its CRC check; not a TFRecord, or damaged")
            if length > MAX_RECORD_BYTES:
                raise TFRecordError(file, number, f"the record claims {length} bytes, more than {MAX_RECORD_BYTES}")
            data = _read_exactly(stream, length, file, number, "data")
            (data_crc,) = struct.unpack("<I", _read_exactly(stream, 4, file, number, "checksum"))
            if masked_crc32c(data) != data_crc:
                raise TFRecordError(file, number, "the record data fails its CRC check; the file is damaged")
            yield data
            number += 1


@cache
def _example_class() -> Any:
    pool = descriptor_pool.DescriptorPool()
    pool.Add(text_format.Parse(_EXAMPLE_PROTO, descriptor_pb2.FileDescriptorProto()))
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("tensorflow.Example"))


def parse_example(data: bytes) -> dict[str, list[Any]]:
    """A serialised ``tf.train.Example`` as {feature name: its values}; ValueError when it is not one."""
    example = _example_class()()
    try:
        example.ParseFromString(data)
    except DecodeError as error:
        raise ValueError(f"the record is not a tf.train.Example ({error})") from None
    features: dict[str, list[Any]] = {}
    for name, feature in example.features.feature.items():
        kind = feature.WhichOneof("kind")
        features[name] = list(getattr(feature, kind).value) if kind else []
    return features


def build_example(features: dict[str, list[Any]]) -> bytes:
    """A serialised ``tf.train.Example`` of {name: list of bytes, floats or ints} (for writing test data)."""
    example = _example_class()()
    for name, values in features.items():
        feature = example.features.feature[name]
        if all(isinstance(v, bytes) for v in values):
            feature.bytes_list.value.extend(values)
        elif all(isinstance(v, int) for v in values):
            feature.int64_list.value.extend(values)
        else:
            feature.float_list.value.extend(values)
    return example.SerializeToString()
