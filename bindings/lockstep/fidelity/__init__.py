"""The fidelity ledger (docs/fidelity.md, `make fidelity`): every quantitative claim of the five
source documents that a model can measure, the model's number beside the paper's, and for each
divergence the cause found by experiment.

    from lockstep import fidelity
    fidelity.ledger(family="t3e", quick=True)   # a DataFrame, one row per claim
"""

from __future__ import annotations

from functools import cache

import pandas as pd

from ..families import parts
from .claim import (DIVERGES, DOCUMENTS, NOT_REPRODUCIBLE, REPRODUCED, Between, Claim, Measured,
                    Near)
from .ledger import MEASURED, markdown, measure, merge, read_measured, write_measured

# Each family's claims (its fidelity.py's CLAIMS, in the order of its documents), the families
# in the order of their first documents. Imported when first asked for, not with this package:
# a family's fidelity module imports .claim from here, and may be imported first.
@cache
def families() -> dict[str, list[Claim]]:
    """Each family's claims, keyed by family."""
    return dict(sorted(((f, module.CLAIMS) for f, module in parts("fidelity").items()),
                       key=lambda item: min(c.document for c in item[1])))


def claims(family: str | None = None) -> list[Claim]:
    """Every claim, or one family's."""
    if family is not None and family not in families():
        raise ValueError(f"family {family!r}; allowed: {', '.join(families()) or 'none yet'}")
    return [c for f, cs in families().items() if family in (None, f) for c in cs]


def ledger(family: str | None = None, quick: bool = False) -> pd.DataFrame:
    """Measures the claims (quick: the short runs `make test` asserts) into a DataFrame."""
    return measure(claims(family), quick)


__all__ = ["Between", "MEASURED", "Claim", "DIVERGES", "DOCUMENTS", "Measured", "NOT_REPRODUCIBLE",
           "Near", "REPRODUCED", "claims", "families", "ledger", "markdown", "measure", "merge",
           "read_measured", "write_measured"]
