"""Qt ``.ts`` translation sources read, and compiled to the ``.qm`` bytes that ``QTranslator.load`` takes.

Why compile at run time: the ``.ts`` files are the only thing we keep (committing generated ``.qm`` files is
what docs/architecture.md#conventions rules out, and a build hook needs Qt's ``lrelease`` in every build environment),
and answering lookups from Python is not an option: a Python ``QTranslator.translate`` override leaks a
reference to ``None`` on every call in PySide6 6.12, which aborts Python 3.11 after enough calls. Writing
a ``.qm`` is small: a hash table of ``(elf hash of source + comment, offset)`` pairs and a list of tagged
messages, the layout Qt's ``qtranslator.cpp`` reads. ``tests/ui/test_translations.py`` checks that Qt
translates every message the same from these bytes as from a ``.qm`` made by Qt's own ``lrelease``.
No Qt is imported here.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

MAGIC = bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")
HASHES, MESSAGES, NUMERUS_RULES, LANGUAGE = 0x42, 0x69, 0x88, 0xA7  # sections
TAG_END, TAG_TRANSLATION, TAG_SOURCE, TAG_CONTEXT, TAG_COMMENT = 1, 3, 6, 7, 8  # message records
# Qt's plural rules as its byte code: English picks form 0 when n == 1 (Q_EQ 1) and form 1 otherwise.
# A language without rules (Chinese) always uses its one form.
RULES = {"en": bytes([0x01, 1])}

Key = tuple[str, str, str]  # (context, source text, disambiguation comment)


@dataclass
class Catalogue:
    language: str
    messages: dict[Key, list[str]] = field(default_factory=dict)  # the finished translations (numerus forms)


def read_ts(ts_xml: bytes) -> Catalogue:
    """The finished messages of a ``.ts`` file; unfinished, obsolete and vanished ones are left out."""
    root = ET.fromstring(ts_xml)
    catalogue = Catalogue(language=root.get("language", ""))
    for context in root.iter("context"):
        context_name = context.findtext("name", "")
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            if message.get("numerus") == "yes":
                forms = [form.text or "" for form in translation.iter("numerusform")]
            else:
                forms = [translation.text or ""]
            if forms and all(forms):
                key = (context_name, message.findtext("source", ""), message.findtext("comment", ""))
                catalogue.messages[key] = forms
    return catalogue


def elf_hash(data: bytes) -> int:
    """The hash Qt's translator looks messages up by (qtranslator.cpp, elfHash)."""
    h = 0
    for byte in data:
        h = (h << 4) + byte
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h or 1


def _record(tag: int, payload: bytes) -> bytes:
    return struct.pack(">BI", tag, len(payload)) + payload


def _section(tag: int, payload: bytes) -> bytes:
    return struct.pack(">BI", tag, len(payload)) + payload if payload else b""


def compile_qm(catalogue: Catalogue) -> bytes:
    """The ``.qm`` bytes of a catalogue; every message keeps its context, source and comment (nothing stripped)."""
    messages, hashes = bytearray(), []
    for (context, source, comment), forms in catalogue.messages.items():
        hashes.append((elf_hash((source + comment).encode()), len(messages)))
        for form in forms:
            messages += _record(TAG_TRANSLATION, form.encode("utf-16-be"))
        messages += _record(TAG_SOURCE, source.encode())
        if comment:
            messages += _record(TAG_COMMENT, comment.encode())
        messages += _record(TAG_CONTEXT, context.encode())
        messages.append(TAG_END)
    table = b"".join(struct.pack(">II", h, offset) for h, offset in sorted(hashes))
    rules = RULES.get(catalogue.language.split("_")[0], b"")
    return (
        MAGIC
        + _section(HASHES, table)
        + _section(MESSAGES, bytes(messages))
        + _section(NUMERUS_RULES, rules)
        + _section(LANGUAGE, catalogue.language.encode())
    )
