"""The fidelity ledger (docs/fidelity.md, `make fidelity`): every quantitative claim of the five
source documents that a model can measure, the model's number beside the paper's, and for each
divergence the cause found by experiment.

    from lockstep import fidelity
    fidelity.ledger(family="t3e", quick=True)   # a DataFrame, one row per claim
"""

from __future__ import annotations

import pandas as pd

from ..families import parts
from .claim import (DIVERGES, DOCUMENTS, NOT_REPRODUCIBLE, REPRODUCED, Between, Claim, Measured,
                    Near)
from .ledger import markdown, measure

# Each family's claims (its fidelity.py's CLAIMS, in the order of its documents), the families
# in the order of their first documents.
FAMILIES: dict[str, list[Claim]] = dict(sorted(
    ((f, module.CLAIMS) for f, module in parts("fidelity").items()),
    key=lambda item: min(c.document for c in item[1])))


def claims(family: str | None = None) -> list[Claim]:
    """Every claim, or one family's."""
    if family is not None and family not in FAMILIES:
        raise ValueError(f"family {family!r}; allowed: {', '.join(FAMILIES) or 'none yet'}")
    return [c for f, cs in FAMILIES.items() if family in (None, f) for c in cs]


def ledger(family: str | None = None, quick: bool = False) -> pd.DataFrame:
    """Measures the claims (quick: the short runs `make test` asserts) into a DataFrame."""
    return measure(claims(family), quick)


__all__ = ["Between", "Claim", "DIVERGES", "DOCUMENTS", "FAMILIES", "Measured", "NOT_REPRODUCIBLE",
           "Near", "REPRODUCED", "claims", "ledger", "markdown", "measure"]
