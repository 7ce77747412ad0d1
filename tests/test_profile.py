"""Rule profiles as validated data: built-ins, TOML files, fingerprints (docs/rules.md, House
rules)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_sim.kernels.params import N_PARAMS, compile_profile
from mighty_sim.rules.cards import card_name, parse_card
from mighty_sim.rules.profile import (
    BUILTIN_PROFILES,
    RuleProfile,
    list_profiles,
    load_profile,
    profile_from_toml,
)

STANDARD = load_profile("standard")


def test_every_builtin_validates_and_compiles() -> None:
    assert list_profiles()[0] == "standard"
    for name in list_profiles():
        p = load_profile(name)
        assert p.name == name
        assert p.players * p.hand_size + p.blind_size == p.deck_size
        assert compile_profile(p).shape == (N_PARAMS,)


def test_builtin_decks_match_rules_md() -> None:
    sizes = {name: (p.deck_size, p.total_points, p.min_bid, p.max_bid)
             for name, p in BUILTIN_PROFILES.items()}
    assert sizes["standard"] == (53, 20, 13, 20)
    assert sizes["ucla-4p"][0] == 43 and sizes["russian-4p"][:3] == (43, 20, 12)
    assert sizes["russian-3p"] == (33, 20, 11, 20)
    assert sizes["russian-6p"] == (108, 40, 25, 40)
    assert sizes["russian-7p"][0] == 104 and sizes["russian-8p"][0] == 102


def test_standard_special_cards() -> None:
    from mighty_sim.rules.cards import format_cards
    assert format_cards(STANDARD.mighty_for("H")) == "AS"
    assert format_cards(STANDARD.mighty_for("S")) == "AD"
    assert format_cards(STANDARD.hunter_for("S")) == "3C"
    assert format_cards(STANDARD.hunter_for("C")) == "3S"
    assert format_cards(load_profile("ucla-5p").mighty_for("S")) == "AC"


def test_profiles_are_frozen() -> None:
    with pytest.raises(AttributeError):
        STANDARD.players = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"players": 9}, "players"),
        ({"hand_size": 9}, "hand_size"),
        ({"min_bid": 21}, "min_bid"),
        ({"hunter": "ZZ"}, "hunter"),
        ({"mighty": "JK"}, "mighty"),
        ({"mighty_alternative": "KS"}, "mighty_alternative"),
        ({"friend_modes": ("called", "pal")}, "friend_modes"),
        ({"friend_modes": ()}, "friend_modes"),
        ({"weak_ten": 0.3}, "weak_ten"),
        ({"hunter_tricks": (0,)}, "hunter_tricks"),
        ({"joker_powerless_tricks": (11,)}, "joker_powerless_tricks"),
        ({"scoring": "golf"}, "scoring"),
        ({"passes_permanent": "yes"}, "passes_permanent"),
        ({"back_run_threshold": 21}, "back_run_threshold"),
        ({"deal_packets": (5, 4)}, "deal_packets"),
        ({"deck_remove": ("AS",)}, "mighty"),
    ],
)
def test_invalid_values_name_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}:"):
        STANDARD.replace(**changes)


def test_toml_extends_and_overrides(tmp_path: Path) -> None:
    f = tmp_path / "hunter-3h.toml"
    f.write_text('extends = "standard"\nhunter = "3h"\nhunter_alternative = "3S"\n'
                 'joker_powerless_tricks = [1]\n')
    p = load_profile(str(f))
    assert p.name == "hunter-3h" and p.hunter == "3H" and p.joker_powerless_tricks == (1,)
    assert p.fingerprint() != STANDARD.fingerprint()
    assert p.replace(hunter="3C", joker_powerless_tricks=(1, -1)).fingerprint() == (
        STANDARD.fingerprint()
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('hunter = "3H"', "extends"),
        ('extends = "poker"', "extends"),
        ('extends = "standard"\nhuntr = "3H"', "huntr: unknown"),
        ('extends = "standard"\nplayers = "five"', "players"),
        ('extends = "standard"\nfriend_modes = "none"', "friend_modes"),
        ("extends = ", "TOML"),
    ],
)
def test_bad_toml(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        profile_from_toml(text)


def test_missing_file() -> None:
    with pytest.raises(ValueError, match="cannot read"):
        load_profile("/nonexistent/table.toml")


def test_to_toml_round_trip() -> None:
    for p in BUILTIN_PROFILES.values():
        text = f'extends = "standard"\n{p.to_toml()}'
        assert profile_from_toml(text) == p


PINNED_FINGERPRINTS = {
    "standard": "aa659230e945f020",
    "ucla-5p": "7b4fb4082426f1fe",
    "ucla-4p": "525ca9392f864346",
    "russian-3p": "3e2daeded4cd6c72",
    "russian-4p": "584465660ed5a816",
    "russian-5p": "a3c62ccc18f1be30",
    "russian-6p": "c67b99f91cce43da",
    "russian-7p": "0a46234e04533c9e",
    "russian-8p": "3ad2f7c8203fb6b1",
}


def test_fingerprint_is_stable() -> None:
    """Datasets name their rules by fingerprint: a change to the hash recipe or to a
    built-in profile's rules must be deliberate (and update these)."""
    assert {name: p.fingerprint() for name, p in BUILTIN_PROFILES.items()} == (
        PINNED_FINGERPRINTS)
    assert RuleProfile().fingerprint() == PINNED_FINGERPRINTS["standard"]
    assert STANDARD.replace(back_run_threshold=8).fingerprint() != (
        PINNED_FINGERPRINTS["standard"])
    assert STANDARD.replace(name="x", description="y").fingerprint() == (
        PINNED_FINGERPRINTS["standard"])


_VALUES = st.one_of(
    st.integers(min_value=-3, max_value=25), st.booleans(), st.sampled_from(
        ["AS", "3H", "2C", "JK", "nope", "S", "NT", "friend", "points", "tricks", "bridge",
         "clockwise", "zero-sum", "penalty", "first-turn", "never", "rank-gap", ""]),
    st.floats(min_value=-2, max_value=2, allow_nan=False).map(lambda x: round(x * 4) / 4),
    st.lists(st.integers(min_value=-11, max_value=11), max_size=4),
    st.lists(st.sampled_from(["called", "first-trick", "none", "pal"]), max_size=3),
)
_FIELDS = [f for f in RuleProfile.__dataclass_fields__ if f not in ("name", "description")]


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return repr(v)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=4))
def test_random_toml_overrides_load_or_raise_value_error(overrides: dict[str, object]) -> None:
    text = 'extends = "standard"\n' + "".join(f"{k} = {_toml_value(v)}\n"
                                              for k, v in overrides.items())
    try:
        p = profile_from_toml(text)
    except ValueError as e:  # one line, naming a field given, or one a given field breaks
        message = str(e)
        assert message and "\n" not in message
        assert any(name in message for name in _FIELDS) or "TOML" in message, message
    else:  # every value given is the profile's, and the profile compiles
        for name, value in overrides.items():
            held = getattr(p, name)
            held = list(held) if isinstance(held, tuple) else held
            if name in ("mighty", "mighty_alternative", "hunter", "hunter_alternative") and value:
                assert held == card_name(parse_card(str(value)).bit_length() - 1), name
            elif name != "deck_remove":  # written in a canonical order
                assert held == value, (name, held, value)
        compile_profile(p)
        assert p.players * p.hand_size + p.blind_size == p.deck_size


def test_shipped_house_rule_files_load_and_differ_from_standard() -> None:
    root = Path(__file__).resolve().parents[1] / "data" / "profiles"
    files = sorted(root.glob("*.toml"))
    assert len(files) >= 3
    prints = {STANDARD.fingerprint()}
    for f in files:
        p = load_profile(str(f))
        assert p.name == f.stem and p.description
        prints.add(p.fingerprint())
    assert len(prints) == len(files) + 1
