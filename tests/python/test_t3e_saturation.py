"""The T3E past saturation (docs/design/t3e.md, "Past saturation"): deterministic routing holds
its peak at any load above it; adaptive routing carries more before its knee and falls below
deterministic routing after it, unless each PE's outstanding requests are limited."""

import pytest

import lockstep as ls

MACHINE = ls.Config().with_(family="t3e", kind="torus", radix=[8, 4, 4], pattern="uniform",
                            threads=1, warmup=2000, measure=10000, drain=0)


def accepted(adaptive: bool, offered: float, **keys) -> float:
    return ls.simulate(MACHINE.with_(adaptive=adaptive, offered=offered, **keys)).accepted


def test_before_its_knee_adaptive_carries_more():
    assert accepted(True, 0.7) == pytest.approx(0.7, abs=0.01)
    assert accepted(False, 0.7) < 0.63


@pytest.mark.parametrize("offered", [0.8, 1.0])
def test_past_saturation_adaptive_falls_below_deterministic(offered):
    deterministic = accepted(False, offered)
    assert deterministic == pytest.approx(0.6, abs=0.02)  # its peak, held
    assert accepted(True, offered) < 0.85 * deterministic


def test_limiting_injection_keeps_adaptive_routing_near_its_peak():
    assert accepted(True, 1.0, outstanding=16) > 0.62
