"""Data files shipped with the app (prompts, translations, fonts, demo definitions).

Installed as the package ``annotator.resources`` so that a wheel carries them;
read them through these helpers, never through paths relative to a checkout.
"""

from importlib.resources import files
from importlib.resources.abc import Traversable


def resource(relative: str) -> Traversable:
    """A file under resources/, for example ``resource("prompts/mobile_agent.txt")``."""
    item = files(__name__).joinpath(relative)
    if not item.is_file():
        raise FileNotFoundError(f"resource {relative!r} is not installed with annotator")
    return item


def read_text(relative: str) -> str:
    return resource(relative).read_text(encoding="utf-8")
