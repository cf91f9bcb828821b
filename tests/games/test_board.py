"""The cribbage board SVG: holes, pegs, streets, skunk line, words for every score."""

import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from django.template import Context, Template

from games.board import board_description, board_html, board_svg
from games.board_geometry import board_lines, hole_centre
from games.cribbage import rules_for

SVG = "{http://www.w3.org/2000/svg}"
TWO = [
    {"name": "Alice", "score": 45, "previous": 38, "colour": "#c0392b"},
    {"name": "Bob", "score": 60, "previous": 52, "colour": "#1f5fa8"},
]


def parse(svg):
    return ET.fromstring(str(svg))


def holes(root):
    """Every hole as (track, hole number or "start", (x, y)): groups of five are <use>s of one row of five."""
    out = []
    for el in root.iter():
        track = el.get("data-track")
        if el.tag == SVG + "circle" and el.get("data-hole"):
            out.append((int(track), el.get("data-hole"), (float(el.get("cx")), float(el.get("cy")))))
        elif el.tag == SVG + "use":
            # "41-45" left to right on a row going out, "45-41" on a row coming back.
            left, right = (int(n) for n in el.get("data-holes").split("-"))
            x, y = float(el.get("x")), float(el.get("y"))
            numbers = range(left, right + 1) if left < right else range(left, right - 1, -1)
            out += [(int(track), str(n), (round(x + i * 10, 1), y)) for i, n in enumerate(numbers)]
    return out


def hole_at(root, track, hole):
    (xy,) = [xy for t, n, xy in holes(root) if t == track and n == str(hole)]
    return xy


def peg(root, track, which):
    (g,) = [g for g in root.iter(SVG + "g") if g.get("data-peg") == which and g.get("data-track") == str(track)]
    return g


def peg_centre(root, track, which):
    circle = peg(root, track, which).find(SVG + "circle")
    return float(circle.get("cx")), float(circle.get("cy"))


def start_holes(root, track):
    return {xy for t, n, xy in holes(root) if t == track and n == "start"}


@pytest.mark.parametrize("folded", [False, True])
@pytest.mark.parametrize("target, n_tracks", [(121, 2), (121, 3), (61, 2), (61, 3)])
def test_each_track_has_the_playing_holes_game_hole_and_two_start_holes(target, n_tracks, folded):
    root = parse(board_svg((TWO * 2)[:n_tracks], target, folded=folded))
    per_track = Counter(t for t, n, _ in holes(root) if n != "start")
    starts = Counter(t for t, n, _ in holes(root) if n == "start")
    assert per_track == {t: target for t in range(n_tracks)}  # holes 1..target, target = game hole
    assert starts == {t: 2 for t in range(n_tracks)}
    numbers = sorted(int(n) for t, n, _ in holes(root) if t == 0 and n != "start")
    assert numbers == list(range(1, target + 1))
    # No two holes in the same place.
    assert len({xy for _, _, xy in holes(root)}) == len(holes(root))


@pytest.mark.parametrize("folded, per_row", [(False, 60), (True, 15)])
def test_holes_run_out_and_back_in_rows_grouped_in_fives(folded, per_row):
    root = parse(board_svg(TWO, folded=folded))
    rows = [
        [hole_centre(121, 2, 0, n, folded) for n in range(first, first + per_row)] for first in range(1, 121, per_row)
    ]
    for i, row in enumerate(rows):
        assert len({y for _, y in row}) == 1  # a row is straight
        xs = [x for x, _ in row]
        steps = [round(b - a, 1) for a, b in zip(xs, xs[1:])]
        step = 10 if i % 2 == 0 else -10  # out along one row, back along the next
        assert steps[:5] == [step, step, step, step, step * 1.6]  # a wider gap after every fifth hole
        assert rows[i][0][1] < (rows[i + 1][0][1] if i + 1 < len(rows) else 1e9)
    # Each row turns where the last one ended, and the last one ends in the game hole.
    assert rows[0][-1][0] == rows[1][0][0]
    assert hole_centre(121, 2, 0, 121, folded)[0] < rows[-1][-1][0]
    # The drawn holes are where hole_centre says.
    for n in (1, 5, 6, 45, 60, 61, 90, 91, 120, 121):
        assert hole_at(root, 0, n) == hole_centre(121, 2, 0, n, folded)
        assert hole_at(root, 1, n) == hole_centre(121, 2, 1, n, folded)


@pytest.mark.parametrize("folded", [False, True])
def test_front_and_back_pegs_stand_in_the_holes_of_the_score_and_previous_score(folded):
    root = parse(board_svg(TWO, folded=folded))
    assert peg(root, 0, "front").get("data-hole") == "45"
    assert peg(root, 0, "back").get("data-hole") == "38"
    assert peg_centre(root, 0, "front") == hole_at(root, 0, 45)
    assert peg_centre(root, 0, "back") == hole_at(root, 0, 38)
    assert peg_centre(root, 1, "front") == hole_at(root, 1, 60)
    assert peg_centre(root, 1, "back") == hole_at(root, 1, 52)
    assert peg(root, 1, "front").find(SVG + "circle").get("fill") == "#1f5fa8"


def last_points(root):
    return {
        g.get("data-track"): " ".join(g.itertext()) for g in root.iter(SVG + "g") if g.get("class") == "last-points"
    }


def test_the_last_points_are_written_between_the_pegs():
    root = parse(board_svg(TWO))
    assert last_points(root) == {"0": "+7", "1": "+8"}
    (label,) = [g for g in root.iter(SVG + "g") if g.get("class") == "last-points" and g.get("data-track") == "0"]
    x = float(label.find(SVG + "text").get("x"))
    assert hole_at(root, 0, 38)[0] < x < hole_at(root, 0, 45)[0]
    assert last_points(parse(board_svg([{"name": "A", "score": 0}, {"name": "B", "score": 5, "previous": 5}]))) == {}


def _word_boxes(node, size=None, anchor=None, weight=None):
    """(class, box) for every <text> but the last points' labels: a generous box from its anchor
    and baseline, glyphs 0.64 em wide (0.7 em in bold), 0.8 em above the baseline and 0.25 below
    (sizes, anchors and weights inherited)."""
    size, anchor = node.get("font-size") or size, node.get("text-anchor") or anchor
    weight = node.get("font-weight") or weight
    if node.get("class") == "last-points":
        return []
    if node.tag == SVG + "text":
        em = float(size)
        glyph = 0.7 if weight == "700" else 0.64
        width, x, y = len("".join(node.itertext())) * em * glyph, float(node.get("x")), float(node.get("y"))
        left = {"middle": x - width / 2, "end": x - width}.get(anchor or "", x)
        return [(node.get("class"), (left, y - em * 0.8, left + width, y + em * 0.25))]
    return [box for child in node for box in _word_boxes(child, size, anchor, weight)]


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _circle_box(c):
    x, y, r = (float(c.get(k)) for k in ("cx", "cy", "r"))
    return x - r, y - r, x + r, y + r


def _track_boxes(root):
    """The peg tracks: each straight piece of each track's inlay (out of the start holes, along
    every row, round every turn), as wide as its stroke, with every hole."""
    boxes = []
    for path in root.iter(SVG + "path"):
        if not path.get("stroke-width") or path.get("fill") != "none" or "stroke-linecap" not in path.attrib:
            continue
        half = float(path.get("stroke-width")) / 2
        words = path.get("d").split()
        x, y = float(words[0][1:]), float(words[1])
        for word in words[2:]:
            nx, ny = (float(word[1:]), y) if word[0] == "H" else (x, float(word[1:]))
            boxes.append((min(x, nx) - half, min(y, ny) - half, max(x, nx) + half, max(y, ny) + half))
            x, y = nx, ny
    return boxes + [(x - 3.3, y - 3.3, x + 3.3, y + 3.3) for _, _, (x, y) in holes(root)]


@pytest.mark.parametrize("folded", [False, True])
@pytest.mark.parametrize("target", [121, 61])
def test_no_label_covers_a_number_a_word_a_track_a_peg_or_another_label(target, folded):
    """Every score, the pegs side by side, close or far apart, two to four tracks: the "+N" label
    and the skunk lines' words stay on the board and clear of every hole number, word, peg, peg
    track and other label."""
    for n_tracks in (2, 3, 4):
        for score in range(1, target + 1):
            for points in (1, 2, 13):
                tracks = [{"name": f"Player {t}", "score": score, "previous": score - points} for t in range(n_tracks)]
                root = parse(board_svg(tracks, target, folded=folded))
                words = _word_boxes(root)
                pegs = [_circle_box(g.find(SVG + "circle")) for g in root.iter(SVG + "g") if g.get("data-peg")]
                labels = [
                    (g.get("data-track"), _rect_box(g.find(SVG + "rect")))
                    for g in root.iter(SVG + "g")
                    if g.get("class") == "last-points"
                ]
                assert len(labels) == n_tracks and len(words) > target // 5  # the numbers, at least
                width, height = (float(v) for v in root.get("viewBox").split()[2:])
                for track, box in labels:
                    where = (n_tracks, score, points, track, box)
                    assert 7 <= box[0] and box[2] <= width - 7 and 7 <= box[1] and box[3] <= height - 7, where
                    assert not any(_overlap(box, w) for _, w in words), where
                    assert not any(_overlap(box, p) for p in pegs), where
                    assert not any(_overlap(box, other) for t, other in labels if t != track), where
                skunks = [(i, box) for i, (cls, box) in enumerate(words) if cls == "skunk-label"]
                assert len(skunks) == (2 if target == 121 else 1)
                tracks_and_pegs = _track_boxes(root) + pegs if score == 1 else pegs
                for i, box in skunks:
                    where = (n_tracks, score, points, box)
                    assert 7 <= box[0] and box[2] <= width - 7 and 7 <= box[1] and box[3] <= height - 7, where
                    assert not any(_overlap(box, w) for j, (_, w) in enumerate(words) if j != i), where
                    assert not any(_overlap(box, t) for t in tracks_and_pegs), where


def _rect_box(r):
    x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
    return x, y, x + w, y + h


def test_pegs_at_the_start_and_in_the_game_hole():
    root = parse(board_svg([{"name": "A", "score": 0, "previous": 0}, {"name": "B", "score": 130, "previous": 117}]))
    assert {peg_centre(root, 0, "front"), peg_centre(root, 0, "back")} == start_holes(root, 0)
    assert peg(root, 1, "front").get("data-hole") == "121"  # clamped to the target
    assert peg_centre(root, 1, "front") == hole_at(root, 1, 121)
    assert peg_centre(root, 1, "back") == hole_at(root, 1, 117)


def test_first_points_leave_the_back_peg_in_a_start_hole():
    root = parse(board_svg([{"name": "A", "score": 2, "previous": 0}, {"name": "B", "score": 0, "previous": 0}]))
    assert peg_centre(root, 0, "front") == hole_at(root, 0, 2)
    assert peg(root, 0, "back").get("data-hole") == "0"
    assert peg_centre(root, 0, "back") in start_holes(root, 0)


def test_a_61_board_has_rows_of_thirty_and_folds_into_rows_of_fifteen():
    assert hole_centre(61, 2, 0, 30)[1] == hole_centre(61, 2, 0, 1)[1]
    assert hole_centre(61, 2, 0, 31)[1] > hole_centre(61, 2, 0, 30)[1]
    assert hole_centre(61, 2, 0, 15, folded=True)[1] < hole_centre(61, 2, 0, 16, folded=True)[1]
    root = parse(board_svg(TWO, target=61))
    assert peg(root, 1, "front").get("data-hole") == "60"


def lines(root, cls):
    return {ln.get("data-after") for ln in root.iter(SVG + "line") if cls in ln.get("class").split()}


@pytest.mark.parametrize("folded", [False, True])
def test_the_121_board_has_its_skunk_line_at_91_and_double_skunk_line_at_61_and_none_at_31(folded):
    root = parse(board_svg(TWO, 121, folded=folded))
    assert lines(root, "skunk-line") == {"90", "60"}  # the line after hole 90: short of 91 is a skunk
    assert lines(root, "double-skunk-line") == {"60"}
    assert lines(root, "street-line") == {"30"}
    labels = [t.text for t in root.iter(SVG + "text") if t.get("class") == "skunk-label"]
    assert sorted(labels) == ["double skunk 61", "skunk 91"]
    assert "skunk 31" not in "".join(root.itertext())
    desc = root.find(SVG + "desc").text
    assert desc.endswith("Game to 121; skunk line at 91, double skunk line at 61.")


@pytest.mark.parametrize("folded", [False, True])
def test_the_61_board_has_its_skunk_line_at_31_and_no_double_skunk(folded):
    root = parse(board_svg(TWO, 61, folded=folded))
    assert lines(root, "skunk-line") == {"30"}
    assert lines(root, "double-skunk-line") == set()
    assert lines(root, "street-line") == {"15", "45"}
    assert [t.text for t in root.iter(SVG + "text") if t.get("class") == "skunk-label"] == ["skunk 31"]
    assert "double" not in "".join(root.itertext())


def test_the_skunk_lines_follow_the_engines_rules():
    assert board_lines(121) == {30: "street", 60: "double_skunk", 90: "skunk"}
    assert board_lines(61) == {15: "street", 30: "skunk", 45: "street"}
    for target in (121, 61):
        rules = rules_for("two", target)
        assert rules.skunk(rules.skunk_line - 1) and not rules.skunk(rules.skunk_line)
        assert {k + 1 for k, kind in board_lines(target).items() if kind == "skunk"} == {rules.skunk_line}


@pytest.mark.parametrize(
    "target, folded, hidden",
    [(121, False, {90, 65}), (121, True, {95, 65}), (61, False, set()), (61, True, {35})],
)
def test_the_holes_are_numbered_every_five(target, folded, hidden):
    root = parse(board_svg(TWO, target, folded=folded))
    numbers = {int(t.text) for t in root.iter(SVG + "text") if t.text and t.text.isdigit()}
    # Every fifth hole, but where the words of a skunk line stand beside its number (on the long
    # board to 61 the skunk line is at the turn, and its words fit beyond the 35).
    assert numbers == set(range(5, target, 5)) - hidden | {target}


def test_scores_are_in_words_not_only_in_colour():
    svg = str(board_svg(TWO))
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.find(SVG + "title").text == "Cribbage board"
    desc = root.find(SVG + "desc").text
    assert desc.startswith("Alice 45 (was 38), Bob 60 (was 52)")
    assert root.get("aria-labelledby") == "board-title board-desc"
    # Each row carries its side's name: the whole name on the long board, its first letters on the folded one.
    names = {
        g.get("data-track"): " ".join("".join(g.itertext()).split())
        for g in root.iter(SVG + "g")
        if g.get("class") == "name"
    }
    assert names == {"0": "Alice Alice", "1": "Bob Bob"}
    folded = parse(board_svg(TWO, folded=True))
    names = {
        g.get("data-track"): "".join("".join(g.itertext()).split())
        for g in folded.iter(SVG + "g")
        if g.get("class") == "name"
    }
    assert names == {"0": "Alice" * 8, "1": "Bob" * 8}
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
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="cribbage-board') == 2  # long and folded
    assert 'id="board-long-title"' in html and 'id="board-folded-title"' in html
    assert "Alice 45 (was 38)" in html and "css/board.css" in html
    assert str(board_html(TWO)).count("<svg") == 2


def test_the_pair_of_boards_is_kept_and_the_same_bytes_as_drawn_afresh():
    """board_html keeps the boards it drew last: the same tracks, however given, give the same
    bytes as the two boards drawn anew; other scores draw other boards."""
    drawn = (
        '<div class="board-pair">'
        + board_svg(TWO, 121, id_prefix="b-long")
        + board_svg(TWO, 121, id_prefix="b-folded", folded=True)
        + "</div>"
    )
    assert str(board_html(TWO, 121, id_prefix="b")) == drawn
    again = [{**t, "score": str(t["score"])} for t in TWO]  # equal once read as a track
    assert board_html(again, 121, id_prefix="b") is board_html(TWO, 121, id_prefix="b")
    moved = [{**TWO[0], "score": TWO[0]["score"] + 2}, TWO[1]]
    assert board_html(moved, 121, id_prefix="b") != drawn
