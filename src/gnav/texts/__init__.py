"""The game's texts, once: a catalogue of sentences keyed by id in English, Norwegian and
Danish (``catalogue``, with the data in ``words`` and ``sentences``), the rules of a
preset chosen as sentences once for every language (``rules``), and the narration
table that says which sentences tell an event (``narration``), read by the terminal and
by the browser alike. Standard library only."""
