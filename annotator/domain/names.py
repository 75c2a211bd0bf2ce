"""People's names as typed: which known name a mistyped one most likely meant."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher

# Similar enough to be a typo: one wrong character of a three-character name (张审和 for 张审核) scores 0.67; one of
# two (小玉 for 小王) scores 0.5, and so does every other 小-name, which the tie rule below leaves unsuggested.
CLOSE_ENOUGH = 0.6


def closest_name(typed: str, known: Iterable[str]) -> str | None:
    """The one known name `typed` most likely misspells; None when none is close or two are equally close
    (a guess between them would mislead)."""
    scored = sorted(
        ((SequenceMatcher(None, typed.casefold(), name.casefold()).ratio(), name) for name in known), reverse=True
    )
    if not scored or scored[0][0] < CLOSE_ENOUGH or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]
