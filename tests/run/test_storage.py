"""The run folder's journal: appends survive a line torn by a kill mid-write."""

from __future__ import annotations

from bench.records import Result
from bench.run.storage import Journal


def result(key: str) -> Result:
    return Result(key, "shikaku", "i", "p", 1, 1, "f", "sat", "s", "v", "solved", time_limit=10.0)


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


def test_a_damaged_environment_file_is_kept_aside_not_overwritten(tmp_path, caplog):
    from bench.run.storage import ENVIRONMENT, load_environment, record_environment

    record_environment(tmp_path, {"run": 1})
    damaged = (tmp_path / ENVIRONMENT).read_text()[:-8]  # a torn copy of one record
    (tmp_path / ENVIRONMENT).write_text(damaged)
    record_environment(tmp_path, {"run": 2})
    assert load_environment(tmp_path) == [{"run": 2}]
    assert (tmp_path / f"{ENVIRONMENT}.unreadable-0").read_text() == damaged
    assert "kept as" in caplog.text
    (tmp_path / ENVIRONMENT).write_text("[]\n")  # an empty list is no damage
    record_environment(tmp_path, {"run": 3})
    assert load_environment(tmp_path) == [{"run": 3}]
    assert not (tmp_path / f"{ENVIRONMENT}.unreadable-1").exists()
