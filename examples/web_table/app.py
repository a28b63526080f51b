"""A table server in a few lines: what ``perudo serve`` runs, to copy into your own.

Needs the extra: ``pip install '.[web]'`` (Starlette and uvicorn). Then

    python examples/web_table/app.py

and open http://127.0.0.1:8000. ``perudo serve --help`` has the options; the how-to "Embed
perudo in a game server" shows the parts (``perudo.web``) for a server of your own.
"""

import uvicorn

import perudo
from perudo.web.app import MAX_FRAME, TableServer

editions = {key: perudo.load_variant(key) for key in ("italian", "french-jonti", "bluff")}
server = TableServer("web_table.sqlite", editions)  # the tables survive a restart
uvicorn.run(server.app(), host="127.0.0.1", port=8000, ws_max_size=MAX_FRAME)
