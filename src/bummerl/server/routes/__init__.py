"""The HTTP API and the WebSockets of the web app, one router per concern (docs/web.md).

- :mod:`~bummerl.server.routes.lobby`: what can be played (variants, bots);
- :mod:`~bummerl.server.routes.tables`: creating, joining and watching tables of either kind;
- :mod:`~bummerl.server.routes.games`: finished games: history, records, replays, analyses;
- :mod:`~bummerl.server.routes.sockets`: the table WebSockets;
- :mod:`~bummerl.server.routes.deps`: what they share (the app's parts, errors, rate limits).
"""
