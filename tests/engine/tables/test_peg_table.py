"""The generator of the kept cards' worth in the play."""

from games.cribbage.tables import peg_table


def test_the_generator_gives_the_same_shape_on_a_few_samples():
    small = peg_table.generate(3, samples=1, seed=5)
    assert set(small) == {"pone", "dealer"} and len(small["pone"]) == 455
    # Centred over dealt patterns, each weighted by its suit assignments.
    weights = {k: peg_table._weight(tuple(map(int, k.split("-")))) for k in small["dealer"]}
    mean = sum(weights[k] * v for k, v in small["dealer"].items()) / sum(weights.values())
    assert abs(mean) < 0.01
