"""The policy interface: a player that chooses a seat's announcement and its cards from a view.

A policy subclasses :class:`Policy` and writes :meth:`Policy.move`: the seat's one
:class:`~herzla.hand.Move` on its view, one of ``view.legal_moves()``, whatever the deal (a card,
a card laid at an end of its row, the pass).  :meth:`Policy.announce` defaults to the bidding
heuristic.  Its parameters are attrs fields with defaults (``pimc[samples=32]`` sets one); a
policy without fields has none.  A policy may offer a batch form for the numpy engine
(:meth:`Policy.batch_form`); without one the batch engine hands its deals to the reference
engine.  The built-in policies name their forms, which the batch engine holds, by a
:class:`BuiltinForm`.

Every engine asks a policy through :func:`decide_move` (:func:`choose`) and
:func:`decide_announce`, never by calling its methods itself: these check what the policy
answers (a legal :class:`~herzla.hand.Move`; an announcement the bidding knows) and turn
anything else, or an exception the policy raises, into a :class:`PolicyError` naming the policy
and what it answered, in one line.

>>> import attrs
>>> from herzla.players.views import LayoutView, TrickView, view_of
>>> @attrs.frozen
... class First(Policy):
...     name = "first"
...     def move(self, view: TrickView | LayoutView) -> Move:
...         return view.legal_moves()[0]
>>> First().spec()
'first'

>>> from herzla.contracts import contract_class
>>> hand = contract_class("herzla", "normal")().new_hand(
...     ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...      "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"], dealer=3)
>>> str(choose(First(), view_of(hand), hand.check))
'C7'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import attrs

from herzla.cards import Card
from herzla.hand import Illegal, Move
from herzla.i18n import N_, _
from herzla.names import did_you_mean, find_name
from herzla.players.params import parse_parameter, policy_parameters
from herzla.quote import SHOWN, quote

if TYPE_CHECKING:
    from herzla.players.views import BidView, LayoutView, TrickView

__all__ = ["BuiltinForm", "Hint", "Policy", "PolicyError", "PolicyForm", "choose",
           "decide_announce", "decide_move", "hint"]


class PolicyError(ValueError):
    """A policy that cannot be named or built, with the problem in one sentence."""


class PolicyForm(Protocol):
    """A policy written for the numpy batch engine, as a policy offers it
    (:meth:`Policy.batch_form`): whether it reads the move uniforms and the heuristic's
    profiles, and its moves and announcement for a chunk of hands.  The batch engine's own
    :class:`herzla.sim.batch.BatchForm` refines this protocol with the types of what it hands
    over (its moves, bit tables and numpy arrays, which live with the engine)."""

    uniforms: bool
    profiles: bool

    def moves(self, move: Any) -> Any: ...

    def wants(self, bits: Any, base: Any, hand: Any, first: bool, tables: Any) -> Any: ...


class BuiltinForm:
    """A batch form the batch engine holds itself, named by the type of a subclass: what a
    built-in policy's :meth:`Policy.batch_form` returns, since the players sit below the
    simulator (:func:`herzla.sim.batch.batch_form_of` maps each such type to its form, in
    :mod:`herzla.sim.batch.builtin`).  A third party's policy returns its form itself."""

    __slots__ = ()


@attrs.frozen(slots=True)
class Hint:
    """A policy's advice on a view, with what it weighed (:func:`hint`).

    ``move``: what it plays; ``values``: what it found each legal move worth, by the move as a
    hand record writes it (empty when it weighs no values, e.g. a rule of thumb); ``measure``:
    what those values are, in words; ``reason``: why it chose the move, in words (None: it does
    not say).
    """

    move: Move
    values: Mapping[str, float] = attrs.field(factory=dict)
    measure: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"move": str(self.move), "values": dict(self.values), "measure": self.measure,
                "reason": self.reason}


class Policy:
    """The base class of every policy (built-in or a plug-in's)."""

    #: the policy's name, as ``--policy`` takes it
    name: ClassVar[str] = ""
    #: the level of play a person meets in it, named for a player ("club player"), where the
    #: table app offers it by one (None: offered by its name alone)
    level: ClassVar[str | None] = None

    def announce(self, view: BidView) -> str:
        """The seat's announcement: a contract id of its game's bidding, or ``pass``.  The
        default is the bidding heuristic (:func:`herzla.players.announcing.announce`)."""
        from herzla.players.announcing import announce

        return announce(view.hand, view.contract, view.forehand)

    def move(self, view: TrickView | LayoutView) -> Move:
        """The seat's move on ``view``: one of ``view.legal_moves()`` (a card; a card laid at
        an end of its row; :data:`~herzla.hand.PASS`, only when it has no other).  Every policy
        writes it (the default raises NotImplementedError: a policy that writes none is
        refused, by name, when asked for a move)."""
        raise NotImplementedError

    def explain(self, view: TrickView | LayoutView) -> Hint | None:
        """The seat's move with the values it weighed and why (a :class:`Hint`), for a person
        asking for advice; None (the default): the policy explains nothing, and :func:`hint`
        answers its move alone.  It must choose what :meth:`move` chooses."""
        return None

    def at_table(self) -> Policy:
        """The policy as it plays at a table where a person waits for each of its moves (the
        table app's computer): the default is the policy itself; a costly policy may answer a
        cheaper form of itself where its parameters are left at their defaults."""
        return self

    def batch_form(self) -> PolicyForm | BuiltinForm | None:
        """The policy written for the numpy batch engine (an object of the protocol
        :class:`herzla.sim.batch.BatchForm`, or a built-in policy's :class:`BuiltinForm`), or
        None (the reference engine plays)."""
        return None

    # -- parameters -------------------------------------------------------------------------
    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The policy's parameters and their defaults (its attrs fields)."""
        return {name: default for name, (default, _) in policy_parameters(cls).items()}

    def with_params(self, given: Mapping[str, str]) -> Policy:
        """A copy with parameters set from text (``samples=32``); PolicyError names a parameter
        the policy does not have or a value that is not of its type (the field's annotation:
        ``depth: int | None = None`` reads ``3`` and ``none``)."""
        known = policy_parameters(type(self))
        who = self.name or type(self).__name__
        values: dict[str, Any] = {}
        for given_key, text in given.items():
            key = find_name(given_key, known) or given_key
            if key not in known:
                have = ", ".join(known) or "none"
                raise PolicyError(_("the policy {who} has no parameter {given_key} "
                                    "({suggestion}its parameters: {have})").format(
                    who=who, given_key=quote(given_key), suggestion=did_you_mean(given_key, known),
                    have=have))
            default, kind = known[key]
            try:
                values[key] = parse_parameter(text, kind, default)
            except ValueError as exc:
                raise PolicyError(_("parameter {key} of the policy {who}: {exc}").format(
                    key=key, who=who, exc=exc)) from None
        if not values:
            return self
        try:
            return attrs.evolve(self, **values)  # type: ignore[misc]
        except (TypeError, ValueError) as exc:
            raise PolicyError(_("the policy {who}: {exc}").format(
                who=who, exc=_one_line(exc))) from None

    def spec(self) -> str:
        """The policy as ``--policy`` names it, with the parameters that differ from their
        defaults."""
        name = self.name or f"{type(self).__module__}:{type(self).__qualname__}"
        if not attrs.has(type(self)):
            return name
        changed = [f"{k}={getattr(self, k)}" for k, d in self.parameters().items()
                   if getattr(self, k) != d]
        return f"{name}[{','.join(changed)}]" if changed else name


# -- asking a policy, checked ----------------------------------------------------------------
def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 4 * SHOWN else text[:4 * SHOWN] + "..."


def _who(policy: object) -> str:
    """The policy as a message names it (its spec, else its class)."""
    try:
        if isinstance(policy, Policy):
            return policy.spec()
    except Exception:  # a spec that cannot be written still names the class
        pass
    return f"{type(policy).__module__}:{type(policy).__qualname__}"


def _answer(value: object) -> str:
    """What a policy answered, as its author would recognise it."""
    if value is None:
        return "None"
    if isinstance(value, Card):
        return f"the Card {value}"
    if isinstance(value, Move):
        return f"the Move {value}"
    if isinstance(value, bool | int | float | str):
        return quote(value)
    return f"a {type(value).__name__}"


def _ask(policy: Policy, method: str, what: str, ask: Callable[[], Any]) -> Any:
    """``ask()``, with an exception the policy raises turned into one PolicyError line."""
    try:
        return ask()
    except PolicyError:
        raise
    except NotImplementedError as exc:
        raise PolicyError(_one_line(exc) or _("the policy {policy} does not write "
                                              "{method}()").format(policy=_who(policy),
                                                                  method=method)) from None
    except Exception as exc:
        detail = _one_line(exc)
        raise PolicyError(_("the policy {policy} raised {kind} choosing "
                            "{what}{value}").format(
            policy=_who(policy), kind=type(exc).__name__, what=_(what),
            value=': ' + detail if detail else '')) from None


def decide_move(policy: Policy, view: TrickView | LayoutView,
                check: Callable[[Card], Illegal | None] | None = None) -> Move:
    """The move ``policy`` makes on ``view`` (:meth:`Policy.move`): one of
    ``view.legal_moves()``, else PolicyError naming the policy and what it answered or raised.
    ``check`` (the engine's) names the rule an illegal card breaks."""
    move = _ask(policy, "move", "a move", lambda: policy.move(view))
    if not isinstance(move, Move):
        raise PolicyError(_("the policy {policy} answered {move} for a move "
                            "(move() returns a herzla Move, one of view.legal_moves())").format(
            policy=_who(policy), move=_answer(move)))
    why = view.problem(move, check)
    if why is not None:
        raise PolicyError(_("the policy {policy} chose an illegal move {move}: {why}").format(
            policy=_who(policy), move=move, why=why))
    return move


def decide_announce(policy: Policy, view: BidView, known: Sequence[str] | None = None) -> str:
    """The announcement ``policy`` makes in ``view``: one of ``known`` (default ``pass`` and
    the contract ids of the game's bidding), else PolicyError naming the policy and what it
    answered or raised."""
    if known is None:
        from herzla.contracts import game_of

        known = ("pass", *game_of(view.contract).bidding[1:])
    word = _ask(policy, "announce", N_("an announcement"), lambda: policy.announce(view))
    if not isinstance(word, str) or word not in known:
        raise PolicyError(_("the policy {policy} announced {word} (the bidding "
                            "knows {known})").format(
            policy=_who(policy), word=_answer(word), known=', '.join(known)))
    return word


def choose(policy: Policy, view: TrickView | LayoutView,
           check: Callable[[Card], Illegal | None] | None = None) -> Move:
    """The policy's move on ``view``, checked (:func:`decide_move`): a card in a trick deal,
    a lay or the pass in a layout deal."""
    return decide_move(policy, view, check)


def hint(policy: Policy, view: TrickView | LayoutView,
         check: Callable[[Card], Illegal | None] | None = None) -> Hint:
    """The policy's advice on ``view`` (:meth:`Policy.explain`), its move checked as
    :func:`choose` checks it; a policy that explains nothing gives its move alone."""
    got = _ask(policy, "explain", N_("a hint"), lambda: policy.explain(view))
    if got is None:
        return Hint(choose(policy, view, check))
    if not isinstance(got, Hint) or not isinstance(got.move, Move):
        raise PolicyError(_("the policy {policy} answered {got} for a hint "
                            "(explain() returns a herzla Hint, or None)").format(
            policy=_who(policy), got=_answer(got)))
    why = view.problem(got.move, check)
    if why is not None:
        raise PolicyError(_("the policy {policy} hinted at an illegal move {move}: "
                            "{why}").format(policy=_who(policy), move=got.move, why=why))
    return got
