"""The router families: the one list through which the shared modules (plot, viz, bench,
fidelity, the package's namespace) reach them.

A family is a value of router.family and the package lockstep.<family>, which holds its
Python parts; the shared code looks each part up by name:

- ``OFFERED_UNIT``, in the package itself: what traffic.offered counts (`plot`);
- ``view``: its router drawing, registered with `viz.registry` as it is imported, and in its
  ``__all__`` the names it adds to `lockstep.viz`;
- ``bench``: its networks of `lockstep bench` (``NETWORKS``);
- ``fidelity``: its documents' claims (``CLAIMS``, for `lockstep.fidelity`).

The names are the compiled schema's router.family values, which come from the C++ list
(host/families.hpp), in its order, so a family joins with its folders and that list's entry;
tests/python/test_family_list.py checks that the shared modules name none of them.
"""

from __future__ import annotations

import importlib
from importlib.util import find_spec
from types import ModuleType

from . import _core

_KEY = next(e for e in _core.schema() if e["key"] == "router.family")
NAMES: tuple[str, ...] = tuple(_KEY["choices"])
DEFAULT: str = _KEY["default"]  # the family of a configuration that names none


def package(family: str) -> ModuleType:
    """The package lockstep.<family>."""
    return importlib.import_module(f"{__package__}.{family}")


def packages() -> dict[str, ModuleType]:
    """Every family's package, in the families' order."""
    return {f: package(f) for f in NAMES}


def parts(part: str) -> dict[str, ModuleType]:
    """Each family's module lockstep.<family>.<part>, imported, in the families' order; a
    family without one is left out."""
    names = {f: f"{__package__}.{f}.{part}" for f in NAMES}
    return {f: importlib.import_module(m) for f, m in names.items() if find_spec(m)}
