"""The rating history chart: a well-formed SVG, a line per family, each point at its game."""

import xml.etree.ElementTree as ET

from ratings.chart import POINTS, bucket, history_svg, thin

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


def _walk(games, seed=1):
    """A long line: a random walk with one game's peak and one game's trough planted in it."""
    import random

    rng, value, points = random.Random(seed), 1500, []
    for n in range(games):
        value = min(2000, max(1000, value + rng.randrange(-15, 16)))
        points.append((n, value, max(20, 333 - n)))
    peak, trough = games // 3, 2 * games // 3
    points[peak] = (peak, 2900, points[peak][2])
    points[trough] = (trough, 300, points[trough][2])
    return points, points[peak], points[trough]


def _drawn(svg):
    """(x, y) of each polyline's points, line by line."""
    root = ET.fromstring(svg)
    return [
        [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        for line in root.findall("svg:polyline", NS)
    ]


def test_a_long_history_draws_at_most_points_a_line_and_keeps_the_first_the_last_the_peak_and_trough():
    for games in (POINTS + 1, 1000, 5000, 50_000):
        points, peak, trough = _walk(games)
        kept = thin(points, games)
        assert len(kept) <= POINTS and list(kept) == sorted(kept)
        assert kept[0] == points[0] and kept[-1] == points[-1]
        assert peak in kept and trough in kept
        # Every bucket keeps its low and its high: the line's envelope is the history's.
        for b in {bucket(n, games) for n, _, _ in points}:
            values = [v for n, v, _ in points if bucket(n, games) == b]
            shown = [v for n, v, _ in kept if bucket(n, games) == b]
            assert min(shown) == min(values) and max(shown) == max(values)
        svg = history_svg({"Overall": points, "Two players": points[::2]}, games, "1 Jan 2020", "6 Dec 2026")
        lines = _drawn(svg)
        assert [len(line) for line in lines] == [len(kept), len(thin(points[::2], games))]
        assert all(len(line) <= POINTS for line in lines)
        assert len(svg) < 20_000  # the same few kilobytes at 201 games and at 50,000
        ys = [y for _, y in lines[0]]
        assert min(ys) == lines[0][kept.index(peak)][1] and max(ys) == lines[0][kept.index(trough)][1]
        texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
        assert f"Overall {points[-1][1]}" in texts and f"6 Dec 2026 (game {games})" in texts
        assert f"Rating after each of {games} rated games" in svg


def test_a_history_of_at_most_points_is_drawn_point_for_point():
    for games in (1, 2, 39, 40, POINTS):
        points, _, _ = _walk(games) if games > 2 else ([(n, 1000 + n, 300) for n in range(games)], None, None)
        assert thin(points, games) is points
        svg = history_svg({"Overall": points}, games)
        assert len(_drawn(svg)[0]) == games
    # A family's line is thinned on its own count: a short one beside a long overall one stays whole.
    points, _, _ = _walk(1000)
    three = points[::10]
    lines = _drawn(history_svg({"Overall": points, "Three players": three}, 1000))
    assert len(lines[0]) <= POINTS and len(lines[1]) == len(three)


def test_the_band_follows_the_line_that_is_drawn():
    points, _, _ = _walk(3000)
    root = ET.fromstring(history_svg({"Overall": points}, 3000))
    band = root.find("svg:polygon", NS).get("points").split()
    assert len(band) == 2 * len(thin(points, 3000))
