"""Reinforcement-learning interfaces: OpenSpiel and PettingZoo, on one action numbering and one view encoding.

:mod:`bummerl.rl.encoding` needs nothing beyond the standard library;
:mod:`bummerl.rl.openspiel` needs the extra ``bummerl[openspiel]`` and
:mod:`bummerl.rl.pettingzoo` the extra ``bummerl[pettingzoo]`` (docs/rl.md).
"""
