"""A shipped table is written one way: JSON as the generator asks, a newline after it."""

import json

from games.cribbage.strategy.crib_model import DATA_PATH
from games.cribbage.tables.shipped import write_table


def test_a_table_is_written_as_the_shipped_files_are(tmp_path, capsys):
    path = tmp_path / "data" / "table.json"
    write_table(path, {"b": [1, 2], "a": 0.5}, indent=0, sort_keys=True)
    assert path.read_text() == '{\n"a": 0.5,\n"b": [\n1,\n2\n]\n}\n'
    assert f"wrote {path}" in capsys.readouterr().out
    shipped = json.loads(DATA_PATH.read_text())  # the crib model, rewritten byte for byte
    write_table(path, shipped, indent=0, sort_keys=True)
    assert path.read_bytes() == DATA_PATH.read_bytes()
