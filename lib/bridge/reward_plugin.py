"""Trajectory Studio reward functions for GUI-agent GRPO (standard library only).

Written by `npm run studio -- bridge reward-plugin --out <dir>`. Three rules:
    ui_s1           UI-S1's training reward exactly (gui_action_match_compute_score on the check_options
                    TrajDataset.fix_line builds; github.com/X-PLUG/MobileAgent UI-S1 at commit
                    11cea575561fb7800b5fb6b6cafa56f7a91de11f, MIT), quirks included; an independent
                    implementation checked against vectors computed by running UI-S1's own code
                    (lib/bridge/vectors/ui-s1-reward-vectors.json).
    studio_lenient  the studio's forgiving variant (tolerant parser, every candidate box, finger-path swipes).
    mobile_r1       Mobile-R1's Stage-2 action-level reward as its paper states it.
studio_lenient and mobile_r1 are line-for-line ports of lib/domain/rewards.ts plus the response parser it
uses (lib/domain/model-output.ts, normalize.ts); lib/bridge/reward-vectors.json is run against both.

Frames: the model's response is in the frame its row declares (`coords`): absent or "qwen25-abs", the
RESIZED frame (`resized_wh`, what smart_resize gave at the export's max_pixels); "qwen3-rel1000", integers
0..1000 relative to the image (Qwen3-VL, GUI-Owl 1.5). The ground truth is in ORIGINAL screenshot pixels
(`orig_wh`).

Ground truth (ms-swift GRPO columns, or the JSON in verl's reward_model.ground_truth):
    gt_action       {"action": "click", "coordinate": [x, y]}  (dict or JSON string), original pixels
    gt_bbox         [x1, y1, x2, y2] or null, original pixels
    candidate_bbox  [[x1, y1, x2, y2], ...], original pixels
    orig_wh         [width, height]
    resized_wh      [width, height]
    annotation      "GOOD" | "HARMFUL" | "NEUTRAL"
    coords          "qwen3-rel1000" when the response's coordinates are 0..1000; absent means "qwen25-abs"
verl rows also hold UI-S1's own ground truth, check_options and num_steps (what TrajDataset.fix_line builds), so
UI-S1's gui_action_match_compute_score(solution, json.loads(ground_truth), extra_info) runs on them as is; the
functions here read the keys above.

Entry points:
    ms-swift: --external_plugins trajectory_studio_rewards.py
              --reward_funcs mobile_r1_action mobile_r1_format   (or ui_s1_step, or studio_lenient_step)
    verl:     custom_reward_function.path=trajectory_studio_rewards.py custom_reward_function.name=compute_score
              (data_source "trajectory_studio_ui_s1" selects UI-S1, "trajectory_studio_lenient" studio-lenient,
              anything else Mobile-R1)
    check:    python3 trajectory_studio_rewards.py --vectors reward-vectors.json
              python3 trajectory_studio_rewards.py --ui-s1-vectors ui-s1-reward-vectors.json
"""

import decimal
import json
import math
import re
import sys

UI_S1_DISTANCE = 0.04
UI_S1_BOX_SCALE = 1.2
DEFAULT_WAIT_SECONDS = 2
DEFAULT_LONG_PRESS_SECONDS = 2

# ---------------------------------------------------------------------------------------------
# Response parsing (port of lib/domain/model-output.ts and lib/domain/normalize.ts)
# ---------------------------------------------------------------------------------------------

# JavaScript's String.prototype.trim() character set (Python's strip() differs slightly).
_JS_WS = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_NEXT_TAG = re.compile(r"<(think|thinking|action|tool_call|conclusion)>")
# JavaScript's \s (the same set as trim()); Python's \s differs (it has U+001C..U+001F and U+0085, not U+FEFF).
_S = r"[\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_FENCE = re.compile(r"```[a-zA-Z]*" + _S + r"*([\s\S]*?)" + _S + r"*```")
_POINT_TEXT = re.compile((r"S*[\[(]?S*(-?[0-9.]+)S*,S*(-?[0-9.]+)S*[\])]?S*").replace("S", _S))
_RADIX_TEXT = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)")
_NUMBER_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|Infinity)")

ACTION_ALIASES = {
    "click": "click", "tap": "click", "longpress": "long_press", "swipe": "swipe", "scroll": "scroll",
    "type": "type", "inputtext": "type", "input": "type", "key": "key", "systembutton": "system_button",
    "open": "open", "openapp": "open", "launch": "open", "wait": "wait", "terminate": "terminate",
    "finish": "terminate", "status": "terminate", "answer": "answer", "navigateback": "back",
    "pressback": "back", "back": "back", "navigatehome": "home", "presshome": "home", "home": "home",
    "pressenter": "enter", "enter": "enter",
}
BUTTON_ALIASES = {
    "back": "Back", "home": "Home", "menu": "Menu", "enter": "Enter", "search": "Enter",
    "appselect": "Menu", "recent": "Menu",
}
STATUS_ALIASES = {
    "success": "success", "successful": "success", "succeeded": "success", "complete": "success",
    "completed": "success", "done": "success", "true": "success", "failure": "failure", "fail": "failure",
    "failed": "failure", "infeasible": "failure", "impossible": "failure", "incomplete": "failure",
    "false": "failure",
}


def _js_trim(s):
    return s.strip(_JS_WS)


def _key(s):
    return re.sub(_S[:-1] + r"_\-]", "", s.lower())


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _js_float(v):
    """The double JavaScript's JSON.parse makes of a JSON number (an int too large for a float is +-Infinity)."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _js_number_to_string(v):
    """String(n) for a JSON number, as JavaScript prints the double JSON.parse made of it (Number::toString)."""
    x = _js_float(v)
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    t = decimal.Decimal(repr(abs(x))).normalize().as_tuple()  # repr: the shortest round-trip digits, as JavaScript's
    digits = "".join(map(str, t.digits))
    point = len(digits) + t.exponent  # value = 0.<digits> x 10^point
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def _js_string(v):
    """String(v) as JavaScript prints it, for the values JSON can hold."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if _is_num(v):
        return _js_number_to_string(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return ",".join("" if x is None else _js_string(x) for x in v)
    return "[object Object]"


def _js_number(v):
    """Number(v) as JavaScript converts it (NaN as float('nan'))."""
    if v is None:
        return 0.0
    if v is True:
        return 1.0
    if v is False:
        return 0.0
    if _is_num(v):
        return _js_float(v)
    if isinstance(v, str):
        t = _js_trim(v)
        if t == "":
            return 0.0
        if _NUMBER_TEXT.fullmatch(t):
            return float(t.replace("Infinity", "inf"))
        if _RADIX_TEXT.fullmatch(t):  # Number("0x1f"), "0o17", "0b101" (no sign allowed)
            return _js_float(int(t[2:], {"x": 16, "o": 8, "b": 2}[t[1].lower()]))
        return float("nan")
    if isinstance(v, list):
        if len(v) == 0:
            return 0.0
        if len(v) == 1:
            return _js_number(_js_string(v[0]))
    return float("nan")


def _find_tag(text, names):
    for name in names:
        open_at = text.find("<%s>" % name)
        if open_at < 0:
            continue
        body_start = open_at + len(name) + 2
        close = text.find("</%s>" % name, body_start)
        if close >= 0:
            return {"name": name, "body": _js_trim(text[body_start:close]), "start": open_at, "closed": True}
        m = _NEXT_TAG.search(text, body_start)
        end = len(text) if m is None else m.start()
        return {"name": name, "body": _js_trim(text[body_start:end]), "start": open_at, "closed": False}
    return None


def _unfence(s):
    m = _FENCE.fullmatch(s)
    return _js_trim(m.group(1) if m else s)


def _to_point(x, y):
    return [x, y] if math.isfinite(x) and math.isfinite(y) else None


def _read_xy(x, y):
    if x is None or y is None:
        return None
    return _to_point(_js_number(x), _js_number(y))


def _read_point(v):
    if isinstance(v, str):
        m = _POINT_TEXT.fullmatch(v)
        if not m:
            return None
        return _to_point(_js_number(m.group(1)), _js_number(m.group(2)))
    if isinstance(v, list) and len(v) == 2:
        return _to_point(_js_number(v[0]), _js_number(v[1]))
    if isinstance(v, dict):
        return _read_xy(v.get("x"), v.get("y"))
    return None


def _reject_constant(name):
    raise ValueError("not JSON: %s" % name)


def normalize_action(raw):
    """Port of normalizeAction without a screen size: returns a canonical call dict or None."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw, parse_constant=_reject_constant)
        except (ValueError, RecursionError):  # nesting deeper than the interpreter allows is unreadable too
            return None
    if not isinstance(raw, dict):
        return None
    if isinstance(raw.get("arguments"), dict) and ("name" not in raw or isinstance(raw["name"], str)):
        if "name" in raw and raw["name"] != "mobile_use":
            return None
        raw = raw["arguments"]
    obj = raw
    raw_type = None
    for field in ("action", "action_type", "type_of_action"):
        if obj.get(field) is not None:
            raw_type = obj[field]
            break
    if not isinstance(raw_type, str) or _js_trim(raw_type) == "":
        return None
    alias = ACTION_ALIASES.get(_key(raw_type))
    if alias is None:
        return None
    problems = []

    def point(field):
        p = _read_point(obj.get(field))
        if p is None and field == "coordinate":
            p = _read_xy(obj.get("x"), obj.get("y"))
        if p is None:
            problems.append(field)
        return p

    def num(field, fallback=None):
        v = obj.get(field)
        if v is None or (isinstance(v, str) and v == ""):
            if fallback is not None:
                return fallback
            problems.append(field)
            return None
        n = _js_number(v)
        if not math.isfinite(n) or n < 0:
            problems.append(field)
        return v if _is_num(v) else n

    def text(*fields):
        for f in fields:
            if isinstance(obj.get(f), str):
                return obj[f]
        for f in fields:
            if _is_num(obj.get(f)):
                return _js_number_to_string(obj[f])
        problems.append(fields[0])
        return None

    if alias == "click":
        call = {"action": "click", "coordinate": point("coordinate")}
    elif alias == "long_press":
        call = {"action": "long_press", "coordinate": point("coordinate"), "time": num("time", DEFAULT_LONG_PRESS_SECONDS)}
    elif alias == "swipe":
        if "coordinate" not in obj and isinstance(obj.get("direction"), str):
            return None  # a direction-only scroll needs the screen size, which a reward never has
        call = {"action": "swipe", "coordinate": point("coordinate"), "coordinate2": point("coordinate2")}
    elif alias == "scroll":
        return None
    elif alias == "type":
        call = {"action": "type", "text": text("text", "content", "value")}
    elif alias == "key":
        call = {"action": "key", "text": text("text", "key")}
    elif alias == "open":
        call = {"action": "open", "text": text("text", "app_name", "app")}
    elif alias == "wait":
        call = {"action": "wait", "time": num("time", DEFAULT_WAIT_SECONDS)}
    elif alias == "answer":
        call = {"action": "answer", "text": text("text", "answer")}
    elif alias == "terminate":
        s = None
        for field in ("status", "goal_status", "result"):
            if obj.get(field) is not None:
                s = obj[field]
                break
        status = STATUS_ALIASES.get(_key("" if s is None else _js_string(s)))
        if status is None:
            problems.append("status")
        call = {"action": "terminate", "status": status}
    elif alias == "system_button":
        b = obj.get("button") if obj.get("button") is not None else obj.get("text")
        button = BUTTON_ALIASES.get(_key("" if b is None else _js_string(b)))
        if button is None:
            problems.append("button")
        call = {"action": "system_button", "button": button}
    elif alias == "back":
        call = {"action": "system_button", "button": "Back"}
    elif alias == "home":
        call = {"action": "system_button", "button": "Home"}
    elif alias == "enter":
        call = {"action": "system_button", "button": "Enter"}
    else:
        return None
    if problems:
        return None
    # The zod schema's remaining rule: key and open need non-empty text.
    if call["action"] in ("key", "open") and call["text"] == "":
        return None
    return call


def parse_model_output(raw):
    """Port of parseModelOutput: the parts a reward needs."""
    think = _find_tag(raw, ["think", "thinking"])
    action = _find_tag(raw, ["action"])
    tool = _find_tag(raw, ["tool_call"])
    action_is_json = action is not None and _unfence(action["body"]).startswith("{")
    if tool is not None:
        call_text = _unfence(tool["body"])
    elif action_is_json:
        call_text = _unfence(action["body"])
    else:
        call_text = None
    call = normalize_action(call_text) if call_text is not None else None
    present = [t for t in (think, action, tool) if t is not None]
    in_order = all(i == 0 or t["start"] > present[i - 1]["start"] for i, t in enumerate(present))

    def ok(t):
        return t is not None and t["closed"] and t["body"] != ""

    return {
        "tool_call": call,
        "tags": {"think": ok(think), "action": ok(action), "tool_call": ok(tool), "in_order": in_order},
    }


# ---------------------------------------------------------------------------------------------
# Rewards (port of lib/domain/rewards.ts)
# ---------------------------------------------------------------------------------------------


REL1000_SCALE = 1000


def prediction_frame(gt):
    """[width, height] the response's coordinates are divided by: resized_wh, or 1000 x 1000 under qwen3-rel1000."""
    if gt.get("coords") == "qwen3-rel1000":
        return [REL1000_SCALE, REL1000_SCALE]
    return gt["resized_wh"]


def _frames(gt):
    rw, rh = prediction_frame(gt)
    return {"ow": gt["orig_wh"][0], "oh": gt["orig_wh"][1], "rw": rw, "rh": rh}


def _pred_norm(p, f):
    return [p[0] / f["rw"], p[1] / f["rh"]]


def _gt_norm(p, f):
    return [p[0] / f["ow"], p[1] / f["oh"]]


def _box_norm(b, f):
    return [b[0] / f["ow"], b[1] / f["oh"], b[2] / f["ow"], b[3] / f["oh"]]


def _pred_to_original(p, f):
    return [(p[0] * f["ow"]) / f["rw"], (p[1] * f["oh"]) / f["rh"]]


def _in_box(p, b):
    return b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3]


def _scale_box(b, factor):
    cx = (b[0] + b[2]) / 2
    cy = (b[1] + b[3]) / 2
    hw = ((b[2] - b[0]) / 2) * factor
    hh = ((b[3] - b[1]) / 2) * factor
    return [cx - hw, cy - hh, cx + hw, cy + hh]


def _distance(a, b):
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return math.sqrt(dx * dx + dy * dy)


def _direction(a, b):
    dx = b[0] - a[0]
    dy = b[1] - a[1]
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def _first_point(call):
    return call.get("coordinate")


def _apply_annotation(raw, annotation):
    if annotation == "HARMFUL":
        return 1 - raw
    if annotation == "NEUTRAL":
        return 0.5
    return raw


def _mobile_r1_hit(pred, gt, f):
    p = _pred_norm(pred, f)
    if gt.get("gt_bbox"):
        return _in_box(p, _box_norm(gt["gt_bbox"], f))
    target = _first_point(gt["gt_action"])
    return target is not None and _distance(p, _gt_norm(target, f)) <= UI_S1_DISTANCE


def _lenient_hit(pred, gt, f):
    p = _pred_norm(pred, f)
    boxes = ([gt["gt_bbox"]] if gt.get("gt_bbox") else []) + list(gt.get("candidate_bbox") or [])
    if any(_in_box(p, _box_norm(_scale_box(b, UI_S1_BOX_SCALE), f)) for b in boxes):
        return True
    target = _first_point(gt["gt_action"])
    return target is not None and _distance(p, _gt_norm(target, f)) <= UI_S1_DISTANCE


def _same_swipe_direction(pred, g, f):
    if pred["action"] != "swipe" or g["action"] != "swipe":
        return False
    p = _direction(_pred_to_original(pred["coordinate"], f), _pred_to_original(pred["coordinate2"], f))
    return p == _direction(g["coordinate"], g["coordinate2"])


def _text_matches(pred, gt):
    a = pred.lower()
    b = gt.lower()
    if a == "":
        return b == ""
    return a in b or b in a


def _hit_for(pred, gt, f, hit):
    if gt["gt_action"]["action"] not in ("click", "long_press"):
        return None
    if pred is None or pred["action"] not in ("click", "long_press"):
        return False
    return hit(pred["coordinate"], gt, f)


def normalize_ground_truth(gt):
    """Accept gt_action as a JSON string (ms-swift column) or an object (verl ground_truth)."""
    gt = dict(gt)
    if isinstance(gt.get("gt_action"), str):
        gt["gt_action"] = json.loads(gt["gt_action"])
    gt.setdefault("gt_bbox", None)
    gt["candidate_bbox"] = list(gt.get("candidate_bbox") or [])
    gt.setdefault("annotation", "GOOD")
    # A misspelt convention would silently score every coordinate in the wrong frame: refuse it.
    if gt.get("coords") not in (None, "qwen25-abs", "qwen3-rel1000"):
        raise ValueError("ground truth coords must be qwen25-abs or qwen3-rel1000, got %r" % (gt.get("coords"),))
    return gt


_TOOL_ARGS = {
    "click": {"coordinate": "point"},
    "long_press": {"coordinate": "point", "time": "seconds"},
    "swipe": {"coordinate": "point", "coordinate2": "point"},
    "type": {"text": "str"},
    "key": {"text": "nonempty"},
    "system_button": {"button": ("Back", "Home", "Menu", "Enter")},
    "open": {"text": "nonempty"},
    "wait": {"time": "seconds"},
    "terminate": {"status": ("success", "failure")},
    "answer": {"text": "str"},
}


def _finite_number(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    try:
        x = float(v)
    except OverflowError:
        return None
    return x if math.isfinite(x) else None


def _tool_call(obj):
    """The mobile_use call exactly as the tool declares it (port of mobileUseCallSchema), or None."""
    if not isinstance(obj, dict) or obj.get("name") != "mobile_use" or not isinstance(obj.get("arguments"), dict):
        return None
    args = obj["arguments"]
    spec = _TOOL_ARGS.get(args.get("action")) if isinstance(args.get("action"), str) else None
    if spec is None or set(args) != set(spec) | {"action"}:
        return None
    call = {"action": args["action"]}
    for k, kind in spec.items():
        v = args[k]
        if kind == "point":
            if not isinstance(v, list) or len(v) != 2:
                return None
            pt = [_finite_number(v[0]), _finite_number(v[1])]
            if None in pt:
                return None
            call[k] = pt
        elif kind == "seconds":
            n = _finite_number(v)
            if n is None or n < 0:
                return None
            call[k] = n
        elif kind in ("str", "nonempty"):
            if not isinstance(v, str) or (kind == "nonempty" and v == ""):
                return None
            call[k] = v
        else:
            if v not in kind:
                return None
            call[k] = v
    return call


def _closed_tag(text, name):
    start = text.find("<%s>" % name)
    if start < 0:
        return None
    close = text.find("</%s>" % name, start + len(name) + 2)
    if close < 0:
        return None
    return {"body": _js_trim(text[start + len(name) + 2:close]), "start": start}


def read_mobile_r1_response(response):
    """Port of readMobileR1Response: the first closed <think>, <action>, <tool_call>; the tool call is the
    <tool_call> body as JSON {"name": "mobile_use", "arguments": {...}} following the tool's schema exactly."""
    think, action, tool = (_closed_tag(response, n) for n in ("think", "action", "tool_call"))
    call = None
    if tool is not None:
        try:
            call = _tool_call(json.loads(tool["body"], parse_constant=_reject_constant))
        except (ValueError, RecursionError):  # never raise into the trainer on a model's output
            call = None
    ok = (
        think is not None and action is not None and tool is not None
        and think["body"] != "" and action["body"] != "" and tool["body"] != ""
        and think["start"] < action["start"] < tool["start"] and call is not None
    )
    return call, ok


def mobile_r1_reward(response, gt):
    """Mobile-R1 Stage-2 reward as the paper states it: format (0/1) + action (0/1); where the paper is
    silent: no-box clicks by 0.04 distance, swipes by direction (+ start in the box), HARMFUL inverts, NEUTRAL 0.5."""
    gt = normalize_ground_truth(gt)
    pred, ok = read_mobile_r1_response(response)
    f = _frames(gt)
    fmt = 1 if ok else 0
    g = gt["gt_action"]
    type_match = pred is not None and pred["action"] == g["action"]
    match = False
    if type_match:
        if g["action"] in ("click", "long_press"):
            match = _mobile_r1_hit(pred["coordinate"], gt, f)
        elif g["action"] == "swipe":
            match = _same_swipe_direction(pred, g, f) and (
                not gt.get("gt_bbox") or _in_box(_pred_norm(pred["coordinate"], f), _box_norm(gt["gt_bbox"], f))
            )
        else:
            match = sorted(pred.items()) == sorted(g.items())
    action = _apply_annotation(1 if match else 0, gt["annotation"])
    return {
        "format": fmt, "action": action, "score": fmt + action, "parsed": pred is not None,
        "type_match": type_match, "extract_match": match, "hit": _hit_for(pred, gt, f, _mobile_r1_hit),
    }


def studio_lenient_reward(response, gt):
    """studio-lenient: the studio's forgiving variant of UI-S1's step reward (NOT UI-S1's numbers):
    0.1 * format + 0.9 * action (1 / 0.5 type only / 0.1 wrong type / 0 unparsed)."""
    gt = normalize_ground_truth(gt)
    out = parse_model_output(response)
    f = _frames(gt)
    pred = out["tool_call"]
    fmt = 1 if out["tags"]["think"] else 0
    g = gt["gt_action"]
    type_match = pred is not None and pred["action"] == g["action"]
    match = False
    if type_match:
        a = g["action"]
        if a in ("click", "long_press"):
            match = _lenient_hit(pred["coordinate"], gt, f)
        elif a == "swipe":
            match = _same_swipe_direction(pred, g, f)
        elif a in ("type", "key", "open", "answer"):
            match = _text_matches(pred["text"], g["text"])
        elif a == "system_button":
            match = pred["button"].lower() == g["button"].lower()
        elif a == "terminate":
            match = pred["status"] == g["status"]
        elif a == "wait":
            match = True
    if pred is None:
        raw = 0
    elif match:
        raw = 1
    elif type_match:
        raw = 0.5
    else:
        raw = 0.1
    action = _apply_annotation(raw, gt["annotation"])
    return {
        "format": fmt, "action": action, "score": 0.1 * fmt + 0.9 * action, "parsed": pred is not None,
        "type_match": type_match, "extract_match": match, "hit": _hit_for(pred, gt, f, _lenient_hit),
    }


# ---------------------------------------------------------------------------------------------
# ui-s1: UI-S1's training reward, exactly (port of lib/domain/ui-s1-reward.ts)
# ---------------------------------------------------------------------------------------------

UI_S1_COMMIT = "11cea575561fb7800b5fb6b6cafa56f7a91de11f"


def _ui_s1_tag(text, tag):
    """The first <tag>...</tag> (non-greedy, across lines), str.strip()ped; None when absent or unclosed."""
    start = text.find("<%s>" % tag)
    if start < 0:
        return None
    start += len(tag) + 2
    end = text.find("</%s>" % tag, start)
    if end < 0:
        return None
    return text[start:end].strip()


def _ui_s1_norm(action, width, height, gt_side):
    """Normalise coordinate / coordinate2 (and a 4-entry candidate_bbox, read as one box) by the frame.
    Raises exactly where UI-S1 does: a non-dict action, coordinates that are not numbers, ..."""
    action = dict(action) if isinstance(action, dict) else action
    boxes = []
    if "candidate_bbox" in action and len(action["candidate_bbox"]) == 4:
        x1, y1, x2, y2 = action["candidate_bbox"]
        boxes = [[x1 / width, y1 / height, x2 / width, y2 / height]]
    for k in ("coordinate", "coordinate2"):
        if k in action:
            v = action[k]
            action[k] = [v[0] / width, v[1] / height]
    return action, boxes


def _ui_s1_click(click, boxes, point):
    for x1, y1, x2, y2 in boxes:
        xc, yc = (x1 + x2) / 2, (y1 + y2) / 2
        w, h = (x2 - x1) * UI_S1_BOX_SCALE, (y2 - y1) * UI_S1_BOX_SCALE
        if xc - w / 2 <= click[0] <= xc + w / 2 and yc - h / 2 <= click[1] <= yc + h / 2:
            return True
    if point is None:
        return False
    dx, dy = point[0] - click[0], point[1] - click[1]
    return math.sqrt(dx * dx + dy * dy) <= UI_S1_DISTANCE


def _ui_s1_text(pred, gt):
    a = pred.lower().strip()
    b = gt.lower().strip()
    return a in b or b in a


def _ui_s1_match(pred, check, width, height, resized_width, resized_height):
    """(type_match, extract_match) as UI-S1's check_response_match gives them."""
    pred, _ = _ui_s1_norm(pred, resized_width, resized_height, False)
    check, boxes = _ui_s1_norm(check, width, height, True)
    g = check["action"]
    if g in ("wait", "terminate"):
        return (True, True) if pred["action"] == g else (False, False)
    if g == "system_button":
        if pred["action"] != "system_button":
            return False, False
        return True, check["button"].lower().strip() == pred["button"].lower().strip()
    if g in ("type", "answer", "key"):
        return (True, _ui_s1_text(pred["text"], check["text"])) if pred["action"] == "type" else (False, False)
    if g == "open":
        return (True, _ui_s1_text(pred["text"], check["text"])) if pred["action"] == "open" else (False, False)
    if g == "swipe":
        if pred["action"] != "swipe":
            return False, False
        want = check["direction"] if "direction" in check else _direction(check["coordinate"], check["coordinate2"])
        want = {"up": "down", "down": "up"}.get(want, want)
        return True, _direction(pred["coordinate"], pred["coordinate2"]) == want
    if g in ("click", "long_press"):
        if pred["action"] != g:
            return False, False
        return True, _ui_s1_click(pred["coordinate"], boxes if "candidate_bbox" in check else [], check["coordinate"])
    return False, False


def ui_s1_check_options(gt):
    """TrajDataset.fix_line on the step `bridge traj` writes: the call, the target box as candidate_bbox
    (other candidate boxes are not part of it), and the annotation."""
    check = dict(gt["gt_action"])
    if gt.get("gt_bbox"):
        check["bbox"] = list(gt["gt_bbox"])
    check["annotation"] = gt.get("annotation") or "GOOD"
    check["candidate_bbox"] = list(gt["gt_bbox"]) if gt.get("gt_bbox") else []
    return check


def ui_s1_reward(response, gt):
    """UI-S1's training reward exactly: 0.1 * format + 0.9 * action, on UI-S1's response layout
    <think>...</think><action>{"action": ...}</action>; anything UI-S1's code raises on scores as it does there."""
    gt = normalize_ground_truth(gt)
    check = ui_s1_check_options(gt)
    (w, h), (rw, rh) = gt["orig_wh"], prediction_frame(gt)
    fmt, action, type_match, extract_match, parsed = 0.0, 0.0, False, False, False
    try:
        think = _ui_s1_tag(response, "think")
        action_text = _ui_s1_tag(response, "action")
        pred = json.loads(action_text)
        parsed = True
        fmt = 1.0 if think is not None and think.strip() else 0.0
        type_match, extract_match = _ui_s1_match(pred, check, w, h, rw, rh)
        action = (1.0 if extract_match else 0.5) if type_match else 0.1
        if check["annotation"] == "HARMFUL":
            action = 1 - action
        elif check["annotation"] == "NEUTRAL":
            action = 0.5
    except Exception:  # UI-S1 catches everything here too
        pass
    coordinate_gt = gt["gt_action"]["action"] in ("click", "long_press")
    return {
        "format": fmt, "action": action, "score": fmt * 0.1 + action * 0.9, "parsed": parsed,
        "type_match": type_match, "extract_match": extract_match,
        "hit": (type_match and extract_match) if coordinate_gt else None,
    }


# ---------------------------------------------------------------------------------------------
# verl entry point
# ---------------------------------------------------------------------------------------------

UI_S1_DATA_SOURCE = "trajectory_studio_ui_s1"
LENIENT_DATA_SOURCE = "trajectory_studio_lenient"


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    """verl custom reward: ground_truth is the JSON string (or dict) the bridge wrote."""
    gt = json.loads(ground_truth) if isinstance(ground_truth, str) else ground_truth
    if data_source == UI_S1_DATA_SOURCE:
        result = ui_s1_reward(solution_str, gt)
    elif data_source == LENIENT_DATA_SOURCE:
        result = studio_lenient_reward(solution_str, gt)
    else:
        result = mobile_r1_reward(solution_str, gt)
    return {
        "score": float(result["score"]),
        "format": float(result["format"]),
        "action": float(result["action"]),
        "type_match": float(result["type_match"]),
        "extract_match": float(result["extract_match"]),
    }


# ---------------------------------------------------------------------------------------------
# ms-swift entry point (only when ms-swift is installed)
# ---------------------------------------------------------------------------------------------


def _rows(completions, kwargs):
    keys = ("gt_action", "gt_bbox", "candidate_bbox", "orig_wh", "resized_wh", "annotation", "coords")
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else completion[-1]["content"]
        yield text, {k: kwargs[k][i] for k in keys if k in kwargs}


try:  # pragma: no cover - exercised only inside ms-swift
    from swift.plugin import ORM, orms

    class MobileR1ActionReward(ORM):
        """Mobile-R1 action reward only (use with mobile_r1_format for the Stage-2 total)."""

        def __call__(self, completions, **kwargs):
            return [float(mobile_r1_reward(t, gt)["action"]) for t, gt in _rows(completions, kwargs)]

    class MobileR1FormatReward(ORM):
        """Mobile-R1 format reward: <think>, <action>, <tool_call> in order with a readable call."""

        def __call__(self, completions, **kwargs):
            return [float(mobile_r1_reward(t, gt)["format"]) for t, gt in _rows(completions, kwargs)]

    class UIS1StepReward(ORM):
        """UI-S1's training reward exactly: 0.1 * format + 0.9 * action."""

        def __call__(self, completions, **kwargs):
            return [float(ui_s1_reward(t, gt)["score"]) for t, gt in _rows(completions, kwargs)]

    class StudioLenientStepReward(ORM):
        """studio-lenient: the studio's forgiving variant of UI-S1's step reward."""

        def __call__(self, completions, **kwargs):
            return [float(studio_lenient_reward(t, gt)["score"]) for t, gt in _rows(completions, kwargs)]

    orms["mobile_r1_action"] = MobileR1ActionReward
    orms["mobile_r1_format"] = MobileR1FormatReward
    orms["ui_s1_step"] = UIS1StepReward
    orms["studio_lenient_step"] = StudioLenientStepReward
except ImportError:
    pass


def _run_vectors(path):
    with open(path, encoding="utf-8") as fh:
        vectors = json.load(fh)["vectors"]
    results = []
    for v in vectors:
        results.append({
            "name": v["name"],
            "mobile_r1": mobile_r1_reward(v["response"], v["gt"]),
            "studio_lenient": studio_lenient_reward(v["response"], v["gt"]),
        })
    json.dump(results, sys.stdout, ensure_ascii=False)


def _run_ui_s1_vectors(path):
    with open(path, encoding="utf-8") as fh:
        vectors = json.load(fh)["vectors"]
    results = [dict(ui_s1_reward(v["response"], v["gt"]), name=v["name"]) for v in vectors]
    json.dump(results, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--vectors":
        _run_vectors(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--ui-s1-vectors":
        _run_ui_s1_vectors(sys.argv[2])
    else:
        sys.stderr.write("usage: python3 %s --vectors reward-vectors.json | --ui-s1-vectors ui-s1-reward-vectors.json\n" % sys.argv[0])
        sys.exit(2)
