"""Writing a shipped table of ``data/``: one way for every generator, so each file ends the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["write_table"]


def write_table(path: Path, data: object, **dump: Any) -> None:
    """Write ``data`` to ``path`` as JSON (``dump``: json.dump's options), a newline after it."""
    path.parent.mkdir(exist_ok=True)
    with path.open("w") as f:
        json.dump(data, f, **dump)
        f.write("\n")
    print(f"wrote {path}")
