"""The run folder's journal: appends survive a line torn by a kill mid-write."""

from __future__ import annotations

from bench.records import Result
from bench.run.storage import Journal


def result(key: str) -> Result:
    return Result(key, "shikaku", "i", "p", 1, 1, "f", "sat", "s", "v", "solved")


def test_a_torn_last_line_does_not_swallow_the_next_result(tmp_path):
    journal = Journal(tmp_path)
    journal.append(result("a"))
    with open(journal.path, "a") as f:
        f.write('{"key": "cut sho')  # a kill during the write of "b"
    journal.append(result("c"))
    assert journal.keys() == {"a", "c"}
    lines = journal.path.read_text().splitlines()
    assert len(lines) == 3 and lines[1] == '{"key": "cut sho'


def test_append_to_a_new_and_to_a_clean_journal(tmp_path):
    journal = Journal(tmp_path / "new")
    for k in "xyz":
        journal.append(result(k))
    assert [r.key for r in journal.results()] == ["x", "y", "z"]
    assert journal.path.read_text().count("\n") == 3
