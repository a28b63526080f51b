"""What the PettingZoo and Gymnasium environments share: the observation space and the
observation of a seat (both need the ``gymnasium`` and ``numpy`` of their extras)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from perudo.encoding import ObservationEncoding
from perudo.errors import shown
from perudo.interop.turns import TurnActions, Turns

RENDER_MODES = ("human", "ansi")


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode the environments do not have."""
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode {shown(render_mode)} is not None, 'human' or 'ansi'")


def observation_space(encoding: ObservationEncoding, numbers: TurnActions) -> gymnasium.spaces.Dict:
    """``"observation"`` (the encoded view, ``int64``) and ``"action_mask"`` (``int8``)."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                np.array(encoding.low, dtype=np.int64),
                np.array(encoding.high, dtype=np.int64),
                dtype=np.int64,
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, (numbers.size,), dtype=np.int8),
        }
    )


def observe(
    encoding: ObservationEncoding, numbers: TurnActions, turns: Turns, seat: int, *, may_act: bool
) -> dict[str, Any]:
    """``seat``'s observation; its mask flags its legal numbers when it decides now and
    ``may_act``, else nothing. The mask is read from the observation's own ``legal`` field
    (the view's legal actions), plus a pass where the seat is asked about an out-of-turn
    call."""
    vector = np.array(encoding.encode(turns.state.view(seat)), dtype=np.int64)
    mask = np.zeros(numbers.size, dtype=np.int8)
    if may_act and seat == turns.seat:
        legal = encoding.field("legal")
        mask[: legal.length] = vector[legal.start : legal.stop]
        if turns.asking:
            assert numbers.pass_number is not None  # only editions with a pass ask
            mask[numbers.pass_number] = 1
    return {"observation": vector, "action_mask": mask}
