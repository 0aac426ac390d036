"""Solution pictures: SVG documents that draw what the grid holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from bench.report.pictures import svg

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
    # two rectangles side by side: one thick border of 2 cell edges between them
    doc = svg("shikaku", '[[0, 0, 1], [0, 0, 1]]')
    thick = [g for g in _tags(doc, "g") if g.get("stroke-width") == "3"]
    assert len(list(thick[0])) == 2
    fill = svg("fillomino", [[1, 2, 2]], title="t")
    assert [t.text for t in _tags(fill, "text")] == ["1", "2", "2"]
    assert ET.fromstring(fill).find(NS + "title").text == "t"
