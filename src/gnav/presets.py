"""The presets of docs/spec/rules.md §8 as data: decks, powers, option overrides, sources.

Adding a game is adding a ``Preset`` here; nothing in the round logic names a piece.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from gnav.errors import UnknownPresetError
from gnav.options import Options
from gnav.pieces import Piece, numbers, piece
from gnav.powers import Power
from gnav.vocab import Lang

# The sources, named as a player would name them (docs/spec/rules.md lists them).
SUMMARY = "a generic how-to-play summary"
PAGAT = "the pagat.com description"
RULEBOOK = "the rulebook of the Norwegian piece set"
COPENHAGEN = "the Copenhagen rules of 1917"


@dataclass(frozen=True)
class Preset:
    """A game: its deck (pieces by rank, the highest first), its default options and
    how it is shown. Equal presets have equal content, whatever object holds it.

    One of your own plays at once (``Rules.of(preset)``) and pickles by value (so
    ``simulate --jobs`` takes it to other processes); ``register`` it to read and write
    records that name it."""

    name: str
    title: str
    description: str
    source: str
    pieces: tuple[Piece, ...]
    options: Options
    min_seats: int = 2
    max_seats: int | None = None  # None: as many as the deck allows (one piece left for the stock)
    score: str = "tokens"  # how lives are shown: tokens, strokes or the letters G-N-A-V
    lang: Lang = Lang.NB  # the language the game's calls are made in
    aliases: tuple[str, ...] = ()
    # Spoken words of the game's own language: stand and swap.
    words: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Read-only mappings do not pickle: rebuild the words from a plain dict.
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["words"] = dict(self.words)
        return (_preset_rebuilt, (values,))

    @property
    def builtin(self) -> bool:
        """Whether this is the fixed table's preset of that name (docs/spec/rules.md §8)."""
        return PRESETS.get(self.name) == self


def _preset_rebuilt(values: dict[str, Any]) -> Preset:
    return Preset(**{**values, "words": MappingProxyType(values["words"])})


def _opts(**changes: object) -> Options:
    return Options().updated(changes, where="preset")


CUCKOO = piece("cuckoo", {"en": "Cuckoo", "nb": "Gjøk", "da": "Gøgen"}, Power.STOP,
               aliases=["gjok", "gjøken", "gøg", "gjøg"],
               calls={"en": "Cuckoo, stop!", "nb": "Gjøk!", "da": "Stå for gøgen!"})
DRAGOON = piece("dragoon", {"en": "Dragoon", "nb": "Dragon", "da": "Dragonen"}, Power.CHARGE,
                aliases=["knight", "dragonen", "rytter"],
                calls={"en": "Cut off!", "nb": "Hugg av!", "da": "Hug af!"})
CAT = piece("cat", {"en": "Cat", "nb": "Katt", "da": "Katten"}, Power.CHARGE_UNDO,
            aliases=["katten", "kis"],
            calls={"en": "Shoo, change back!", "nb": "Kiss!", "da": "Kis! Kis!"})
HORSE = piece("horse", {"en": "Horse", "nb": "Hest", "da": "Hesten"}, Power.PASS,
              aliases=["hett", "hesten"],
              calls={"en": "Pass the horse!", "nb": "Hest forbi!", "da": "Hest forbi!"})
HOUSE = piece("house", {"en": "House", "nb": "Hus", "da": "Huset"}, Power.PASS,
              aliases=["huset"],
              calls={"en": "Pass the house!", "nb": "Hus forbi!", "da": "Hus forbi!"})
POT = piece("pot", {"en": "Pot", "nb": "Potte", "da": "Potten"}, aliases=["potten"])
OWL = piece("owl", {"en": "Owl", "nb": "Ugle", "da": "Uglen"}, aliases=["uglen"])
FOOL = piece("fool", {"en": "Fool", "nb": "Narr", "da": "Narren"}, fool=True,
             aliases=["joker", "jester", "narren"])
GNAV_WORDS = MappingProxyType({"stand.nb": "Jeg står", "swap.nb": "Jeg bytter",
                               "stand.da": "Jeg står!", "swap.da": "Jeg bytter",
                               "stand.en": "I stand", "swap.en": "I want to trade"})


def _gnav_deck(*, zero: bool = True) -> tuple[Piece, ...]:
    return (CUCKOO, DRAGOON, CAT, HORSE, HOUSE, *numbers(12, 0 if zero else 1, roman=True),
            POT, OWL, FOOL)


def _with_power(p: Piece, power: Power, calls: dict[str, str]) -> Piece:
    """``p`` with another power, and the calls that go with it."""
    return Piece(p.id, p.names, power, p.fool, p.aliases, MappingProxyType(calls))


GNAV = Preset(
    "gnav", "Gnav",
    "The Norwegian game: 42 pieces, five matadors, the fool drags the next-lowest down.",
    f"{PAGAT} and {RULEBOOK}, which agree", _gnav_deck(), _opts(),
    aliases=("norsk", "norwegian", "gnav-no"), words=GNAV_WORDS,
)

# The 13 ranks of an ordinary pack, King high and Ace low, as Chase the Ace and Le Her
# play them: the King refuses (a King holder keeps it, and a King drawn from the stock
# refuses the dealer).
_CARDS: tuple[Piece, ...] = (
    piece("king", {"en": "King"}, Power.REFUSE, aliases=["k"], calls={"en": "King!"}),
    piece("queen", {"en": "Queen"}, aliases=["q"]),
    piece("jack", {"en": "Jack"}, aliases=["j", "knave"]),
    *numbers(10, 2, roman=False),
    piece("ace", {"en": "Ace"}, aliases=["a"]),
)

PRESETS_LIST: tuple[Preset, ...] = (
    GNAV,
    Preset("gnav-pagat", "Gnav (pagat.com)",
           "The Norwegian game as pagat.com gives it: two fools both pay and sit out.",
           PAGAT, _gnav_deck(), _opts(two_fools="pay"), aliases=("pagat",), words=GNAV_WORDS),
    Preset("gnav-rulebook", "Gnav (rulebook)",
           "The English rulebook for the Norwegian piece set; the same game as gnav.",
           RULEBOOK, _gnav_deck(), _opts(), aliases=("rulebook",), words=GNAV_WORDS),
    Preset("gnav-1917", "Gnav (Copenhagen 1917)",
           "The Danish rules of 1917: the Cat outranks the Dragoon, the Cuckoo only refuses, "
           "scores are strokes.",
           COPENHAGEN,
           (_with_power(CUCKOO, Power.REFUSE, {"en": "Stand for the cuckoo!",
                                                "da": "Stå for gøgen!", "nb": "Gjøk!"}),
            _with_power(CAT, Power.CHARGE, {"en": "Shoo, shoo!", "da": "Kis! Kis!",
                                            "nb": "Kiss!"}),
            DRAGOON, HORSE,
            HOUSE, *numbers(12, 0, roman=False), OWL, POT, FOOL),
           _opts(two_fools_sit_out=False), score="strokes", lang=Lang.DA,
           aliases=("1917", "danish", "dansk", "copenhagen"), words=GNAV_WORDS),
    Preset("gnav-summary", "Gnav (summary)",
           "A generic summary: no O piece, no drag, matador penalties go to the holder, "
           "scores spell G-N-A-V.",
           SUMMARY, _gnav_deck(zero=False),
           _opts(drag=False, two_fools="plain", penalty_to="holder"),
           min_seats=3, score="gnav", aliases=("summary",), words=GNAV_WORDS),
    Preset("hypp", "Hypp",
           "Gnav with one set of 21 pieces, for small tables.",
           f"{SUMMARY} (its Hypp)", _gnav_deck(), _opts(copies=1), aliases=("hyp",),
           words=GNAV_WORDS),
    Preset("slabberjan", "Slabberjan",
           "The Zeeland game: the Ruiter charges and stops, the Vogel refuses, no fool rules.",
           f"{PAGAT} (its Zeeland game)",
           (piece("ruiter", {"en": "Rider", "nl": "Ruiter"}, Power.CHARGE_STOP,
                  aliases=["kap-af", "kapaf", "knight"], calls={"en": "Cut off!", "nl": "Kap af!"}),
            piece("vogel", {"en": "Bird", "nl": "Vogel"}, Power.REFUSE, aliases=["bird"],
                  calls={"en": "I keep it!", "nl": "Vogel houdt!"}),
            piece("poesje", {"en": "Cat", "nl": "Poesje"}, Power.UNDO, aliases=["cat", "poes"],
                  calls={"en": "Change back!", "nl": "Poesje, terug!"}),
            piece("herberg", {"en": "Inn", "nl": "Herberg"}, Power.PASS, aliases=["inn"],
                  calls={"en": "Pass the inn!", "nl": "Herberg voorbij!"}),
            *numbers(12, 0, roman=False),
            piece("wittebrood", {"en": "White bread", "nl": "Wittebrood"},
                  aliases=["meelzak", "blind", "white bread"]),
            piece("pispot", {"en": "Chamber pot", "nl": "Pispot"}, aliases=["chamber pot"]),
            piece("smoel", {"en": "Scary face", "nl": "Smoel"}, aliases=["scary face"]),
            piece("janrit", {"en": "Jan Rit", "nl": "Jan Rit"}, aliases=["jan rit", "fool"])),
           _opts(knock="silent"), lang=Lang.NL, aliases=("zeeland", "slabber-jan"),
           words=MappingProxyType({"stand.nl": "Ik sta", "swap.nl": "Ik ruil",
                                   "stand.en": "I stand", "swap.en": "I want to trade"})),
    Preset("cuccu", "Cuccù",
           "The Italian ancestor (provisional): 2 × 20 pieces, the Osteria refuses, 3 lives.",
           f"{SUMMARY} and {PAGAT}, which name it as the ancestor; the deck is provisional",
           (piece("cucco", {"en": "Cuckoo", "it": "Cucco"}, Power.STOP, aliases=["cucù"],
                  calls={"en": "Cuckoo, stop!", "it": "Cucù!"}),
            piece("bragon", {"en": "Bragon", "it": "Bragon"}, Power.CHARGE,
                  calls={"en": "Cut off!", "it": "Bragon!"}),
            piece("salta", {"en": "Jump", "it": "Salta"}, Power.PASS,
                  calls={"en": "Jump on!", "it": "Salta!"}),
            piece("gnao", {"en": "Cat", "it": "Gnao"}, Power.CHARGE_UNDO,
                  calls={"en": "Miaow, change back!", "it": "Gnao!"}),
            piece("osteria", {"en": "Inn", "it": "Osteria"}, Power.REFUSE,
                  calls={"en": "I keep it!", "it": "Osteria!"}),
            *numbers(10, 1, roman=False),
            piece("nulla", {"en": "Nothing", "it": "Nulla"}),
            piece("secchia", {"en": "Bucket", "it": "Secchia"}),
            piece("mascherone", {"en": "Mask", "it": "Mascherone"}),
            piece("leone", {"en": "Lion", "it": "Leone"}),
            piece("matto", {"en": "Fool", "it": "Matto"}, fool=True, aliases=["fool"])),
           _opts(lives=3), lang=Lang.IT, aliases=("cucco", "cuccù", "cucu"),
           words=MappingProxyType({"stand.it": "Sto", "swap.it": "Cambio",
                                   "stand.en": "I stand", "swap.en": "I want to trade"})),
    Preset("kille", "Kille",
           "Swedish one-card Kille (provisional): 2 × 20 pieces, two passing matadors, no fool.",
           f"{SUMMARY} and {PAGAT}, which name Byteskille as a relative; the deck is provisional",
           (piece("kuku", {"en": "Cuckoo", "sv": "Kuku"}, Power.STOP,
                  calls={"en": "Cuckoo, stop!", "sv": "Kuku!"}),
            piece("husar", {"en": "Hussar", "sv": "Husar"}, Power.CHARGE,
                  calls={"en": "Cut off!", "sv": "Hugg av!"}),
            piece("husu", {"en": "Husu", "sv": "Husu"}, Power.CHARGE_UNDO,
                  calls={"en": "Change back!", "sv": "Husu, byt tillbaka!"}),
            piece("kavall", {"en": "Horseman", "sv": "Kavall"}, Power.PASS,
                  calls={"en": "Pass the horse!", "sv": "Kavall förbi!"}),
            piece("vardshus", {"en": "Inn", "sv": "Värdshus"}, Power.PASS,
                  aliases=["värdshus"], calls={"en": "Pass the inn!", "sv": "Värdshus förbi!"}),
            *numbers(12, 1, roman=False),
            piece("kransen", {"en": "Wreath", "sv": "Kransen"}),
            piece("blompottan", {"en": "Flowerpot", "sv": "Blompottan"}),
            piece("blaren", {"en": "Blank", "sv": "Blaren"})),
           _opts(), lang=Lang.SV, aliases=("byteskille", "kille-sv"),
           words=MappingProxyType({"stand.sv": "Jag står", "swap.sv": "Jag byter",
                                   "stand.en": "I stand", "swap.en": "I want to trade"})),
    Preset("chase-the-ace", "Chase the Ace",
           "The English 52-card relative: the King refuses, the Ace is lowest, 3 lives.",
           "none of the Gnav sources: the English card game as it is commonly played",
           _CARDS,
           _opts(copies=4, lives=3), lang=Lang.EN,
           aliases=("chase", "ranter-go-round", "cuckoo", "chase_the_ace"),
           words=MappingProxyType({"stand.en": "I stand", "swap.en": "Change"})),
    Preset("le-her", "Le Her",
           "The two-player French form: one pack, the King refuses, ties go to the dealer.",
           "the game-theory literature on Le Her (Waldegrave's solution of 1713)",
           _CARDS, _opts(copies=4, lives=3, dealer_wins_ties=True), min_seats=2, max_seats=2,
           lang=Lang.EN, aliases=("leher", "le_her", "her"),
           words=MappingProxyType({"stand.en": "I keep it", "swap.en": "Change"})),
)

PRESETS: Mapping[str, Preset] = MappingProxyType({p.name: p for p in PRESETS_LIST})
ALIASES: Mapping[str, str] = MappingProxyType(
    {alias: p.name for p in PRESETS_LIST for alias in p.aliases}
)


# Presets of your own, by name and alias (``register``).
_REGISTERED: dict[str, Preset] = {}
_REGISTERED_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return name.strip().casefold().replace("_", "-").replace(" ", "-")


def get_preset(name: object) -> Preset:
    """The preset called ``name`` or one of its aliases, in any case: a built-in one, or
    one you registered.

    :raises: :exc:`UnknownPresetError` for any other name.
    """
    if not isinstance(name, str):
        raise UnknownPresetError(f"a preset must be named by a string, not {name!r}")
    key = _key(name)
    found = PRESETS.get(key) or PRESETS.get(ALIASES.get(key, "")) or \
        _REGISTERED.get(key) or _REGISTERED.get(_REGISTERED_ALIASES.get(key, ""))
    if found is None:
        known = [*PRESETS, *_REGISTERED]
        raise UnknownPresetError(
            f"unknown preset {name!r} (presets: {', '.join(known)})"
        )
    return found


def register(preset: Preset) -> Preset:
    """Make ``preset`` known by its name and aliases (records then name it, and
    ``Rules.of`` finds it by name). Registering an equal preset again is a no-op.

    :raises: :exc:`UnknownPresetError` (a MalformedError) if the name or an alias is taken
        by another preset.
    """
    for text in (preset.name, *preset.aliases):
        key = _key(text)
        try:
            taken = get_preset(key)
        except UnknownPresetError:
            continue
        if taken != preset:
            raise UnknownPresetError(f"preset name {text!r} is taken by {taken.name!r}")
    _REGISTERED[_key(preset.name)] = preset
    for alias in preset.aliases:
        _REGISTERED_ALIASES[_key(alias)] = _key(preset.name)
    return preset


def unregister(name: str) -> None:
    """Forget a preset you registered (built-in ones stay); no error if it is unknown."""
    key = _key(name)
    _REGISTERED.pop(key, None)
    for alias in [a for a, target in _REGISTERED_ALIASES.items() if target == key]:
        del _REGISTERED_ALIASES[alias]


def registered() -> tuple[Preset, ...]:
    """Every preset known by name: the built-in ones, then yours."""
    return (*PRESETS_LIST, *_REGISTERED.values())
