"""Write ``attrs.inv``: a Sphinx inventory of the attrs names perudo's docs link to.

CI has no network, so intersphinx reads local inventories. ``python.inv`` is Python's own
``objects.inv`` (Debian's python3.11-doc package); attrs ships none, so this script writes
the few entries we use, pointing at attrs' published API page. Run it again to add names.
"""

from __future__ import annotations

import zlib
from pathlib import Path

NAMES = [
    ("attrs.define", "py:function"),
    ("attrs.frozen", "py:function"),
    ("attrs.field", "py:function"),
    ("attrs.evolve", "py:function"),
    ("attrs.asdict", "py:function"),
    ("attrs.fields", "py:function"),
    ("attrs.validators.instance_of", "py:function"),
    ("attrs.exceptions.FrozenInstanceError", "py:exception"),
]


def main() -> None:
    header = (
        "# Sphinx inventory version 2\n"
        "# Project: attrs\n"
        "# Version: stable\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    body = "".join(f"{name} {role} 1 api.html#$ -\n" for name, role in NAMES)
    path = Path(__file__).with_name("attrs.inv")
    path.write_bytes(header.encode() + zlib.compress(body.encode()))


if __name__ == "__main__":
    main()
