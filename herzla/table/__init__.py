"""A table against the computer: the person in one seat, a policy in the others, deal after
deal with what the evening carries (the Table app page of the docs shows it in the table app).

A table of people (``new_table(..., people=[0, 2])``) seats a person in each of those seats,
each playing by the private link of their own seat (:attr:`Table.people`), and answers each
only what their seat may see (:meth:`Position.to_dict` with the seat).

A :class:`Table` is a value that keeps only what rebuilds it (the deal, the announcements and
moves, the seed of the computer's choices, the evening of the deals finished), so it can be
written anywhere and read back; :func:`position` rebuilds what it shows.

>>> t = new_table("herzeln", players=3, seat=1, seed=7)
>>> p = position(t)
>>> p.contract.id, p.to_move, t.players
('no-hearts', 1, ('Computer 1', 'You', 'Computer 2'))
>>> while not position(t).over:
...     t = play(t, position(t).legal()[0])
>>> position(t).to_dict()["scores"] == list(position(t).replayed.scores or ())
True
>>> t.deal.review is not None
True
>>> position(next_deal(t)).contract.id
'every-trick'
"""

from herzla.table.actions import TableHint, bid, hint, leave, new_table, next_deal, play, undo
from herzla.table.model import (
    FORMAT,
    VERSION,
    Person,
    Table,
    TableDeal,
    TableError,
    TableStateError,
)
from herzla.table.people import review_for
from herzla.table.position import Position, position

__all__ = ["FORMAT", "VERSION", "Person", "Position", "Table", "TableDeal", "TableError",
           "TableHint", "TableStateError", "bid", "hint", "leave", "new_table", "next_deal",
           "play", "position", "review_for", "undo"]
