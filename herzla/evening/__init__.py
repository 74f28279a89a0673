"""The evening: a score pad for a table that carries what passes from deal to deal.

An evening is one game, named players in seats, and deal after deal, each entered as a tally (what
``herzla score`` takes) or a hand record.  What the game carries from one deal to the next comes
from the deals before and is never asked again: the stock (Herzla), the dealer, the partie in
progress and its next contract (Herzeln, Herzerln), the match to its end (the children's
Herzla).  Edit or drop any deal and every deal after it is scored again; undo takes back the last
change.  See the Evening page of the docs.

>>> e = Evening.new("herzla", ["Anna", "Berni", "Carla", "Done"])
>>> e = e.add({"hearts": [2, 2, 2, 2]}).add({"hearts": [0, 4, 4, 0]})
>>> e.totals, e.stock
((60, -60, -60, 60), 0)
>>> [str(p) for p in e.settlement()]
['Berni pays Anna 60c', 'Carla pays Done 60c']

- :class:`Evening` (immutable): ``new``, ``add``/``edit``/``drop``/``undo``, ``to_dict``,
  ``to_json``/``from_json``, ``statistics``, ``settlement``, ``winners``;
- :class:`Entry`: one deal as entered; :class:`Deal`: one deal scored;
- :func:`create`/:func:`save`/:func:`load`/:func:`update`: the evening's file, written
  atomically;
- :func:`read_session`: the one reader of a JSON list of hand records.
"""

from herzla.evening.deal import Deal, Place
from herzla.evening.entry import Entry, Seat
from herzla.evening.errors import EveningError
from herzla.evening.model import MAX_DEALS, MAX_UNDO, Change, Evening
from herzla.evening.record_lists import read_session
from herzla.evening.settle import Payment
from herzla.evening.stats import Declarations, PlayerStats
from herzla.evening.storage import FORMAT, VERSION, create, dumps, load, save, update

__all__ = ["FORMAT", "MAX_DEALS", "MAX_UNDO", "VERSION", "Change", "Deal", "Declarations", "Entry",
           "Evening", "EveningError", "Payment", "Place", "PlayerStats", "Seat", "create", "dumps",
           "load", "read_session", "save", "update"]
