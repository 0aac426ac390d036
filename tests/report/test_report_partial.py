"""A report of a run folder that is not a whole run says so (bench/report/data.py
``unfinished``): while a run holds the folder's lock, and after a run that stopped before its
end; a finished run gets no such note. Real processes, a real lock and a real interrupted run."""

from __future__ import annotations

import signal
import subprocess
import sys

from bench.report.data import load_run
from bench.run.storage import RunLock, writer
from tests.conftest import ROOT
from tests.run.test_reliability_interrupt import RUN, start_run, wait_for_results

HOLD = ("import sys\nfrom bench.run.storage import RunLock\n"
        "with RunLock(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.read()\n")


def test_a_folder_whose_lock_another_process_holds_is_reported_as_being_written(
        tmp_path, single_run):
    folder = single_run
    assert writer(folder) is None
    assert not any("writing this folder" in w for w in load_run(folder).warnings)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert writer(folder) == str(holder.pid)
        notes = load_run(folder).warnings
        assert notes and notes[0].startswith(f"a run (pid {holder.pid}) is writing this folder"), \
            notes
        with RunLock(tmp_path / "other"):  # the reader let its own try go: a run may start
            pass
    finally:
        holder.communicate("", timeout=30)
    assert writer(folder) is None  # the kernel let the lock go with the process
    assert not any("writing this folder" in w for w in load_run(folder).warnings)


def test_a_run_stopped_before_its_end_is_reported_as_such_until_a_resume_finishes_it(tmp_path):
    out = tmp_path / "r"
    proc = start_run(out)
    wait_for_results(out, 1, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    notes = load_run(out).warnings
    assert notes and notes[0].startswith("the latest run into this folder stopped before its "
                                         "end"), notes
    p = subprocess.run([sys.executable, "-m", "bench.cli", "report", str(out), "--out",
                        str(tmp_path / "page")], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    assert "stopped before its end" in p.stderr, p.stderr  # said where the command is run
    assert "stopped before its end" in (tmp_path / "page" / "summary.md").read_text()
    p = subprocess.run([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert not any("stopped before" in w for w in load_run(out).warnings)
