"""Write and load a house-rule edition: as a TOML file that extends a shipped one, and in
Python with Variant.derive. Runs from any directory."""

from __future__ import annotations

from pathlib import Path

import perudo
from perudo.rules import DiceInPlayCap

HERE = Path(__file__).parent


def from_toml() -> perudo.Variant:
    """The edition declared in house_rule.toml beside this script (a Path: files are read
    only when named by one)."""
    return perudo.load_variant(HERE / "house_rule.toml")


def from_python() -> perudo.Variant:
    """The Italian edition with WANGO's cap: one axis changed, with the reason."""
    return perudo.load_variant("italian").derive(
        "italian-capped",
        name="Italian Palifico, capped",
        reason="House rule: no bid above the dice in play.",
        cap=DiceInPlayCap(),
    )


def main() -> None:
    for variant in (from_toml(), from_python()):
        state = perudo.new_game(variant, 3, seed=4)
        top = max(a.quantity for a in state.legal_actions() if isinstance(a, perudo.Bid))
        print(f"{variant.key}: {variant.name}; {state.dice_in_play} dice, highest bid {top}")
        assert top == state.dice_in_play
    print("provenance of the cap:", from_python().provenance_of("cap"))


if __name__ == "__main__":
    main()
