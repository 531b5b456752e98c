"""The web app of ``bummerl serve``: tables against bots or friends, records, analyses.

Modules: :mod:`~bummerl.server.app` (the FastAPI app factory
:func:`create_app`), :mod:`~bummerl.server.rooms` (one live table of any
variant) with :mod:`~bummerl.server.families` (its family's part),
:mod:`~bummerl.server.storage` (the database), :mod:`~bummerl.server.messages`
(message schemas), :mod:`~bummerl.server.workers` (bot and analysis work in
executors), :mod:`~bummerl.server.config` (settings).  The protocol is
``docs/web.md``.  It needs the ``web`` extra (``pip install 'bummerl[web]'``);
the rules engine never imports this package.
"""
