"""Fuzzing the configuration: every key of the schema, alone and together.

Hypothesis draws values for every key `_core.schema()` lists (so a new key is fuzzed the day it
is added): its own type in and out of range, every other type, NaN, infinities, huge and
negative integers, integral floats, empty, long and odd strings, empty, oversized and nested
lists, dicts, numpy values; unknown keys and sections; and two to four keys at once, router
family switches among them, whose small networks are then run. The property: every input is
either accepted as given (read back unchanged, surviving a TOML round trip) or refused with a
ValueError that names the key, the value and what is allowed; nothing else escapes.

`make test` runs a fixed stream (derandomised, the same inputs every run). A longer campaign,
with a fresh random seed each time, by hand:
    LOCKSTEP_FUZZ_EXAMPLES=2000 PYTHONPATH=bindings .venv/bin/python -m pytest \
        tests/python/test_config_fuzz.py -q -x
(examples per test; a failure prints the input and a @reproduce_failure blob).

The faults it found that needed C++ changes are kept as regression tests at the end.
"""

import math
import os
import re
import subprocess
import sys
import tomllib

import numpy as np
import pytest
from conftest import REPO, python_path
from hypothesis import HealthCheck, assume, event, given, note, settings
from hypothesis import strategies as st

import lockstep as ls
from lockstep import _core
from lockstep.config import plain_value

SCHEMA = {e["key"]: e for e in _core.schema()}
KEYS = sorted(SCHEMA)
SECTIONS = sorted({e["section"] for e in SCHEMA.values()})
NAMES = {e["name"] for e in SCHEMA.values()}
FAMILIES = next(e for e in SCHEMA.values() if e["key"] == "router.family")["choices"]

# ---------------------------------------------------------------------------------------------
# Settings: a fixed stream for CI, LOCKSTEP_FUZZ_EXAMPLES per test (random seed) by hand.

CAMPAIGN = int(os.environ.get("LOCKSTEP_FUZZ_EXAMPLES", "0"))


def fuzz(examples: int):
    # No example database: CI needs none (derandomised), and a campaign's failure prints its
    # reproducer instead.
    return settings(max_examples=CAMPAIGN or examples, derandomize=not CAMPAIGN, deadline=None,
                    database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ---------------------------------------------------------------------------------------------
# What each key allows, read from the schema's `allowed` text (an enumerated key's from its
# `choices`, which that text must list): the key's own check, without the rules between keys.
# An `allowed` text of a new form fails test_every_key_has_a_model.

def _model(entry: dict) -> dict:
    kind, allowed = entry["type"], entry["allowed"]
    number = r"(-?[0-9.e+]+)"
    if kind == "bool" and allowed == "true, false":
        return {"type": "bool"}
    if kind == "int" and (m := re.fullmatch(rf"integer in \[{number}, {number}\]", allowed)):
        return {"type": "int", "lo": int(m[1]), "hi": int(m[2])}
    if kind == "float" and (m := re.fullmatch(rf"number in \[{number}, {number}\]", allowed)):
        return {"type": "float", "lo": float(m[1]), "hi": float(m[2])}
    if kind == "str" and entry["choices"] and allowed == ", ".join(entry["choices"]):
        return {"type": "enum", "choices": entry["choices"]}
    if kind == "str" and "file name" in allowed:
        return {"type": "str"}
    if kind == "int_list" and (m := re.fullmatch(
            rf"a list of (\d+) to (\d+) integers in \[{number}, {number}\]", allowed)):
        return {"type": "int_list", "min": int(m[1]), "max": int(m[2]), "lo": int(m[3]),
                "hi": int(m[4])}
    if kind == "float_list" and (m := re.fullmatch(
            r"a list of at most (\d+) finite non-negative numbers", allowed)):
        return {"type": "float_list", "max": int(m[1])}
    return {}


MODEL = {key: _model(e) for key, e in SCHEMA.items()}


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def in_domain(key: str, v) -> bool:
    """Whether `v`, as it reaches the core, passes `key`'s own check as `allowed` states it."""
    m = MODEL[key]
    kind = m["type"]
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "int":
        return _is_int(v) and m["lo"] <= v <= m["hi"]
    if kind == "float":
        return _is_number(v) and m["lo"] <= v <= m["hi"]
    if kind == "enum":
        return isinstance(v, str) and v in m["choices"]
    if kind == "str":  # a file name: no NUL
        return isinstance(v, str) and "\0" not in v
    if not isinstance(v, (list, tuple)):
        return False
    if kind == "int_list":
        return m["min"] <= len(v) <= m["max"] and all(
            _is_int(x) and m["lo"] <= x <= m["hi"] for x in v)
    return len(v) <= m["max"] and all(_is_number(x) and 0 <= x < math.inf for x in v)


def _g(x) -> str:
    """A double as std::ostream prints it: six significant digits, and a NaN's sign."""
    return ("-nan" if math.copysign(1, x) < 0 else "nan") if math.isnan(x) else "%g" % x


def cxx_escaped(s: str) -> str:
    """A name or text as the core prints it: control characters as \\xHH (a NUL would end the
    message), what is no Unicode (lone surrogates) backslash-escaped."""
    s = s.encode("utf-8", "backslashreplace").decode()
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: "\\x%02x" % ord(m[0]), s)


def cxx_text(v) -> str:
    """`v` as the core prints a value in its messages (host/config/schema.cpp, to_string)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if _is_int(v):
        return str(v)
    if isinstance(v, float):
        return _g(v)
    if isinstance(v, str):
        return f'"{cxx_escaped(v)}"'
    if isinstance(v, (list, tuple)) and all(map(_is_number, v)):
        whole = all(map(_is_int, v))  # a list of integers stays one, else all are doubles
        return "[" + ", ".join(str(x) if whole else _g(float(x)) for x in v) + "]"
    return repr(v)


def texts(raw, plain) -> list[str]:
    """The spellings of the value a message may use: the core's, or Python's repr."""
    out = []
    for v in ([] if plain is None else [plain]) + [raw]:
        for f in (cxx_text, repr):
            try:
                out.append(f(v))
            except (ValueError, OverflowError):  # an integer past Python's 4300 printed digits
                out.append("more than 4300 digits")
    return out


# ---------------------------------------------------------------------------------------------
# Values.

HUGE_INTS = [2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**64,
             -2**63, -2**63 - 1, -1, 10**30, 10**400, -10**400]
# (10**5000, past the 4300 digits Python prints, breaks Hypothesis's own reports: see
# test_an_integer_too_long_to_print.)
ODD_FLOATS = [math.nan, -math.nan, math.inf, -math.inf, -0.0, 5e-324, 1e-300, 1e308, -1e308,
              1.7976931348623157e308, 0.5, 2.0, 1e9 + 0.5]
ODD_STRINGS = ["", " ", "x" * 100_000, "a\0b", "\ud800", "é", "true", "1", "[1, 2]", "nan",
               "None", "{}", "\n", '"', "\\", "#", "mesh ", "MESH", "torus\0"]

scalars = st.one_of(
    st.integers(), st.integers(-3, 3), st.sampled_from(HUGE_INTS),
    st.floats(), st.sampled_from(ODD_FLOATS), st.integers(-10**6, 10**6).map(float),
    st.text(max_size=12), st.sampled_from(ODD_STRINGS),
    st.booleans(), st.none(),
)
lists = st.one_of(
    st.just([]),
    st.lists(st.integers(), max_size=12),
    st.lists(st.floats(), max_size=8),
    st.lists(st.integers(-2, 40), max_size=20),
    st.lists(scalars, max_size=5),                                # wrong element types
    st.lists(st.lists(st.integers(0, 9), max_size=3), max_size=3),  # nested
    st.integers(0, 2).map(lambda n: [1] * (20_000 + n)),           # oversized (most keys)
    st.lists(st.integers(0, 9), max_size=6).map(tuple),
)
numpy_values = st.one_of(
    st.integers(-2**63, 2**63 - 1).map(np.int64), st.floats().map(np.float64),
    st.floats(width=32).map(np.float32), st.booleans().map(np.bool_),
    st.lists(st.integers(0, 64), max_size=5).map(np.array),
    st.lists(st.floats(), max_size=4).map(np.array),
    st.just(np.zeros((2, 2), dtype=np.int64)),
)
any_value = st.one_of(scalars, lists, numpy_values,
                      st.dictionaries(st.text(max_size=4), scalars, max_size=3))


def own_values(key: str):
    """Values of `key`'s own type: in range, at and just past its bounds, far past them."""
    m = MODEL[key]
    kind = m["type"]
    if kind == "bool":
        return st.booleans()
    if kind == "int":
        lo, hi = m["lo"], m["hi"]
        return st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, lo - 1, hi + 1]),
                         st.integers(lo - 100, lo + 100), st.integers(hi - 100, hi + 100))
    if kind == "float":
        lo, hi = m["lo"], m["hi"]
        return st.one_of(st.floats(lo, hi), st.sampled_from(
            [lo, hi, math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf), -1.0,
             hi * 2 + 1]), st.integers(int(lo) - 2, int(min(hi, 1e6)) + 2))
    if kind == "enum":
        c = m["choices"]
        return st.one_of(st.sampled_from(c), st.sampled_from(c).map(str.upper),
                         st.sampled_from(c).map(lambda s: s + " "),
                         st.sampled_from(c).map(lambda s: s[:-1]))
    if kind == "str":
        return st.one_of(st.text(max_size=20), st.sampled_from(["", "no/such/file.txt", "/"]))
    if kind == "int_list":
        lo, hi, n = m["lo"], m["hi"], m["max"]
        elements = st.one_of(st.integers(lo, hi), st.sampled_from([lo - 1, hi + 1, lo, hi]))
        return st.one_of(
            st.lists(elements, min_size=max(0, m["min"] - 1), max_size=min(n + 1, 12)),
            st.just([lo] * (n + 1)) if n < 20_000 else st.just([lo] * (m["min"] + 1)),
            st.lists(st.integers(lo, hi).map(float), min_size=1, max_size=3))
    return st.one_of(  # float_list
        st.lists(st.floats(0, 1e6), max_size=m["max"] + 1),
        st.lists(st.one_of(st.floats(), st.integers(-5, 5)), max_size=m["max"]),
        st.just([1.0] * (m["max"] + 1)))


# ---------------------------------------------------------------------------------------------
# A small network of each family to change keys on: validation is cheap and runs are short.

RUN = {"threads": 1, "backend": "cpu", "debug": True}


def _base(name: str, **changes) -> ls.Config:
    cfg = ls.load_config(REPO / "configs" / f"{name}.toml").with_(**changes)
    return cfg.with_(**{f"run.{k}": v for k, v in RUN.items()})


BASES = {
    "vc": _base("default", kind="mesh", radix=[4, 4]),
    "sconnect": _base("sconnect_cluster4"),
    "t3e": _base("t3e_64"),
    "metro": _base("metro_figure1"),
    "bgl": _base("bgl_8x8x8", radix=[4, 4, 4]),
}


def families_reading(key: str) -> list[str]:
    family = SCHEMA[key]["family"]
    return [family] if family else sorted(BASES)


def same(a, b) -> bool:
    """Equal values of the same kind (True is not 1, 2.0 is 2: the core stores floats)."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
                and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)))
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def check_refusal(error: Exception, key: str, raw, plain, own: bool) -> None:
    """A refusal says what is allowed and names a key; a value refused by its key's own check
    is named with it (a rule between keys may name the other key instead)."""
    message = str(error)
    note(f"refused: {message[:500]}")
    assert type(error) is ValueError, f"{type(error).__name__}: {message[:500]}"
    assert "allowed" in message, message[:500]
    if own:
        assert key in message, message[:500]
        assert any(t in message for t in texts(raw, plain)), message[:500]
    else:
        assert any(k in message for k in SCHEMA) or "router.family" in message, message[:500]
        event("refused by a rule between keys" + ("" if key in message else ", naming another"))


def attempt(base: ls.Config, key: str, raw, route: str):
    """`key` = `raw` on `base` by `route` ("with_" or a nested "dict" as a TOML file gives it):
    the Config, or the exception."""
    try:
        if route == "with_":
            return base.with_(**{key: raw})
        data = base.to_dict()
        section, name = key.split(".")
        data[section][name] = raw
        return ls.Config(data)
    except Exception as e:  # judged by the caller
        return e


def reaching_core(key: str, raw):
    """The value the core sees (Python converts numpy values, tuples and ints for floats), or
    None where Python refuses it first."""
    try:
        return plain_value(key, raw)
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# a. Every key alone.

def test_every_key_has_a_model():
    assert not [k for k, m in MODEL.items() if not m], \
        "new forms of `allowed` text: teach _model() what they allow"
    assert set(BASES) == set(FAMILIES), "a new router family: give it a small base network"


@pytest.mark.parametrize("key", KEYS)
@fuzz(30)
@given(data=st.data())
def test_every_key_any_value(key, data):
    family = data.draw(st.one_of(st.sampled_from(families_reading(key)),
                                 st.sampled_from(sorted(BASES))), label="family")
    raw = data.draw(st.one_of(own_values(key), any_value), label="value")
    route = data.draw(st.sampled_from(["with_", "dict"]), label="route")
    plain = reaching_core(key, raw)
    result = attempt(BASES[family], key, raw, route)
    own = plain is not None and in_domain(key, plain)
    if isinstance(result, Exception):
        # Named with its value if its own check refused it, or another family's key (refused
        # whatever its value, even the default when given by name).
        check_refusal(result, key, raw, plain, not own or family not in families_reading(key))
        event("refused")
        return
    assert own, f"{key} = {raw!r} accepted: outside what it allows ({SCHEMA[key]['allowed']})"
    assert same(result.get(key), plain), f"{key} = {raw!r} stored as {result.get(key)!r}"
    assert ls.Config(tomllib.loads(result.to_toml())) == result, "lost in a TOML round trip"
    event("accepted")


@pytest.mark.parametrize("key", [k for k in KEYS if MODEL[k].get("type") == "int_list"])
def test_the_longest_lists_and_one_more(key):
    # Drawn lists stop at 20,000 entries; topology.edges allows 3 x 2^20: its bounds, here.
    m, family = MODEL[key], families_reading(key)[0]
    for n in (m["max"], m["max"] + 1):
        result = attempt(BASES[family], key, [m["lo"]] * n, "with_")
        if isinstance(result, Exception):
            assert type(result) is ValueError and key in str(result)[:200], str(result)[:200]
        else:
            assert n == m["max"], f"{key}: {n} entries accepted, allowed {m['max']}"


@pytest.mark.parametrize("family, key", [("vc", "traffic.offered"), ("vc", "t3e.outstanding"),
                                         ("sconnect", "traffic.packet_size_weights")])
def test_an_integer_too_long_to_print(family, key):
    # Python refuses to print it; the error still names the key (Python refuses it first).
    value = 10**5000 if MODEL[key]["type"] != "float_list" else [1, 10**5000]
    with pytest.raises(ValueError, match=re.escape(key) + " = <.*4300 digits>.*allowed"):
        BASES[family].with_(**{key: value})


# ---------------------------------------------------------------------------------------------
# b. Unknown keys and sections.

names = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True),
                  st.text(max_size=20), st.sampled_from(sorted(NAMES)).map(lambda s: s + "x"))


@fuzz(300)
@given(name=names, value=any_value, where=st.sampled_from(["with_", "key", "section"]),
       section=st.sampled_from(SECTIONS))
def test_unknown_keys_and_sections_are_refused_by_name(name, value, where, section):
    if where == "with_":
        assume(name.replace("__", ".") not in SCHEMA and name.replace("__", ".") not in NAMES)
        with pytest.raises(ValueError) as e:
            ls.Config().with_(**{name: value})
        assert f"'{name}'" in str(e.value)
        return
    if where == "key":
        assume(f"{section}.{name}" not in SCHEMA)
        data, shown = {section: {name: value}}, [f"{section}.{cxx_escaped(name)}"]
    else:
        assume(name not in SECTIONS)
        data, shown = {name: {"kind": value}}, [f"[{cxx_escaped(name)}]"]
    with pytest.raises(ValueError) as e:
        ls.Config(data)
    message = str(e.value)
    assert type(e.value) is ValueError and "allowed" in message, message[:300]
    assert any(s in message for s in shown), message[:300]


@fuzz(100)
@given(section=st.sampled_from(SECTIONS), value=st.one_of(scalars, lists))
def test_a_section_that_is_no_table_is_refused(section, value):
    with pytest.raises(ValueError, match=re.escape(f"[{section}] = ") + ".*allowed a table"):
        ls.Config({section: value})


# ---------------------------------------------------------------------------------------------
# Strings as `Config.set` and `--set` read them (TOML, else the bare string).

@fuzz(200)
@given(key=st.sampled_from(KEYS), text=st.one_of(
    st.text(max_size=30), st.sampled_from(["[1,2", "1e999", "-inf", "nan", "[[1]]", "{a=1}",
                                           "9223372036854775808", "0x10", "1_000", "'x'"])),
       data=st.data())
def test_set_from_text(key, text, data):
    family = data.draw(st.sampled_from(families_reading(key)), label="family")
    cfg = ls.Config(BASES[family].to_dict())
    value = ls.config.parse_value(text)
    plain = reaching_core(key, value)
    try:
        cfg.set(key, text)
    except Exception as e:
        check_refusal(e, key, value, plain, not in_domain(key, plain))
        assert cfg == BASES[family], "a refused set changed the configuration"
        return
    assert in_domain(key, plain), f"{key} = {text!r} accepted"
    assert same(cfg.get(key), plain)


# ---------------------------------------------------------------------------------------------
# c. Keys together: mostly in range, small networks, family switches; what is accepted runs.

SMALL = {  # the keys that size the network: small, so that most accepted draws can run
    "topology.radix": st.lists(st.integers(1, 6), min_size=1, max_size=3),
    "topology.dimension": st.integers(1, 6),
    "topology.nodes": st.integers(2, 64),
    "topology.degree": st.integers(1, 6),
    "topology.edges": st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7),
                                         st.integers(1, 3)), min_size=1, max_size=10).map(
        lambda triples: [x for t in triples for x in t]),
    "topology.dilation": st.lists(st.sampled_from([1, 2, 4]), max_size=3),
    "topology.edge_file": st.sampled_from(["", "no/such/file.txt", "/dev/null"]),
    "traffic.offered": st.one_of(st.floats(0, 1.5), st.sampled_from([0.0, 64.0])),
    "traffic.alltoall_packets": st.integers(1, 4),
}


def near_values(key: str):
    """Mostly what `key` allows, near its bounds and its default; now and then anything."""
    if key in SMALL:
        return st.one_of(SMALL[key], st.just(SCHEMA[key]["default"]))
    m, default = MODEL[key], SCHEMA[key]["default"]
    kind = m["type"]
    if kind in ("int", "float"):
        lo, hi = m["lo"], m["hi"]
        ints = kind == "int"
        return st.one_of(st.just(default), st.sampled_from([lo, hi]),
                         st.integers(lo, min(hi, lo + 8)) if ints else st.floats(lo, hi),
                         st.integers(lo, hi) if ints else st.floats(lo, min(hi, 2.0)))
    if kind == "enum":
        return st.sampled_from(m["choices"])
    if kind == "bool":
        return st.booleans()
    if kind == "int_list":
        return st.one_of(st.just(default), st.lists(
            st.integers(m["lo"], min(m["hi"], m["lo"] + 8)), min_size=m["min"],
            max_size=min(m["max"], 8)))
    if kind == "float_list":
        return st.one_of(st.just(default), st.lists(st.floats(0, 10), max_size=m["max"]))
    return st.just(default)


@fuzz(400)
@given(data=st.data())
def test_keys_together(data):
    family = data.draw(st.sampled_from(sorted(BASES)), label="base")
    # Now and then a switch to another family; then mostly keys the family reads, the
    # topology's kind and the traffic's pattern more often, now and then any key.
    reader = data.draw(st.one_of(st.just(family), st.sampled_from(FAMILIES)), label="family")
    read = [k for k in KEYS if SCHEMA[k]["family"] in ("", reader)]
    pool = st.one_of(st.sampled_from(read), st.sampled_from(["topology.kind", "traffic.pattern"]),
                     st.sampled_from(KEYS))
    keys = data.draw(st.lists(pool, min_size=2, max_size=4, unique=True), label="keys")
    if reader != family:
        keys = keys[:3] + ["router.family"]
    changes = {k: data.draw(st.one_of(near_values(k), any_value) if data.draw(
        st.integers(0, 9), label="wild?") == 0 else near_values(k), label=k) for k in keys}
    if reader != family:
        changes["router.family"] = reader
    try:
        cfg = BASES[family].with_(**changes)
    except Exception as e:
        message = str(e)
        note(f"refused: {message[:500]}")
        assert type(e) is ValueError and "allowed" in message, f"{type(e).__name__}: {message}"
        assert any(k in message for k in SCHEMA) or "router.family" in message, message
        event("refused, naming a key drawn" if any(k in message for k in changes)
              else "refused, naming another key")
        return
    for k, v in changes.items():
        assert same(cfg.get(k), plain_value(k, v)), f"{k} = {v!r} stored as {cfg.get(k)!r}"
    assert ls.Config(tomllib.loads(cfg.to_toml())) == cfg, "lost in a TOML round trip"
    size = _core.network_size(cfg.to_dict())
    if size["routers"] > 64 or size["state_bytes"] > 64 << 20:
        event("accepted, too large to run here")
        return
    # On the CPU, one thread, checking the invariants every cycle: run.threads and run.backend
    # as drawn are the engine's concern, not this test's, on a machine shared with others.
    run = cfg.with_(**{f"run.{k}": v for k, v in RUN.items()})
    try:
        ls.Simulator(run).step(50)
    except ValueError as e:  # rules only the engine checks (see test_the_config_refuses_...)
        assert "allowed" in str(e), str(e)
        event("refused by the engine")
        return
    except ls.SimulationError as e:  # a watchdog drawn short, or a documented deadlock
        assert str(e).startswith("deadlock"), str(e)
        event("ran into a deadlock")
        return
    event("ran")


# ---------------------------------------------------------------------------------------------
# Faults the fuzzer found, fixed in C++ (docs/validation.md), kept as regression tests.

@pytest.mark.parametrize("key, value", [
    ("router.vcs", 2**63), ("router.vcs", -2**63 - 1), ("topology.radix", [4, 2**64]),
    ("traffic.packet_sizes", [1.5, 10**400]), ("run.seed", 10**5000), ("traffic.offered", [2**64]),
], ids=["2^63", "-2^63-1", "list-2^64", "mixed-10^400", "10^5000", "float-key-list"])
def test_integers_beyond_64_bits_are_refused_by_name(key, value):
    with pytest.raises(ValueError, match=re.escape(key) + ".*allowed"):
        ls.Config().with_(**{key: value})
    section, name = key.split(".")
    with pytest.raises(ValueError, match=re.escape(key) + ".*allowed"):
        ls.Config({section: {name: value}})  # as a TOML file gives it


@pytest.mark.parametrize("data", [{"router": {"routing": "dor\0x"}},
                                  {"router": {"no\0such": 1}}, {"no\0such": {"a": 1}}])
def test_a_nul_character_keeps_the_message_whole(data):
    with pytest.raises(ValueError, match="allowed"):
        ls.Config(data)


def test_an_edge_file_name_with_a_nul_is_refused(tmp_path):
    # The core opens the name up to the NUL: another file than the one named.
    (tmp_path / "ring.txt").write_text("0 1\n1 2\n2 0\n")
    cfg = BASES["sconnect"].to_dict()
    cfg["topology"].update(edges=[], edge_file=f"{tmp_path}/ring.txt\0.gz")
    with pytest.raises(ValueError, match="topology.edge_file.*allowed"):
        ls.Config(cfg)


def test_an_edge_file_that_is_no_regular_file_is_refused(tmp_path):
    # A FIFO nobody writes blocked the reader for ever (/dev/stdin likewise); /dev/zero was read
    # until memory ran out, then reported as "has no links". In a child, with a time limit
    # (importing lockstep takes seconds on a busy machine).
    fifo = tmp_path / "links"
    os.mkfifo(fifo)
    code = ("import lockstep as ls; ls.Config({'topology': {'kind': 'graph', 'edge_file': %r},"
            " 'router': {'family': 'sconnect'}})" % str(fifo))
    try:
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               timeout=60, env=dict(os.environ, PYTHONPATH=python_path()))
    except subprocess.TimeoutExpired:
        pytest.fail(f"topology.edge_file = {str(fifo)!r}: still reading after 60 s")
    assert "topology.edge_file" in child.stderr and "allowed" in child.stderr, child.stderr
    for path in ("/dev/zero", str(tmp_path)):  # a device, a directory
        with pytest.raises(ValueError, match="topology.edge_file.*no regular file.*allowed"):
            ls.Config({"topology": {"kind": "graph", "edge_file": path},
                       "router": {"family": "sconnect"}})


@pytest.mark.parametrize("data", [{"router": {"routing": "\ud800"}},
                                  {"router": {"\ud800": 1}}, {"\ud800": {"a": 1}}])
def test_strings_that_are_not_utf8_are_refused_by_name(data):
    with pytest.raises(ValueError) as e:
        ls.Config(data)
    assert type(e.value) is ValueError and "allowed" in str(e.value), repr(e.value)


@pytest.mark.parametrize("data", [{"no_such_section": {}}, {1: {}}])
def test_an_empty_unknown_section_is_refused(data):
    with pytest.raises(ValueError, match="unknown section.*allowed"):
        ls.Config(data)


@pytest.mark.parametrize("family, changes", [
    ("vc", {"packet_sizes": [1, 2], "packet_size_weights": [math.inf, 1]}),
    ("vc", {"packet_sizes": [1, 2], "packet_size_weights": [1e308, 1e308], "offered": 64}),
    ("sconnect", {"priority_weights": [math.inf, 1]}),
    ("sconnect", {"priority_weights": [1e308, 1e308]}),
    ("t3e", {"packet_mix": [math.inf, 1, 0, 0]}),
])
def test_infinite_or_overflowing_weights_are_refused(family, changes):
    # Once accepted: the sums overflowed to inf, the load's limit and the sources' rates became
    # NaN, and the run offered another load than configured (1.0 or 2.0, or 0 for S-Connect).
    with pytest.raises(ValueError, match="allowed"):
        BASES[family].with_(**changes)


def _steps(cfg: ls.Config, cycles: int) -> None:
    ls.Simulator(cfg.with_(**{f"run.{k}": v for k, v in RUN.items()})).step(cycles)


def test_t3e_lut_mode3_is_refused_for_traffic_to_many_pes():
    # Mode 3 routes every packet a PE creates by R_LUT_OVERRIDE's one tag: requests to many PEs
    # and their responses cannot be carried (once accepted, with a placeholder tag towards PE 0;
    # now it runs paired patterns only, test_t3e_registers.py).
    with pytest.raises(ValueError, match=r't3e.lut_mode = "mode3": R_LUT_OVERRIDE.*'
                                         r'traffic.pattern = "uniform" is not allowed: allowed '
                                         r'bitcomp, transpose or bitrev'):
        BASES["t3e"].with_(lut_mode="mode3")


@pytest.mark.parametrize("base", ["metro_figure1", "metro_fat_tree"])
def test_metro_two_word_messages_run(base):
    # A message of two words (one header word at metro.width 8, and the checksum) once broke an
    # invariant within 10 cycles: its TURN crossed a blocked router's fast-reclamation drop, which
    # a router owing its checksum lost ("a word (101) arrived while the router owed a reply").
    cfg = ls.load_config(REPO / "configs" / f"{base}.toml").with_(packet_size=2)
    _steps(cfg, 200)


@pytest.mark.parametrize("family, changes", [
    ("metro", {"metro.swallow": [7]}), ("metro", {"metro.swallow": [0]}),
    ("metro", {"metro.port_vtd": [0]}), ("metro", {"metro.failed_ports": [1]}),
    ("metro", {"metro.noisy_ports": [0, 8]}), ("sconnect", {"sconnect.noisy_channels": [8, 8]}),
    ("t3e", {"t3e.lut_mode": "mode1"}), ("t3e", {"t3e.lut_mode": "mode2"}),
])
def test_the_config_refuses_what_the_engine_refuses(family, changes):
    # Checks that once ran only when the engine was built: Config, network_size (and so a
    # sweep's planning) refuse them now, by name.
    key = next(iter(changes))
    with pytest.raises(ValueError, match=re.escape(key) + ".*allowed"):
        BASES[family].with_(**changes)
    data = BASES[family].to_dict()
    section, name = key.split(".")
    data[section][name] = changes[key]
    with pytest.raises(ValueError, match=re.escape(key) + ".*allowed"):
        _core.network_size(data)
