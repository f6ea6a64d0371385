"""METRO's t_20,32 (Chong et al., "METRO: A Router Architecture for High-Performance,
Short-Haul Routing Networks", Tables 3 and 4): every printed row of Table 3 from the
parameters read off its label, the first row by hand, both hbits branches, per-stage radix
lists, and bad input."""

import math

import numpy as np
import pandas as pd
import pytest

import lockstep  # noqa: F401  (the package first, as users import it)
import lockstep.metro as metro
from lockstep.metro.latency_model import (NODES, figure1_radix, printed_table3, read_label,
                                          row_parameters)

PAPER = printed_table3()
JR, METRO8 = (2, 2, 2, 4), (4, 8)  # Figure 1's construction for i = o = 4 and i = o = 8
# (w, c, hw, dps, radix) of each row as README.md derives them, written out by hand.
DERIVED = [
    (4, 1, 0, 1, JR), (4, 2, 0, 1, JR), (4, 4, 0, 1, JR), (8, 1, 0, 1, JR),  # 1.2µ gate array
    (4, 1, 0, 1, JR), (4, 2, 0, 1, JR), (4, 4, 0, 1, JR), (4, 1, 0, 1, METRO8),  # std. cell
    (4, 1, 0, 1, JR), (4, 1, 0, 1, METRO8), (4, 1, 0, 2, JR),  # full custom
    (4, 1, 1, 1, JR), (4, 2, 1, 1, JR), (8, 1, 1, 1, JR), (4, 1, 2, 1, METRO8),
    (4, 4, 2, 1, METRO8),
]


# -- Table 3 -----------------------------------------------------------------------------------

def test_printed_table_as_copied():
    assert len(PAPER) == 16
    assert PAPER["t_20_32"].tolist() == [1250, 750, 500, 725, 500, 300, 200, 460, 270, 240,
                                         124, 120, 80, 80, 104, 44]
    assert PAPER["technology"].value_counts().to_dict() == {
        "1.2µ Gate Array": 4, "0.8µ Std. Cell": 4, "0.8µ Full Custom": 8}


@pytest.mark.parametrize("k", range(16))
def test_every_printed_row_reproduced_exactly(k):
    row = PAPER.iloc[k]
    w, c, hw, dps, radix = DERIVED[k]
    lat = metro.t20_32(int(row.t_clk), int(row.t_io), w, int(row.stages), list(radix), c=c,
                       hw=hw, dps=dps)
    assert lat.t_stg == row.t_stg, (row.instance, lat)
    assert lat.t_bit == row.t_bit_ns / row.t_bit_b and w * c == row.t_bit_b, (row.instance, lat)
    assert lat.t_20_32 == row.t_20_32, (row.instance, lat)
    assert float(lat) == row.t_20_32


def test_parameters_read_off_the_labels():
    params = row_parameters(PAPER["instance"], PAPER["stages"])
    got = [(p["w"], p["c"], p["hw"], p["dps"], p["radix"]) for p in params]
    assert got == DERIVED
    assert [(p["i"], p["o"]) for p in params] == [
        (8, 8) if p["radix"] == METRO8 else (4, 4) for p in params]


def test_table3_frame():
    df = metro.table3()
    assert isinstance(df, pd.DataFrame) and len(df) == 16
    assert df["instance"].tolist() == PAPER["instance"].tolist()
    for column in ("t_stg", "t_bit", "t_20_32"):
        np.testing.assert_array_equal(df[column], df[f"paper_{column}"])
    np.testing.assert_array_equal(df["paper_t_20_32"], PAPER["t_20_32"])
    assert list(df[["w", "c", "hw", "dps", "radix"]].itertuples(index=False, name=None)) \
        == DERIVED
    for column in ("technology", "t_clk", "t_io", "stages", "vtd", "hbits"):
        assert column in df


def test_readings_the_printed_values_rule_out():
    # "2-cascade" and "w = 8" under "METROJR hw = 1" keep hw = 1: with hw = 0 they miss.
    assert metro.t20_32(2, 3, 4, 4, list(JR), c=2).t_20_32 == 76  # printed 80
    assert metro.t20_32(2, 3, 8, 4, list(JR)).t_20_32 == 74  # printed 80
    # The last "4-cascade" keeps hw = 2: hw = 0 or 1 give 32 header bits, not 64.
    assert metro.t20_32(2, 3, 4, 2, list(METRO8), c=4, hw=1).t_20_32 == 40  # printed 44
    # "dp = 2" is dps = 2 (t_stg 10 = (2 + 3) * 2); the hw = 1 row is back to dps = 1.
    assert metro.t20_32(2, 3, 4, 4, list(JR), hw=1, dps=2).t_stg == 10  # printed 8
    # Radix 4 in all 4 stages (256 endpoints) would give the same route words: w = 4 pads
    # 8 and 5 bits alike to 2 words, so only the 32-node count decides the radix.
    assert metro.t20_32(25, 10, 4, 4, 4).hbits == metro.t20_32(25, 10, 4, 4, list(JR)).hbits


# -- by hand -----------------------------------------------------------------------------------

def test_first_row_step_by_step():
    # METROJR-ORBIT: t_clk 25, t_io 10, w = 4, c = 1, hw = 0, dps = 1, radix 2, 2, 2, 4.
    lat = metro.t20_32(25, 10, w=4, stages=4, radix=[2, 2, 2, 4])
    assert lat.vtd == 1  # ceil((10 + 3) / 25)
    assert lat.t_on_chip == 25  # 25 * 1
    assert lat.t_stg == 50  # 25 + 1 * 25
    assert lat.hbits == 8  # ceil((1 + 1 + 1 + 2) / 4) * 4 * 1
    assert lat.t_bit == 25 / 4
    assert lat.t_20_32 == 4 * 50 + (160 + 8) * 25 / 4 == 1250


def test_vtd_counts_whole_clocks():
    assert metro.t20_32(2, 3, 4, 4, 2).vtd == 3  # 6 ns is exactly 3 clocks, not 4
    assert metro.t20_32(5, 3, 4, 4, 2).vtd == 2  # 6 ns needs 2 clocks of 5
    assert metro.t20_32(2, 3, 4, 4, 2, t_wire=3.5).vtd == 4
    # (0.2 + 0.1) / 0.1 is 3.0000000000000004 in floats: still 3 clocks.
    assert metro.t20_32(0.1, 0.2, 4, 4, 2, t_wire=0.1).vtd == 3


def test_hbits_hw_zero_pads_route_bits_to_whole_words():
    cases = [  # (w, c, radix, stages) -> hbits
        ((4, 1, [2, 4], 2), 4),  # 3 bits -> one 4-bit word
        ((4, 1, [8, 8], 2), 8),  # 6 bits -> two words
        ((4, 1, 16, 3), 12),  # 12 bits -> three words exactly
        ((2, 1, [2, 2, 2, 4], 4), 6),  # 5 bits -> three 2-bit words
        ((8, 2, [2, 2, 2, 4], 4), 16),  # 5 bits -> one 8-bit word on each of 2 routers
        ((1, 3, 2, 5), 15),  # 5 one-bit words on each of 3 routers
    ]
    for (w, c, radix, stages), want in cases:
        assert metro.t20_32(10, 5, w, stages, radix, c=c).hbits == want, (w, c, radix)


def test_hbits_hw_positive_counts_consumed_words_and_ignores_radix():
    assert metro.t20_32(2, 3, 4, 4, 2, hw=1).hbits == 16  # 1 * 4 * 1 * 4
    assert metro.t20_32(2, 3, 4, 4, 16, hw=1).hbits == 16
    assert metro.t20_32(2, 3, 8, 3, [2, 4, 8], c=2, hw=3).hbits == 3 * 8 * 2 * 3
    lat = metro.t20_32(2, 3, 4, 2, [4, 8], c=4, hw=2)
    assert (lat.hbits, lat.t_20_32) == (64, 2 * 8 + (160 + 64) * 2 / 16)


def test_per_stage_radix_list():
    one = metro.t20_32(10, 5, 4, 2, [4, 8])
    assert one.hbits == 8  # log2 4 + log2 8 = 5 bits -> 2 words
    assert one == metro.t20_32(10, 5, 4, 2, (4, 8)) == metro.t20_32(10, 5, 4, 2, np.array([4, 8]))
    assert metro.t20_32(10, 5, 4, 3, 8) == metro.t20_32(10, 5, 4, 3, [8, 8, 8])
    assert metro.t20_32(10, 5, 4, 3, [2, 2, 2]).hbits == 4
    assert metro.t20_32(10, 5, 4, 3, [2, 2, 32]).hbits == 8


def test_figure1_construction_gives_32_nodes():
    assert figure1_radix(4, 4) == [2, 2, 2, 4] and figure1_radix(8, 2) == [4, 8]
    assert math.prod(figure1_radix(4, 4)) == NODES
    with pytest.raises(ValueError, match=r"stages = 3 of o = 4 routers reach 16 endpoints"):
        figure1_radix(4, 3)


def test_labels():
    assert read_label("METRO i = o = 8 hw = 2 w = 4") == ("METRO", {"i": 8, "o": 8, "hw": 2,
                                                                    "w": 4})
    assert read_label("METROJR-ORBIT") == ("METROJR-ORBIT", {})
    assert read_label("4-cascade") == (None, {"c": 4})
    assert read_label("w = 8") == (None, {"w": 8})
    with pytest.raises(ValueError, match=r"label 'METROJR x = 3': cannot read 'x = 3'"):
        read_label("METROJR x = 3")
    with pytest.raises(ValueError, match=r"a variant with no instance row above it"):
        row_parameters(["2-cascade"], [4])
    with pytest.raises(ValueError, match=r"label 'METRO w = 4': names no i, o"):
        row_parameters(["METRO w = 4"], [2])


# -- bad input ---------------------------------------------------------------------------------

GOOD = dict(t_clk=25, t_io=10, w=4, stages=4, radix=4)


@pytest.mark.parametrize("change, match", [
    (dict(t_clk=0), r"t_clk = 0: allowed a positive, finite time in ns"),
    (dict(t_clk=-5.0), r"t_clk = -5\.0: allowed a positive"),
    (dict(t_io=float("nan")), r"t_io = nan: allowed a positive"),
    (dict(t_io="10"), r"t_io = '10': allowed a positive"),
    (dict(t_wire=0), r"t_wire = 0: allowed a positive"),
    (dict(t_clk=True), r"t_clk = True: allowed a positive"),
    (dict(w=6), r"w = 6: allowed a power of two >= 1"),
    (dict(w=0), r"w = 0: allowed a power of two >= 1"),
    (dict(w=4.0), r"w = 4\.0: allowed a power of two"),
    (dict(stages=0), r"stages = 0: allowed an integer >= 1"),
    (dict(radix=1), r"radix = 1: allowed a power of two >= 2"),
    (dict(radix=6), r"radix = 6: allowed a power of two >= 2"),
    (dict(radix=[2, 2, 3, 4]), r"radix\[2\] = 3: allowed a power of two >= 2"),
    (dict(radix=[2, 4]), r"radix = \[2, 4\]: 2 entries for stages = 4; allowed one radix per"),
    (dict(radix=None), r"radix = None: allowed a power of two >= 2, or a list"),
    (dict(c=0), r"c = 0: allowed an integer >= 1"),
    (dict(hw=-1), r"hw = -1: allowed an integer >= 0"),
    (dict(dps=0), r"dps = 0: allowed an integer >= 1"),
    (dict(dps=1.5), r"dps = 1\.5: allowed an integer >= 1"),
])
def test_bad_input_is_named(change, match):
    with pytest.raises(ValueError, match=match):
        metro.t20_32(**{**GOOD, **change})
