"""Analyses of run folders beyond the report, each a module run as ``python -m
bench.analysis.NAME`` (its ``main()``), reading run or report folders (anything holding
``results.parquet`` or ``journal.jsonl``) through :mod:`bench.report.data` and computing with the
report's own statistics (:mod:`bench.report.verdicts`), so their numbers are the report's.

* :mod:`bench.analysis.mip_solvers`: SCIP, CBC and GLPK against HiGHS per MIP formulation;
* :mod:`bench.analysis.tie_sets`: whether two runs of one suite agree on each verdict cell's
  best-or-tie set.
"""
