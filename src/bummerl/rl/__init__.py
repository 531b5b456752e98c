"""Reinforcement-learning interfaces: OpenSpiel and PettingZoo, on one action numbering and one view encoding.

:mod:`bummerl.rl.encoding` needs nothing beyond the standard library;
:mod:`bummerl.rl.openspiel` needs the extra ``bummerl[openspiel]`` and
:mod:`bummerl.rl.pettingzoo` the extra ``bummerl[pettingzoo]`` (docs/rl.md).
:mod:`bummerl.rl.train` is the learning baseline: a network of :mod:`bummerl.rl.network` (NumPy alone) trained by
self-play on :mod:`bummerl.rl.vector`, played as the bot ``npz:PATH``.
"""
