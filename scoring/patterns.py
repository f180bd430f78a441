"""Scoring patterns 番种: one small predicate each, registered with its Chinese and English name.

A predicate sees a `Situation` (one arrangement of the hand plus the win context) and returns how many times
the pattern applies (0: not at all; most patterns are 0 or 1, 三元 counts each dragon pung). Which patterns a
rule set scores, and for how much, is data in scoring/rulesets/*.toml. `excludes` is precedence as data: a
pattern that applies removes the ones it contains (混碰 contains 混一色 and 碰碰胡)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import compress

from fanshot.scoring import tiles as t
from fanshot.scoring.decompose import Arrangement
from fanshot.scoring.hand import Hand, WinContext

WIND_INDICES = frozenset(t.INDEX[c] for c in t.WINDS)
DRAGON_INDICES = frozenset(t.INDEX[c] for c in t.DRAGONS)
TERMINAL_INDICES = frozenset(t.INDEX[c] for c in t.TERMINALS)
ORPHAN_INDICES = TERMINAL_INDICES | frozenset(range(27, 34))


@dataclass
class Situation:
    arrangement: Arrangement
    hand: Hand
    context: WinContext
    options: Mapping
    ghosts: tuple[str, ...]  # ghost tiles in force (resolved from the rule set's mode and the context)
    ghosts_held: int
    # Facts many predicates share, computed once per arrangement.
    pung_firsts: tuple[int, ...] = field(init=False)
    pair_firsts: tuple[int, ...] = field(init=False)
    chows: int = field(init=False)
    held: tuple[int, ...] = field(init=False)  # the tile indices present, ascending
    suits: int = field(init=False)
    has_honours: bool = field(init=False)

    facts: frozenset[str] = field(init=False)  # which FACTS hold: a pattern needing one that fails is not called

    def __post_init__(self) -> None:
        pungs, pairs, chows = [], [], 0
        for kind, first, _ in self.arrangement.groups:  # one pass: this runs for every reading of every hand
            if kind == "chow":
                chows += 1
            elif kind == "pair":
                pairs.append(first)
            elif kind != "single":
                pungs.append(first)
        counts = self.arrangement.counts
        self.pung_firsts, self.pair_firsts, self.chows = tuple(pungs), tuple(pairs), chows
        self.held = tuple(compress(range(34), counts))
        self.suits = any(counts[0:9]) + any(counts[9:18]) + any(counts[18:27])
        self.has_honours = self.held[-1] >= 27
        honour_pungs = bool(pungs) and max(pungs) >= 27
        self.facts = FACT_SETS[self.suits <= 1, not chows, self.arrangement.shape, bool(self.ghosts), honour_pungs]


# Facts about a situation that rule many patterns out at once; a pattern names those it `requires` (it returns 0
# whenever one fails: tests/scoring/test_patterns.py checks it on random hands), so the evaluator skips its call.
# honour_pungs: a pung or kong of an honour tile (most hands hold none, and seven patterns need one).
# instant: the reading of an instant win (花糊), where the tiles need form no shape: only the instant wins and the
# win circumstances (`bonuses`) are asked (scoring.rules.Ruleset.predicates).
FACTS = ("one_suit", "no_chows", "seven_pairs", "thirteen_orphans", "ghosts", "honour_pungs", "instant")
SHAPES = ("standard", "seven_pairs", "thirteen_orphans", "four_ghosts", "instant")
FACT_SETS = {(one_suit, no_chows, shape, ghosts, honour_pungs): frozenset(
    name for name, holds in zip(FACTS, (one_suit, no_chows, shape == "seven_pairs", shape == "thirteen_orphans",
                                        ghosts, honour_pungs, shape == "instant"), strict=True) if holds)
    for one_suit in (False, True) for no_chows in (False, True) for ghosts in (False, True)
    for shape in SHAPES for honour_pungs in (False, True)}


@dataclass(frozen=True)
class Pattern:
    id: str
    zh: str
    en: str
    applies: Callable[[Situation], int]
    excludes: tuple[str, ...] = ()
    requires: frozenset[str] = frozenset()  # FACTS without which it never applies
    special_win: bool = False  # applies exactly when the win context names it: no call needed
    instant: bool = False  # an instant win: the hand need form no shape (scoring.score.instant_win)
    bonus_tiles: bool = False  # faan of the bonus tiles (flowers), which option `bonus_count_to_min` may leave out


PATTERNS: dict[str, Pattern] = {}


def pattern(pid: str, zh: str, en: str, excludes: tuple[str, ...] = (), requires: tuple[str, ...] = (),
            special_win: bool = False, instant: bool = False, bonus_tiles: bool = False):
    def register(predicate: Callable[[Situation], int]) -> Callable[[Situation], int]:
        PATTERNS[pid] = Pattern(pid, zh, en, predicate, excludes, frozenset(requires), special_win, instant,
                                bonus_tiles)
        return predicate
    return register


# ---- shared facts about an arrangement ----------------------------------------------------------------------

def _standard(s: Situation) -> bool:
    return s.arrangement.shape == "standard"


def _pungs_of(s: Situation, indices: frozenset[int]) -> int:
    return len(indices.intersection(s.pung_firsts))  # no tile has two pungs: that would be six copies


def _pair_in(s: Situation, indices: frozenset[int]) -> bool:
    return not indices.isdisjoint(s.pair_firsts)


# ---- hand types -------------------------------------------------------------------------------------------------

@pattern("chicken", "鸡胡", "Chicken hand")
def chicken(s: Situation) -> int:
    """鸡胡 任何和牌 / Chicken hand: any winning hand."""
    return 1


@pattern("plain_win", "平胡", "Plain win")
def plain_win(s: Situation) -> int:
    """平胡 推倒胡自摸和牌的底分 / Plain win: the base of every tuidaohu win."""
    return 1


@pattern("all_chows", "平胡", "All chows", excludes=("chicken",))
def all_chows(s: Situation) -> int:
    """平胡 四组顺子 / All chows: every set is a chow (option: the pair must be suited)."""
    if not _standard(s) or s.pung_firsts:
        return 0
    return int(not s.options["all_chows_suited_pair"] or not _pair_in(s, WIND_INDICES | DRAGON_INDICES))


@pattern("all_pungs", "碰碰胡", "All pungs", excludes=("chicken",), requires=("no_chows",))
def all_pungs(s: Situation) -> int:
    """碰碰胡 四组刻子或杠 / All pungs: every set is a pung or kong."""
    return int(_standard(s) and not s.chows)


@pattern("half_flush", "混一色", "Half flush", excludes=("chicken",), requires=("one_suit",))
def half_flush(s: Situation) -> int:
    """混一色 一种花色加字牌 / Half flush: one suit plus honours, both present."""
    return int(s.suits == 1 and s.has_honours)


@pattern("full_flush", "清一色", "Full flush", excludes=("chicken",), requires=("one_suit",))
def full_flush(s: Situation) -> int:
    """清一色 只有一种花色 / Full flush: one suit only, no honours."""
    return int(s.suits == 1 and not s.has_honours)


@pattern("mixed_pungs", "混碰", "Half-flush pungs", excludes=("chicken", "half_flush", "all_pungs"),
         requires=("one_suit", "no_chows"))
def mixed_pungs(s: Situation) -> int:
    """混碰 混一色加碰碰胡 / Half-flush pungs: half flush and all pungs."""
    return half_flush(s) * all_pungs(s)


@pattern("pure_pungs", "清碰", "Full-flush pungs", excludes=("chicken", "full_flush", "all_pungs"),
         requires=("one_suit", "no_chows"))
def pure_pungs(s: Situation) -> int:
    """清碰 清一色加碰碰胡 / Full-flush pungs: full flush and all pungs."""
    return full_flush(s) * all_pungs(s)


@pattern("mixed_terminals", "混幺九", "Terminals and honours", excludes=("chicken", "all_pungs", "mixed_pungs"),
         requires=("no_chows",))
def mixed_terminals(s: Situation) -> int:
    """混幺九 只有幺九牌和字牌 / Terminals and honours: only 1s, 9s and honours, both present."""
    held = s.held
    return int(ORPHAN_INDICES.issuperset(held) and held[-1] >= 27 and held[0] < 27)


@pattern("little_dragons", "小三元", "Little three dragons", excludes=("chicken",), requires=("honour_pungs",))
def little_dragons(s: Situation) -> int:
    """小三元 两副三元刻子加三元将 / Little three dragons: two dragon pungs and a dragon pair."""
    return int(_standard(s) and _pungs_of(s, DRAGON_INDICES) == 2 and _pair_in(s, DRAGON_INDICES))


@pattern("little_winds", "小四喜", "Little four winds", excludes=("chicken",), requires=("honour_pungs",))
def little_winds(s: Situation) -> int:
    """小四喜 三副风刻加风将 / Little four winds: three wind pungs and a wind pair."""
    return int(_standard(s) and _pungs_of(s, WIND_INDICES) == 3 and _pair_in(s, WIND_INDICES))


@pattern("all_honours", "字一色", "All honours", excludes=("chicken", "all_pungs", "mixed_pungs"),
         requires=("one_suit", "no_chows"))
def all_honours(s: Situation) -> int:
    """字一色 全是字牌 / All honours: honour tiles only."""
    return int(s.held[0] >= 27)


@pattern("all_terminals", "清幺九", "All terminals", excludes=("chicken", "all_pungs", "pure_pungs"),
         requires=("no_chows",))
def all_terminals(s: Situation) -> int:
    """清幺九 全是一九 / All terminals: 1s and 9s only."""
    return int(TERMINAL_INDICES.issuperset(s.held))


@pattern("big_dragons", "大三元", "Big three dragons", excludes=("chicken",), requires=("honour_pungs",))
def big_dragons(s: Situation) -> int:
    """大三元 三副三元刻子 / Big three dragons: pungs of all three dragons."""
    return int(_pungs_of(s, DRAGON_INDICES) == 3)


@pattern("big_winds", "大四喜", "Big four winds", excludes=("chicken", "all_pungs", "mixed_pungs"),
         requires=("no_chows", "honour_pungs"))
def big_winds(s: Situation) -> int:
    """大四喜 四副风刻 / Big four winds: pungs of all four winds."""
    return int(_pungs_of(s, WIND_INDICES) == 4)


@pattern("nine_gates", "九莲宝灯", "Nine gates", excludes=("chicken", "full_flush"), requires=("one_suit",))
def nine_gates(s: Situation) -> int:
    """九莲宝灯 门清一一一二三四五六七八九九九加同花色一张 / Nine gates: concealed 1112345678999 plus one tile."""
    counts = s.arrangement.counts
    if s.hand.melds or s.has_honours or s.suits != 1:
        return 0
    suit_start = next(i for i in range(0, 27, 9) if any(counts[i:i + 9]))
    run = counts[suit_start:suit_start + 9]
    base = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    return int(all(have >= need for have, need in zip(run, base, strict=True)))


@pattern("thirteen_orphans", "十三幺", "Thirteen orphans", excludes=("chicken", "mixed_terminals"),
         requires=("thirteen_orphans",))
def thirteen_orphans(s: Situation) -> int:
    """十三幺 一九万筒索加七种字牌其一成对 / Thirteen orphans: every terminal and honour, one of them paired."""
    return int(s.arrangement.shape == "thirteen_orphans")


@pattern("seven_pairs", "七对", "Seven pairs", excludes=("chicken",), requires=("seven_pairs",))
def seven_pairs(s: Situation) -> int:
    """七对 七个对子 / Seven pairs: seven pairs."""
    return int(s.arrangement.shape == "seven_pairs")


@pattern("concealed_pungs", "坎坎胡", "Four concealed pungs", excludes=("chicken", "all_pungs"),
         requires=("no_chows",))
def concealed_pungs(s: Situation) -> int:
    """坎坎胡 四副暗刻（暗杠亦算）；食糊时那张牌只可成对 / Four concealed pungs: four pungs or kongs, none claimed;
    on a discard win the discard completes the pair (a named winning tile shows it)."""
    if not _standard(s) or s.chows or not all(m.concealed for m in s.hand.melds):
        return 0
    if s.context.win == "self_draw":
        return 1
    winning = s.hand.winning_tile
    return int(winning is not None and t.INDEX[winning] in s.pair_firsts)


@pattern("all_kongs", "十八罗汉", "All kongs", excludes=("chicken", "all_pungs", "concealed_pungs"),
         requires=("no_chows",))
def all_kongs(s: Situation) -> int:
    """十八罗汉 四副杠 / All kongs: four kongs."""
    return int(sum(m.kind == "kong" for m in s.hand.melds) == 4)


# ---- extras 附加 and bonuses -------------------------------------------------------------------------------

@pattern("self_draw", "自摸", "Self-draw")
def self_draw(s: Situation) -> int:
    """自摸 自己摸到和牌（抢杠亦算） / Self-draw: the winner drew the winning tile (robbing a kong counts)."""
    return int(s.context.self_drawn)


@pattern("seat_wind", "门风", "Seat wind", requires=("honour_pungs",))
def seat_wind(s: Situation) -> int:
    """门风 本家风刻 / Seat wind: a pung or kong of the winner's seat wind."""
    return s.pung_firsts.count(t.INDEX[s.context.seat_wind])


@pattern("prevalent_wind", "圈风", "Prevalent wind", requires=("honour_pungs",))
def prevalent_wind(s: Situation) -> int:
    """圈风 圈风刻 / Prevalent wind: a pung or kong of the round's wind."""
    return s.pung_firsts.count(t.INDEX[s.context.prevalent_wind])


@pattern("dragon_pung", "三元牌", "Dragon pung", requires=("honour_pungs",))
def dragon_pung(s: Situation) -> int:
    """三元牌 每副中发白刻 / Dragon pung: each pung or kong of a dragon."""
    return _pungs_of(s, DRAGON_INDICES)


@pattern("concealed", "门前清", "Fully concealed hand")
def concealed(s: Situation) -> int:
    """门前清 没有上、碰、杠（包括暗杠） / Fully concealed: no meld at all, not even a concealed kong (option
    `concealed_kong_ok`: concealed kongs allowed)."""
    if s.options.get("concealed_kong_ok", False):
        return int(all(m.concealed for m in s.hand.melds))
    return int(not s.hand.melds)


# Bonus tiles: seat n (East 1) owns flower n and season n + 4; a complete set is 梅兰菊竹 or 春夏秋冬.
FLOWER_SETS = (frozenset(t.FLOWER_TILES[:4]), frozenset(t.FLOWER_TILES[4:]))


def _complete_flower_sets(s: Situation) -> list[frozenset[str]]:
    return [group for group in FLOWER_SETS if group.issubset(s.hand.flowers)]


@pattern("no_flowers", "无花", "No flowers", bonus_tiles=True)
def no_flowers(s: Situation) -> int:
    """无花 有花牌的牌局而手中无花 / No flowers: flowers are in play and the winner holds none."""
    return int(s.options["flowers"] and not s.hand.flowers)


@pattern("seat_flower", "正花", "Seat flower", bonus_tiles=True)
def seat_flower(s: Situation) -> int:
    """正花 每只本位花或季（不在一台花之内） / Seat flower: each of the seat's own flower and season, outside a
    complete set."""
    seat = t.SEATS.index(s.context.seat_wind)
    own = {t.FLOWER_TILES[seat], t.FLOWER_TILES[seat + 4]}.intersection(s.hand.flowers)
    return len(own.difference(*_complete_flower_sets(s)))


@pattern("flower_set", "一台花", "Full set of flowers", bonus_tiles=True)
def flower_set(s: Situation) -> int:
    """一台花 集齐梅兰菊竹或春夏秋冬 / Full set of flowers: all four flowers, or all four seasons (each set)."""
    return len(_complete_flower_sets(s))


def _instant(s: Situation) -> bool:
    """The instant reading of a self-drawn hand (an instant win is settled as a self-draw)."""
    return s.arrangement.shape == "instant" and s.context.win == "self_draw"


@pattern("seven_flowers", "花胡", "Seven flowers", requires=("instant",), instant=True)
def seven_flowers(s: Situation) -> int:
    """花胡 摸到第七只花即胡，牌不必成形，当自摸 / Seven flowers: an instant self-drawn win on the seventh bonus
    tile, whatever the standing tiles."""
    return int(_instant(s) and len(s.hand.flowers) == 7)


@pattern("eight_flowers", "八仙过海", "Eight flowers", excludes=("self_draw",), requires=("instant",), instant=True)
def eight_flowers(s: Situation) -> int:
    """八仙过海 集齐八只花即胡，当自摸（其值已含自摸） / Eight flowers: an instant win on all eight bonus tiles, paid
    as a self-draw (its value holds the self-draw)."""
    return int(_instant(s) and len(s.hand.flowers) == 8)


@pattern("no_ghost", "无鬼", "No ghost", requires=("ghosts",))
def no_ghost(s: Situation) -> int:
    """无鬼 有鬼牌而手中无鬼 / No ghost: ghosts are in play and the winning hand holds none."""
    return int(bool(s.ghosts) and s.ghosts_held == 0)


@pattern("four_ghosts", "满鬼", "Four ghosts", requires=("ghosts",))
def four_ghosts(s: Situation) -> int:
    """满鬼 手握四只鬼牌 / Four ghosts: holding four ghost tiles is an instant win."""
    return int(s.ghosts_held >= 4)


# ---- special wins (context) --------------------------------------------------------------------------------

def _special_win(pid: str, zh: str, en: str, doc: str, excludes: tuple[str, ...] = ()) -> None:
    def applies(s: Situation) -> int:
        return int(pid in s.context.special)
    applies.__doc__ = doc
    pattern(pid, zh, en, excludes=excludes, special_win=True)(applies)


for _pid, _zh, _en, _doc in (
    ("kong_replacement", "杠上开花", "Win on a kong replacement", "杠上开花 杠后补牌和 / Win on a kong's replacement."),
    ("last_tile", "海底捞月", "Win on the last tile", "海底捞月 摸最后一张牌和 / Win on the wall's last tile."),
    ("last_discard", "河底捞鱼", "Win on the last discard", "河底捞鱼 食最后一张打出的牌 / Win on the last discard."),
    ("robbing_kong", "抢杠", "Robbing the kong", "抢杠 抢他人补杠之牌和 / Win on the tile of another's added kong."),
    ("multi_win", "一炮三响", "One of three winners", "一炮三响 同一张牌点三个炮 / One discard, three winners."),
    ("heavenly", "天和", "Heavenly hand", "天和 庄家起手和 / The dealer wins on the deal."),
    ("earthly", "地和", "Earthly hand", "地和 闲家第一摸自摸 / A non-dealer self-draws on the first draw."),
    ("human", "人和", "Human hand", "人和 闲家和庄家第一张打牌 / A non-dealer wins on the dealer's first discard."),
):
    _special_win(_pid, _zh, _en, _doc)
_special_win("double_kong_replacement", "杠上杠", "Win on a second kong's replacement",
             "杠上杠 连杠两次后补牌和 / Win on the replacement of a second kong in a row.",
             excludes=("kong_replacement",))
