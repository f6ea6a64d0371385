"""Configurations: TOML round trips, key spellings, overrides and error messages."""

import tomllib

import numpy as np
import pytest
from conftest import REPO

import lockstep as ls
from lockstep import _core

CONFIG_FILES = sorted((REPO / "configs").glob("*.toml"))


def test_configs_exist():
    names = {p.name for p in CONFIG_FILES}
    assert {"default.toml", "mesh8x8.toml", "booksim_c1.toml", "booksim_c3a.toml"} <= names


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_toml_round_trip(path, tmp_path):
    cfg = ls.load_config(path)
    written = tmp_path / path.name
    cfg.to_toml(written)
    again = ls.Config.from_toml(written)
    assert again == cfg
    assert again.to_dict() == cfg.to_dict() == _core.validate(tomllib.loads(path.read_text()))
    for section, values in tomllib.loads(path.read_text()).items():
        for key, value in values.items():
            assert cfg[section][key] == value, f"{path.name}: {section}.{key}"


def test_default_toml_is_the_contract():
    cfg = ls.load_config(REPO / "configs" / "default.toml")
    expected = {
        "topology": {"kind": "torus", "radix": [8, 8], "link_delay": 1},
        "router": {"family": "vc", "vcs": 2, "vc_depth": 8, "routing": "dor",
                   "flow_control": "wormhole"},
        "traffic": {"pattern": "uniform", "injection": "bernoulli", "packet_size": 1,
                    "offered": 0.2},
        "run": {"warmup": 2000, "measure": 10000, "seed": 1, "backend": "auto"},
    }
    for section, values in expected.items():
        assert {k: cfg[section][k] for k in values} == values


@pytest.mark.parametrize(
    "name, kind, link_delay",
    [("booksim_c1.toml", "mesh", 1), ("booksim_c3a.toml", "torus", 2), ("mesh8x8.toml", "mesh", 1)],
)
def test_shipped_networks(name, kind, link_delay):
    cfg = ls.load_config(REPO / "configs" / name)
    assert (cfg.get("kind"), cfg.get("radix"), cfg.get("link_delay")) == (kind, [8, 8], link_delay)
    assert (cfg.get("vcs"), cfg.get("packet_size")) == (2, 1)


def test_defaults_come_from_the_core():
    assert ls.Config().to_dict() == _core.defaults() == _core.validate({})


def test_schema_entries():
    entries = ls.schema()
    assert {"topology.kind", "topology.radix", "router.vcs", "traffic.offered", "run.seed"} <= {
        e["key"] for e in entries
    }
    for e in entries:
        assert e["key"] == f"{e['section']}.{e['name']}"
        assert e["type"] in {"str", "int", "float", "bool", "int_list", "float_list"}
        # Only traffic, the seed, the T3E's register contents (faults: the tables and R_CHAN;
        # partitions and hot spares: the PE numbers), METRO's dead routers, broken wires and noisy
        # wires (port states) and S-Connect's channel error rates (a state array) may differ
        # within a batch (not all traffic keys: some size the state or split the VCs); the
        # network's shape
        # never does.
        faults = {"t3e.failed_links", "t3e.failed_nodes", "t3e.fail_cycle", "t3e.partitions",
                  "t3e.hot_spares", "metro.failed_routers", "metro.failed_ports",
                  "metro.noisy_ports", "metro.failure_cycle", "sconnect.bit_error_rate",
                  "sconnect.noisy_channels",
                  "sconnect.noisy_bit_error_rate", "sconnect.message_bits"}
        if e["per_instance"]:
            assert e["section"] == "traffic" or e["key"] in {"run.seed"} | faults, e["key"]
    per_instance = {e["key"] for e in entries if e["per_instance"]}
    assert {"traffic.pattern", "traffic.offered", "traffic.injection", "traffic.packet_size",
            "run.seed"} <= per_instance


def test_with_accepts_short_and_section_names():
    cfg = ls.Config()
    changed = cfg.with_(offered=0.3, router__vcs=4, radix=[4, 4], **{"topology.kind": "mesh"})
    assert changed["traffic"]["offered"] == 0.3
    assert changed["router"]["vcs"] == 4
    assert changed.get("topology.radix") == [4, 4]
    assert changed.get("kind") == "mesh"
    assert cfg == ls.Config(), "with_ must not modify the original"
    assert cfg.replace(vcs=4) == cfg.with_(vcs=4)


def test_with_converts_numpy_tuples_and_ints():
    cfg = ls.Config().with_(offered=np.float64(0.25), vcs=np.int64(4), radix=(4, 4))
    assert cfg.get("offered") == 0.25 and type(cfg.get("offered")) is float
    assert cfg.get("vcs") == 4 and type(cfg.get("vcs")) is int
    assert cfg.get("radix") == [4, 4]
    assert type(ls.Config().with_(offered=1).get("offered")) is float


def test_unknown_key_names_close_matches():
    with pytest.raises(ValueError, match=r"ofered.*traffic\.offered"):
        ls.Config().with_(ofered=0.3)
    with pytest.raises(ValueError, match=r"toplogy\.kind.*topology\.kind"):
        ls.Config().set("toplogy.kind", "mesh")
    # In a known section: its keys, the closest first; elsewhere the sections, not every key.
    with pytest.raises(ValueError,
                       match=r"did you mean t3e\.adaptive, .*\? \[t3e\] has buffer_depth"):
        ls.Config().with_(**{"t3e.adaptiv": True})
    with pytest.raises(ValueError) as e:
        ls.Config().with_(**{"metro.xyz": 1})
    assert "did you mean" not in str(e.value) and "[metro] has hw, dp" in str(e.value)
    with pytest.raises(ValueError) as e:
        ls.Config().with_(xyzzy=1)
    assert "section of topology, router, traffic" in str(e.value) and len(str(e.value)) < 300


def test_ambiguous_key_lists_the_candidates():
    names: dict[str, list[str]] = {}
    for e in ls.schema():
        names.setdefault(e["name"], []).append(e["key"])
    shared = {n: keys for n, keys in names.items() if len(keys) > 1}
    if not shared:
        pytest.skip("no key name is shared between sections in this schema")
    name, keys = next(iter(shared.items()))
    with pytest.raises(ValueError, match="ambiguous") as e:
        ls.Config().get(name)
    assert all(k in str(e.value) for k in keys)


def test_set_parses_toml_values():
    cfg = ls.Config()
    assert cfg.set("topology.radix", "[4,4,4]") is cfg
    assert cfg.get("radix") == [4, 4, 4]
    cfg.set("kind", "mesh")  # not TOML: taken as a bare string
    cfg.set("traffic.offered", "0.35")
    cfg.set("router__vcs", "4")
    assert (cfg.get("kind"), cfg.get("offered"), cfg.get("vcs")) == ("mesh", 0.35, 4)


def test_set_leaves_config_unchanged_on_error():
    cfg = ls.Config()
    with pytest.raises(ValueError):
        cfg.set("routing", "foo")
    assert cfg == ls.Config()


def test_bad_value_names_key_value_and_allowed():
    with pytest.raises(ValueError) as e:
        ls.Config().with_(routing="foo")
    message = str(e.value)
    assert "router.routing" in message and "foo" in message and "dor" in message


def test_wrong_type_names_key_and_value():
    with pytest.raises(ValueError) as e:
        ls.Config().with_(vcs="many")
    assert "router.vcs" in str(e.value) and "many" in str(e.value)


@pytest.mark.parametrize(
    "text, words",
    [
        ('[topology]\nkind = "ring"\n', ["topology.kind", "ring", "torus"]),
        ("[tpology]\nkind = 1\n", ["tpology"]),
        ("[router]\nflavour = 1\n", ["router.flavour"]),
        ("[traffic\n", ["bad.toml"]),
    ],
)
def test_bad_files(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as e:
        ls.load_config(path)
    assert all(w in str(e.value) for w in words), str(e.value)


def test_sections_read_like_dicts_but_are_read_only():
    cfg = ls.Config()
    assert cfg["traffic"]["offered"] == cfg.get("offered")
    with pytest.raises(TypeError):
        cfg["traffic"]["offered"] = 0.9
    assert "offered=0.3" in repr(cfg.with_(offered=0.3))


FAMILY_CONFIGS = {"vc": "default", "sconnect": "sconnect_cluster4", "t3e": "t3e_64",
                  "metro": "metro_figure1", "bgl": "bgl_8x8x8"}
# A value other than the default for one key each family alone reads.
FAMILY_KEYS = {"vc": ("router.vcs", 4), "sconnect": ("sconnect.bypass", False),
               "t3e": ("t3e.adaptive", False), "metro": ("metro.reclaim", "detailed"),
               "bgl": ("bgl.jsq", False)}


def test_schema_says_which_family_reads_each_key():
    families = {e["key"]: e["family"] for e in ls.schema()}
    assert families["router.family"] == "" and families["traffic.offered"] == ""
    assert families["router.vcs"] == "vc" and families["t3e.adaptive"] == "t3e"
    assert {families[k] for k, _ in FAMILY_KEYS.values()} == set(FAMILY_KEYS)


@pytest.mark.parametrize("family", sorted(FAMILY_CONFIGS))
@pytest.mark.parametrize("other", sorted(FAMILY_KEYS))
def test_a_key_only_another_family_reads_is_refused(family, other):
    cfg = ls.load_config(REPO / "configs" / f"{FAMILY_CONFIGS[family]}.toml")
    key, value = FAMILY_KEYS[other]
    assert {e["key"]: e["default"] for e in ls.schema()}[key] != value
    if other == family:
        assert cfg.with_(**{key: value}).get(key) == value
        return
    default = {e["key"]: e["default"] for e in ls.schema()}[key]
    for v in (value, default):  # named, even at its default: it would change nothing
        with pytest.raises(ValueError) as e:
            cfg.with_(**{key: v})
        message = str(e.value)
        assert key in message and f'router.family = "{family}"' in message
        assert f'router.family = "{other}"' in message
    data = cfg.to_dict()  # a file (no key named): refused unless at the default
    data[key.split(".")[0]][key.split(".")[1]] = value
    with pytest.raises(ValueError, match=f'only router.family = "{other}" reads it'):
        ls.Config(data)


@pytest.mark.parametrize("changes, limit", [
    ({}, 1.0),
    ({"packet_size": 4}, 4.0),
    ({"request_reply": True, "reply_size": 3, "vcs": 4}, 4.0),
    ({"packet_sizes": [1, 5], "packet_size_weights": [3, 1]}, 2.0),
    ({"injection": "onoff", "burst_alpha": 0.25, "burst_beta": 0.75}, 0.25),
])
def test_offered_limit_is_one_packet_per_node_per_cycle(changes, limit):
    cfg = ls.Config().with_(**changes)
    assert _core.offered_limit(cfg.to_dict()) == pytest.approx(limit)
    cfg.with_(offered=limit)  # allowed
    with pytest.raises(ValueError, match="traffic.offered"):
        cfg.with_(offered=limit * 1.01)


def test_offered_limit_of_the_t3e_counts_the_response():
    cfg = ls.load_config(REPO / "configs" / "t3e_64.toml")  # single-word Gets: 2 + 2 flits
    assert _core.offered_limit(cfg.to_dict()) == pytest.approx(4.0)
