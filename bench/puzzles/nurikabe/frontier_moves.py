"""The profile moves of the frontier programme of :mod:`bench.puzzles.nurikabe.frontier`: what
one cell taking one colour makes of a profile (its new frontier, closed colours, bound,
diagonal colour and enclosed islands), shared by the programme's steps over dicts and over
arrays (:mod:`.frontier_arrays`)."""

from __future__ import annotations

from collections.abc import Iterable

from bench.puzzles.nurikabe.frontier_bounds import Profile, Sweep
from bench.puzzles.nurikabe.frontier_bounds import bound as bound_of
from bench.puzzles.nurikabe.frontier_enclosed import enclosed

#: the most answers of :func:`_place` kept for one column, and of bounds and moves kept
#: (beyond, they are forgotten)
PLACES = 300_000
#: a move not yet cached (:func:`_move`'s answers: a tuple, or None)
_UNSEEN: tuple[tuple[int, ...], int, int, int, int, int] = ((), -1, -1, -1, -1, 0)

#: a move (:func:`_move`'s answer when a tally can follow)
Move = tuple[tuple[int, ...], int, int, int, int, int]

def _relabel(codes: list[int]) -> tuple[int, ...]:
    """The frontier codes (colour * 64 + label) with labels renumbered by first appearance
    per colour-independent order, so equal connectivities give equal tuples."""
    seen: dict[int, int] = {}
    return tuple([q if q < 0 else q - (q & 63) + seen.setdefault(q & 63, len(seen))
                  for q in codes])


Grid = list[list[int | None]]


def _place(front: tuple[int, ...], c: int, x: int) -> tuple[Profile, int] | None:
    """The frontier after the cell of column ``c`` takes colour ``x`` (joined to the cells
    above and left of it of its colour), as a profile without its diagonal colour (-1) with
    the colour (as a bit) whose component left the frontier for good, and that colour, which
    must then be complete (-1: none); None when a component leaves while another of its colour
    is still on the frontier (that colour can no longer be connected). A label names one
    component whatever its colour (:func:`_relabel`), so a code names it too."""
    up = front[c]
    left = front[c - 1] if c else -1
    codes = list(front)
    new = x * 64 + 63  # a fresh label (the relabelling renumbers it)
    must = -1
    if up >= 0 and up >> 6 == x:
        new = up
        if left >= 0 and left != up and left >> 6 == x:
            codes = [up if q == left else q for q in codes]
    else:
        if left >= 0 and left >> 6 == x:
            new = left
        codes[c] = new
        if up >= 0 and up not in codes:
            # the component of the cell above leaves the frontier for good
            colour = up >> 6
            for q in codes:
                if q >= 0 and q >> 6 == colour:
                    return None
            must = colour
    codes[c] = new
    return (_relabel(codes), -1, 0 if must < 0 else 1 << must), must


def _move(sw: Sweep, front: tuple[int, ...], closed: int, x: int, r: int, c: int
          ) -> tuple[tuple[int, ...], int, int, int, int, int] | None:
    """What cell ``(r, c)`` taking colour ``x`` makes of a profile's frontier ``front`` and
    closed colours ``closed``: the new frontier, closed colours, the colour that must then be
    complete (-1: none), the new profile's :func:`~.frontier_bounds.bound`, its diagonal
    colour and its enclosed islands (:func:`.frontier_enclosed.enclosed`); None when no tally
    can follow (a component lost, or no bound). The diagonal
    colour (of the cell above the one placed) serves only the 2x2 rule at the next cell,
    whose left is the cell placed and whose up is the frontier's next cell: it is kept (the
    wall) when both of those are wall and the cell above too, else -1, so profiles differing
    only where the rule cannot bite are one."""
    up = front[c]
    left = front[c - 1] if c else -1
    up_col = up >> 6 if up >= 0 else -1
    if x == up_col and (left < 0 or left >> 6 != x or left == up):
        codes, now, must = front, closed, -1  # joined above, nothing merged: the same
    else:
        places = sw.places[c]
        seen = (front, x)
        if seen in places:
            placed = places[seen]
        else:
            placed = places[seen] = _place(front, c, x)
        if placed is None:
            return None
        (codes, _, gone), must = placed
        now = closed | gone
    cell = r * sw.cols + c
    bound = sw.bounds.get((codes, now, c))
    if bound is None:
        bound = sw.bounds[(codes, now, c)] = bound_of(codes, now, sw, r, cell)
    if bound < 0:
        return None
    wall = sw.k
    diag = wall if (x == wall and up_col == wall and c + 1 < sw.cols
                    and codes[c + 1] >> 6 == wall) else -1
    return codes, now, must, bound, diag, enclosed(codes, sw.k)



def allowed(sw: Sweep, moves: dict[tuple[tuple[int, ...], int, int], Move | None],
            options: Iterable[int], front: tuple[int, ...], diag: int, closed: int, r: int,
            c: int) -> list[tuple[int, Move]]:
    """The colours cell ``(r, c)`` may take in the profile ``(front, diag, closed)``, each
    with its move (:func:`_move`, cached in ``moves`` by frontier, closed colours and colour),
    in the order of ``options``: a colour not closed, the wall only where it makes no 2x2 of
    wall (the cells up, left and diagonal all wall), an island only where no other island's
    cell is up or left of it, and only where a tally can follow (the move is not None). The
    rules of a step over dicts and over arrays alike."""
    up = front[c]
    left = front[c - 1] if c else -1
    up_col = up >> 6 if up >= 0 else -1
    left_col = left >> 6 if left >= 0 else -1
    wall = sw.k
    out = []
    for x in options:
        if closed >> x & 1:
            continue
        if x == wall:
            if up_col == wall and left_col == wall and diag == wall:
                continue
        elif (up_col != x and 0 <= up_col < wall) or (left_col != x and 0 <= left_col < wall):
            continue
        move = moves.get((front, closed, x), _UNSEEN)
        if move is _UNSEEN:
            move = moves[(front, closed, x)] = _move(sw, front, closed, x, r, c)
        if move is not None:
            out.append((x, move))
    return out


def enter(sw: Sweep, r: int, c: int) -> dict[tuple[tuple[int, ...], int, int], Move | None]:
    """The caches of the sweep ``sw`` made ready for cell ``(r, c)``, and its column's moves
    (:func:`allowed`'s cache): the bounds and moves of every column are forgotten when the
    phase changes (a clue passed, or the last row reached: a profile's bound depends on
    these only), and a cache past :data:`PLACES` answers is emptied."""
    cell = r * sw.cols + c
    phase = (tuple(at > cell for at in sw.clue_cell), r + 1 < sw.rows)
    if phase != sw.phase:
        sw.phase = phase
        sw.bounds.clear()
        for kept in sw.moves:
            kept.clear()
    if len(sw.bounds) > PLACES:
        sw.bounds.clear()
    moves = sw.moves[c]
    if len(moves) > PLACES:
        moves.clear()
    if len(sw.places[c]) > PLACES:
        sw.places[c].clear()
    return moves
