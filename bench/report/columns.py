"""Column headers of the HTML report: a readable label and a definition shown on hover.

A column stored in seconds (its name ends in ``_s``) prints every cell as a time with its
unit (:func:`bench.report.units.duration`: "12.3 ms", "5.23 s"), in Markdown and on the page
alike, so its label carries no unit. Markdown keeps the data's own column names
(``summary.md`` is read beside the Parquet file) unless a table has its own labels (a table
of no data file: :mod:`.efforts`); the HTML page shows these labels, and the
Contents' key repeats nothing a hover does not say.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.report.data import PAR_K, SGM_SHIFT_S


@dataclass(frozen=True)
class Column:
    label: str
    definition: str = ""


_PAR = f"PAR-{PAR_K}"
_SHIFT = f"{SGM_SHIFT_S * 1000:g} ms"
_COMMON = "over the instances every pair answered"

COLUMNS: dict[str, Column] = {
    "formulation": Column("formulation", "the model (its variant in brackets)"),
    "solver": Column("solver", "the solver backend"),
    "pair": Column("formulation / solver", "a formulation variant run on one solver"),
    "puzzle": Column("puzzle"),
    "instance": Column("instance", "click: the instance's picture and every pair's result"),
    "family": Column("family", "instance family: seed, generated (several sizes) or real "
                               "(puzz.link, janko)"),
    "tier": Column("tier", "difficulty tier of the instance"),
    "kind": Column("kind", "model kind: mip, cpsat, sat, asp or external (its own solver in "
                           "the task process)"),
    "tasks": Column("tasks", "tasks run, every repeat and seed counted"),
    "solved": Column("solved", "instances (not tasks) answered correctly by a strict majority "
                               "of their repeats and seeds: solved and checked, or proved "
                               "infeasible where no exact formulation solved them"),
    "timeout": Column("timeout", "tasks (every repeat and seed, not instances) stopped at the "
                                 "time limit"),
    "memout": Column("memout", "tasks (every repeat and seed, not instances) stopped at the "
                               "memory limit"),
    "wrong": Column("wrong", "tasks (every repeat and seed, not instances) whose answer the "
                             "rule verifier or the known solution rejected, and 'infeasible' "
                             "where an exact formulation solved the instance"),
    "error": Column("error", "tasks (every repeat and seed, not instances) that ended in an "
                             "error"),
    "par2_s": Column(_PAR, f"mean build + solve time, an unanswered task counted at "
                                     f"{PAR_K}x the time limit (an error too: the only column "
                                     "that counts an error as a time)"),
    "sgm_s": Column("SGM", f"shifted geometric mean of the {_PAR} times (shift {_SHIFT}) of "
                           "the instances measured (one whose every task ended in error is left "
                           "out)"),
    "median_s": Column("median", f"median of the {_PAR} times of the instances measured"),
    "x_best": Column("× best", "SGM divided by the best pair's SGM, over the instances both "
                               "measured"),
    "attempted": Column("attempted", "instances the pair attempted / instances run (the rest "
                                     "not run or declined)"),
    "declined": Column("declined", "instances its formulation declined (not applicable, K): "
                                   "no time and no failure, left out of every time and test"),
    "common_par2_s": Column(f"common {_PAR}", f"{_PAR} mean {_COMMON}"),
    "common_sgm_s": Column("common SGM", f"SGM {_COMMON}"),
    "common_median_s": Column("common median", f"median {_COMMON}"),
    "iterations": Column("calls", "solver calls per task of a lazy loop: median / max "
                                  "(empty: one call)"),
    "setup_s": Column("set-up", "median one-time set-up of a peer package, measured apart "
                                    "and not in the times"),
    "sgm_range": Column("SGM range", "the SGM of each repetition or seed, lowest .. highest"),
    "cv": Column("CV", "median over instances of the coefficient of variation (standard "
                       "deviation / mean) of the repeated times"),
    "slope": Column("slope", "log-log slope of time against cells (1: linear, 2: quadratic)"),
    "range": Column("95 % range", "95 % t-interval of the fitted slope (N - 2 degrees of "
                                  "freedom over the N points); with censored points none: "
                                  "'censored: no interval' where the slope is a bound (the "
                                  "note), '–' where it has none; neither end over times at "
                                  "the limit bounds the slope"),
    "sizes": Column("sizes", "distinct instance sizes in the fit"),
    "censored": Column("censored", "points at the time limit: instances a strict majority of "
                                   "whose repeats did not answer, every failure a timeout (or "
                                   "answered above the limit); the note says whether the slope "
                                   "is then a lower bound, an upper bound or neither"),
    "instances": Column("instances", "distinct instances with a task that ran; in the ranking "
                                     "those the pair attempted (ran, not declined), an "
                                     "instance's repeats and seeds counted once; in the "
                                     "overview the most any pair attempted"),
    "what": Column("what", "wrong: rejected answer; disagrees: infeasible although an exact "
                           "formulation solved it; error: the task failed"),
    "status": Column("status", "the task's outcome"),
    "message": Column("message"),
    "ours": Column("ours", "our best pair that is not a peer package"),
    "peer": Column("peer", "a pair of a peer package (its results' origin, not its kind)"),
    "scope": Column("scope", "real: the puzz.link and janko instances; all: every instance "
                             "both ran"),
    "ours_solved": Column("ours solved"),
    "peer_solved": Column("peer solved"),
    "ours_par2_s": Column(f"ours {_PAR}"),
    "peer_par2_s": Column(f"peer {_PAR}"),
    "ratios": Column("both answered", "instances both answered (the ratios)"),
    "ours_faster": Column("ours faster", "instances where the ratio peer / ours is above 1"),
    "only_ours": Column("only ours", "answered by ours alone (no ratio)"),
    "only_peer": Column("only peer", "answered by the peer alone (no ratio)"),
    "ratio_min": Column("ratio min", "per-instance time ratio peer / ours: smallest"),
    "ratio_p10": Column("ratio p10", "10th percentile of the ratio peer / ours"),
    "ratio_median": Column("ratio median", "median of the ratio peer / ours (> 1: ours faster)"),
    "ratio_p90": Column("ratio p90", "90th percentile of the ratio peer / ours"),
    "ratio_max": Column("ratio max", "largest ratio peer / ours"),
    "ratio_geomean": Column("ratio geomean", "geometric mean of the ratio peer / ours"),
    "pairs": Column("pairs", "formulation variant x solver pairs run"),
    "best": Column("best", "the pair, without wrong answers and among those that attempted the "
                           "most instances, with the lowest mean log(min(t, limit) + shift); '≈': "
                           "pairs equivalent to it"),
    # the verdicts (bench.report.verdicts) and what was measured per tier
    "limit": Column("limit", "time limit per task of the tier"),
    "not run": Column("not run", "tasks recorded without running (a suite's ladder rule): "
                                 "left out of every count, time and test"),
    "answered": Column("answered", "the best pair's instances answered / run"),
    "sgm": Column("SGM", "the best's shifted geometric mean with its 95 % t-interval ('too few' "
                         "below 5 instances); where it left instances unanswered, '≥': a lower "
                         "bound with those at the limit, no interval"),
    "lead": Column("lead", "the runner-up: its factor over the best on the instances both ran, "
                           "95 % interval (none where censored times make the factor a "
                           "bound, '≥' or '≤'), label"),
    "separated": Column("separated", "pairs slower than the best by the max-T permutation test "
                                     "(p < 0.05), of the pairs compared"),
    "equivalent": Column("equivalent", "pairs whose 95 % interval lies within 1/1.25..1.25x of "
                                       "the best"),
    "inconclusive": Column("inconclusive", "pairs neither separated nor equivalent"),
    "note": Column("note", "what limits the row: few instances, pairs that ran none"),
    "separable": Column("separable", "the factor over the best above which a pair still in the "
                                     "test's last step is separated ('none at this size': no "
                                     "permuted arrangement reaches p < 0.05)"),
    "vs_best": Column("vs best", "factor over the best on the instances both ran (ratio of "
                                 "geometric means of t + shift, not of SGMs) with its 95 % "
                                 "interval; '≥' or '≤': a bound where censored times cap it, "
                                 "without an interval ('censored: no interval')"),
    "p": Column("p", "step-down max-T permutation p against the best (a Westfall-Young "
                     "variant); for a pair of another instance set two-sided, in the same test"),
    "vs_robust": Column("vs robust", "the verdicts' test of the declared default against the "
                                     "robust choice over the same instances, or why there is "
                                     "none"),
    "verdict": Column("verdict", "separated, equivalent (within 1.25x) or inconclusive (a "
                      "pair of another instance set also 'faster where both ran'); 'k of "
                                 "n run' (or 'k run, m in common with the best's n') where the "
                                 "pair ran another instance set than the best (', d declined': "
                                 "instances its formulation declined); such pairs follow those "
                                 "of the best's set"),
    "interval": Column("SGM 95 %", "t-interval of the SGM on log(t + shift)"),
    "repeats": Column("repeats", "repetitions that ran (lowest–highest)"),
    "seeds": Column("seeds", "solver seeds that ran (lowest–highest)"),
    "seeds a task": Column("seeds a task", "the most solver seeds one pair ran on one instance "
                                           "(a deterministic solver runs one)"),
    "seed spread": Column("seed spread", "one standard deviation as a factor: a seed's time "
                                         "typically within it of the pair's geometric mean on "
                                         "the instance (exp of the pooled SD of log(t + shift))"),
    "instance spread": Column("instance spread", "one standard deviation as a factor: an "
                                                 "instance's time typically within it of the "
                                                 "pair's geometric mean over its instances (exp "
                                                 "of the pooled SD of log(t + shift))"),
    "instances run": Column("instances run", "instances some pair attempted (a task that ran "
                                               "and was not declined)"),
    "tasks run": Column("tasks run", "tasks that ran: instances x pairs x repeats x seeds"),
    "tasks declined": Column("tasks declined", "tasks whose formulation declined the instance "
                                               "(not applicable, K): left out of every count, "
                                               "time and test"),
    "why not run": Column("why not run", "per reason, the tasks recorded without running"),
    # the same-model and same-solver views (bench.report.views)
    "answered_run": Column("answered / run", "instances answered correctly / instances run"),
    "sgm_interval": Column("SGM (95 %)", "shifted geometric mean with its 95 % t-interval "
                                         "('too few' below 5 instances); where the pair left "
                                         "instances unanswered, '≥': a lower bound with those "
                                         "at the limit, no interval"),
    "build_s": Column("build", "SGM of the model's construction time, answered tasks"),
    "solve_s": Column("solve", "SGM of the solve time (backend calls, a modelling layer's "
                                    "translation included), answered tasks"),
    "solver_s": Column("solver's own", "SGM of the time the solver itself reports, "
                                            "answered tasks"),
    "outside_s": Column("outside the solver", "SGM of solve minus the solver's own time: a "
                                                   "modelling layer's translation and work"),
    "layered": Column("through the layer", "the pair whose solver is reached through a "
                                           "modelling layer (CPMpy)"),
    "native": Column("native", "the best pair of the same solver without the layer"),
    "common": Column("both answered", "instances both pairs answered: the ratios' instances"),
    "build_x": Column("build ×", "layered / native ratio of the geometric means of build time + "
                                 "10 ms, 95 % t-interval"),
    "solve_x": Column("solve ×", "layered / native ratio of the geometric means of solve time + "
                                 "10 ms, 95 % t-interval"),
    "solver_x": Column("solver's own ×", "layered / native ratio of the geometric means of "
                                         "the solver's own time + 10 ms"),
    "median_time_s": Column("median time", "median build + solve time of the host's answered "
                            "tasks"),
    "median_overhead_s": Column("median overhead", "median time the harness added to the "
                                "host's tasks"),
    "overhead_median_s": Column("median", "the harness's median time per task"),
    "overhead_p90_s": Column("90th percentile", "the harness's 90th-percentile time per task"),
    "overhead_max_s": Column("max", "the harness's largest time for a task"),
    "setup_median_s": Column("set-up (median)", "median one-time set-up of a peer package, "
                             "apart from the overhead"),
    "layered_outside_s": Column("layer outside the solver", "SGM of the layered pair's "
                                "solve minus its solver's own time"),
}


def column(name: str) -> Column:
    """The label of a column; a name without an entry is shown as it is."""
    return COLUMNS.get(name, Column(name))
