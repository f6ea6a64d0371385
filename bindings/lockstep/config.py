"""Network configurations: a validated, nested ``{section: {key: value}}`` dict.

The table of keys, types and defaults lives in the C++ core (``_core.schema()``); this
module only resolves key names, converts values and delegates validation, so there is
exactly one place that knows what a valid configuration is.
"""

from __future__ import annotations

import copy
import difflib
import functools
import os
import sys
import tomllib
from types import MappingProxyType
from typing import Any, Mapping, Union

import tomli_w

from . import _core

ConfigLike = Union["Config", Mapping[str, Any], str, os.PathLike]


@functools.lru_cache(maxsize=None)
def _schema() -> dict[str, _core.SchemaEntry]:
    """Schema entries by full key ("section.name"), fetched once from the core."""
    return {entry["key"]: entry for entry in _core.schema()}


@functools.lru_cache(maxsize=None)
def _owners() -> dict[str, list[str]]:
    """Full keys by bare name: more than one when sections share a name."""
    owners: dict[str, list[str]] = {}
    for key, entry in _schema().items():
        owners.setdefault(entry["name"], []).append(key)
    return owners


def resolve_key(name: str) -> str:
    """Full "section.name" key for ``section.name``, ``section__name`` or a unique ``name``.

    Raises ValueError naming the close matches when the name is unknown or ambiguous.
    """
    schema, owners = _schema(), _owners()
    full = name.replace("__", ".")
    if full in schema:
        return full
    if len(owners.get(full, [])) == 1:
        return owners[full][0]
    if full in owners:
        raise ValueError(f"config key '{name}' is ambiguous: use one of {', '.join(owners[full])}")
    section, dot, rest = full.partition(".")
    sections = list(dict.fromkeys(e["section"] for e in schema.values()))
    if dot and section in sections:  # a known section: its own keys, the closest first
        keys = [e["name"] for e in schema.values() if e["section"] == section]
        close = difflib.get_close_matches(rest, keys, n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(f'{section}.{c}' for c in close)}? " if close else ""
        raise ValueError(f"unknown config key '{name}': {hint}[{section}] has {', '.join(keys)}")
    close = difflib.get_close_matches(full, [*schema, *owners], n=5, cutoff=0.6)
    close = list(dict.fromkeys(k for c in close for k in owners.get(c, [c])))  # full keys, once
    hint = (f"did you mean {', '.join(close)}?" if close else
            f"allowed section.name with a section of {', '.join(sections)}, or a name one "
            "section alone has (offered, vcs, ...)")
    raise ValueError(f"unknown config key '{name}': {hint}")


def short_name(key: str) -> str:
    """Shortest unambiguous spelling of a key: its name, or "section.name" if shared."""
    full = resolve_key(key)
    name = _schema()[full]["name"]
    return name if len(_owners()[name]) == 1 else full


def plain_value(key: str, value: Any) -> Any:
    """``value`` as the plain Python type the core expects for ``key``.

    numpy scalars and arrays become Python numbers and lists, tuples become lists and
    integers given for float keys become floats (``offered=1`` means 1.0), so callers may
    pass the results of ``np.arange`` and friends.
    """
    kind = _schema()[key]["type"]
    if hasattr(value, "tolist"):  # numpy scalar or array
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    try:
        if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if kind == "float_list" and isinstance(value, list):
            return [float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                    for v in value]
    except OverflowError:  # an integer past any float (10**400): refused here, by name
        raise ValueError(
            f"{key} = {_shown(value)}: allowed {_schema()[key]['allowed']}") from None
    return value


def _shown(value: Any) -> str:
    """repr(value), or a description where Python will not print an integer that long."""
    try:
        return repr(value)
    except ValueError:  # past sys.get_int_max_str_digits(), 4300 by default
        digits = f"an integer of more than {sys.get_int_max_str_digits()} digits"
        return f"<{digits}>" if isinstance(value, int) else f"<a list holding {digits}>"


def _plain_values(data: dict) -> dict:
    """`data` with each known key's value as `plain_value` gives it, so a nested dict takes
    what `with_` takes (numpy values above all); the rest is left for the core to judge."""
    schema = _schema()
    for section, values in data.items():
        if isinstance(values, dict):
            for name, value in values.items():
                if f"{section}.{name}" in schema:
                    values[name] = plain_value(f"{section}.{name}", value)
    return data


def parse_value(text: str) -> Any:
    """A command-line value read as TOML ("[4,4]", "0.3", "true"), else the bare string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


class Config:
    """A complete, validated network configuration.

    ``Config()`` holds the defaults; ``Config({"topology": {"kind": "mesh"}})`` fills the
    rest from them. Sections read like dicts (``cfg["traffic"]["offered"]``) but cannot be
    modified through them: use `with_` for a modified copy or `set` to change in place, so
    every change is validated.
    """

    def __init__(self, data: Mapping[str, Any] | None = None):
        self._data = _core.validate(_plain_values(copy.deepcopy(dict(data or {}))))

    @classmethod
    def from_toml(cls, path: str | os.PathLike) -> "Config":
        """Load a TOML file; missing keys take their defaults."""
        with open(path, "rb") as f:
            try:
                data = tomllib.load(f)
            except tomllib.TOMLDecodeError as e:
                raise ValueError(f"{os.fspath(path)}: {e}") from None
        return cls(data)

    def to_toml(self, path: str | os.PathLike | None = None) -> str:
        """The complete configuration as TOML text, also written to ``path`` if given."""
        text = tomli_w.dumps(self._data)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def to_dict(self) -> dict:
        """A deep copy of the nested dict, as `_core` functions take it."""
        return copy.deepcopy(self._data)

    def get(self, key: str) -> Any:
        """Value of a key given as ``section.name``, ``section__name`` or a unique name."""
        section, name = resolve_key(key).split(".")
        return copy.deepcopy(self._data[section][name])

    def with_(self, **overrides: Any) -> "Config":
        """A validated copy with keys changed: ``cfg.with_(offered=0.3, router__vcs=4)``."""
        data, keys = self.to_dict(), {}
        for name, value in overrides.items():
            key = keys[name] = resolve_key(name)
            section, short = key.split(".")
            data[section][short] = plain_value(key, value)
        family = data["router"]["family"]
        for name, key in keys.items():  # the core refuses other values; its default as well
            reader = _schema()[key]["family"]
            if reader not in ("", family):
                raise ValueError(
                    f'{key} = {_shown(overrides[name])}: allowed only for router.family = '
                    f'"{reader}" (the one family that reads it), here router.family = "{family}"')
        return Config(data)

    replace = with_

    def set(self, key: str, value: Any) -> "Config":
        """Change one key in place and return self; a string value is parsed as TOML.

        ``cfg.set("topology.radix", "[4,4,4]")`` is how ``--set`` on the command line works.
        On a validation error the configuration is left unchanged.
        """
        if isinstance(value, str):
            value = parse_value(value)
        self._data = self.with_(**{key: value})._data
        return self

    def __getitem__(self, section: str) -> Mapping[str, Any]:
        return MappingProxyType(copy.deepcopy(self._data[section]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._data == other._data

    def __repr__(self) -> str:
        defaults = _core.defaults()
        changed = [
            f"{section}.{name}={value!r}"
            for section, values in self._data.items()
            for name, value in values.items()
            if defaults.get(section, {}).get(name) != value
        ]
        return f"Config({', '.join(changed)})"


def load_config(path: str | os.PathLike) -> Config:
    """Load a TOML configuration file (see `Config.from_toml`)."""
    return Config.from_toml(path)


def as_config(cfg: ConfigLike | None) -> Config:
    """Accept a Config, a nested dict, a TOML path or None (defaults)."""
    if isinstance(cfg, Config):
        return cfg
    if isinstance(cfg, (str, os.PathLike)):
        return Config.from_toml(cfg)
    return Config(cfg)
