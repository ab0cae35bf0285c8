"""Mahjong Soul game logs (the JSON export of a game record) as game records.

Accepted shape: ``{"head": {"uuid", "accounts": [{"seat", "nickname"}], "config": {"mode":
{"mode", "detail_rule": {"init_point", "fandian", "dora_count"}}}, "result": {"players":
[{"seat", "part_point_1", "total_point"}]}}, "data"|"records"|"actions": [{"name", "data"}]}``
with the record names ``RecordNewRound`` (``chang``, ``ju``, ``ben``, ``liqibang``,
``scores``), ``RecordDiscardTile`` (``seat``, ``is_liqi``, ``is_wliqi``),
``RecordAnGangAddGang`` (``seat``: a robbed quad), ``RecordHule`` (``hules``: ``seat``,
``zimo``, ``count`` (han), ``fu``, ``yiman``, ``fans`` [{``id``, ``val``}]; ``baopai``: the
liable seat + 1; ``scores`` after the hand), ``RecordNoTile`` (``liujumanguan``,
``players`` [{``tingpai``}], ``scores`` [{``old_scores``, ``delta_scores``}]) and
``RecordLiuJu`` (an abortive draw). ``Action...`` names and the ``.lq.`` prefix are accepted.
Seats missing from an object are seat 0 (the export leaves protobuf defaults out).

The ruleset is ``tenhou`` (the same common online settings) with the start and return points
of the room's ``detail_rule``; the check against the site's points (``compare``) shows where
Mahjong Soul's rules differ, hand by hand.
"""

from __future__ import annotations

from typing import Any

from .common import LogError, OnlineGame

FORMAT = "riichi-game-record/1"
_EAST_ONLY_OR_SANMA = {1, 11, 12, 21, 22}  # head.config.mode.mode: 2 is a 4-player south game


def _name(entry: Any) -> str:
    raw = str(entry.get("name", "")) if isinstance(entry, dict) else ""
    raw = raw.removeprefix(".lq.")
    for prefix in ("Record", "Action"):
        raw = raw.removeprefix(prefix)
    return raw


def _seat(obj: dict[str, Any]) -> int:
    seat = int(obj.get("seat", 0) or 0)
    if not 0 <= seat < 4:
        raise LogError(f"seat {seat} is not 0..3")
    return seat


def parse_mahjongsoul(doc: dict[str, Any]) -> OnlineGame:
    head = doc.get("head")
    if not isinstance(head, dict):
        raise LogError('a Mahjong Soul log needs "head"')
    names = ["", "", "", ""]
    for account in head.get("accounts") or []:
        if isinstance(account, dict):
            names[_seat(account)] = str(account.get("nickname", ""))
    config = _obj(head, "config")
    mode = _obj(config, "mode")
    if int(mode.get("mode", 2) or 2) in _EAST_ONLY_OR_SANMA:
        raise LogError(
            "only 4-player south games (mode 2) are supported, not east-only or 3-player games"
        )
    if sum(1 for n in names if n) < 4:
        raise LogError("the log names fewer than 4 players (head.accounts)")
    detail = _obj(mode, "detail_rule")
    rules: dict[str, Any] = {}
    if detail.get("init_point"):
        rules["start_points"] = int(detail["init_point"])
    if detail.get("fandian"):
        rules["return_points"] = int(detail["fandian"])
    if "dora_count" in detail and int(detail["dora_count"] or 0) == 0:
        rules["aka_dora"] = 0
    actions = doc.get("data") or doc.get("records") or doc.get("actions")
    if not isinstance(actions, list) or not actions:
        raise LogError('no records: the log needs "data", "records" or "actions" (a list)')

    hands: list[dict[str, Any]] = []
    starts: list[list[int]] = []
    last_after: list[int] | None = None
    riichi: list[int] = []
    pending: int | None = None  # the seat whose riichi discard is the last discard
    last_actor: int | None = None
    open_hand = False
    for entry in actions:
        kind = _name(entry)
        data = entry.get("data") if isinstance(entry, dict) else None
        if not isinstance(data, dict):
            continue
        index = len(hands)
        if kind == "NewRound":
            if open_hand:
                raise LogError("a hand without a result", hand=index)
            scores = data.get("scores")
            if not isinstance(scores, list) or len(scores) != 4:
                raise LogError("NewRound needs 4 scores (3-player games are not supported)",
                               hand=index)  # fmt: skip
            starts.append([int(s) for s in scores])
            riichi, pending, last_actor, open_hand = [], None, None, True
            continue
        if not open_hand:
            continue
        if kind == "DiscardTile":
            if pending is not None:
                riichi.append(pending)  # the riichi discard was not won on: accepted
                pending = None
            seat = _seat(data)
            last_actor = seat
            if data.get("is_liqi") or data.get("is_wliqi"):
                pending = seat
        elif kind in ("AnGangAddGang", "ChiPengGang", "DealTile"):
            if pending is not None:
                riichi.append(pending)
                pending = None
            if kind == "AnGangAddGang":
                last_actor = _seat(data)
        elif kind == "Hule":
            hules = data.get("hules")
            if not isinstance(hules, list) or not hules:
                raise LogError("Hule without hules", hand=index)
            wins = [_win(h, data, index) for h in hules]
            tsumo = bool(hules[0].get("zimo"))
            if tsumo:
                if pending is not None:
                    riichi.append(pending)
                hands.append({"outcome": "tsumo", "riichi": sorted(riichi), "wins": wins})
            else:
                if last_actor is None:
                    raise LogError("a ron without a discard", hand=index)
                if pending is not None and pending != last_actor:
                    riichi.append(pending)
                hands.append(
                    {"outcome": "ron", "riichi": sorted(riichi), "loser": last_actor,
                     "wins": wins}
                )  # fmt: skip
            last_after = _ints4(data.get("scores"))
            open_hand = False
        elif kind == "NoTile":
            if pending is not None:
                riichi.append(pending)
            players = data.get("players") or []
            tenpai = [
                s for s, p in enumerate(players[:4]) if isinstance(p, dict) and p.get("tingpai")
            ]
            deltas = [0, 0, 0, 0]
            old: list[int] | None = None
            for part in data.get("scores") or []:
                if not isinstance(part, dict):
                    continue
                old = old or _ints4(part.get("old_scores"))
                for s, d in enumerate(_ints4(part.get("delta_scores")) or [0, 0, 0, 0]):
                    deltas[s] += d
            if data.get("liujumanguan"):
                nagashi = [s for s in range(4) if deltas[s] > 0]
                hands.append({"outcome": "nagashi", "riichi": sorted(riichi),
                              "nagashi": nagashi, "tenpai": tenpai})  # fmt: skip
            else:
                hands.append({"outcome": "draw", "riichi": sorted(riichi), "tenpai": tenpai})
            last_after = [o + d for o, d in zip(old, deltas, strict=True)] if old else None
            open_hand = False
        elif kind == "LiuJu":
            if pending is not None:
                riichi.append(pending)
            hands.append({"outcome": "abortive", "riichi": sorted(riichi)})
            last_after = None
            open_hand = False
    if not hands:
        raise LogError("the log has no finished hand")
    site_scores = starts[1 : len(hands)]
    if last_after is not None and len(site_scores) == len(hands) - 1:
        site_scores.append(last_after)
    final: list[int] | None = None
    result = _obj(head, "result")
    players = _list(result, "players")
    if len(players) == 4:
        final = [0, 0, 0, 0]
        for p in players:
            final[_seat(p)] = int(p.get("part_point_1", 0) or 0)
    record: dict[str, Any] = {"format": FORMAT, "ruleset": "tenhou", "players": names}
    if rules:
        record["rules"] = rules
    record["hands"] = hands
    return OnlineGame(
        site="mahjongsoul",
        names=names,
        record=record,
        site_scores=site_scores,
        site_final=final,
        log_id=str(head.get("uuid", "")),
    )


def _obj(parent: dict[str, Any], key: str) -> dict[str, Any]:
    value = parent.get(key)
    return value if isinstance(value, dict) else {}


def _list(parent: dict[str, Any], key: str) -> list[Any]:
    value = parent.get(key)
    return value if isinstance(value, list) else []


def _ints4(value: Any) -> list[int] | None:
    if isinstance(value, list) and len(value) == 4:
        return [int(v) for v in value]
    return None


def _win(h: dict[str, Any], data: dict[str, Any], index: int) -> dict[str, Any]:
    if not isinstance(h, dict):
        raise LogError("a hule must be an object", hand=index)
    win: dict[str, Any] = {"winner": _seat(h)}
    if h.get("yiman"):
        win["yakuman"] = max(1, int(h.get("count", 1) or 1))
        baopai = int(data.get("baopai", 0) or 0)
        if baopai > 0 and baopai - 1 != win["winner"]:
            win["pao"] = baopai - 1
        return win
    han = int(h.get("count", 0) or 0)
    if han < 1:
        raise LogError("a win needs its han (count)", hand=index)
    win["han"] = han
    if han < 5:
        win["fu"] = int(h.get("fu", 0) or 0)
    return win
