"""The task's result file: each version whole in a file of its own, the result path a link
replaced in one step, so a reader always opens a complete version (the last one written)."""

from __future__ import annotations

import json
import os
import threading

from bench.run.task import ResultFile


def test_each_version_is_its_own_file_and_the_path_shows_the_last(tmp_path):
    out = tmp_path / "result.json"
    rf = ResultFile(out)
    rf.write(json.dumps({"status": "error"}))
    rf.write(json.dumps({"status": "solved", "final": True}))
    assert out.is_symlink()
    assert json.loads(out.read_text()) == {"status": "solved", "final": True}
    pid = os.getpid()
    assert json.loads((tmp_path / f"result.{pid}.1.json").read_text()) == {"status": "error"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"result.{pid}.1.json", f"result.{pid}.2.json", "result.json"]  # no temporary link


def test_a_reader_never_sees_a_torn_or_missing_result(tmp_path):
    """A reader polling while versions of a large result are written reads each time a whole
    JSON document (never a partial write, never no file once the first version exists)."""
    out = tmp_path / "result.json"
    rf = ResultFile(out)
    rf.write(json.dumps({"v": 0, "pad": "x" * 200_000}))
    done = threading.Event()
    seen: list[int] = []
    errors: list[str] = []

    def read() -> None:
        while not done.is_set():
            try:
                seen.append(json.loads(out.read_text())["v"])
            except (OSError, ValueError) as e:
                errors.append(repr(e))

    reader = threading.Thread(target=read)
    reader.start()
    for v in range(1, 200):
        rf.write(json.dumps({"v": v, "pad": "x" * 200_000}))
    done.set()
    reader.join()
    assert not errors, errors[:3]
    assert seen == sorted(seen) and seen
    assert json.loads(out.read_text())["v"] == 199


def test_a_failed_write_leaves_the_last_complete_version(tmp_path):
    out = tmp_path / "result.json"
    rf = ResultFile(out)
    rf.write('{"v": 1}')
    pid = os.getpid()
    (tmp_path / f"result.{pid}.2.json").mkdir()  # the next version's name is taken: it fails
    try:
        rf.write('{"v": 2}')
    except OSError:
        pass
    else:
        raise AssertionError("the write should have failed")
    assert json.loads(out.read_text()) == {"v": 1}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"result.{pid}.1.json", f"result.{pid}.2.json", "result.json"]  # no temporary link
