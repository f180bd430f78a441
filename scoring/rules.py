"""Rule sets as validated data: `scoring/rulesets/*.toml`, with per-request option overrides.

A rule set file has `name`, `zh`, `en`, `points` (the money model, see scoring.settle: "doubling", 2**fan points
of stake.unit; "stakes", 2**fan chicken stakes plus the flower and kong stakes; "hk", the Hong Kong points table
(option `spicy`) paid in shares (option `discard_payment`)), an `[options]` table, and value tables that name
scoring patterns (see scoring.patterns):
- `hands`: within-cap hand types, additive; `extras`: added only with a within-cap type; both clamped to `cap`;
- `specials`: beyond the cap, the single highest applies and it replaces hands and extras;
- `bonuses`: added to whatever applies; `floors`: special wins, the total counts as at least this;
- `fixed_points`: an instant win worth exactly these points; `kongs`: kong payments (see scoring.settle);
- `rotation`: who deals the next hand of a game (see scoring.rounds).
Optional: `clamp` ("hands", the default: the cap clamps hand types and extras; "total": it clamps the whole total,
specials and bonuses included); `[names]`, the rule set's own Chinese name of a pattern; `[excludes]`, a
pattern's precedence in this rule set (the patterns it removes), in place of scoring.patterns' own; `[variants]`,
`variants.OPTION.VALUE.TABLE = {pattern id = value}`: value tables that replace the file's own when a string option
has that value (tuidaohu's `units`).
Requests may override any option, and any value in those tables through `options.fans`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from fanshot.scoring.errors import ScoringError
from fanshot.scoring.patterns import FACT_SETS, PATTERNS, Pattern, Situation
from fanshot.scoring.rounds import DEALER_STAYS, ROTATION_CHOICES, Rotation

VALUE_TABLES = ("hands", "extras", "specials", "bonuses", "floors", "fixed_points")
KONG_KINDS = ("concealed", "fed", "added")
KONG_PAYERS = ("each", "discarder", "payer")  # payer: added to what each payer of the hand pays
POINTS_MODELS = ("doubling", "stakes", "hk")
CLAMPS = ("hands", "total")
MAX_ORDER = 1 << 16  # a file without `order` is listed after those with one
GHOST_MODES = {"none": 0, "white": 1, "flip": 1, "flip2": 2}  # mode -> number of ghost tiles named
MAX_FAN = 64  # bounds every fan value and cap: 2**64 points stay a finite number
# Every option a rule set may have: its type and, where limited, the values allowed (cap -1: no cap).
OPTIONS: dict[str, tuple[type, range | tuple[str, ...] | None]] = {
    "cap": (int, range(-1, MAX_FAN + 1)),
    "min_fan": (int, range(0, MAX_FAN + 1)),
    "chow": (bool, None),
    "discard_win": (bool, None),
    "flowers": (bool, None),
    "seven_pairs": (bool, None),
    "seven_pairs_quads": (bool, None),
    "all_chows_suited_pair": (bool, None),
    "ghosts": (str, tuple(GHOST_MODES)),
    "discard_pays_all": (bool, None),
    "liability_twelve_tiles": (bool, None),
    "liability_big_hands": (bool, None),
    "horses": (bool, None),
    "horses_with_ghost": (int, range(2, 21)),
    "horses_without_ghost": (int, range(2, 21)),
    "horse_dragons": (str, ("seed", "red_dealer")),
    "multi_win": (bool, None),
    "kongs_void_on_draw": (bool, None),
    "spicy": (str, ("half", "full")),  # the hk points table: 半辣上 or 辣辣上
    "discard_payment": (str, ("full", "half")),  # hk: 全銃 (the discarder pays 2 shares) or 半銃 (1, others ½)
    "bonus_count_to_min": (bool, None),  # flower faan count toward min_fan
    "concealed_kong_ok": (bool, None),  # 门前清 allows concealed kongs
    "liability_nine_tiles_flush": (bool, None),  # 清一色 九张落地包自摸
    "liability_kong_replacement": (bool, None),  # 杠上开花包杠 (absent: always, as in jipinghu)
    "robbing_kong_pays": (str, ("self_draw", "discard")),  # 抢杠: the robbed player pays 3 shares, or as a discard
    "units": (str, ("xingchen", "qq")),  # tuidaohu's two unit tables (seed 000 describes it twice)
    "rotation_draw": (str, ROTATION_CHOICES["draw"]),  # who deals after a draw, where a table chooses it
}
CAP_RELATIVE = re.compile(r"^cap(\+(\d{1,2}))?$")


@dataclass(frozen=True)
class Ruleset:
    name: str
    zh: str
    en: str
    points: str
    options: MappingProxyType
    values: MappingProxyType  # table name -> {pattern id -> int}, cap-relative values resolved
    kongs: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    rotation: Rotation = DEALER_STAYS
    clamp: str = "hands"
    names: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))  # pattern id -> zh name
    excludes: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))  # pattern id -> ids it removes

    def table(self, name: str) -> dict[str, int]:
        return self.values.get(name, {})

    def excludes_of(self, pid: str) -> tuple[str, ...]:
        """The patterns that `pid` removes in this rule set (precedence)."""
        return self.excludes.get(pid, PATTERNS[pid].excludes)

    def points_of(self, fan: int) -> float:
        """Points for a fan total: 2**fan, or the half-spicy table where option `spicy` is "half"."""
        return half_spicy(fan) if self.options.get("spicy") == "half" else 2 ** fan

    @cached_property
    def scored(self) -> frozenset[str]:
        """Every pattern id the rule set gives a value."""
        return frozenset(pid for table in self.values.values() for pid in table)

    @cached_property
    def predicates(self) -> dict[frozenset[str], tuple[tuple[str, Callable[[Situation], int], tuple[str, ...]], ...]]:
        """For each set of facts a situation can have (patterns.FACT_SETS): (pattern id, predicate, excludes) of
        every pattern in `scored` that may apply, looked up once. Special wins are not called: they apply by name."""
        scored = [PATTERNS[pid] for pid in sorted(self.scored)]
        bonuses = self.table("bonuses")

        def asked(p: Pattern, facts: frozenset[str]) -> bool:  # an instant win's reading asks only those and bonuses
            return p.instant or p.id in bonuses if "instant" in facts else p.requires <= facts
        return {facts: tuple((p.id, p.applies, self.excludes_of(p.id)) for p in scored
                             if not p.special_win and asked(p, facts))
                for facts in FACT_SETS.values()}

    @cached_property
    def special_wins(self) -> frozenset[str]:
        """The special wins in `scored`: each applies exactly when the win context names it."""
        return frozenset(pid for pid in self.scored if PATTERNS[pid].special_win)

    @cached_property
    def plays_ghosts(self) -> bool:
        """Whether the rule set scores anything of ghost tiles (无鬼, 满鬼): else it plays none."""
        return any("ghosts" in PATTERNS[pid].requires for pid in self.scored)

    @cached_property
    def instant_wins(self) -> tuple[str, ...]:
        """The instant wins in `scored` (花胡): they need no winning shape."""
        return tuple(sorted(pid for pid in self.scored if PATTERNS[pid].instant))

    @cached_property
    def entries_of(self) -> dict[str, tuple[tuple[int, str, str, int, str, str], ...]]:
        """Pattern id -> (position, table, pattern id, value, Chinese name, English name) of each of its values;
        positions follow the tables' order and each table's own, so that sorting a hand's entries lists them as the
        rule set does."""
        found: dict[str, list[tuple[int, str, str, int, str, str]]] = {}
        entries = ((table, pid, value) for table, values in self.values.items() for pid, value in values.items())
        for position, (table, pid, value) in enumerate(entries):
            zh = self.names.get(pid, PATTERNS[pid].zh)
            found.setdefault(pid, []).append((position, table, pid, value, zh, PATTERNS[pid].en))
        return {pid: tuple(values) for pid, values in found.items()}

    @cached_property
    def plain_tables(self) -> tuple[dict[str, Any], dict[str, dict[str, int]]]:
        """`options` and `values` as plain dicts, for each response to copy (far quicker than copying the proxies)."""
        return dict(self.options), {table: dict(values) for table, values in self.values.items()}

    @property
    def ghosts_in_play(self) -> bool:
        """Whether a hand may hold ghost tiles 鬼牌: the `ghosts` option names a mode, or the rule set scores them
        (`plays_ghosts`); elsewhere a context that names ghosts is refused."""
        return self.options["ghosts"] != "none" or self.plays_ghosts

    @property
    def cap(self) -> int | None:
        cap = self.options.get("cap", -1)
        return None if cap < 0 else cap

    def describe(self) -> dict[str, Any]:
        """Everything in force, for the score response and `fanshot rulesets`."""
        return {
            "name": self.name, "zh": self.zh, "en": self.en, "points": self.points,
            "options": dict(self.options),
            "fans": {table: dict(values) for table, values in self.values.items()},
            "kongs": {kind: dict(payers) for kind, payers in self.kongs.items()},
            "rotation": {"win": self.rotation.win, "draw": self.rotation.draw},
            "clamp": self.clamp, "names": dict(self.names),
        }


def half_spicy(fan: int) -> float:
    """半辣上: doubling up to 4 faan (the old 满糊), then doubling every two faan, x1.5 between (1 2 4 8 16 24 32 48
    64 96 128 …; docs/RULES.md rule set 5)."""
    if fan <= 4:
        return 2 ** fan
    doublings, odd = divmod(fan - 4, 2)
    return 2 ** (4 + doublings) * (1.5 if odd else 1)


DEFAULT_RULESET = "jipinghu"  # 鸡平胡: a request or game that names no rule set plays it


def ruleset_names() -> list[str]:
    """Every rule set, in the files' `order` (docs/RULES.md's numbering: the default first, and a client that offers
    the first one offers the default), then by name."""
    return list(_ordered_names())


@cache
def _ordered_names() -> tuple[str, ...]:
    folder = resources.files(__package__) / "rulesets"
    files = {entry.name.removesuffix(".toml"): entry for entry in folder.iterdir() if entry.name.endswith(".toml")}
    order = {name: tomllib.loads(entry.read_text(encoding="utf-8")).get("order", MAX_ORDER) for name, entry in
             files.items()}
    return tuple(sorted(files, key=lambda name: (order[name], name)))


@cache
def _raw(name: str) -> dict[str, Any]:
    if name not in ruleset_names():
        raise ScoringError("unknown_ruleset", f"unknown rule set {name!r}; choose one of {ruleset_names()}",
                           field="ruleset")
    text = (resources.files(__package__) / "rulesets" / f"{name}.toml").read_text(encoding="utf-8")
    raw = tomllib.loads(text)
    _check_file(name, raw)
    return raw


def load(name: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """The rule set `name` with request option overrides applied and validated."""
    if not isinstance(name, str):
        raise ScoringError("unknown_ruleset", "ruleset: expected a rule set name", field="ruleset")
    if not isinstance(overrides, dict | None):
        raise ScoringError("bad_option", "options: expected an object", field="options")
    if not overrides:
        return _default(name)
    key = _overrides_key(overrides)
    return _build(name, dict(overrides)) if key is None else _with_overrides(name, key)


@cache
def _default(name: str) -> Ruleset:
    return _build(name, {})


PLAIN_VALUES = (bool, int, float, str, type(None))


def _overrides_key(overrides: dict[str, Any]) -> tuple | None:
    """The overrides as a hashable key that keeps each value's type (`true` is not `1` to the checks), or None when a
    value is not a plain one (the build then refuses it, or takes it uncached)."""
    key = []
    for option, value in overrides.items():
        if type(value) is dict:
            if not all(type(pid) is str and type(fan) in PLAIN_VALUES for pid, fan in value.items()):
                return None
            value = tuple((pid, type(fan), fan) for pid, fan in value.items())
        elif type(value) not in PLAIN_VALUES:
            return None
        key.append((option, type(value), value))
    return tuple(key)


@lru_cache(maxsize=256)
def _with_overrides(name: str, key: tuple) -> Ruleset:
    """A rule set with overrides, built once per distinct set of them: requests at one table repeat their options."""
    return _build(name, {option: dict((pid, fan) for pid, _, fan in value) if kind is tuple else value
                         for option, kind, value in key})


def _build(name: str, overrides: dict[str, Any]) -> Ruleset:
    raw = _raw(name)
    fan_overrides = overrides.pop("fans", {})
    options = {**raw["options"], **_checked_options(raw["options"], overrides)}
    tables = {table: dict(raw.get(table, {})) for table in VALUE_TABLES if table in raw}
    for option, variants in raw.get("variants", {}).items():  # an option's value may bring its own value tables
        tables.update({table: dict(entries) for table, entries in variants.get(options[option], {}).items()})
    _apply_fan_overrides(tables, fan_overrides)
    cap = options.get("cap", -1)
    values = {table: MappingProxyType({pid: _resolve(v, cap, f"{table}.{pid}") for pid, v in entries.items()})
              for table, entries in tables.items()}
    kongs = {kind: MappingProxyType(payers) for kind, payers in raw.get("kongs", {}).items()}
    return Ruleset(name=raw["name"], zh=raw["zh"], en=raw["en"], points=raw["points"],
                   options=MappingProxyType(options), values=MappingProxyType(values),
                   kongs=MappingProxyType(kongs), rotation=_rotation(raw, options),
                   clamp=raw.get("clamp", "hands"), names=MappingProxyType(raw.get("names", {})),
                   excludes=MappingProxyType({pid: tuple(ids) for pid, ids in raw.get("excludes", {}).items()}))


def _rotation(raw: dict[str, Any], options: dict[str, Any]) -> Rotation:
    """Who deals next: the file's `[rotation]`, the deal after a draw from option `rotation_draw` where it has one."""
    chosen = {"draw": options["rotation_draw"]} if "rotation_draw" in options else {}
    return Rotation(**raw.get("rotation", {}), **chosen)


def _checked_options(defaults: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    for key, value in overrides.items():
        if key not in defaults:
            raise ScoringError("unknown_option", f"options.{key}: not an option of this rule set; "
                               f"known: {sorted(defaults) + ['fans']}", field=f"options.{key}")
        _check_option_value(key, value)
    return overrides


def _check_option_value(key: str, value: Any) -> None:
    kind, allowed = OPTIONS[key]
    # bool is an int subclass: compare exact types so `true` never passes for a number.
    if type(value) is not kind:
        raise ScoringError("bad_option", f"options.{key}: expected {kind.__name__}, got {value!r}",
                           field=f"options.{key}")
    if isinstance(allowed, range) and value not in allowed:
        raise ScoringError("bad_option", f"options.{key}: {value} is outside {allowed.start}..{allowed.stop - 1}",
                           field=f"options.{key}")
    if isinstance(allowed, tuple) and value not in allowed:
        raise ScoringError("bad_option", f"options.{key}: {value!r} is not one of {list(allowed)}",
                           field=f"options.{key}")


def _check_fan_value(value: Any, where: str) -> None:
    relative = isinstance(value, str) and CAP_RELATIVE.match(value)
    if not (type(value) is int and 0 <= value <= MAX_FAN) and not (relative and int(relative[2] or 0) <= MAX_FAN):
        raise ScoringError("bad_option", f"{where}: expected a whole number 0..{MAX_FAN} or 'cap'/'cap+N', "
                           f"got {value!r}", field=where)


def _apply_fan_overrides(tables: dict[str, dict[str, Any]], overrides: Any) -> None:
    if not isinstance(overrides, dict):
        raise ScoringError("bad_option", "options.fans: expected an object of pattern id -> value",
                           field="options.fans")
    for pid, value in overrides.items():
        homes = [table for table, entries in tables.items() if pid in entries]
        if not homes:
            known = sorted(pid for entries in tables.values() for pid in entries)
            raise ScoringError("unknown_option", f"options.fans.{pid}: this rule set does not score it; "
                               f"known: {known}", field=f"options.fans.{pid}")
        _check_fan_value(value, f"options.fans.{pid}")
        for table in homes:
            tables[table][pid] = value


def _resolve(value: int | str, cap: int, where: str) -> int:
    if isinstance(value, int):
        return value
    if cap < 0:
        raise ScoringError("bad_option", f"{where}: {value!r} needs a cap, but this rule set has none", field=where)
    return cap + int(value[4:] or 0)


def _problems(check: Any, *args: Any) -> list[str]:
    try:
        check(*args)
    except ScoringError as error:
        return [error.message]
    return []


HK_OPTIONS = ("spicy", "discard_payment")  # the options the hk points model reads


def _pattern_map_problems(raw: dict[str, Any]) -> list[str]:
    """`[names]`: pattern id -> a Chinese name; `[excludes]`: pattern id -> the pattern ids it removes."""
    problems = [f"names.{pid}: unknown pattern, or not a name" for pid, zh in raw.get("names", {}).items()
                if pid not in PATTERNS or not isinstance(zh, str) or not zh]
    for pid, ids in raw.get("excludes", {}).items():
        if pid not in PATTERNS or not isinstance(ids, list) or not set(ids) <= set(PATTERNS):
            problems.append(f"excludes.{pid}: a known pattern id -> a list of known pattern ids")
    return problems


def _variant_problems(raw: dict[str, Any]) -> list[str]:
    """`variants.OPTION.VALUE.TABLE`: a string option of the file, one of its values, a value table of known
    patterns."""
    problems = []
    for option, variants in raw.get("variants", {}).items():
        allowed = OPTIONS.get(option, (None, None))[1]
        if option not in raw.get("options", {}) or not isinstance(allowed, tuple):
            problems.append(f"variants.{option}: not a string option of this rule set")
            continue
        for value, tables in variants.items():
            where = f"variants.{option}.{value}"
            if value not in allowed or set(tables) - set(VALUE_TABLES):
                problems.append(f"{where}: values are {allowed}, tables {VALUE_TABLES}")
                continue
            for table, entries in tables.items():
                problems += _table_problems(f"{where}.{table}", entries)
    return problems


def _table_problems(where: str, entries: dict[str, Any]) -> list[str]:
    """A value table's problems: each entry a known pattern with a valid value."""
    problems = []
    for pid, value in entries.items():
        problems += [f"{where}.{pid}: unknown pattern"] if pid not in PATTERNS else \
            _problems(_check_fan_value, value, f"{where}.{pid}")
    return problems


def _check_file(name: str, raw: dict[str, Any]) -> None:
    """A malformed rule set file is a programming error: fail loudly, naming the key."""
    known = {"name", "order", "zh", "en", "points", "options", "kongs", "rotation", "clamp", "names", "excludes",
             "variants", *VALUE_TABLES}
    problems = [f"unknown key {key!r}" for key in raw if key not in known]
    problems += [f"missing {key!r}" for key in ("name", "zh", "en", "points", "options") if key not in raw]
    if raw.get("name") != name:
        problems.append(f"name {raw.get('name')!r} differs from the file name")
    if raw.get("points") not in POINTS_MODELS:
        problems.append(f"points must be one of {POINTS_MODELS}")
    if raw.get("points") == "hk":
        problems += [f"options.{key}: the hk points model needs it" for key in HK_OPTIONS
                     if key not in raw.get("options", {})]
    if type(raw.get("order", 0)) is not int:
        problems.append("order must be a whole number")
    if raw.get("clamp", "hands") not in CLAMPS:
        problems.append(f"clamp must be one of {CLAMPS}")
    problems += _pattern_map_problems(raw) + _variant_problems(raw)
    for key, value in raw.get("options", {}).items():
        known = key in OPTIONS
        problems += _problems(_check_option_value, key, value) if known else [f"options.{key}: unknown option"]
    for table in VALUE_TABLES:
        problems += _table_problems(table, raw.get(table, {}))
    for kind, payers in raw.get("kongs", {}).items():
        if kind not in KONG_KINDS or set(payers) - set(KONG_PAYERS):
            problems.append(f"kongs.{kind}: kinds are {KONG_KINDS}, payers {KONG_PAYERS}")
        problems += [f"kongs.{kind}.{payer}: units must be a number >= 0" for payer, units in payers.items()
                     if type(units) not in (int, float) or units < 0]
    if "draw" in raw.get("rotation", {}) and "rotation_draw" in raw.get("options", {}):
        problems.append("rotation.draw: option rotation_draw chooses it; give one of them")
    for key, value in raw.get("rotation", {}).items():
        if key not in ROTATION_CHOICES:
            problems.append(f"rotation.{key}: unknown; the keys are {list(ROTATION_CHOICES)}")
        elif value not in ROTATION_CHOICES[key]:
            problems.append(f"rotation.{key}: {value!r} is not one of {ROTATION_CHOICES[key]}")
    if problems:
        raise ValueError(f"rule set file {name}.toml: " + "; ".join(problems))
