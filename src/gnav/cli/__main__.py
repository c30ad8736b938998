"""``python -m gnav.cli``: the ``gnav`` command."""

import sys

from gnav.cli import main

if __name__ == "__main__":  # not when imported (the layer tests import every module)
    sys.exit(main())
