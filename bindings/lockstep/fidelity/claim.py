"""A claim of a source document, as the fidelity ledger holds it (docs/fidelity.md).

A claim is one number (or bound) that a paper states and a model can measure: the paper's
words, where they are, the check that says whether the model agrees, and the function that
measures it. The status is computed from the measurement, never declared, except "not
reproducible", which says what the document lacks. A divergence carries the cause found by
experiment; `expect` records which status the ledger last showed, so a test flips when a
model change moves a claim (then the ledger and the notebooks are updated with it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Final, Literal

Status = Literal["reproduced", "diverges", "not reproducible"]
REPRODUCED: Final = "reproduced"
DIVERGES: Final = "diverges"
NOT_REPRODUCIBLE: Final = "not reproducible"

# The five documents (../shared/seeds at the time of copying; each family's design note in
# docs/design cites its own in full).
DOCUMENTS = {
    "000": "Scott & Thorson, \"The Cray T3E Network\" (Hot Interconnects IV, 1996)",
    "001": "Adiga et al., \"Blue Gene/L torus interconnection network\" (IBM J. R&D, 2005)",
    "002": "Cray T3E \"Interconnect Network\" hardware manual (HMM-146-0)",
    "003": "Chong et al., \"METRO: A Router Architecture for High-Performance, Short-Haul "
           "Routing Networks\" (MIT AI Lab)",
    "004": "Nowatzyk et al., \"S-Connect: from Networks of Workstations to Supercomputer "
           "Performance\" (ISCA 1995)",
}


def _num(x: float) -> str:
    return f"{x:.4g}" if isinstance(x, float) and not float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class Near:
    """The paper's number, met within an absolute and/or relative tolerance (either suffices)."""

    value: float
    rel: float = 0.0
    abs: float = 0.0

    def holds(self, x: float) -> bool:
        return math.isfinite(x) and abs(x - self.value) <= max(self.abs, self.rel * abs(self.value))

    def paper(self) -> str:
        return _num(self.value)

    def tolerance(self) -> str:
        parts = ([f"±{_num(self.abs)}"] if self.abs else []) + (
            [f"±{self.rel:.0%}"] if self.rel else [])
        return " or ".join(parts) if parts else "exact"


@dataclass(frozen=True)
class Between:
    """A range the paper's words allow ("more than doubles": Between(2, inf))."""

    low: float = -math.inf
    high: float = math.inf

    def holds(self, x: float) -> bool:
        return self.low <= x <= self.high

    def paper(self) -> str:
        if self.high == math.inf:
            return f"≥ {_num(self.low)}"
        if self.low == -math.inf:
            return f"≤ {_num(self.high)}"
        return f"{_num(self.low)} to {_num(self.high)}"

    def tolerance(self) -> str:
        return "bound"


Check = Near | Between


@dataclass(frozen=True)
class Measured:
    """What a measure returns: the number compared, and a few words on what else it saw."""

    value: float
    detail: str = ""


@dataclass(frozen=True)
class Claim:
    """One row of the ledger. ``measure(quick)`` runs the model (quick: the version `make test`
    asserts, seconds; otherwise the full one `make fidelity` records) and returns a Measured or
    a number. ``setup`` says which configuration and command measure it."""

    id: str
    document: str  # a key of DOCUMENTS
    where: str  # "Table 2", "section 7", "Figure 6"
    quote: str  # the paper's words
    check: Check | None  # None: not reproducible (see `lacks`)
    measure: Callable[[bool], Measured | float] | None
    setup: str
    expect: Status
    unit: str = ""
    cause: str = ""  # a divergence: the cause found by experiment
    lacks: str = ""  # not reproducible: what the document does not give
    # The status the quick run shows where it can only run a smaller case than the paper's and
    # that case falls on the other side of the tolerance (`setup` says which case and why).
    quick_expect: Status | None = None

    def __post_init__(self):
        if self.document not in DOCUMENTS:
            raise ValueError(f"claim {self.id}: document {self.document!r}; allowed: "
                             f"{', '.join(DOCUMENTS)}")
        if (self.check is None) != (self.expect == NOT_REPRODUCIBLE) or (
                self.expect == NOT_REPRODUCIBLE and not self.lacks):
            raise ValueError(f"claim {self.id}: a claim is not reproducible exactly when it has "
                             "no check, and then `lacks` says what the document does not give")
        if self.expect == DIVERGES and not self.cause:
            raise ValueError(f"claim {self.id}: a divergence needs its cause (found by "
                             "experiment) in `cause`")
        if self.check is not None and self.measure is None:
            raise ValueError(f"claim {self.id}: a claim with a check needs a measure")
        if self.quick_expect not in (None, REPRODUCED, DIVERGES) or (
                self.quick_expect is not None and self.check is None):
            raise ValueError(f"claim {self.id}: quick_expect {self.quick_expect!r}; allowed: "
                             f"None, {REPRODUCED!r} or {DIVERGES!r} on a claim with a check")

    def expected(self, quick: bool) -> Status:
        """The status the ledger records for the full run, or the quick run's own."""
        return self.quick_expect if quick and self.quick_expect else self.expect

    def judge(self, value: float) -> Status:
        """The status a measured value shows (a stored one too: the ledger recomputes it)."""
        if self.check is None:
            return NOT_REPRODUCIBLE
        return REPRODUCED if self.check.holds(value) else DIVERGES

    def run(self, quick: bool) -> tuple[Measured | None, Status]:
        """Measures the claim and computes its status."""
        if self.check is None or self.measure is None:
            return None, NOT_REPRODUCIBLE
        got = self.measure(quick)
        m = got if isinstance(got, Measured) else Measured(float(got))
        return m, self.judge(m.value)
