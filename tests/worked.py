"""The worked examples, scored by hand from the rules: what the engine and the rulebooks
must give, never taken from the engine.

Each game's example is copied here as it stands in ``examples/<game>.yaml`` (the rulebooks
quote that file: their tests check that it is still this copy), with its breakdown worked
out from the values in ``rules/<game>.yaml``. A changed example or rule means working the
figures out again, by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Worked:
    """An example input and its breakdown: per player (``""`` for a single sheet) the
    points of each line, in the engine's order, and the places from first to last."""

    data: dict[str, Any]
    lines: dict[str, list[tuple[str, int]]]
    ranking: list[list[str]]

    @property
    def totals(self) -> dict[str, int]:
        return {name: sum(points for _, points in lines) for name, lines in self.lines.items()}


# Qwinto: a row with all its boxes scores its last number, else a point per number; a column
# with a box in every row scores its pentagon's number once all three are filled; each
# failed throw costs 5. Box columns (the gap left out): orange 3 4 5 7 8 9 10 11 12,
# yellow 2 3 4 5 6 8 9 10 11, purple 1 2 3 4 6 7 8 9 10.
#
#   orange  2 . . . 10 11 . . 15   4 of 9                     4
#   yellow  1 3 4 6 7 9 12 14 16   complete: its last        16
#   purple  1 3 5 . 8 . 13 14 .    6 of 9                     6
#   column 3  (purple pentagon): orange 2, yellow 3, purple 5     5
#   column 4  (orange pentagon): orange box 2 empty               0
#   column 8  (orange pentagon): orange 10, yellow 9, purple 13  10
#   column 9  (yellow pentagon): orange 11, yellow 12, purple 14 12
#   column 10 (purple pentagon): orange box 7 empty               0
#   failed throws  2 × −5                                       −10
#   total  4 + 16 + 6 + 5 + 0 + 10 + 12 + 0 − 10 = 43
QWINTO = Worked(
    data={"rows": {"orange": [2, None, None, None, 10, 11, None, None, 15],
                   "yellow": [1, 3, 4, 6, 7, 9, 12, 14, 16],
                   "purple": [1, 3, 5, None, 8, None, 13, 14, None]},
          "failed": 2},
    lines={"": [("row", 4), ("row", 16), ("row", 6),
                ("pentagon", 5), ("pentagon", 0), ("pentagon", 10), ("pentagon", 12),
                ("pentagon", 0), ("failed", -10)]},
    ranking=[[""]])

# Kwingto: a complete row scores its last card's value, else a point per card; a complete
# column scores its highest minus its lowest; five consecutive values add 6 (a royal flush
# 12 instead); each penalty card costs 5. An ace counts 1 with cards only to its right,
# 14 with cards only to its left, and alone whichever scores more.
#
#   Ana    3 5 8 J K (13) | A=1 4 9 . Q (4 cards) | 2 6 10 . A=14 (4 cards)  13 + 4 + 4
#          columns 3−1, 6−4, 10−8, (4 incomplete), 14−12 = 2 2 2 0 2            8
#          1 penalty card                                                     −5   = 24
#   Bea    4 5 6 7 8 (8) | A=1 3 9 10 K (13) | . 2 . Q . (2 cards)        8 + 13 + 2
#          columns (1 inc.), 5−2, (3 inc.), 12−7, (5 inc.) = 0 3 0 5 0          8
#          straight flush 4-5-6-7-8                                           6   = 37
#   Carla  2 7 8 10 . (4 cards) | . . A . . (1 card) | 3 4 5 9 K (13)     4 + 1 + 13
#          column 3: 8, A, 5: the ace as 14 gives 14−5 = 9 (as 1, 8−1 = 7)     9
#          2 penalty cards                                                   −10   = 17
KWINGTO = Worked(
    data={"players": {
        "Ana": {"rows": [["3H", "5H", "8H", "JH", "KH"], ["AS", "4S", "9S", None, "QS"],
                         ["2C", "6C", "10C", None, "AC"]], "failed": 1},
        "Bea": {"rows": [["4D", "5D", "6D", "7D", "8D"], ["AC", "3C", "9C", "10C", "KC"],
                         [None, "2H", None, "QH", None]], "failed": 0},
        "Carla": {"rows": [["2S", "7S", "8S", "10S", None], [None, None, "AD", None, None],
                           ["3H", "4H", "5H", "9H", "KH"]], "failed": 2}}},
    lines={
        "Ana": [("row", 13), ("row", 4), ("row", 4), ("column", 2), ("column", 2),
                ("column", 2), ("column", 0), ("column", 2), ("failed", -5)],
        "Bea": [("row", 8), ("row", 13), ("row", 2), ("column", 0), ("column", 3),
                ("column", 0), ("column", 5), ("column", 0), ("straight_flush", 6),
                ("failed", 0)],
        "Carla": [("row", 4), ("row", 1), ("row", 13), ("column", 0), ("column", 0),
                  ("column", 9), ("column", 0), ("column", 0), ("failed", -10)]},
    ranking=[["Bea"], ["Ana"], ["Carla"]])

# Xactika, played to bid: a bid made scores its tricks (1 each), a bid missed loses a point
# per trick of difference.  Each cell: bid/tricks -> points.
#
#   hand  Ana        Ben        Carla      Dev
#   1     0/1  −1    2/2  +2    3/3  +3    2/2  +2
#   2     1/1  +1    3/2  −1    2/2  +2    3/3  +3
#   3     2/3  −1    1/1  +1    1/2  −1    2/2  +2
#   4     0/0   0    2/3  −1    3/3  +3    2/2  +2
#   5     3/3  +3    2/2  +2    1/1  +1    1/2  −1
#   6     2/2  +2    4/3  −1    2/2  +2    1/1  +1
#   7     1/2  −1    1/1  +1    2/2  +2    1/3  −2
#   8     2/2  +2    2/3  −1    2/2  +2    0/1  −1
#   total        5          2         14          6
XACTIKA = Worked(
    data={"mode": "bid", "players": ["Ana", "Ben", "Carla", "Dev"], "hands": [
        {"dealer": "Ana", "bids": {"Ben": 2, "Carla": 3, "Dev": 2, "Ana": 0},
         "tricks": {"Ben": 2, "Carla": 3, "Dev": 2, "Ana": 1}},
        {"dealer": "Ben", "bids": {"Carla": 2, "Dev": 3, "Ana": 1, "Ben": 3},
         "tricks": {"Carla": 2, "Dev": 3, "Ana": 1, "Ben": 2}},
        {"dealer": "Carla", "bids": {"Dev": 2, "Ana": 2, "Ben": 1, "Carla": 1},
         "tricks": {"Dev": 2, "Ana": 3, "Ben": 1, "Carla": 2}},
        {"dealer": "Dev", "bids": {"Ana": 0, "Ben": 2, "Carla": 3, "Dev": 2},
         "tricks": {"Ana": 0, "Ben": 3, "Carla": 3, "Dev": 2}},
        {"dealer": "Ana", "bids": {"Ben": 2, "Carla": 1, "Dev": 1, "Ana": 3},
         "tricks": {"Ben": 2, "Carla": 1, "Dev": 2, "Ana": 3}},
        {"dealer": "Ben", "bids": {"Carla": 2, "Dev": 1, "Ana": 2, "Ben": 4},
         "tricks": {"Carla": 2, "Dev": 1, "Ana": 2, "Ben": 3}},
        {"dealer": "Carla", "bids": {"Dev": 1, "Ana": 1, "Ben": 1, "Carla": 2},
         "tricks": {"Dev": 3, "Ana": 2, "Ben": 1, "Carla": 2}},
        {"dealer": "Dev", "bids": {"Ana": 2, "Ben": 2, "Carla": 2, "Dev": 0},
         "tricks": {"Ana": 2, "Ben": 3, "Carla": 2, "Dev": 1}}]},
    lines={"Ana": [("hand", p) for p in (-1, 1, -1, 0, 3, 2, -1, 2)],
           "Ben": [("hand", p) for p in (2, -1, 1, -1, 2, -1, 1, -1)],
           "Carla": [("hand", p) for p in (3, 2, -1, 3, 1, 2, 2, 2)],
           "Dev": [("hand", p) for p in (2, 3, 2, 2, -1, 1, -2, -1)]},
    ranking=[["Carla"], ["Dev"], ["Ana"], ["Ben"]])

# Ronda, two players, target 41; Bea deals. A call held by one side alone scores before
# the round's plays; contested calls, false calls and caught unannounced holdings after
# them. A caída's first link scores 1, a mesa 1; a ronda is worth 1, a tringa 5; a false
# call or a hidden ronda pays 1 to the opponent. Reaching 41 wins at once: what follows
# scores nothing.
#
#   round  event                                         Ana   Bea
#          carried in                                     22    35
#   1      Ana caída (uno) +1, Bea mesa +1                23    36
#          contested rondas: Bea's 11s beat Ana's 4s:
#          the pot of 1 + 1 to Bea                        23    38
#   2      Ana's tringa of 6s alone: +5 before the plays  28    38
#          Bea caída and mesa (dos) +1 +1                 28    40
#   3      Bea's ronda of 2s, not called: +1 to Ana       29    40
#   4      Ana caída +1                                   30    40
#          Ana's false ronda: +1 to Bea: 41, Bea wins     30    41
#   6      Ana mesa: after the win, 0                     30    41
#   end    Ana's 23 cards, 3 over the bar: after the win  30    41
RONDA = Worked(
    data={"players": ["Ana", "Bea"], "before": {"Ana": 22, "Bea": 35},
          "options": {"target": 41},
          "rounds": [
              {"calls": [{"player": "Ana", "call": "ronda", "rank": 4},
                         {"player": "Bea", "call": "ronda", "rank": 11}],
               "plays": [{"player": "Ana", "caida": 1}, {"player": "Bea", "mesa": True}]},
              {"calls": [{"player": "Ana", "call": "tringa", "rank": 6}],
               "plays": [{"player": "Bea", "caida": 1, "mesa": True}]},
              {"calls": [{"player": "Bea", "hidden": "ronda", "rank": 2}]},
              {"calls": [{"player": "Ana", "call": "ronda", "bluff": True}],
               "plays": [{"player": "Ana", "caida": 1}]},
              {},
              {"plays": [{"player": "Ana", "mesa": True}]}],
          "captured": {"Ana": 23, "Bea": 17}},
    lines={"Ana": [("before", 22), ("play", 1), ("calls", 5), ("hidden", 1), ("play", 1),
                   ("play", 0), ("cards", 0)],
           "Bea": [("before", 35), ("play", 1), ("calls", 2), ("play", 2), ("false_call", 1),
                   ("cards", 0)]},
    ranking=[["Bea"], ["Ana"]])

# A whole game of Ronda, three deals with the advanced end (the dealer's last card: a 12
# taken gives the dealer's side 5, nothing taken or a 1 gives the opponents 5); the first
# player of a deal deals the next one. Ana starts on 10.
#
#   deal 1, Bea deals:  Ana's lone tringa 5; Bea's caída and mesa (dos) 2; Bea takes
#                       with a 12: 5 to Bea; count 26/14: 6 to Ana          Ana 21  Bea  7
#   deal 2, Ana deals:  Bea's caída 1; Ana's false ronda: 1 to Bea; Ana takes nothing
#                       with the last card: 5 to Bea; count 20/20           Ana 21  Bea 14
#   deal 3, Bea deals:  Ana's caída 1; the tringas after the plays, Ana's 7 over Bea's 3:
#                       10; Bea takes with a 1: 5 to Ana; count 30/10: 10   Ana 47  Bea 14
#                       Ana passes 41 with the count and wins.
RONDA_GAME = Worked(
    data={
        "players": ["Ana", "Bea"], "before": {"Ana": 10}, "options": {"advanced_end": True},
        "deals": [
            {"rounds": [{"calls": [{"player": "Ana", "call": "tringa", "rank": 6}],
                         "plays": [{"player": "Bea", "caida": 1, "mesa": True}]}],
             "captured": {"Ana": 26, "Bea": 14}, "last_card": {"captured": True, "rank": 12}},
            {"rounds": [{"plays": [{"player": "Bea", "caida": 1}]},
                        {"calls": [{"player": "Ana", "call": "ronda", "bluff": True}]}],
             "captured": {"Ana": 20, "Bea": 20}, "last_card": {"captured": False}},
            {"rounds": [{"calls": [{"player": "Ana", "call": "tringa", "rank": 7},
                                   {"player": "Bea", "call": "tringa", "rank": 3}],
                         "plays": [{"player": "Ana", "caida": 1}]}],
             "captured": {"Ana": 30, "Bea": 10}, "last_card": {"captured": True, "rank": 1}},
        ]},
    lines={"Ana": [("before", 10), ("calls", 5), ("cards", 6), ("cards", 0), ("play", 1),
                   ("calls", 10), ("last_card", 5), ("cards", 10)],
           "Bea": [("before", 0), ("play", 2), ("last_card", 5), ("cards", 0), ("play", 1),
                   ("false_call", 1), ("last_card", 5), ("cards", 0), ("cards", 0)]},
    ranking=[["Ana"], ["Bea"]])

# Spectacle: a noble, a series and a run are worth 1 VP each; a reserved card never bought
# costs 1.
#
#   Ana  nobles JS, QH (bonus 10H + 4H = 14, the queen's requirement)     2
#        series 7S 7H 7C; runs 3C-6C, 8S-10S                              1 + 2
#        reserved 9C                                                      −1   = 4
#   Bea  noble KD (bonus 10D + 9D = 19 >= 15)                             1
#        series 2S 2H 2C, 5S 5H 5D; runs 6D-8D, AD-3D                    2 + 2
#        nothing reserved                                                 0    = 5
SPECTACLE = Worked(
    data={"players": {
        "Ana": {"nobles": ["JS", {"noble": "QH", "bonus": ["10H", "4H"]}],
                "claimed": [["7S", "7H", "7C"], ["3C", "4C", "5C", "6C"], ["8S", "9S", "10S"]],
                "reserved": ["9C"], "chips": [5, 2, 1], "turns": 30},
        "Bea": {"nobles": [{"noble": "KD", "bonus": ["10D", "9D"]}],
                "claimed": [["2S", "2H", "2C"], ["8D", "6D", "7D"], ["AD", "2D", "3D"],
                            ["5S", "5H", "5D"]],
                "reserved": [], "chips": [10, 1, 1], "turns": 30}},
          "end": "points"},
    lines={"Ana": [("nobles", 2), ("series", 1), ("runs", 2), ("reserved", -1)],
           "Bea": [("nobles", 1), ("series", 2), ("runs", 2), ("reserved", 0)]},
    ranking=[["Bea"], ["Ana"]])

EXAMPLES = {"qwinto": QWINTO, "kwingto": KWINGTO, "xactika": XACTIKA, "ronda": RONDA,
            "spectacle": SPECTACLE}
