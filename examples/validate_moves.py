"""Check a sequence of typed moves against an edition, and explain each refusal."""

from __future__ import annotations

import perudo


def parse(text: str) -> perudo.Action:
    """``3x4``, ``dudo`` or ``calza``."""
    if text == "dudo":
        return perudo.Dudo()
    if text == "calza":
        return perudo.Calza()
    quantity, face = text.split("x")
    return perudo.Bid(int(quantity), int(face))


def main() -> None:
    typed = ["3x3", "4x2", "3x4", "2x5", "5x5", "3x1", "dudo"]
    for key in ("italian", "spanish"):
        state = perudo.new_game(key, 3, seed=1, first_player=0)
        print(f"{key}:")
        for text in typed:
            try:
                state = state.apply(parse(text))
            except perudo.IllegalActionError as error:
                print(f"  {text:5} refused ({error.reason}): {error}")
            else:
                print(f"  {text:5} ok")
        if state.last_result is not None:
            print(f"  {state.last_result}")


if __name__ == "__main__":
    main()
