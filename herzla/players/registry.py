"""Naming policies: built-in names, the ``herzla.policies`` entry points and import paths.

A policy is named by

- a built-in name (:func:`builtin_names`: ``random``, ``heuristic``, ``net``, ``pimc``,
  ``ipimc``, ``expert``), or its level of play in English or German (``club player``,
  ``Stammtischspieler``: the heuristic; ``Meister``: the expert), in any case;
- a name an installed package registers under the entry-point group ``herzla.policies``;
- an import path ``package.module:NAME`` naming a :class:`~herzla.players.policy.Policy`
  object or class (the module is imported from ``sys.path``);

with parameters in brackets where the policy has some: ``pimc[samples=16,seed=3]``.  A list
``P0,P1,P2,P3`` names one policy a seat (:func:`seat_policies`).

>>> policy_of("pimc[samples=4]").spec()
'pimc[samples=4]'
>>> [p.name for p in seat_policies("random,heuristic,random,heuristic", 4)]
['random', 'heuristic', 'random', 'heuristic']
>>> policy_of("Stammtischspieler").spec()
'heuristic'
>>> policy_of("nobody")
Traceback (most recent call last):
...
herzla.players.policy.PolicyError: unknown policy "nobody" (built in: random, heuristic, net, \
pimc, ipimc, expert; or an entry point of herzla.policies, or package.module:NAME)
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from herzla.i18n import LANGUAGES, _, translations
from herzla.names import did_you_mean, find_name
from herzla.players.policy import Policy, PolicyError
from herzla.quote import quote

__all__ = ["ENTRY_POINT_GROUP", "PolicyLike", "builtin_names", "builtin_of", "clear_caches",
           "named_policies", "policy_names", "policy_of", "register_builtin", "seat_policies",
           "seats_of", "spelled", "split_policies"]

#: what names the policies of a table: a name (``"heuristic"``, ``"random,heuristic"``,
#: ``"pimc[samples=8]"``), a :class:`~herzla.players.policy.Policy` object (every seat), or a
#: list of names and objects (one for every seat, or one a seat)
PolicyLike: TypeAlias = "str | Policy | Sequence[str | Policy]"

#: the entry-point group installed packages register policies under
ENTRY_POINT_GROUP = "herzla.policies"


def _random() -> Policy:
    from herzla.players.builtin import RandomPolicy

    return RandomPolicy()


def _heuristic() -> Policy:
    from herzla.players.builtin import HeuristicPolicy

    return HeuristicPolicy()


def _net() -> Policy:
    from herzla.players.net import NetPolicy

    return NetPolicy()


#: the built-in policies, by name (each module writes its policy; this only finds it).  Those
#: of a part above the policies (``pimc``, ``ipimc`` and ``expert`` play through the analysis)
#: are registered from above, by the facade (:func:`register_builtin`)
_BUILTIN: dict[str, Callable[[], Policy]] = {"random": _random, "heuristic": _heuristic,
                                              "net": _net}


def register_builtin(name: str, make: Callable[[], Policy]) -> None:
    """Name a built-in policy that lives above the policies: ``make()`` builds it (importing
    its module then).  The facade (``herzla/__init__.py``) registers ``pimc``, ``ipimc`` and
    ``expert``."""
    _BUILTIN[name] = make
    clear_caches()


def builtin_names() -> tuple[str, ...]:
    return tuple(_BUILTIN)


def policy_names() -> tuple[str, ...]:
    """Every policy name: the built-in ones, then those installed packages register."""
    from importlib.metadata import entry_points  # here: a built-in name does without it

    installed = sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)} - set(_BUILTIN))
    return (*_BUILTIN, *installed)


@functools.cache
def _levels() -> dict[str, str]:
    """Each built-in policy's level of play (``club player``), in every language herzla
    speaks (``Stammtischspieler``), to the policy's name: a person may name a policy by its
    level.  The first policy of a level keeps it."""
    out: dict[str, str] = {}
    for name, make in _BUILTIN.items():
        level = make().level
        for code in LANGUAGES if level else ():
            out.setdefault(translations(code).gettext(level or ""), name)
    return out


def builtin_of(text: str) -> str | None:
    """The built-in policy ``text`` names, by its name or its level of play in English or
    German, in any case (``Heuristic``, ``club player``, ``Stammtischspieler``: ``heuristic``);
    None for none."""
    found = find_name(text, _BUILTIN)
    if found is None:
        level = find_name(" ".join(text.split()), _levels())
        found = None if level is None else _levels()[level]
    return found


def _as_policy(obj: object, where: str) -> Policy:
    if isinstance(obj, type) and issubclass(obj, Policy):
        try:
            obj = obj()
        except TypeError as exc:
            raise PolicyError(_("{where}: the policy class cannot be made without "
                                "arguments ({exc})").format(where=where, exc=exc)) from None
    if not isinstance(obj, Policy):
        raise PolicyError(_("{where} is not a herzla policy (a herzla.players.Policy object "
                            "or class), but {kind}").format(
            where=where, kind=type(obj).__name__))
    return obj


def _entry_point(name: str) -> Policy | None:
    from importlib.metadata import entry_points

    found = entry_points(group=ENTRY_POINT_GROUP)
    name = find_name(name, [ep.name for ep in found]) or name
    for ep in found:
        if ep.name == name:
            try:
                obj = ep.load()
            except Exception as exc:
                raise PolicyError(_("the policy {name} of {entry_point_group} failed to "
                                    "load: {kind}: {exc}").format(
                    name=quote(name), entry_point_group=ENTRY_POINT_GROUP,
                    kind=type(exc).__name__, exc=exc)) from None
            return _as_policy(obj, _("the entry point {name}").format(name=quote(name)))
    return None


def _import(module_name: str) -> Any:
    """The module ``module_name`` from ``sys.path``, else from the current folder, which is
    then put first on ``sys.path`` as ``python -m`` puts it (a policy written beside the
    evening is found without PYTHONPATH)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        top = module_name.partition(".")[0]
        here = os.getcwd()
        if exc.name != top or here in sys.path or not (
                os.path.isfile(os.path.join(here, f"{top}.py"))
                or os.path.isdir(os.path.join(here, top))):
            raise
    sys.path.insert(0, here)
    importlib.invalidate_caches()
    return importlib.import_module(module_name)


def _imported(path: str) -> Policy:
    module_name, _colon, attr = path.partition(":")
    if not module_name or not attr:
        raise PolicyError(_("policy {path}: an import path is package.module:NAME").format(
            path=quote(path)))
    try:
        module = _import(module_name)
    except Exception as exc:
        hint = (_(" (a module is looked for on sys.path and in the current folder; for another "
                  "folder set PYTHONPATH to it)") if isinstance(exc, ModuleNotFoundError) else "")
        raise PolicyError(_("policy {path}: cannot import {module_name} "
                            "({kind}: {exc}){hint}").format(
            path=quote(path), module_name=module_name, kind=type(exc).__name__, exc=exc,
            hint=hint)) from None
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise PolicyError(_("policy {path}: {module_name} has no {attr}").format(
                path=quote(path), module_name=module_name, attr=attr))
        obj = getattr(obj, part)
    return _as_policy(obj, f"policy {quote(path)}")


def _parse(text: str) -> tuple[str, dict[str, str]]:
    text = text.strip()
    if "[" not in text:
        if "]" in text:
            raise PolicyError(_("policy {text}: a ']' without '['").format(text=quote(text)))
        return text, {}
    name, _bracket, rest = text.partition("[")
    if not rest.endswith("]"):
        raise PolicyError(_("policy {text}: parameters go in brackets, name[key=value,...]").format(
            text=quote(text)))
    params: dict[str, str] = {}
    for item in rest[:-1].split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise PolicyError(_("policy {text}: a parameter is key=value, not {item}").format(
                text=quote(text), item=quote(item)))
        if key.strip() in params:
            raise PolicyError(_("policy {text}: the parameter {key} "
                                "appears twice").format(text=quote(text), key=quote(key.strip())))
        params[key.strip()] = value.strip()
    return name.strip(), params


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise PolicyError(_('a policy is named by text ("random", "pimc[samples=8]", '
                            '"package.module:NAME"), not {text}').format(text=quote(text)))
    return text


def policy_of(text: str) -> Policy:
    """The policy ``text`` names, with its parameters; PolicyError names what is wrong (text
    that is not a policy's name included)."""
    return _named(_check_text(text))


@functools.lru_cache(maxsize=256)
def _named(text: str) -> Policy:
    name, params = _parse(text)
    if not name:
        raise PolicyError(_("a policy needs a name"))
    builtin = builtin_of(name)
    if builtin is not None:
        policy = _BUILTIN[builtin]()
    elif ":" in name:
        policy = _imported(name)
    else:
        found = _entry_point(name)
        if found is None:
            raise PolicyError(_("unknown policy {name} ({suggestion}"
                                "built in: {builtin}; or an entry point of "
                                "{entry_point_group}, or package.module:NAME)").format(
                name=quote(name), suggestion=did_you_mean(name, [*policy_names(), *_levels()]),
                builtin=', '.join(_BUILTIN), entry_point_group=ENTRY_POINT_GROUP))
        policy = found
    return policy.with_params(params)


def spelled(text: str) -> str:
    """``text`` (``P`` or ``P0,P1,...``) with each built-in or installed policy named as herzla
    spells it (``Heuristic`` is ``heuristic``); parameters and import paths as they are given.

    >>> spelled("Heuristic,PIMC[samples=4]")
    'heuristic,pimc[samples=4]'
    """
    parts = split_policies(text)
    out = []
    for part in parts:
        name, bracket, rest = part.partition("[")
        name = name.strip()
        known = builtin_of(name)
        if known is None and ":" not in name and name:
            known = find_name(name, policy_names())
        out.append((known or name) + bracket + rest)
    return text if out == parts else ",".join(out)


def split_policies(text: str) -> list[str]:
    """``P0,P1,...`` split at the commas outside brackets."""
    out: list[str] = []
    depth = 0
    cur = ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def seat_policies(text: str, players: int) -> tuple[Policy, ...]:
    """The policy of each seat: ``P`` for every seat, or ``P0,P1,...`` one a seat."""
    return _seated(_check_text(text), players)


def seats_of(policy: PolicyLike, players: int) -> tuple[Policy, ...]:
    """The policy of each of ``players`` seats from a name (as :func:`seat_policies`), a
    :class:`~herzla.players.policy.Policy` object (every seat), or a list of names and
    objects (one for every seat, or one a seat).  PolicyError names what is wrong.

    >>> from herzla.players.builtin import HeuristicPolicy
    >>> [p.spec() for p in seats_of(["random", HeuristicPolicy()], 2)]
    ['random', 'heuristic']
    """
    if isinstance(policy, str):
        return seat_policies(policy, players)
    if isinstance(policy, Policy):
        return (policy,) * players
    if isinstance(policy, type) and issubclass(policy, Policy):
        where = _("the policy class {name}").format(name=policy.__qualname__)
        return (_as_policy(policy, where),) * players
    if not isinstance(policy, Sequence) or isinstance(policy, bytes):
        raise PolicyError(_('a policy is a name ("random", "pimc[samples=8]"), a '
                            "herzla.Policy object, or a list of them, not {policy}").format(
            policy=quote(policy)))
    given = list(policy)
    if len(given) not in (1, players):
        raise PolicyError(_("{n_given} policies for {players} seats: give one policy for "
                            "every seat, or one for each of the {players}").format(
            n_given=len(given), players=players))
    out: list[Policy] = []
    for i, one in enumerate(given):
        if isinstance(one, str):
            if len(split_policies(one)) != 1:
                raise PolicyError(_("policy {i} of the list names several ({one}): "
                                    "give one policy an item").format(i=i + 1, one=quote(one)))
            out.append(policy_of(one))
        else:
            out.append(_as_policy(one, _("policy {index} of the list").format(index=i + 1)))
    return tuple(out) * (players if len(out) == 1 else 1)


def named_policies(policies: Sequence[Policy]) -> str:
    """Policies as ``--policy`` names them: one name for every seat, or one a seat.

    >>> named_policies(seats_of("heuristic", 4))
    'heuristic'
    """
    names = [p.spec() for p in policies]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def clear_caches() -> None:
    """Forget the policies named so far (a test that changes ``sys.path`` or the entry
    points)."""
    _named.cache_clear()
    _seated.cache_clear()
    _levels.cache_clear()


@functools.lru_cache(maxsize=256)
def _seated(text: str, players: int) -> tuple[Policy, ...]:
    names = split_policies(text)
    if len(names) == 1:
        return (policy_of(names[0]),) * players
    if len(names) != players:
        raise PolicyError(_("{n_names} policies for {players} seats: give one policy for "
                            "every seat, or one for each of the {players}").format(
            n_names=len(names), players=players))
    return tuple(policy_of(n) for n in names)
