"""The ``gnav play, replay and rules`` commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def register(sub: Any, rules_args: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add this module's subcommands to the ``gnav`` parser."""
