"""The rating history chart: a well-formed SVG, a line per family, each point at its game."""

import xml.etree.ElementTree as ET

from ratings.chart import history_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def test_nothing_to_draw():
    assert history_svg({}, 0) == ""
    assert history_svg({"Overall": []}, 3) == ""


def test_a_line_per_family_with_each_point_at_its_game():
    svg = history_svg(
        {"Overall": [(0, 1100, 300), (1, 1200, 280), (2, 1150, 270)], "Three players": [(2, 1050, 320)]},
        3,
        "1 Dec 2026",
        "3 Dec 2026",
    )
    root = ET.fromstring(svg)  # well-formed
    lines = root.findall("svg:polyline", NS)
    assert len(lines) == 2
    overall_x = [float(p.split(",")[0]) for p in lines[0].get("points").split()]
    three_x = [float(p.split(",")[0]) for p in lines[1].get("points").split()]
    assert three_x == overall_x[-1:]  # the three-player game was the third rated game
    assert root.find("svg:polygon", NS) is not None  # the ± band
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Overall 1150" in texts and "Three players 1050" in texts and "3 Dec 2026 (game 3)" in texts


def test_a_higher_rating_is_drawn_higher():
    root = ET.fromstring(history_svg({"Overall": [(0, 1000, 300), (1, 1400, 250)]}, 2))
    (first, second) = [float(p.split(",")[1]) for p in root.find("svg:polyline", NS).get("points").split()]
    assert second < first
