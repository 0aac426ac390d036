"""The page's data: every instance's view (instances.js), readable headers with units and
definitions, results.csv beside the Parquet file, the links to the run's records, the verdict
matrix first when there is one, and the DataTables bundle inlined once."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bench.report import assets, instances, load_run, prepare, write_report
from bench.report.render import Table


@pytest.fixture(scope="module")
def rep(mixed_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_report(mixed_run, tmp_path_factory.mktemp("views") / "rep")


def _views(out: Path) -> dict:
    text = (out / instances.FILE).read_text(encoding="utf-8")
    assert text.startswith("window.PB_INSTANCES=") and text.endswith(";\n")
    packed = json.loads(text[len("window.PB_INSTANCES="):-2])
    names = packed["pairs"]
    return {k: {**v, "rows": [[names[r[0]], *r[1:]] for r in v["rows"]]}
            for k, v in packed["views"].items()}


def test_every_instance_has_a_view_with_every_pair(rep: Path, mixed_run: Path):
    raw = pd.read_parquet(mixed_run / "results.parquet")
    views = _views(rep)
    assert set(views) == {f"{p}/{i}" for p, i in zip(raw["puzzle"], raw["instance"],
                                                      strict=True)}
    for key, v in views.items():
        puzzle, inst = key.split("/")
        runs = raw[(raw["puzzle"] == puzzle) & (raw["instance"] == inst)]
        pairs = set(runs["formulation"] + " / " + runs["solver"])
        assert {r[0] for r in v["rows"]} == pairs
        for r in v["rows"]:
            got = runs[runs["formulation"] + " / " + runs["solver"] == r[0]].iloc[0]
            assert r[1] == {"solved": "S", "timeout": "T", "memout": "M"}[got["status"]]
            if got["status"] == "solved":  # time = build + solve, the checker passed it
                assert r[3] == pytest.approx(got["build_s"] + got["solve_s"], rel=1e-3)
                assert r[9] == "yes"
            else:
                assert r[3] is None and not r[2]
        assert "<svg" in v["pic"]  # a solution, or at least the givens
    big = views["nurikabe/gen-nurikabe-40x40-s1-0"]
    assert big["rows"][0][2] is False  # failures first


def test_readable_headers_with_definitions_and_times_with_their_unit(rep: Path):
    html = (rep / "index.html").read_text()
    for label in ("PAR-2", "SGM", "median", "× best"):
        assert f">{label}</th>" in html
    assert 'title="shifted geometric mean of the PAR-2 times (shift 10 ms) of the instances ' \
        'measured' in html
    assert ">sgm_s<" not in html and ">common_par2_s<" not in html
    t = Table.of(pd.DataFrame({"formulation": ["a"], "sgm_s": [0.0123]}))
    assert t.cells()[0][1] == ("12.3 ms", repr(0.0123), "")  # with its unit, sorted by value
    assert t.rows[0][1] == "12.3 ms"  # Markdown alike (bench/report/units.py)


def test_instance_cells_link_to_their_view(rep: Path):
    html = (rep / "index.html").read_text()
    assert 'href="#i/shikaku/seed-10x10"' in html
    assert 'href="#i/nurikabe/gen-nurikabe-40x40-s1-0"' in html


def test_data_files_beside_the_page(rep: Path, mixed_run: Path):
    csv = pd.read_csv(rep / "results.csv")
    raw = pd.read_parquet(mixed_run / "results.parquet")
    assert len(csv) == len(raw) and list(csv.columns) == list(raw.columns)
    solved = csv[csv["status"] == "solved"]
    assert all(isinstance(json.loads(g), list) for g in solved["grid"])
    html = (rep / "index.html").read_text()
    for name in ("results.parquet", "results.csv", "summary.md", "environment.json",
                 "instances.js"):
        assert f'href="{name}"' in html and (rep / name).exists()
    assert "[results.csv](results.csv)" in (rep / "summary.md").read_text()


def test_the_bundle_is_inlined_once_and_nothing_is_fetched(rep: Path):
    html = (rep / "index.html").read_text()
    assert html.count("window.pbDT = {") == 1 and html.count("<script type=\"module\">") == 2
    # the instances' data is loaded when a view is first opened, not with the page
    assert '<script src="instances.js">' not in html
    assert html.count('data-instances="instances.js"') == 1
    head = html.split("<body>")[0]
    assert head.count("<style>") == 2 and "<link" not in head  # no style from the network


def test_expose_turns_the_export_into_a_global():
    js = "var a=1,c=2;export{a as B,c as default};\n/*! licence */\n"
    out = assets.expose(js)
    assert "export{" not in out and "window.pbDT = {'B': a, 'default': c};" in out
    assert "/*! licence */" in out
    with pytest.raises(assets.AssetError):
        assets.expose("var a=1;")


def test_the_verdict_matrix_comes_first(mixed_run: Path, tmp_path: Path):
    html = (write_report(mixed_run, tmp_path / "vm") / "index.html").read_text()
    body = html.split("<body>")[1]
    assert body.index('id="verdicts"') < body.index('class="contents"')
    matrix = body.split('id="verdicts"')[1].split("</section>")[0]
    assert "nurikabe" in matrix


def test_the_overhead_appendix_is_worded_for_readers(rep: Path):
    html = (rep / "index.html").read_text()
    appendix = html[html.index('id="appendix"'):]
    assert 'id="overhead"' in appendix and "in none of the times compared above" in appendix
    assert "target missed" not in html


def test_prepared_rows_give_the_view_data_directly(mixed_run: Path):
    t = prepare(load_run(mixed_run).df)
    views = instances.data(t)
    shikaku = views["shikaku/seed-10x10"]
    assert shikaku["group"] == "seeds" and shikaku["size"] == "10x10"
    assert "rule verifier" in shikaku["note"]


def test_an_instance_view_counts_the_answers_the_verifier_rejected():
    """The default run's 6x6 Fillomino: 21 answers agree with the .sol and mip-seed / scip's
    failed the rule verifier; the line under the title says both, not '21 of 21 agree' alone."""
    from tests.conftest import ROOT

    raw = pd.read_parquet(ROOT / "results" / "default-20261129-045741" / "results.parquet")
    t = prepare(raw[raw["instance"] == "gen-fillomino-6x6-s1-0"])
    sol = instances.data(t)["fillomino/gen-fillomino-6x6-s1-0"]["sol"]
    assert sol == ("21 of 21 answers agree with the known solution (.sol); 1 answer failed the "
                   "rule verifier (wrong, not compared)")
