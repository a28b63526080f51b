"""A table server in a few lines: what ``perudo serve`` runs, to copy into your own.

Needs the extra: ``pip install '.[web]'`` (Starlette and uvicorn). Then

    python examples/web_table/app.py

and open http://127.0.0.1:8000. ``perudo serve --help`` has the options; the how-to "Embed
perudo in a game server" shows the parts (``perudo.web``) for a server of your own.
"""

import perudo
from perudo.web.app import TableServer
from perudo.web.limits import Limits

editions = {key: perudo.load_variant(key) for key in ("italian", "french-jonti", "bluff")}
server = TableServer(
    "web_table.sqlite",  # the tables survive a restart
    editions,
    host="127.0.0.1",
    limits=Limits(tables=100, idle=600),  # each limit, its default and its reason: the how-to
)
server.run(port=8000)  # uvicorn, its connections guarded; Ctrl-C stops
