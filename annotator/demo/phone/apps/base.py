"""What every virtual app has: a page stack, text fields, a toast, and a content view per page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from annotator.demo.phone.view import Node, Rect

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

Color = tuple[int, int, int]


@dataclass
class Page:
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    scroll: int = 0  # the page's list offset in pixels


class App:
    """A virtual app. Subclasses set the class attributes and implement `content` and `clear`."""

    package: ClassVar[str]
    label: ClassVar[str]
    icon: ClassVar[str]
    color: ClassVar[Color]
    activities: ClassVar[dict[str, str]]  # page name -> activity class name
    home_page: ClassVar[str] = "home"
    status_bar: ClassVar[Color] = (255, 255, 255)  # the status bar's colour; see status_bar_color

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone
        self.fields: dict[str, str] = {}
        self.toast = ""
        self.clear()

    # Lifecycle: `pm clear` wipes data; `am force-stop` keeps data and restarts at the home page

    def clear(self) -> None:
        """Reset the app's data (what `pm clear` does); subclasses reset theirs and call this."""
        self.restart()

    def restart(self) -> None:
        self.stack = [Page(self.home_page)]
        self.fields = {}
        self.toast = ""

    # Navigation

    @property
    def page(self) -> Page:
        return self.stack[-1]

    def push(self, name: str, **params: Any) -> None:
        self.stack.append(Page(name, params))
        self.phone.focus = None

    def back(self) -> bool:
        """Go back one page; False when already on the first page (the phone then goes home)."""
        if len(self.stack) == 1:
            return False
        self.stack.pop()
        self.phone.focus = None
        return True

    def activity(self) -> str:
        return self.activities.get(self.page.name, next(iter(self.activities.values())))

    def page_key(self) -> str:
        """What identifies the screen for an agent that tracks where it is: the page and its parameters.

        Parameters named with a leading underscore are choices made on the page (a colour chip, a
        quantity): they change what the page shows, not which page it is.
        """
        params = ",".join(f"{key}={value}" for key, value in sorted(self.page.params.items()) if key[0] != "_")
        return f"{self.package}/{self.page.name}({params})"

    def status_bar_color(self) -> Color:
        """The status bar's colour on the current page (apps whose pages differ override this)."""
        return self.status_bar

    def scroll_by(self, dy: int, content_height: int, viewport: int) -> None:
        self.page.scroll = max(0, min(self.page.scroll + dy, max(0, content_height - viewport)))

    # Text fields: the phone types into the focused one

    def text(self, key: str) -> str:
        return self.fields.get(key, "")

    def set_text(self, key: str, value: str) -> None:
        self.fields[key] = value

    def submit(self, key: str) -> None:
        """The Enter key in a field (search boxes search); nothing by default."""

    def content(self, frame: Rect) -> Node:
        raise NotImplementedError
