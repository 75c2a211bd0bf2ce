"""Parse a `sh -c` command line into commands joined by `;`, `&&` and `||`, as Android's mksh would.

Only what adb clients send is understood: words, single and double quotes, backslash escapes, `$?` and
a few environment variables. Nothing is ever executed by a host shell; command substitution, pipes and
redirections are refused with a clear syntax error instead of being half-imitated.
"""

from __future__ import annotations

from dataclasses import dataclass

SEPARATORS = (";", "&&", "||")
UNSUPPORTED = "|&<>()`"
NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
NAME_CHARS = NAME_START + "0123456789"


class ShellSyntaxError(ValueError):
    """The command line is not something the virtual phone's shell understands; the message says why."""


@dataclass(frozen=True)
class Var:
    """A `$NAME` reference, expanded when its command runs (so `$?` sees the previous command's status)."""

    name: str


Part = str | Var
Word = tuple[Part, ...]


@dataclass(frozen=True)
class Command:
    """One simple command and how it joins the previous one: None (first), `;`, `&&` or `||`."""

    joiner: str | None
    words: tuple[Word, ...]


def expand(word: Word, variables: dict[str, str]) -> str:
    """A word's text once its variables are replaced (an unset variable is empty, as in sh)."""
    return "".join(part if isinstance(part, str) else variables.get(part.name, "") for part in word)


class _Lexer:
    """A single pass over the line that yields words and separators; quotes make separators plain text."""

    def __init__(self, line: str) -> None:
        self.line, self.pos = line, 0
        self.tokens: list[Word | str] = []  # a str token is a separator
        self.parts: list[Part] = []
        self.in_word = False

    def run(self) -> list[Word | str]:
        while self.pos < len(self.line):
            self._step(self.line[self.pos])
        self._end_word()
        return self.tokens

    def _step(self, char: str) -> None:
        if char in " \t":
            self._end_word()
            self.pos += 1
        elif char == "\n":
            self._separator(";", 1)
        elif char == "#" and not self.in_word:
            self.pos = len(self.line)
        elif char == ";":
            self._separator(";", 1)
        elif self.line.startswith(("&&", "||"), self.pos):
            self._separator(self.line[self.pos : self.pos + 2], 2)
        elif char in UNSUPPORTED:
            raise ShellSyntaxError(f"'{char}' is not supported by the virtual phone's shell")
        elif char == "'":
            self._single_quoted()
        elif char == '"':
            self._double_quoted()
        elif char == "\\":
            self._escaped()
        elif char == "$":
            self._dollar()
        else:
            self._literal(char)
            self.pos += 1

    def _literal(self, text: str) -> None:
        self.in_word = True
        if self.parts and isinstance(self.parts[-1], str):
            self.parts[-1] += text
        else:
            self.parts.append(text)

    def _end_word(self) -> None:
        if self.in_word:
            self.tokens.append(tuple(self.parts))
        self.parts, self.in_word = [], False

    def _separator(self, op: str, width: int) -> None:
        self._end_word()
        self.tokens.append(op)
        self.pos += width

    def _single_quoted(self) -> None:
        end = self.line.find("'", self.pos + 1)
        if end < 0:
            raise ShellSyntaxError("unterminated single quote")
        self._literal(self.line[self.pos + 1 : end])
        self.pos = end + 1

    def _double_quoted(self) -> None:
        self._literal("")
        self.pos += 1
        while self.pos < len(self.line):
            char = self.line[self.pos]
            if char == '"':
                self.pos += 1
                return
            if char == "\\" and self.pos + 1 < len(self.line) and self.line[self.pos + 1] in '$`"\\\n':
                self._literal(self.line[self.pos + 1])
                self.pos += 2
            elif char == "`":
                raise ShellSyntaxError("command substitution is not supported by the virtual phone's shell")
            elif char == "$":
                self._dollar()
            else:
                self._literal(char)
                self.pos += 1
        raise ShellSyntaxError("unterminated double quote")

    def _escaped(self) -> None:
        if self.pos + 1 >= len(self.line):
            self.pos += 1
            return
        following = self.line[self.pos + 1]
        if following != "\n":  # a backslash-newline joins lines
            self._literal(following)
        self.pos += 2

    def _dollar(self) -> None:
        rest = self.line[self.pos + 1 :]
        if rest.startswith("("):
            raise ShellSyntaxError("command substitution is not supported by the virtual phone's shell")
        if rest.startswith("{"):
            end = rest.find("}")
            if end < 0:
                raise ShellSyntaxError("unterminated ${")
            self._variable(rest[1:end], end + 2)
        elif rest[:1] in ("?", "$", "#") or rest[:1].isdigit():
            self._variable(rest[0], 2)
        elif rest[:1] and rest[0] in NAME_START:
            length = next((i for i, c in enumerate(rest) if c not in NAME_CHARS), len(rest))
            self._variable(rest[:length], length + 1)
        else:
            self._literal("$")
            self.pos += 1

    def _variable(self, name: str, width: int) -> None:
        self.in_word = True
        self.parts.append(Var(name))
        self.pos += width


def parse(line: str) -> list[Command]:
    """The commands of a line in order; raises ShellSyntaxError for what mksh would reject or we refuse."""
    commands: list[Command] = []
    joiner: str | None = None
    words: list[Word] = []
    for token in _Lexer(line).run():
        if isinstance(token, tuple):
            words.append(token)
            continue
        if not words:
            if token == ";" and joiner in (None, ";"):
                continue  # empty commands between `;` are allowed, as in sh
            raise ShellSyntaxError(f"syntax error: unexpected '{token}'")
        commands.append(Command(joiner, tuple(words)))
        joiner, words = token, []
    if words:
        commands.append(Command(joiner, tuple(words)))
    elif joiner in ("&&", "||"):
        raise ShellSyntaxError(f"syntax error: unexpected end of line after '{joiner}'")
    return commands
