"""What the compiled steps are given: :class:`Games`, one reference to all of a batch's
arrays (:class:`~perudo.batch.arrays.GameArrays`), its generator (``bits``) and its
edition's numbers (``rules``, ``layout``, ``spots``), that no step counts.

A step reads a field as ``s.bid_q[i]``, the same memory as ``BatchGames.bid_q``. numba
counts a reference to every array a function takes, passes on or reads from a struct, and
lets it go again: an atomic add and a call each time. Measured on a 2x5 round, that was a
third of the time, spent on ``s``, its arrays and the generator as the inlined steps passed
them to each other. Here the steps borrow them instead: the :class:`Games` that Python
passes in holds the struct (and the struct its arrays) until the call returns, so nothing
inside counts them (:class:`Borrowed`). What a step makes of a field (a slice, a copy) is
an ordinary array, counted as ever.

The edition's numbers ride in the same struct for the same reason: numba works out the
type of every argument at every call from Python, and a named tuple of 26 numbers took
2.3 us a call, as long as a step of 16 games.

numba's extension API has no types, so this module is typed loosely (``pyproject.toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numba.core import cgutils, types
from numba.core.datamodel import models
from numba.core.datamodel.registry import register_default
from numba.core.extending import (
    NativeValue,
    infer_getattr,
    lower_cast,
    lower_getattr_generic,
    unbox,
)
from numba.core.typing.templates import AttributeTemplate
from numba.experimental import structref
from numpy.typing import NDArray

from perudo.batch.arrays import GameArrays, Layout, Spots
from perudo.batch.compiled import compiled
from perudo.batch.rules import BatchRules

__all__ = ["Borrowed", "Games", "games"]

#: The struct's fields: every per-game array, then the batch's generator
#: (:mod:`perudo.batch.compiled`), which a step that draws reads as ``s.bits``, and the
#: edition's numbers: its rules, its table's layout and where each observation entry starts.
FIELDS = (
    *GameArrays._fields, "bits", "face_rank", "ladder", "act_faces", "act_index", "rules",
    "layout", "spots",
)  # fmt: skip


class _MadeType(types.StructRef):
    """numba's type of the struct as :func:`games` makes it: a counted reference, as numba
    counts any."""

    def preprocess_fields(self, fields: Any) -> tuple[tuple[str, Any], ...]:
        return tuple((name, types.unliteral(kind)) for name, kind in fields)


class _Made(structref.StructRefProxy):
    """The struct as made: its memory info holds it, and it holds the arrays."""


structref.register(_MadeType)
structref.define_proxy(_Made, _MadeType, FIELDS)


class _GamesType(types.StructRef):
    """numba's type of :class:`Games`: the same struct, borrowed (never counted)."""


class Borrowed(types.Array):
    """numba's type of a field of :class:`Games` as a step reads it (``s.bid_q``): the
    struct's array, never counted. A field given to a name that ordinary arrays are given
    too becomes an ordinary array there, and numba counts the name's reference as ever.
    A field a step returns to Python is the batch's own array (``s.held`` is
    ``BatchGames.held``); one a step returns to another step stays borrowed."""

    def __init__(self, array: types.Array) -> None:
        super().__init__(array.dtype, array.ndim, array.layout, name=f"borrowed {array}")

    @property
    def key(self) -> Any:
        return ("borrowed", *super().key)


@register_default(_GamesType)
class _GamesModel(models.StructModel):
    """A reference to the struct whose memory info is a plain pointer: nothing counts it."""

    def __init__(self, dmm: Any, fe_type: _GamesType) -> None:
        super().__init__(dmm, fe_type, [("meminfo", types.voidptr)])


@register_default(Borrowed)
class _BorrowedModel(models.StructModel):
    """An array's own layout (numba's ``ArrayModel``), its memory info a plain pointer."""

    def __init__(self, dmm: Any, fe_type: Borrowed) -> None:
        members = [
            ("meminfo", types.voidptr),
            ("parent", types.pyobject),
            ("nitems", types.intp),
            ("itemsize", types.intp),
            ("data", types.CPointer(fe_type.dtype)),
            ("shape", types.UniTuple(types.intp, fe_type.ndim)),
            ("strides", types.UniTuple(types.intp, fe_type.ndim)),
        ]
        super().__init__(dmm, fe_type, members)


@infer_getattr
class _Fields(AttributeTemplate):
    key = _GamesType

    def generic_resolve(self, typ: _GamesType, attr: str) -> Any:  # type: ignore[override]
        field = typ.field_dict.get(attr)
        return Borrowed(field) if isinstance(field, types.Array) else field


@lower_getattr_generic(_GamesType)
def _field(context: Any, builder: Any, typ: _GamesType, value: Any, attr: str) -> Any:
    """``s.field``: the struct's array as it is."""
    return getattr(structref._Utils(context, builder, typ).get_data_struct(value), attr)


@lower_cast(Borrowed, types.Array)
def _as_array(context: Any, builder: Any, fromty: Borrowed, toty: types.Array, value: Any) -> Any:
    """A field given to a name that ordinary arrays are given too: the same array, whose
    reference numba counts as the name takes it (and lets go with the name)."""
    return value


@unbox(_GamesType)
def _unbox(typ: _GamesType, obj: Any, c: Any) -> NativeValue:
    """A :class:`Games` passed in from Python: its struct, held (counted once) until the
    call returns."""
    held = c.pyapi.object_getattr_string(obj, "_meminfo")
    pointer = types.MemInfoPointer(types.voidptr)
    meminfo = c.unbox(pointer, held).value  # counted: let go after the call
    c.pyapi.decref(held)
    handle = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    handle.meminfo = meminfo
    return NativeValue(
        handle._getvalue(),
        is_error=cgutils.is_null(c.builder, meminfo),
        cleanup=lambda: c.context.nrt.decref(c.builder, pointer, meminfo),
    )


if TYPE_CHECKING:  # the compiled steps read the very fields of GameArrays, by name

    class Games(GameArrays):
        bits: NDArray[np.uint64]  #: the batch's generator
        face_rank: NDArray[np.int8]  #: each face's rank in the raise order (the same)
        ladder: NDArray[np.int8]  #: each hand a bid may name, its dice by face (the same)
        act_faces: NDArray[np.int8]  #: each own action's dice, as :func:`games` says
        act_index: NDArray[np.int32]  #: each own action found from its dice (the same)
        rules: BatchRules
        layout: Layout
        spots: Spots

else:

    class Games(structref.StructRefProxy):
        """What the compiled steps are given (:func:`games`): one reference to all of a
        batch's arrays (:class:`~perudo.batch.arrays.GameArrays`), the same memory, to its
        generator (``bits``) and to its edition's numbers (``rules``, ``layout``,
        ``spots``). A tuple of 46 arrays would be copied at every call from step to step;
        a reference that numba counts would be counted at each."""


@compiled
def _make(*arrays: Any) -> Any:
    return _Made(*arrays)


def games(
    arrays: GameArrays,
    bits: NDArray[np.uint64],
    face_rank: NDArray[np.int8],
    ladder: NDArray[np.int8],
    act_faces: NDArray[np.int8],
    act_index: NDArray[np.int32],
    rules: BatchRules,
    layout: Layout,
    spots: Spots,
) -> Games:
    """One :class:`Games` reference to ``arrays`` and the generator ``bits`` (the same
    memory), with the edition's tables: each face's rank in its raise order
    (``face_rank``: :func:`~perudo.batch.rules.face_ranks`), each hand a bid may name,
    by rank, its dice counted by face (``ladder``: :func:`~perudo.batch.rules.hand_ladder`), its own
    actions (``act_faces``:
    row ``k`` holds the dice of action ``first_act + k`` counted by face, column 0 their
    number; ``act_index`` finds the row from the dice: :func:`~perudo.batch.arrays.act_index`),
    its ``rules`` (as plain numbers: :meth:`~perudo.batch.rules.BatchRules.numbers`), its
    ``layout`` and its observation's ``spots``."""
    made = _make(*arrays, bits, face_rank, ladder, act_faces, act_index, rules, layout, spots)
    borrowed = _GamesType(list(made._type.field_dict.items()))
    # The handle keeps the made struct's memory info, a counted reference, while it lives.
    return cast(Games, cast(Any, Games)._numba_box_(borrowed, made._meminfo))
