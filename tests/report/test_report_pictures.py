"""Solution pictures: SVG documents that draw what the grid holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from bench.report.pictures import S, clues_svg, svg

NS = "{http://www.w3.org/2000/svg}"


def _tags(doc: str, tag: str) -> list[ET.Element]:
    return list(ET.fromstring(doc).iter(NS + tag))


def test_nurikabe_walls_are_filled_cells():
    doc = svg("nurikabe", [["#", "."], [".", "#"]])
    filled = [r for r in _tags(doc, "rect") if r.get("fill") == "#222"]
    assert len(filled) == 2


def test_yinyang_stones_and_shakashaka_triangles():
    assert len(_tags(svg("yinyang", [["b", "w", "b"]]), "circle")) == 3
    doc = svg("shakashaka", [["◢", "."], ["◤", "◥"]])
    assert len(_tags(doc, "polygon")) == 3


def test_region_borders_for_shikaku_and_fillomino():
    # two rectangles side by side: one thick border, one straight run of 2 cell edges
    doc = svg("shikaku", '[[0, 0, 1], [0, 0, 1]]')
    thick = [p for p in _tags(doc, "path") if p.get("stroke-width") == "3"]
    assert [p.get("d") for p in thick] == [f"M{2 * S} 0V{2 * S}"]
    # an L and a cell: a vertical run of one edge and a horizontal one, nothing else
    corner = svg("shikaku", [[0, 1], [0, 0]])
    thick = [p for p in _tags(corner, "path") if p.get("stroke-width") == "3"]
    assert [p.get("d") for p in thick] == [f"M{S} 0V{S}M{S} {S}H{2 * S}"]
    fill = svg("fillomino", [[1, 2, 2]], title="t")
    assert [t.text for t in _tags(fill, "text")] == ["1", "2", "2"]
    assert ET.fromstring(fill).find(NS + "title").text == "t"


def test_yinyang_givens_of_both_colours_are_marked_apart_from_solved_stones(tmp_path):
    inst = tmp_path / "y.txt"
    inst.write_text("puzzle: yinyang\nsize: 2x3\n\nb . w\n. . .\n")
    doc = svg("yinyang", [["b", "b", "w"], ["b", "w", "w"]], str(inst))
    circles = _tags(doc, "circle")
    given = [c for c in circles if c.get("class") == "given"]
    assert [c.get("fill") for c in given] == ["#222", "white"]  # a black and a white given
    solved = [c for c in circles if c.get("class") != "given"]
    assert len(solved) == 4 and {c.get("stroke") for c in solved} == {"#1f5fa8"}
    shaded = [r for r in _tags(doc, "rect") if r.get("class") == "given"]
    assert len(shaded) == 2


def test_clues_alone_for_an_unsolved_instance(tmp_path):
    inst = tmp_path / "s.txt"
    inst.write_text("puzzle: shakashaka\nsize: 2x2\n\n0 .\n. #\n")
    doc = clues_svg("shakashaka", str(inst), 2, 2, "s")
    black = [r for r in _tags(doc, "rect") if r.get("fill") == "#222"]
    assert len(black) == 2  # the numbered black cell (0) and the plain one
    assert [t.text for t in _tags(doc, "text")] == ["0"]
    fill = tmp_path / "f.txt"
    fill.write_text("puzzle: fillomino\nsize: 1x3\n\n2 . .\n")
    assert [t.text for t in _tags(clues_svg("fillomino", str(fill), 1, 3), "text")] == ["2"]
    assert clues_svg("fillomino", str(tmp_path / "missing.txt"), 1, 3) == ""
