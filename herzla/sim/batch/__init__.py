"""The numpy batch engine: many hands of one deal in lockstep, with the reference's results.

It plays every contract whose rules are declared in the vocabulary of
:mod:`herzla.contracts.vocabulary` (every contract of herzla's games, and plug-in contracts
written that way), with both policies and the bidding, and scores them with the contract's own
scorer (``settle``) applied to all the hands of a chunk at once.  Randomness comes from
:mod:`herzla.support.streams`, so a block gives the same hands, the same choices and the same
results as the reference engine (:mod:`herzla.sim.reference`), whatever the chunk size.

Hands are processed in chunks of ``chunk`` hands; loops run over tricks, positions and moves,
never over hands.  Card sets are bit sets in a strength layout (:mod:`herzla.sim.batch.bits`);
the trick play is :mod:`herzla.sim.batch.tricks`, the domino and Auflegen
:mod:`herzla.sim.batch.layout`.  A Beddl or Mord hand that ends early plays on in lockstep, but
its result is fixed by then (the declarer has won a trick, or a defender has), and its record
stops where the hand ended.  The sample records carry every card played (with the end mark of a
domino card that fits both ends), and replay to the same scores.

A contract that writes a hook of its own in Python (``banned``, ``ends_early``, ``counts`` or
``score``) is declined with the reason (:func:`unsupported`); :func:`herzla.sim.engine.play_block`
then plays it on the reference engine.

Each seat's policy plays through its batch form (:mod:`herzla.sim.batch.form`, found by
:func:`batch_form_of`); the built-in policies' forms are :mod:`herzla.sim.batch.builtin`.  The
modules, lowest first: ``bits`` (layouts and vector primitives), ``profiles`` and ``rows`` (the
heuristic's profiles and a layout deal's rows in bits), ``form`` (the batch form protocol and
the moves it is asked about), ``builtin``, ``net`` (the net's form), ``named`` (the built-in
policies' forms by their descriptors), ``tricks`` (the trick loop), ``layout`` (a chunk of
layout deals), ``dealing``, ``bidding``, ``trick_deals`` (a chunk of trick deals, settled),
``block`` (a block, chunk by chunk) and ``memory``.

>>> from herzla.sim.spec import DealSpec
>>> res = play_block(DealSpec.of("herzla", "normal", 4, 3), seed=1, key=(0, 0), n=1000)
>>> res.scores.shape, int(res.scores.sum() + (res.stock_after - 0).sum())
((1000, 4), 0)
"""

from __future__ import annotations

from herzla.sim.batch.bidding import bid_hands
from herzla.sim.batch.block import (
    DEFAULT_CHUNK,
    batch_forms,
    play_block,
    play_blocks,
    supported,
    unsupported,
)
from herzla.sim.batch.builtin import HEURISTIC, RANDOM
from herzla.sim.batch.dealing import DEAL_CHUNK, deal
from herzla.sim.batch.form import BatchForm, LayMove, TrickMove
from herzla.sim.batch.memory import keep_memory
from herzla.sim.batch.named import batch_form_of

__all__ = ["DEAL_CHUNK", "DEFAULT_CHUNK", "HEURISTIC", "RANDOM", "BatchForm", "LayMove",
           "TrickMove", "batch_form_of", "batch_forms", "bid_hands", "deal", "keep_memory",
           "play_block", "play_blocks", "supported", "unsupported"]
