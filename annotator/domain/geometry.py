"""Plain geometric values shared by the action space, coordinates and storage."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScreenSize:
    """Size of one screenshot in device pixels."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"screen size must be positive, got {self.width}x{self.height}")

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) lies on the screen (edges included, last pixel is size - 1)."""
        return 0 <= x <= self.width - 1 and 0 <= y <= self.height - 1

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box [x1, y1, x2, y2] with x1 <= x2 and y1 <= y2."""

    x1: float
    y1: float
    x2: float
    y2: float

    def __post_init__(self) -> None:
        if self.x1 > self.x2 or self.y1 > self.y2:
            raise ValueError(f"box corners out of order: {self.as_list()}")

    @classmethod
    def from_list(cls, values: list[float] | tuple[float, ...]) -> Box:
        if len(values) != 4:
            raise ValueError(f"a box needs 4 numbers [x1, y1, x2, y2], got {len(values)}")
        return cls(*values)

    def as_list(self) -> list[float]:
        return [self.x1, self.y1, self.x2, self.y2]

    def __iter__(self) -> Iterator[float]:
        """x1, y1, x2, y2: a box unpacks like the lists it is stored as."""
        return iter((self.x1, self.y1, self.x2, self.y2))

    def contains(self, x: float, y: float) -> bool:
        return self.x1 <= x <= self.x2 and self.y1 <= y <= self.y2

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2)
