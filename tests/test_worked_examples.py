"""Every worked example the sources give (RULES.md, "Worked examples"), one row each."""

from __future__ import annotations

import pytest
from helpers import act, game, play

import perudo
from perudo import Bid, Dudo

FIVE = [2, 3, 4, 5, 6]

# (edition, moves that make the standing bid, candidate, legal?, the source's words)
RAISES = [
    # 000: "Il giocatore precedente ha scommesso sul numero tre presente otto volte. Voi potete
    # o scommettere che questo stesso numero (cioè il 3) o un qualsiasi altro numero (cioè il
    # 2, il 4, il 5 o il 6) appaia nove o più volte, o scommettere che un numero superiore a 3
    # appaia almeno otto volte (ad esempio otto 4, otto 5 oppure otto 6)."
    *[("italian", ["8x3"], f"9x{face}", True, "000 nove o più volte") for face in range(2, 7)],
    ("italian", ["8x3"], "8x4", True, "000 otto 4"),
    ("italian", ["8x3"], "8x5", True, "000 otto 5"),
    ("italian", ["8x3"], "8x6", True, "000 otto 6"),
    ("italian", ["8x3"], "8x2", False, "000 a lower face needs more dice"),
    ("italian", ["8x3"], "7x6", False, "000 a higher face keeps at least the quantity"),
    # 000: "Il giocatore precedente ha scommesso su nove 4. Il numero di teste dell'Azteco su
    # cui potete scommettere deve essere di conseguenza cinque o maggiore di cinque."
    ("italian", ["9x4"], "5x1", True, "000 cinque teste"),
    ("italian", ["9x4"], "4x1", False, "000 fewer than cinque teste"),
    # 000: "Il giocatore precedente ha scommessa su 'quattro teste di Azteco'. Voi potete o
    # scommettere su 'cinque o più teste d'Azteco' o su nove o più di un qualsiasi altro numero."
    ("italian", ["8x2", "4x1"], "5x1", True, "000 cinque o più teste"),
    *[
        ("italian", ["8x2", "4x1"], f"9x{face}", True, "000 nove o più di un qualsiasi altro")
        for face in range(2, 7)
    ],
    ("italian", ["8x2", "4x1"], "8x6", False, "000 eight is fewer than nove"),
    ("italian", ["8x2", "4x1"], "4x1", False, "000 the same ones do not raise"),
    # 002: "si la personne avant vous annonce: Six Cinqs. Vous pouvez annoncer: Six Six, Sept
    # Quatres, Huit Cinqs, Neuf Trois, Sept Trois, Huit Deux etc."
    ("french-jonti", ["6x5"], "6x6", True, "002 Six Six"),
    ("french-jonti", ["6x5"], "7x4", True, "002 Sept Quatres"),
    ("french-jonti", ["6x5"], "8x5", True, "002 Huit Cinqs"),
    ("french-jonti", ["6x5"], "9x3", True, "002 Neuf Trois"),
    ("french-jonti", ["6x5"], "7x3", True, "002 Sept Trois"),
    ("french-jonti", ["6x5"], "8x2", True, "002 Huit Deux"),
    ("french-jonti", ["6x5"], "6x4", False, "002 une valeur inférieure: un nombre supérieur"),
    ("french-jonti", ["6x5"], "5x6", False, "002 never fewer dice"),
    # 003: "Con una apuesta inicial de 3 tres [...] 3 cuatros [...] o 4 tres [...] o 5 cincos"
    ("spanish", ["3x3"], "3x4", True, "003 3 cuatros"),
    ("spanish", ["3x3"], "4x3", True, "003 4 tres"),
    ("spanish", ["3x3"], "5x5", True, "003 5 cincos"),
    # 004: "Five sixes may become three ones; three ones require at least seven sixes."
    ("wango", ["5x6"], "3x1", True, "004 five sixes may become three ones"),
    ("wango", ["5x6"], "2x1", False, "004 at least ceil(q/2) ones"),
    ("wango", ["6x2", "3x1"], "7x6", True, "004 three ones require at least seven sixes"),
    ("wango", ["6x2", "3x1"], "6x6", False, "004 six sixes are too few after three ones"),
]


@pytest.mark.parametrize(
    ("edition", "moves", "candidate", "legal", "source"),
    RAISES,
    ids=[f"{row[0]}:{'-'.join(row[1])}->{row[2]}" for row in RAISES],
)
def test_raise_examples(
    edition: str, moves: list[str], candidate: str, legal: bool, source: str
) -> None:
    state = play(game(edition, [FIVE] * 4), *moves)
    assert state.is_legal(act(candidate)) is legal, source
    if legal:
        assert act(candidate) in state.legal_actions()
    else:
        with pytest.raises(perudo.IllegalActionError):
            state.apply(act(candidate))


def test_italian_9x4_challenged_with_eight_4s_the_bidder_loses() -> None:
    # 000: "Contate i 4 e scoprite che ve ne sono solo otto. Di conseguenza, il giocatore che
    # avete sfidato perde un dado."  Eight 4s, Azteco heads included.
    hands = [[4, 4, 4, 1, 2], [4, 4, 1, 3, 3], [4, 2, 2, 3, 5], [6, 6, 5, 5, 3]]
    state = play(game("italian", hands), "9x4", "dudo")
    result = state.last_result
    assert result is not None
    assert (result.count, result.loser) == (8, 0)
    assert len(state.players[0].dice) == 4
    assert len(state.players[1].dice) == 5


def test_italian_9x4_challenged_with_nine_4s_the_challenger_loses() -> None:
    # 000: "Se, alzando i bussolotti, si fossero trovati nove o più 4 (comprese le teste
    # dell'Azteco), avreste perso voi un dado!"
    hands = [[4, 4, 4, 1, 2], [4, 4, 1, 3, 3], [4, 1, 2, 3, 5], [6, 6, 5, 5, 3]]
    state = play(game("italian", hands), "9x4", "dudo")
    result = state.last_result
    assert result is not None
    assert result.count >= 9
    assert result.loser == 1
    assert len(state.players[1].dice) == 4


def _italian_palifico_round() -> perudo.GameState:
    """Seat 1 drops to one die; seat 3 has held one die from the start."""
    hands = [[2, 2, 3, 5, 6], [3, 4], [2, 3, 5, 6, 6], [5]]
    state = game("italian", hands, first=1)
    state = play(state, "9x6", "dudo")  # seat 1's 9x6 is false: seat 1 drops to one die
    assert state.special_round == "palifico"
    assert state.to_act == 1
    return state


def test_italian_palifico_others_may_only_bid_more_of_the_opening_face() -> None:
    # 000: "Dopo esservi dichiarato Palifico scommettete su tre 4. Gli altri giocatori possono
    # solo aumentare la scommessa sul numero di volte in cui 4 ricorre."
    state = play(_italian_palifico_round(), "3x4")
    assert state.to_act == 2
    for face in (2, 3, 5, 6):
        with pytest.raises(perudo.IllegalActionError) as error:
            state.apply(Bid(4, face))
        assert error.value.reason == "face-locked"
    assert state.is_legal(Bid(4, 4))
    bids = [a for a in state.legal_actions() if isinstance(a, Bid)]
    assert {bid.face for bid in bids} == {4}
    assert Dudo() in state.legal_actions()  # "uno qualunque di loro può dire Dubito"


def test_italian_palifico_one_die_player_may_bid_2x3_over_2x2() -> None:
    # 000: "I giocatori precedenti hanno scommesso su un 2 e su due 2. Voi, che avete un solo
    # dado, a questo punto potete scommettere su due 3. [...] il giocatore che viene dopo di
    # voi deve scommettere su tre o più 3"
    state = play(_italian_palifico_round(), "1x2", "2x2")
    assert state.to_act == 3
    assert state.is_legal(Bid(2, 3))
    state = play(state, "2x3")
    assert state.to_act == 0
    assert not state.is_legal(Bid(3, 2))
    assert state.is_legal(Bid(3, 3))


def test_wango_four_sixes_and_two_ones_count_as_six_sixes_and_equality_favours_the_bidder() -> None:
    # 004: "Four sixes plus two ones count as six sixes." "A bid means at least that many, so
    # equality favors the bidder. The challenger wins only when the actual count is lower."
    hands = [[6, 6, 1, 2, 3], [6, 6, 1, 4, 5], [2, 3, 4, 5, 5]]
    state = play(game("wango", hands), "6x6", "dudo")
    result = state.last_result
    assert result is not None
    assert result.count == 6
    assert result.loser == 1  # the challenger
    state = play(game("wango", hands), "7x6", "dudo")
    assert state.last_result is not None
    assert state.last_result.loser == 0  # the bidder
