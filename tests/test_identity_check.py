"""The task's check of its planned code (:func:`bench.identity.changed_code`): what it reads
again, and how it names the files that changed."""

from __future__ import annotations

import dataclasses

from tests.test_identity import BASE, OTHER, plug  # noqa: F401 (a fixture)


def test_an_edit_keeping_size_and_modification_time_still_changes_the_file_digest(tmp_path):
    """A copy that keeps the modification time (``cp -p``, ``rsync -t``) of a file of the same
    size is still read again: the digest cache is keyed by the change time and inode too."""
    import os

    from bench import identity

    f = tmp_path / "mod.py"
    f.write_text("X = 1\n")
    st = f.stat()
    before = identity._summary("mod", f)[0]
    g = tmp_path / "new.py"
    g.write_text("X = 2\n")  # same size
    os.utime(g, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(g, f)
    assert (f.stat().st_size, f.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    assert identity._summary("mod", f)[0] != before


def test_a_changed_code_error_names_the_files_that_changed(plug, monkeypatch):  # noqa: F811
    """The task's check names the files whose ``stat`` differs from when this process first
    took their digest (a fork-server template, before its tasks fork), three at most; where
    it read none before (a spawned task), the file changed last."""
    import time

    from bench import identity

    d, _ = plug
    form = type("Form", (), {"__module__": "idplug.form", "puzzle": ""})
    solver = type("Solver", (), {"__module__": "idplug.other"})
    task = dataclasses.replace(BASE, code=identity.formulation_code(form),
                               backend_code=identity.backend_code(solver))
    assert identity.changed_code(task, form, solver) == ""
    (d / "other.py").write_text(OTHER.format(pkg="idplug") + "# the solver's\n")
    said = identity.changed_code(task, form, solver)
    assert said.startswith("the code of solver cpsat changed since the run was planned: "
                           "idplug/other.py (code-"), said
    assert said.endswith(f", planned {task.backend_code})")
    for name in ("helper.py", "rules.py", "own.lp", "connect_edge.lp", "connect_reach.lp"):
        (d / name).write_text((d / name).read_text() + "# edited\n")
    said = identity.changed_code(task, form, solver)
    assert said.startswith("the code of cpsat-cover changed since the run was planned: "
                           "idplug/helper.py, idplug/rules.py, idplug/connect_edge.lp and 2 "
                           "others (code-"), said
    monkeypatch.setattr(identity, "_FIRST", {})  # a process that reads them first now
    time.sleep(0.05)  # a later change time than the edits above
    (d / "rules.py").write_text("RULES = 3\n")
    said = identity.changed_code(task, form, solver)
    assert said.startswith("the code of cpsat-cover changed since the run was planned: the "
                           "file changed last is idplug/rules.py, at "), said
