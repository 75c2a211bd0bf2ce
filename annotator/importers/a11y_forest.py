"""AndroidControl's accessibility trees: android_env's ``AndroidAccessibilityForest``, read without android_env.

One serialised forest per screenshot: its windows (``layer``: greater is in front), each with a tree whose nodes
carry ``bounds_in_screen`` (pixels of the recorded screen) and their flags. Decoded by protobuf with the fields
this importer reads, declared below in protobuf's text format with android_env's own names and numbers
(``android_env/proto/a11y/*.proto``; protobuf skips the fields left out), in a private descriptor pool.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format
from google.protobuf.message import DecodeError

from annotator.domain.geometry import ScreenSize
from annotator.domain.target_box import ElementBox

_FOREST_PROTO = """
name: "annotator_a11y_forest.proto" package: "android_env" syntax: "proto3"
message_type { name: "ProtoRect"
  field { name: "left" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "top" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "right" number: 3 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "bottom" number: 4 label: LABEL_OPTIONAL type: TYPE_INT32 } }
message_type { name: "AndroidAccessibilityNodeInfo"
  field { name: "unique_id" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "bounds_in_screen" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".android_env.ProtoRect" }
  field { name: "class_name" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "text" number: 7 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "is_checkable" number: 12 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "is_clickable" number: 14 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "is_long_clickable" number: 19 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "is_visible_to_user" number: 23 label: LABEL_OPTIONAL type: TYPE_BOOL }
  field { name: "depth" number: 27 label: LABEL_OPTIONAL type: TYPE_INT32 } }
message_type { name: "AndroidAccessibilityTree"
  field { name: "nodes" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE
          type_name: ".android_env.AndroidAccessibilityNodeInfo" } }
message_type { name: "AndroidAccessibilityWindowInfo"
  field { name: "bounds_in_screen" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".android_env.ProtoRect" }
  field { name: "id" number: 3 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "layer" number: 4 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "tree" number: 11 label: LABEL_OPTIONAL type: TYPE_MESSAGE
          type_name: ".android_env.AndroidAccessibilityTree" } }
message_type { name: "AndroidAccessibilityForest"
  field { name: "windows" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE
          type_name: ".android_env.AndroidAccessibilityWindowInfo" } }
"""
TREE_SOURCE = "androidcontrol accessibility tree"


@cache
def forest_class() -> Any:
    """The message class of a forest (tests build forests with it)."""
    pool = descriptor_pool.DescriptorPool()
    pool.Add(text_format.Parse(_FOREST_PROTO, descriptor_pb2.FileDescriptorProto()))
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("android_env.AndroidAccessibilityForest"))


def forest_elements(data: bytes, recorded: tuple[int, int], screen: ScreenSize) -> list[ElementBox]:
    """The nodes of a serialised forest as element boxes in pixels of `screen` (bounds are scaled from the
    `recorded` screen size); ValueError when the bytes are not a forest."""
    forest = forest_class()()
    try:
        forest.ParseFromString(data)
    except (DecodeError, TypeError) as error:  # TypeError: the record's feature holds numbers, not bytes
        raise ValueError(f"the accessibility tree is not an AndroidAccessibilityForest ({error})") from None
    sx, sy = screen.width / recorded[0], screen.height / recorded[1]
    ranks = {layer: rank for rank, layer in enumerate(sorted({window.layer for window in forest.windows}))}
    elements: list[ElementBox] = []
    for window in forest.windows:
        for node in window.tree.nodes:
            rect = node.bounds_in_screen
            bounds = (round(rect.left * sx), round(rect.top * sy), round(rect.right * sx), round(rect.bottom * sy))
            actionable = node.is_clickable or node.is_long_clickable or node.is_checkable
            elements.append(ElementBox(bounds, actionable, node.is_visible_to_user, ranks[window.layer], len(elements)))
    return elements
