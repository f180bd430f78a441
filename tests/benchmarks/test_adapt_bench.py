import numpy as np
import pytest

from benchmarks.adapt_bench import covering


@pytest.mark.parametrize(("codes", "order", "k", "chosen"), [
    ([{"1m"}, {"1m"}, {"2m"}, {"3m"}], [0, 1, 2, 3], 3, [0, 2, 3]),  # the photo that adds nothing waits
    ([{"1m"}, {"1m"}, {"2m"}, {"3m"}], [1, 0, 3, 2], 2, [1, 3]),     # in the seeded order
    ([{"1m"}, {"1m"}, {"1m"}], [2, 0, 1], 2, [2, 0]),                 # filled up in that order
])
def test_covering_takes_photos_that_show_new_codes_first(codes, order, k, chosen):
    assert covering(codes, np.array(order), k) == chosen
