"""The cribbage board SVG: holes, pegs, streets, skunk line, words for every score."""

import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from django.template import Context, Template

from games.board import board_description, board_svg

SVG = "{http://www.w3.org/2000/svg}"
TWO = [
    {"name": "Alice", "score": 45, "previous": 38, "colour": "#c0392b"},
    {"name": "Bob", "score": 60, "previous": 52, "colour": "#1f5fa8"},
]


def parse(svg):
    return ET.fromstring(str(svg))


def holes(root):
    return [c for c in root.iter(SVG + "circle") if "data-hole" in c.attrib]


def peg(root, track, which):
    (g,) = [g for g in root.iter(SVG + "g") if g.get("data-peg") == which and g.get("data-track") == str(track)]
    return g


def hole_centre(root, track, hole):
    (c,) = [c for c in holes(root) if c.get("data-track") == str(track) and c.get("data-hole") == str(hole)]
    return float(c.get("cx")), float(c.get("cy"))


def peg_centre(root, track, which):
    circle = peg(root, track, which).find(SVG + "circle")
    return float(circle.get("cx")), float(circle.get("cy"))


@pytest.mark.parametrize("target, n_tracks", [(121, 2), (121, 3), (61, 2), (61, 3)])
def test_each_track_has_the_playing_holes_game_hole_and_two_start_holes(target, n_tracks):
    root = parse(board_svg((TWO * 2)[:n_tracks], target))
    per_track = Counter(c.get("data-track") for c in holes(root) if c.get("data-hole") != "start")
    starts = Counter(c.get("data-track") for c in holes(root) if c.get("data-hole") == "start")
    assert per_track == {str(t): target for t in range(n_tracks)}  # holes 1..target, target = game hole
    assert starts == {str(t): 2 for t in range(n_tracks)}
    numbers = sorted(
        int(c.get("data-hole")) for c in holes(root) if c.get("data-track") == "0" and c.get("data-hole") != "start"
    )
    assert numbers == list(range(1, target + 1))


def test_holes_are_in_two_rows_grouped_in_fives_out_and_back():
    root = parse(board_svg(TWO))
    out_y = hole_centre(root, 0, 1)[1]
    back_y = hole_centre(root, 0, 61)[1]
    assert back_y > out_y
    assert all(hole_centre(root, 0, n)[1] == out_y for n in range(1, 61))
    assert all(hole_centre(root, 0, n)[1] == back_y for n in range(61, 121))
    xs = [hole_centre(root, 0, n)[0] for n in range(1, 61)]
    steps = [round(b - a, 1) for a, b in zip(xs, xs[1:])]
    assert steps[:5] == [13, 13, 13, 13, 22]  # a wider gap after every fifth hole
    assert steps.count(22) == 11
    # The way back runs the other way and ends in the game hole beside the start.
    assert hole_centre(root, 0, 61)[0] == xs[-1] and hole_centre(root, 0, 120)[0] == xs[0]
    assert hole_centre(root, 0, 121)[0] < xs[0]


def test_front_and_back_pegs_stand_in_the_holes_of_the_score_and_previous_score():
    root = parse(board_svg(TWO))
    assert peg(root, 0, "front").get("data-hole") == "45"
    assert peg(root, 0, "back").get("data-hole") == "38"
    assert peg_centre(root, 0, "front") == hole_centre(root, 0, 45)
    assert peg_centre(root, 0, "back") == hole_centre(root, 0, 38)
    assert peg_centre(root, 1, "front") == hole_centre(root, 1, 60)
    assert peg_centre(root, 1, "back") == hole_centre(root, 1, 52)
    assert peg(root, 1, "front").find(SVG + "circle").get("fill") == "#1f5fa8"


def test_pegs_at_the_start_and_in_the_game_hole():
    root = parse(board_svg([{"name": "A", "score": 0, "previous": 0}, {"name": "B", "score": 130, "previous": 117}]))
    starts = {
        (float(c.get("cx")), float(c.get("cy")))
        for c in holes(root)
        if c.get("data-track") == "0" and c.get("data-hole") == "start"
    }
    assert {peg_centre(root, 0, "front"), peg_centre(root, 0, "back")} == starts
    assert peg(root, 1, "front").get("data-hole") == "121"  # clamped to the target
    assert peg_centre(root, 1, "front") == hole_centre(root, 1, 121)
    assert peg_centre(root, 1, "back") == hole_centre(root, 1, 117)


def test_first_points_leave_the_back_peg_in_a_start_hole():
    root = parse(board_svg([{"name": "A", "score": 2, "previous": 0}, {"name": "B", "score": 0, "previous": 0}]))
    assert peg_centre(root, 0, "front") == hole_centre(root, 0, 2)
    assert peg(root, 0, "back").get("data-hole") == "0"
    assert peg_centre(root, 0, "back") in {
        (float(c.get("cx")), float(c.get("cy")))
        for c in holes(root)
        if c.get("data-track") == "0" and c.get("data-hole") == "start"
    }


def test_a_61_board_has_rows_of_thirty():
    root = parse(board_svg(TWO, target=61))
    assert hole_centre(root, 0, 30)[1] == hole_centre(root, 0, 1)[1]
    assert hole_centre(root, 0, 31)[1] > hole_centre(root, 0, 30)[1]
    assert peg(root, 1, "front").get("data-hole") == "60"


@pytest.mark.parametrize("target, streets, skunk", [(121, {"30", "60"}, "90"), (61, {"15", "45"}, "30")])
def test_street_lines_and_the_skunk_line(target, streets, skunk):
    root = parse(board_svg(TWO, target))
    lines = list(root.iter(SVG + "line"))
    assert {ln.get("data-after") for ln in lines if ln.get("class") == "street-line"} == streets
    assert {ln.get("data-after") for ln in lines if ln.get("class") == "skunk-line"} == {skunk}
    texts = "".join(root.itertext())
    assert f"skunk {int(skunk) + 1}" in texts


def test_scores_are_in_words_not_only_in_colour():
    svg = str(board_svg(TWO))
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.find(SVG + "title").text == "Cribbage board"
    desc = root.find(SVG + "desc").text
    assert desc.startswith("Alice 45 (was 38), Bob 60 (was 52)")
    assert root.get("aria-labelledby") == "board-title board-desc"
    # A legend beside each track names the player and the score.
    legend_text = [" ".join("".join(g.itertext()).split()) for g in root.iter(SVG + "g") if g.get("class") == "legend"]
    assert legend_text == ["Alice 45 (was 38)", "Bob 60 (was 52)"]
    assert peg(root, 0, "front").find(SVG + "title").text == "Alice: front peg at 45"
    assert board_description(TWO) == "Alice 45 (was 38), Bob 60 (was 52)"


def test_three_tracks_and_partnerships():
    tracks = [
        {"name": "North & South", "score": 121, "previous": 115},
        {"name": "East & West", "score": 88, "previous": 80},
    ]
    root = parse(board_svg(tracks, id_prefix="g7"))
    assert root.find(SVG + "desc").text.startswith("North & South 121 (was 115), game, East & West 88 (was 80)")
    assert root.get("aria-labelledby") == "g7-title g7-desc"
    three = parse(board_svg(TWO + [{"name": "Cy", "score": 10, "previous": 4}]))
    assert {g.get("data-track") for g in three.iter(SVG + "g") if g.get("data-peg")} == {"0", "1", "2"}


def test_output_is_deterministic_and_escaped():
    evil = [
        {"name": "<script>x</script>", "score": 5, "previous": 1, "colour": '"><script>'},
        {"name": "B", "score": 1, "previous": 0},
    ]
    a, b = board_svg(evil), board_svg([dict(t) for t in evil])
    assert str(a) == str(b)
    assert "<script>" not in str(a)
    parse(a)  # still well-formed XML


def test_bad_target_or_no_tracks():
    with pytest.raises(ValueError):
        board_svg(TWO, target=100)
    with pytest.raises(ValueError):
        board_svg([])


def test_template_include_renders_the_board():
    html = Template('{% include "games/_board.html" with tracks=tracks %}').render(Context({"tracks": TWO}))
    assert 'class="cribbage-board"' in html and "Alice 45 (was 38)" in html
