"""Click groups whose subcommands are imported when they are used, so that a command pays only for its own modules.

This is click's documented lazy-loading pattern (``get_command`` imports the subcommand's module on demand,
``list_commands`` reads a table), with one addition: the table also holds each subcommand's summary, so that
``--help`` lists the commands without importing any of them. ``annotator`` and ``trainer-bridge`` use it;
tests/cli/test_lazy_commands.py checks every summary against the command's own help.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

import click


@dataclass(frozen=True)
class Lazy:
    """Where a subcommand lives ("package.module:attribute") and the first sentence of its help."""

    target: str
    summary: str

    def load(self) -> click.Command:
        module, attribute = self.target.split(":")
        command = getattr(import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is a {type(command).__name__}, not a click command")
        return command


class LazyGroup(click.Group):
    """A group whose subcommands in `lazy` (name -> Lazy) load on first use; others are added as usual."""

    def __init__(self, *args: Any, lazy: dict[str, Lazy], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            self.add_command(self.lazy[cmd_name].load(), cmd_name)  # loaded once per process
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Click's own listing, with the summaries of commands not loaded yet taken from the table."""
        listed = {
            name: self.commands.get(name) or click.Command(name, help=self.lazy[name].summary)
            for name in self.list_commands(ctx)
        }
        shown = {name: command for name, command in listed.items() if not command.hidden}
        if not shown:
            return
        limit = formatter.width - 6 - max(map(len, shown))
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown.items()])
