"""What an import did: counts, every rejected row with its reason, and grouped warnings.

Invariant: rows_read == created + updated + unchanged + rejected. Warnings do not
stop a row; they are grouped by message (a million rows with the same unknown code
are one group) and keep the first line numbers as examples.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WARNING_LINES_KEPT = 20


@dataclass(frozen=True)
class RejectedRow:
    line: int
    reason: str


@dataclass
class WarningGroup:
    message: str
    count: int = 0
    lines: list[int] = field(default_factory=list)


@dataclass
class ImportResult:
    source: str
    rows_read: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: list[RejectedRow] = field(default_factory=list)
    warnings: dict[str, WarningGroup] = field(default_factory=dict)
    closed: int = 0  # existing rows the file no longer lists, ended (not part of the row counts)

    @property
    def written(self) -> int:
        return self.created + self.updated

    def tally(self, *, created: int, updated: int, unchanged: int) -> None:
        self.created += created
        self.updated += updated
        self.unchanged += unchanged

    def reject(self, *, line: int, reason: str) -> None:
        self.rejected.append(RejectedRow(line=line, reason=reason))

    def warn(self, *, line: int, message: str) -> None:
        group = self.warnings.setdefault(message, WarningGroup(message))
        group.count += 1
        if len(group.lines) < WARNING_LINES_KEPT:
            group.lines.append(line)

    def report_lines(self) -> list[str]:
        """One line per rejected row and per warning group, then the closing summary."""
        lines = [f"line {row.line}: rejected: {row.reason}" for row in self.rejected]
        for group in self.warnings.values():
            more = ", ..." if group.count > len(group.lines) else ""
            where = ", ".join(str(n) for n in group.lines)
            lines.append(f"warning: {group.message} ({group.count} rows; lines {where}{more})")
        lines.append(self.summary())
        return lines

    def summary(self) -> str:
        warned = sum(group.count for group in self.warnings.values())
        return (
            f"{self.source}: read {self.rows_read}, written {self.written} "
            f"(created {self.created}, updated {self.updated}), unchanged {self.unchanged}, "
            f"rejected {len(self.rejected)}, warnings {warned}"
            + (f", closed {self.closed} no longer listed" if self.closed else "")
        )
