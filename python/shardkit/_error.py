"""shardkit.Error: every failure of the library, with where it happened."""

from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Sequence, Tuple

# `FILE:LINE:COL: error: MESSAGE`, or a parser's `LINE:COL: MESSAGE`.
_LOCATED = re.compile(r"^(?:(?P<file>.*?):)?(?P<line>\d+):(?P<col>\d+):\s*(?:error:\s*)?(?P<msg>.*)$", re.S)


class Diagnostic(NamedTuple):
    """One diagnostic of an Error: where (file, line, col; 0 when unknown),
    how severe ('error', 'note', ...) and what."""

    file: str
    line: int
    col: int
    severity: str
    message: str


class Error(Exception):
    """A failure reported by shardkit.

    Attributes:
      message: the first diagnostic's message, without its location.
      file, line, col: where it points ('' and 0 when nothing locates it).
      diagnostics: every Diagnostic, the first one included.
    str(error) is the full text, one `FILE:LINE:COL: error: MESSAGE` line per
    diagnostic, as shardkit-opt prints it.
    """

    def __init__(self, text: str, diagnostics: Sequence[Tuple] = ()):
        super().__init__(text)
        self.text = text
        self.diagnostics: List[Diagnostic] = [Diagnostic(*d) for d in diagnostics]
        first: Optional[Diagnostic] = self.diagnostics[0] if self.diagnostics else None
        self.file = first.file if first else ""
        self.line = first.line if first else 0
        self.col = first.col if first else 0
        self.message = first.message if first else text
        if self.line == 0:
            # Attribute parsers put the position in the message itself.
            m = _LOCATED.match(self.message.split("\n", 1)[0])
            if m:
                self.file = m.group("file") or self.file
                self.line, self.col = int(m.group("line")), int(m.group("col"))
                self.message = m.group("msg")
        if self.message.startswith("error: "):
            self.message = self.message[len("error: "):]

    def __reduce__(self):
        return (Error, (self.text, [tuple(d) for d in self.diagnostics]))
