"""The ranges a task's numbers must lie in, defined once for the command line
(:mod:`bench.cli.args`), the suites file (:mod:`bench.suites`) and the journal's records
(:mod:`bench.records`): each bound is what a solver, the operating system, the run's plan or a
results table can take, with the reason beside it."""

from __future__ import annotations

#: the largest solver seed: every seeded solver takes a 32-bit int (CP-SAT ``random_seed``,
#: HiGHS ``random_seed`` and SCIP ``randomization/randomseedshift`` 0 .. 2**31-1), and Exact
#: is given the seed + 1
MAX_SEED = 2**31 - 2
#: the largest memory limit in MB: 2**37 MB is 2**57 bytes, the largest virtual address
#: space of a Linux process (x86-64 with 5-level paging)
MAX_MEMORY_MB = 2**37
#: the largest thread count: the solvers' thread options are 32-bit ints (CP-SAT
#: ``num_workers``, HiGHS ``threads``, SCIP ``lp/threads``)
MAX_THREADS = 2**31 - 1
#: the range of the integers a results table holds (a signed 64-bit Parquet column)
MIN_INT64, MAX_INT64 = -(2**63), 2**63 - 1
#: the most runs of one task (``run --repeat`` times ``--seeds``, a suite tier's ``repeats``
#: or ``seeds``): a run plans every run of every task, each held in memory as a task, before
#: the first one starts, so the count multiplies the plan of every (instance, formulation,
#: solver); 10,000 runs of one task at a one-second limit are near three hours of solver time
#: for that task alone, past any timing-noise or seed-variance design. It is below
#: ``MAX_SEED + 1``: the seeds ``0 .. MAX_RUNS - 1`` are all solver seeds.
MAX_RUNS = 10_000
#: the most tasks at a time (``run --jobs``): each runs in a process of its own, and a Linux
#: system holds at most 2**22 processes (``PID_MAX_LIMIT`` on 64-bit, the ceiling of
#: ``/proc/sys/kernel/pid_max``)
MAX_JOBS = 2**22
