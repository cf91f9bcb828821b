"""The review's summary counts its throws in words a person would write."""

from games.presenter.review import summary_lines


def _review(mistakes):
    return {
        "verdicts": {"good": 5, "inaccuracy": 2, "mistake": mistakes},
        "total_loss": 3.25,
        "discard_loss": 2.0,
        "pegging_loss": 1.25,
        "discards": 8,
        "plays": 1,
    }


def test_one_mistake_is_one_mistake_not_one_mistakes():
    line = summary_lines(_review(1))[0]
    assert line.endswith("5 good, 2 inaccurate, 1 mistake.")
    assert "in 1 play)" in line


def test_several_mistakes_are_plural():
    assert summary_lines(_review(3))[0].endswith("3 mistakes.")
