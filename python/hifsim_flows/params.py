"""A unit's RTL parameters as the flows pass them around: parsed once, at the edge, from the text
the tables key their rows by ("N=16;W=24", scripts/synth.sh's sets, the "parameters" column of
units.csv / energy.csv), and printed back to exactly that text."""
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from .pdk.flow_error import FlowError


@dataclass(frozen=True)
class UnitParams:
    """NAME=VALUE pairs in the order written: the order is part of a table row's key."""
    items: Tuple[Tuple[str, int], ...] = ()

    @classmethod
    def parse(cls, text: str, where: str = "parameters") -> "UnitParams":
        """'N=16;W=24' (or '' / '-': none); a pair that is not NAME=INTEGER raises FlowError."""
        if text in ("", "-"):
            return cls()
        items = []
        for kv in text.split(";"):
            name, eq, value = kv.partition("=")
            if not name or not eq or not value.lstrip("-").isdigit():
                raise FlowError(where, f"'{kv}' of '{text}' is not NAME=INTEGER")
            items.append((name, int(value)))
        return cls(tuple(items))

    def text(self) -> str:
        return ";".join(f"{k}={v}" for k, v in self.items) or "-"

    def as_dict(self) -> Dict[str, int]:
        return dict(self.items)

    def get(self, name: str, default: Optional[int] = None) -> Optional[int]:
        return self.as_dict().get(name, default)

    def without(self, name: str) -> "UnitParams":
        return UnitParams(tuple(kv for kv in self.items if kv[0] != name))
