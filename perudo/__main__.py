"""``python -m perudo``: the same as the ``perudo`` command."""

import sys

from perudo.cli import main

sys.exit(main())
