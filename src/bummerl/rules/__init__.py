"""The rules every engine of the Schnapsen family shares, each written once, below the variants and the engines.

* :mod:`bummerl.rules.tricks`: who wins a trick, what a player may play to it (Farbzwang, Stichzwang), and the
  record of a completed trick for two seats and for the table;
* :mod:`bummerl.rules.talon`: the two-player talon's rules for the player on lead (exchanging, closing,
  marriages, going out) and the legal actions they give;
* :mod:`bummerl.rules.going_out`: 66 go out, marriages counting once their side has a trick (both families);
* :mod:`bummerl.rules.options`: the ``variant:name=value,...`` text of a variant and its options, formatted and
  parsed in one place (positions, records, bots);
* :mod:`bummerl.rules.result`: what every game's result states (:class:`~bummerl.rules.result.Result`).

A module here imports only the values (:mod:`bummerl.cards`, :mod:`bummerl.actions`, :mod:`bummerl.errors`):
never a variant, an engine or a view.  What a rule needs of a variant it states as a protocol
(:class:`~bummerl.rules.talon.TalonRules`), which the variants satisfy.
"""
