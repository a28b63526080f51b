"""Adapters to the AI frameworks: :mod:`perudo.interop.pettingzoo`,
:mod:`perudo.interop.gymnasium` and :mod:`perudo.interop.openspiel`, each behind its own
extra (``pip install '.[pettingzoo]'``, ``'.[gymnasium]'``, ``'.[openspiel]'`` in a checkout).

They only encode: every rule stays in the engine. :mod:`perudo.interop.turns`, which they
share, needs no extra.
"""
