"""The labels on the board, the last points ("+N") and the skunk lines' words, as Chromium draws
them: never over a hole number, another word, a name, a peg, a hole or each other, on the long
board and the folded one."""

import pytest

from games.board import board_svg

pytestmark = pytest.mark.browser

# Pegs side by side, close or far apart, at the start, at the turns, by the streets and the
# skunk lines, in the game hole: where a label over the peg used to cover a number.
SCORES = [(1, 0), (5, 3), (10, 8), (29, 28), (30, 25), (31, 29), (55, 50), (60, 59), (61, 58), (65, 62)]
SCORES += [(89, 87), (91, 90), (100, 98), (119, 118), (121, 119), (121, 108)]

# For every label, the elements its rectangle overlaps (real rectangles, after layout and fonts).
OVERLAPS = """() => {
  // Words must not even touch: each label's box is taken a pixel wider all round.
  const hit = (a, b) => a.left - 1 < b.right && b.left < a.right + 1 && a.top - 1 < b.bottom && b.top < a.bottom + 1;
  const found = [];
  for (const svg of document.querySelectorAll("svg.cribbage-board")) {
    const words = [...svg.querySelectorAll("text")].filter(t => !t.closest(".last-points"));
    const pegs = [...svg.querySelectorAll("[data-peg] circle:nth-of-type(1)")];
    const points = [...svg.querySelectorAll(".last-points rect")];
    const skunks = [...svg.querySelectorAll(".skunk-label")];
    const holes = [...svg.querySelectorAll(".holes use, .holes circle")];
    for (const label of [...points, ...skunks]) {
      const box = label.getBoundingClientRect();
      const name = label.tagName === "rect" ? `+label of track ${label.parentNode.dataset.track}` : label.textContent;
      for (const other of [...words, ...pegs, ...points, ...(skunks.includes(label) ? holes : [])]) {
        if (other !== label && hit(box, other.getBoundingClientRect())) {
          found.push(`${svg.id}: ${name} on "${other.textContent || other.tagName}"`);
        }
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize("target", [121, 61])
def test_no_label_covers_a_number_in_chromium(browser, artifacts, target):
    boards = []
    for i, (score, previous) in enumerate(s for s in SCORES if s[0] <= target):
        tracks = [
            {"name": name, "score": score, "previous": previous}
            for name in ("Alice", "Bob", "Carol", "Dave")[: 2 + i % 3]
        ]
        for folded, width in ((False, 1400), (True, 390)):
            svg = board_svg(tracks, target, id_prefix=f"b{i}{'f' if folded else 'l'}", folded=folded)
            svg = svg.replace("<svg ", f'<svg id="b{i}-{score}-{previous}-{"folded" if folded else "long"}" ', 1)
            boards.append(f'<div style="width:{width}px">{svg}</div>')
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.set_content("<style>body{margin:0} svg{display:block;width:100%;height:auto}</style>" + "".join(boards))
    assert page.locator(".last-points").count() > len(boards)
    assert page.locator(".skunk-label").count() == len(boards) * (2 if target == 121 else 1)
    page.screenshot(path=str(artifacts / f"board-labels-{target}.png"), full_page=True)
    overlaps = page.evaluate(OVERLAPS)
    assert overlaps == [], "\n".join(overlaps)
