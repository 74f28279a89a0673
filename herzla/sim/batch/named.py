"""The batch forms of the built-in policies, by the descriptor each policy's
:meth:`~herzla.players.Policy.batch_form` returns (:class:`herzla.players.BuiltinForm`): the
random policy's and the heuristic's (:mod:`herzla.sim.batch.builtin`) and the net's
(:mod:`herzla.sim.batch.net`, one form per model file)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from herzla.players.builtin import HeuristicForm, RandomForm
from herzla.players.net import NetForm
from herzla.players.policy import BuiltinForm, Policy
from herzla.sim.batch.builtin import HEURISTIC, RANDOM
from herzla.sim.batch.form import BatchForm
from herzla.sim.batch.net import net_form

__all__ = ["batch_form_of"]


def _net(form: BuiltinForm) -> BatchForm:
    assert isinstance(form, NetForm)
    return net_form(form.weights)


#: the forms of the built-in policies, by the type of the descriptor their ``batch_form()``
#: returns
_IMPLEMENTS: dict[type[BuiltinForm], Callable[[BuiltinForm], BatchForm]] = {
    RandomForm: lambda _: RANDOM, HeuristicForm: lambda _: HEURISTIC, NetForm: _net}


def batch_form_of(policy: Policy) -> BatchForm | None:
    """The batch form the numpy engine plays ``policy`` with: what the policy offers
    (:meth:`herzla.players.Policy.batch_form`), a built-in's descriptor mapped to its form here;
    None (most policies): the reference engine plays it."""
    form = policy.batch_form()
    if isinstance(form, BuiltinForm):
        make = _IMPLEMENTS.get(type(form))
        return None if make is None else make(form)
    return cast(BatchForm, form)  # a third party's form, written for this protocol
