"""Explanations of a round's pairing for people (docs/explanations.md): why two players are not paired together
(why_not.py). Pure Python like the engines it explains: never Django."""

from pairing.explain.why_not import why_not

__all__ = ["why_not"]
