"""The lesson as the browser reads it: ``frames_json`` of gnav.learn.lesson, as JSON
text made once per preset (the lesson never changes while the server runs)."""

from __future__ import annotations

import json
from functools import cache

from gnav.learn.lesson import frames_json


@cache
def lesson_text(preset: str) -> str:
    """The lesson's frames under ``preset`` as JSON text.

    :raises: :exc:`MalformedError` for a preset the lesson is not offered in.
    """
    return json.dumps(frames_json(preset), ensure_ascii=False, separators=(",", ":"))
