"""The terminal game: ``gnav play``, ``gnav replay`` and ``gnav rules``.

Standard library only: ANSI escapes for colour and layout, termios for single keys
when the input is a terminal, plain lines otherwise (pipes, tests, screen readers).
"""
