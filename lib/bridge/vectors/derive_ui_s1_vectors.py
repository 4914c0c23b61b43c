"""Derive the UI-S1 reward and SOP vector tables by running UI-S1's own Python.

    python3 derive_ui_s1_vectors.py <UI-S1 checkout> <studio reward-vectors.json> <out dir>

<UI-S1 checkout> is the UI-S1 folder of github.com/X-PLUG/MobileAgent (MIT licence) at commit
11cea575561fb7800b5fb6b6cafa56f7a91de11f: it must hold verl/utils/reward_score/gui_traj.py,
verl/utils/reward_score/gui_utils/, verl/utils/dataset/rl_dataset.py, evaluation/ and x/.
Needs numpy, Pillow, requests, json5 and tqdm. torch, datasets, omegaconf, transformers, qwen_vl_utils
and verl's torch helpers are only imported by those files, never used on the paths run here, so they
are replaced by empty stand-in modules. Nothing upstream is modified or copied:
- the reward: TrajDataset.__getitem__ (its nested fix_line) builds check_options from a one-step line
  shaped like `bridge traj --target ui-s1` output, then gui_action_match_compute_score scores the response;
- SOP: eval_qwenvl.process_line runs each trajectory with call_mobile_agent_vllm (the model call) answering
  from the recorded predictions, on real PNG files of the given sizes.
Writes ui-s1-reward-vectors.json and ui-s1-sop-vectors.json into <out dir>. The tests never run this file.
"""

import contextlib
import copy
import io
import json
import math
import os
import sys
import tempfile
import types

UI_S1_COMMIT = "11cea575561fb7800b5fb6b6cafa56f7a91de11f"


def install_stand_ins():
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        sys.modules[name] = m
        return m

    class Anything:
        def __init__(self, *a, **k):
            pass

    torch = module("torch", Tensor=Anything)
    module("torch.utils")
    module("torch.utils.data", Dataset=object)
    torch.utils = sys.modules["torch.utils"]
    module("datasets")
    module("omegaconf", DictConfig=dict, ListConfig=list)
    module("qwen_vl_utils", process_vision_info=None)
    module("transformers", PreTrainedTokenizer=Anything, ProcessorMixin=Anything)
    module("verl.utils.torch_functional")
    module("verl.utils.model", compute_position_id_with_mask=None)


def load_upstream(root):
    install_stand_ins()
    sys.path.insert(0, root)
    sys.path.insert(0, os.path.join(root, "evaluation"))
    from verl.utils.reward_score.gui_traj import gui_action_match_compute_score
    from verl.utils.dataset.rl_dataset import TrajDataset
    import eval_qwenvl
    return gui_action_match_compute_score, TrajDataset, eval_qwenvl


# ---------------------------------------------------------------------------------------------
# The studio's steps in UI-S1's shape (as lib/bridge/traj.ts writes them)
# ---------------------------------------------------------------------------------------------


def traj_step(call, box=None, candidates=(), annotation="GOOD"):
    action_content = dict(call)
    if box is not None:
        action_content["bbox"] = list(box)
    boxes = []
    for b in ([box] if box is not None else []) + list(candidates):
        if list(b) not in boxes:
            boxes.append(list(b))
    return {"action_content": action_content, "annotation": annotation, "check_options": dict(call, candidate_bbox=boxes)}


def ground_truth(call, box=None, candidates=(), orig=(1000, 2000), resized=(500, 1000), annotation="GOOD"):
    """The GroundTruth wire shape of lib/domain/rewards.ts."""
    return {
        "gt_action": call,
        "gt_bbox": list(box) if box is not None else None,
        "candidate_bbox": [list(b) for b in candidates],
        "orig_wh": list(orig),
        "resized_wh": list(resized),
        "annotation": annotation,
    }


# ---------------------------------------------------------------------------------------------
# Reward cases
# ---------------------------------------------------------------------------------------------


def R(action, think="t"):
    """UI-S1 layout: <think> then <action> holding the JSON action."""
    return "<think>\n%s\n</think>\n<action>\n%s\n</action>" % (think, action)


def J(obj):
    return json.dumps(obj, ensure_ascii=False)


CLICK = {"action": "click", "coordinate": [500, 1000]}
BOX = [400, 900, 600, 1100]  # normalised [0.4, 0.45, 0.6, 0.55]; enlarged [0.38, 0.44, 0.62, 0.56]


def reward_cases():
    c = []

    def add(name, note, response, gt):
        c.append({"name": name, "note": note, "response": response, "gt": gt})

    click_gt = ground_truth(CLICK, BOX)
    # -- response layout and parsing (parse_tags + json.loads)
    add("format_ok_click_hit", "UI-S1 layout, click inside the target box", R(J({"action": "click", "coordinate": [250, 500]})), click_gt)
    add("format_no_think", "no <think>: format 0, action still scored", "<action>%s</action>" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("format_empty_think", "<think> holding only spaces", R(J({"action": "click", "coordinate": [250, 500]}), think="   "), click_gt)
    add("format_think_ideographic_space", "U+3000 is whitespace to str.strip()", R(J({"action": "click", "coordinate": [250, 500]}), think="\u3000"), click_gt)
    add("format_think_file_separator", "U+001C is whitespace to str.strip() (not to JavaScript's trim)", R(J({"action": "click", "coordinate": [250, 500]}), think="\x1c"), click_gt)
    add("format_think_bom", "U+FEFF is not whitespace to str.strip() (it is to JavaScript's trim)", R(J({"action": "click", "coordinate": [250, 500]}), think="\ufeff"), click_gt)
    add("format_thinking_tag", "<thinking> is not <think>", "<thinking>t</thinking>\n<action>%s</action>" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("format_unclosed_think", "<think> never closed", "<think>t\n<action>%s</action>" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("parse_unclosed_action", "no </action>: parse_response raises, everything 0", "<think>t</think><action>%s" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("parse_no_action", "think only", "<think>t</think>", click_gt)
    add("parse_empty_response", "empty string", "", click_gt)
    add("parse_fenced_json", "```json fence inside <action>", R("```json\n%s\n```" % J({"action": "click", "coordinate": [250, 500]})), click_gt)
    add("parse_broken_json", "missing closing brace", R('{"action": "click", "coordinate": [250, 500]'), click_gt)
    add("parse_trailing_comma", "trailing comma", R('{"action": "click", "coordinate": [250, 500],}'), click_gt)
    add("parse_single_quotes", "Python-style quotes", R("{'action': 'click', 'coordinate': [250, 500]}"), click_gt)
    add("parse_extra_data", "text after the JSON", R('{"action": "click", "coordinate": [250, 500]} then done'), click_gt)
    add("parse_mobile_r1_layout", "Mobile-R1 layout: prose in <action>, the call in <tool_call>", "<think>\nt\n</think>\n<action>\nclick it\n</action>\n<tool_call>\n%s\n</tool_call>" % J({"name": "mobile_use", "arguments": {"action": "click", "coordinate": [250, 500]}}), click_gt)
    add("parse_tool_call_only", "only a <tool_call>", "<think>t</think><tool_call>%s</tool_call>" % J({"name": "mobile_use", "arguments": {"action": "click", "coordinate": [250, 500]}}), click_gt)
    add("parse_mobile_use_wrapper_in_action", "the mobile_use wrapper inside <action>: no top-level action key", R(J({"name": "mobile_use", "arguments": {"action": "click", "coordinate": [250, 500]}})), click_gt)
    add("parse_first_action_tag_wins", "two <action> tags: the first is read", R(J({"action": "click", "coordinate": [10, 10]})) + "\n<action>%s</action>" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("parse_uppercase_tags", "<Think>/<Action> do not match", "<Think>t</Think><Action>%s</Action>" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("parse_action_inside_think", "<action> nested inside <think>", "<think>t <action>%s</action></think>" % J({"action": "click", "coordinate": [250, 500]}), click_gt)
    add("parse_nan_literal", "Python's json accepts NaN: it parses, then misses", R('{"action": "click", "coordinate": [NaN, 500]}'), click_gt)
    add("parse_infinity_literal", "Infinity parses too", R('{"action": "click", "coordinate": [Infinity, -Infinity]}'), click_gt)
    add("parse_exponent_numbers", "2.5e2 and 5E2 are floats", R('{"action": "click", "coordinate": [2.5e2, 5E2]}'), click_gt)
    add("parse_negative_zero", "-0", R('{"action": "click", "coordinate": [-0, 500]}'), ground_truth({"action": "click", "coordinate": [0, 1000]}, [0, 900, 50, 1100]))
    add("parse_huge_int_overflow", "an int too large for a float: int / int raises OverflowError", R('{"action": "click", "coordinate": [1%s, 500]}' % ("0" * 400)), click_gt)
    add("parse_huge_int_fits", "an int beyond 2**53 whose quotient still fits a float", R('{"action": "click", "coordinate": [%d, 500]}' % (2 ** 80 + 1)), click_gt)
    add("parse_int_too_many_digits", "5000 digits: json.loads refuses (int max str digits)", R('{"action": "click", "coordinate": [%s, 500]}' % ("9" * 5000)), click_gt)
    add("parse_deep_nesting_ok", "100 nested lists parse (then the action is not a dict)", R("[" * 100 + "]" * 100), click_gt)
    add("parse_deep_nesting_recursion", "5000 nested lists: RecursionError", R("[" * 5000 + "]" * 5000), click_gt)
    add("parse_control_char_in_string", "a raw newline inside a JSON string is invalid", R('{"action": "type", "text": "a\nb"}'), ground_truth({"action": "type", "text": "ab"}))
    add("parse_unicode_escape", "\\u escapes decode", R('{"action": "type", "text": "\\u725b\\u5976"}'), ground_truth({"action": "type", "text": "牛奶"}))
    add("parse_duplicate_keys", "a repeated key: the last wins", R('{"action": "click", "coordinate": [10, 10], "coordinate": [250, 500]}'), click_gt)
    # -- the JSON is not a dict
    add("shape_list", "a JSON list", R("[1, 2]"), click_gt)
    add("shape_list_with_coordinate_string", "a list holding the string 'coordinate'", R('["coordinate"]'), click_gt)
    add("shape_string", "a JSON string", R('"click"'), click_gt)
    add("shape_string_with_coordinate", "a JSON string containing 'coordinate'", R('"coordinate"'), click_gt)
    add("shape_number", "a JSON number", R("5"), click_gt)
    add("shape_null", "JSON null", R("null"), click_gt)
    add("shape_true", "JSON true", R("true"), click_gt)
    add("shape_empty_dict", "{}", R("{}"), click_gt)
    add("shape_action_not_string", "action is a number", R(J({"action": 1, "coordinate": [250, 500]})), click_gt)
    add("shape_no_action_key", "action_type instead of action", R(J({"action_type": "click", "coordinate": [250, 500]})), click_gt)
    # -- aliases and unknown actions
    add("alias_tap", "tap is not click", R(J({"action": "tap", "coordinate": [250, 500]})), click_gt)
    add("alias_click_capitalised", "Click is not click", R(J({"action": "Click", "coordinate": [250, 500]})), click_gt)
    add("alias_back", "back is not system_button", R(J({"action": "back"})), ground_truth({"action": "system_button", "button": "Back"}))
    add("alias_press_back", "press_back", R(J({"action": "press_back"})), ground_truth({"action": "system_button", "button": "Back"}))
    add("alias_finish", "finish is not terminate", R(J({"action": "finish", "status": "success"})), ground_truth({"action": "terminate", "status": "success"}))
    add("alias_input_text", "input_text is not type", R(J({"action": "input_text", "text": "hi"})), ground_truth({"action": "type", "text": "hi"}))
    add("alias_scroll_for_swipe", "scroll is not swipe", R(J({"action": "scroll", "direction": "up"})), ground_truth({"action": "swipe", "coordinate": [500, 1500], "coordinate2": [500, 500]}))
    add("unknown_action", "an action no space has", R(J({"action": "dance"})), click_gt)
    add("unknown_action_with_bad_coordinate", "unknown action, string coordinate: norm_coordinate raises first", R(J({"action": "dance", "coordinate": ["1", "2"]})), click_gt)
    # -- coordinates
    add("coord_strings", "coordinates as strings: str / int raises", R(J({"action": "click", "coordinate": ["250", "500"]})), click_gt)
    add("coord_one_string", "the coordinate as one string", R(J({"action": "click", "coordinate": "[250, 500]"})), click_gt)
    add("coord_single_value", "one number: IndexError", R(J({"action": "click", "coordinate": [250]})), click_gt)
    add("coord_three_values", "three numbers: the first two are used", R(J({"action": "click", "coordinate": [250, 500, 7]})), click_gt)
    add("coord_dict", "{x, y}: KeyError", R(J({"action": "click", "coordinate": {"x": 250, "y": 500}})), click_gt)
    add("coord_null", "null coordinate", R(J({"action": "click", "coordinate": None})), click_gt)
    add("coord_missing", "click without coordinate: KeyError", R(J({"action": "click"})), click_gt)
    add("coord_x_y_keys", "x and y keys instead of coordinate", R(J({"action": "click", "x": 250, "y": 500})), click_gt)
    add("coord_floats", "float coordinates", R(J({"action": "click", "coordinate": [250.5, 499.5]})), click_gt)
    add("coord_negative", "negative coordinates miss", R(J({"action": "click", "coordinate": [-5, -5]})), click_gt)
    add("coord_bools", "true / false count as 1 / 0", R(J({"action": "click", "coordinate": [True, False]})), ground_truth({"action": "click", "coordinate": [0, 0]}, [0, 0, 10, 10]))
    add("coord_bad_on_type_step", "a click with string coordinates against a type step: raises before the type check", R(J({"action": "click", "coordinate": ["1", "2"]})), ground_truth({"action": "type", "text": "hi"}))
    add("coord_bad_coordinate2_on_click", "a bad coordinate2 on a click still raises", R(J({"action": "click", "coordinate": [250, 500], "coordinate2": "x"})), click_gt)
    add("coord_pred_candidate_bbox_numbers", "a predicted candidate_bbox of 4 numbers is normalised and ignored", R(J({"action": "click", "coordinate": [250, 500], "candidate_bbox": [1, 2, 3, 4]})), click_gt)
    add("coord_pred_candidate_bbox_strings", "a predicted candidate_bbox of 4 strings raises", R(J({"action": "click", "coordinate": [250, 500], "candidate_bbox": ["a", "b", "c", "d"]})), click_gt)
    add("coord_pred_candidate_bbox_string4", "a predicted candidate_bbox that is a 4-character string raises", R(J({"action": "click", "coordinate": [250, 500], "candidate_bbox": "abcd"})), click_gt)
    add("coord_pred_candidate_bbox_other_len", "a predicted candidate_bbox of another length is left alone", R(J({"action": "click", "coordinate": [250, 500], "candidate_bbox": [[1, 2, 3, 4]]})), click_gt)
    add("coord_pred_candidate_bbox_number", "a predicted candidate_bbox that is a number: len() raises", R(J({"action": "click", "coordinate": [250, 500], "candidate_bbox": 4})), click_gt)
    # -- clicks
    add("click_inside_box", "centre of the box", R(J({"action": "click", "coordinate": [250, 500]})), click_gt)
    add("click_in_enlarged_margin", "outside the box, inside it enlarged 1.2x", R(J({"action": "click", "coordinate": [193, 500]})), click_gt)
    add("click_enlarged_border_x", "exactly on the enlarged left edge (x = 0.38)", R(J({"action": "click", "coordinate": [190, 500]})), click_gt)
    add("click_just_outside_enlarged", "just outside the enlarged box and beyond 0.04", R(J({"action": "click", "coordinate": [189, 500]})), click_gt)
    add("click_far", "far away: type match only", R(J({"action": "click", "coordinate": [10, 10]})), click_gt)
    add("click_no_box_within_distance", "no box, 0.03 from the point", R(J({"action": "click", "coordinate": [265, 500]})), ground_truth(CLICK))
    add("click_no_box_at_distance", "no box, exactly 0.04 to the right", R(J({"action": "click", "coordinate": [270, 500]})), ground_truth(CLICK))
    add("click_no_box_beyond_distance", "no box, 0.042 away", R(J({"action": "click", "coordinate": [271, 500]})), ground_truth(CLICK))
    add("click_in_candidate_not_target", "inside a candidate box that is not the target: fix_line keeps only the target box", R(J({"action": "click", "coordinate": [50, 100]})), ground_truth(CLICK, BOX, [[0, 0, 200, 400]]))
    add("click_candidates_without_target", "candidate boxes but no target box: distance only", R(J({"action": "click", "coordinate": [50, 100]})), ground_truth(CLICK, None, [[0, 0, 200, 400]]))
    add("click_degenerate_box_exact", "a zero-size box, hit exactly", R(J({"action": "click", "coordinate": [250, 500]})), ground_truth(CLICK, [500, 1000, 500, 1000]))
    add("click_long_press_for_click", "long_press is not click", R(J({"action": "long_press", "coordinate": [250, 500], "time": 2})), click_gt)
    add("click_click_for_long_press", "click is not long_press", R(J({"action": "click", "coordinate": [250, 500]})), ground_truth({"action": "long_press", "coordinate": [500, 1000], "time": 2}, BOX))
    add("long_press_hit_time_ignored", "long_press inside, another time", R(J({"action": "long_press", "coordinate": [250, 500], "time": 9})), ground_truth({"action": "long_press", "coordinate": [500, 1000], "time": 2}, BOX))
    add("click_qwen_frame_inside", "1080x2400 at 1092x2408: inside", R(J({"action": "click", "coordinate": [935, 406]})), ground_truth({"action": "click", "coordinate": [925, 405]}, [850, 350, 1000, 460], orig=(1080, 2400), resized=(1092, 2408)))
    add("click_qwen_frame_enlarged_edge", "1080x2400 at 1092x2408: near the enlarged right edge", R(J({"action": "click", "coordinate": [1026, 406]})), ground_truth({"action": "click", "coordinate": [925, 405]}, [850, 350, 1000, 460], orig=(1080, 2400), resized=(1092, 2408)))
    add("click_qwen_frame_outside", "1080x2400 at 1092x2408: beyond the enlarged edge", R(J({"action": "click", "coordinate": [1027, 406]})), ground_truth({"action": "click", "coordinate": [925, 405]}, [850, 350, 1000, 460], orig=(1080, 2400), resized=(1092, 2408)))
    # -- swipes
    up = {"action": "swipe", "coordinate": [500, 1500], "coordinate2": [500, 500]}
    add("swipe_same_path_up", "finger up on both sides: UI-S1 swaps the ground truth's up/down, so this is a type-only match", R(J({"action": "swipe", "coordinate": [250, 750], "coordinate2": [250, 250]})), ground_truth(up))
    add("swipe_opposite_path_matches", "finger down against a finger-up ground truth: matches after the swap", R(J({"action": "swipe", "coordinate": [250, 250], "coordinate2": [250, 750]})), ground_truth(up))
    add("swipe_left_no_swap", "left/right are not swapped", R(J({"action": "swipe", "coordinate": [400, 500], "coordinate2": [100, 500]})), ground_truth({"action": "swipe", "coordinate": [800, 1000], "coordinate2": [200, 1000]}))
    add("swipe_right_vs_left", "right against left", R(J({"action": "swipe", "coordinate": [100, 500], "coordinate2": [400, 500]})), ground_truth({"action": "swipe", "coordinate": [800, 1000], "coordinate2": [200, 1000]}))
    add("swipe_axis_by_normalised_frame", "ground truth 300 px right, 500 px up in 1000x2000: normalised 0.3 vs 0.25, so right", R(J({"action": "swipe", "coordinate": [100, 500], "coordinate2": [250, 375]})), ground_truth({"action": "swipe", "coordinate": [200, 1500], "coordinate2": [500, 1000]}))
    add("swipe_zero_length", "a swipe that does not move reads as up (then down after the swap)", R(J({"action": "swipe", "coordinate": [250, 500], "coordinate2": [250, 500]})), ground_truth({"action": "swipe", "coordinate": [500, 1000], "coordinate2": [500, 1000]}))
    add("swipe_missing_coordinate2", "KeyError", R(J({"action": "swipe", "coordinate": [250, 500]})), ground_truth(up))
    add("swipe_direction_only", "direction instead of points: KeyError", R(J({"action": "swipe", "direction": "down"})), ground_truth(up))
    add("swipe_start_outside_box_ignored", "a box on a swipe ground truth is not checked", R(J({"action": "swipe", "coordinate": [10, 250], "coordinate2": [10, 750]})), ground_truth(up, BOX))
    # -- text: type / answer / key / open
    ty = ground_truth({"action": "type", "text": "Hello World"})
    add("text_exact", "same text", R(J({"action": "type", "text": "Hello World"})), ty)
    add("text_case_and_spaces", "case and surrounding spaces ignored", R(J({"action": "type", "text": "  hello world\n"})), ty)
    add("text_pred_contained", "prediction inside the reference", R(J({"action": "type", "text": "world"})), ty)
    add("text_gt_contained", "reference inside the prediction", R(J({"action": "type", "text": "say hello world now"})), ty)
    add("text_different", "different text", R(J({"action": "type", "text": "goodbye"})), ty)
    add("text_empty_pred", "an empty prediction is contained in everything", R(J({"action": "type", "text": ""})), ty)
    add("text_whitespace_pred", "only spaces, stripped to empty", R(J({"action": "type", "text": " \u3000 "})), ty)
    add("text_empty_gt", "an empty reference is contained in everything", R(J({"action": "type", "text": "anything"})), ground_truth({"action": "type", "text": ""}))
    add("text_number", "a number as text: .lower() raises", R(J({"action": "type", "text": 123})), ground_truth({"action": "type", "text": "123"}))
    add("text_missing", "no text: KeyError", R(J({"action": "type"})), ty)
    add("text_chinese", "Chinese substring", R(J({"action": "type", "text": "牛奶"})), ground_truth({"action": "type", "text": "买牛奶"}))
    add("text_dotted_capital_i", "İ lowers to i + combining dot", R(J({"action": "type", "text": "İstanbul"})), ground_truth({"action": "type", "text": "i̇stanbul"}))
    add("text_final_sigma", "Σ at the end of a word lowers to ς", R(J({"action": "type", "text": "ΟΔΟΣ"})), ground_truth({"action": "type", "text": "οδος"}))
    add("text_half_surrogate", "half of a surrogate pair is not a substring in Python", R('{"action": "type", "text": "\\ud83d"}'), ground_truth({"action": "type", "text": "😀"}))
    add("answer_pred_answer", "an answer ground truth wants a type prediction: answer is a type mismatch", R(J({"action": "answer", "text": "42"})), ground_truth({"action": "answer", "text": "42"}))
    add("answer_pred_type", "a type prediction with the answer text matches", R(J({"action": "type", "text": "42"})), ground_truth({"action": "answer", "text": "42"}))
    add("key_pred_key", "a key ground truth wants a type prediction too", R(J({"action": "key", "text": "volume_up"})), ground_truth({"action": "key", "text": "volume_up"}))
    add("key_pred_type", "type with the key's text matches", R(J({"action": "type", "text": "VOLUME_UP"})), ground_truth({"action": "key", "text": "volume_up"}))
    add("open_match", "open, case-insensitive", R(J({"action": "open", "text": "file manager"})), ground_truth({"action": "open", "text": "File Manager"}))
    add("open_wrong_app", "open another app", R(J({"action": "open", "text": "Chrome"})), ground_truth({"action": "open", "text": "File Manager"}))
    add("open_click_on_icon", "a click on the icon does not count as open in training", R(J({"action": "click", "coordinate": [250, 500]})), ground_truth({"action": "open", "text": "File Manager"}, BOX))
    # -- system_button, terminate, wait
    back = ground_truth({"action": "system_button", "button": "Back"})
    add("button_lowercase", "case-insensitive", R(J({"action": "system_button", "button": "back"})), back)
    add("button_spaces", "stripped", R(J({"action": "system_button", "button": " Back "})), back)
    add("button_wrong", "Home for Back", R(J({"action": "system_button", "button": "Home"})), back)
    add("button_number", "a number: .lower() raises", R(J({"action": "system_button", "button": 1})), back)
    add("button_missing", "KeyError", R(J({"action": "system_button"})), back)
    add("button_text_key", "button name under text: KeyError", R(J({"action": "system_button", "text": "Back"})), back)
    add("terminate_status_differs", "terminate is matched on the type alone", R(J({"action": "terminate", "status": "failure"})), ground_truth({"action": "terminate", "status": "success"}))
    add("terminate_no_status", "no status at all still matches", R(J({"action": "terminate"})), ground_truth({"action": "terminate", "status": "success"}))
    add("terminate_for_click", "terminate against a click", R(J({"action": "terminate", "status": "success"})), click_gt)
    add("wait_time_differs", "wait is matched on the type alone", R(J({"action": "wait", "time": 99})), ground_truth({"action": "wait", "time": 2}))
    add("wait_for_terminate", "wait against terminate", R(J({"action": "wait", "time": 2})), ground_truth({"action": "terminate", "status": "success"}))
    # -- annotations
    for ann in ("HARMFUL", "NEUTRAL"):
        a = ann.lower()
        add("annotation_%s_match" % a, "full match", R(J({"action": "click", "coordinate": [250, 500]})), ground_truth(CLICK, BOX, annotation=ann))
        add("annotation_%s_type_only" % a, "type only", R(J({"action": "click", "coordinate": [10, 10]})), ground_truth(CLICK, BOX, annotation=ann))
        add("annotation_%s_wrong_type" % a, "wrong type", R(J({"action": "system_button", "button": "Back"})), ground_truth(CLICK, BOX, annotation=ann))
        add("annotation_%s_raises" % a, "check_response_match raises: the annotation is never applied", R(J({"action": "click", "coordinate": ["1", "2"]})), ground_truth(CLICK, BOX, annotation=ann))
        add("annotation_%s_unparsed" % a, "nothing parsed", "<think>t</think>", ground_truth(CLICK, BOX, annotation=ann))
    return c


# ---------------------------------------------------------------------------------------------
# SOP cases: trajectories of studio steps with one recorded response per step
# ---------------------------------------------------------------------------------------------


def sop_cases():
    def step(call, width=1080, height=2400, box=None, candidates=(), verdict="GOOD"):
        return {"call": call, "width": width, "height": height, "box": box, "candidates": [list(b) for b in candidates], "annotation": verdict}

    open_fm = step({"action": "open", "text": "File Manager"})
    click = step({"action": "click", "coordinate": [925, 405]}, box=[850, 350, 1000, 460], candidates=[[0, 300, 1080, 500]])
    back = step({"action": "system_button", "button": "Back"})
    swipe_up = step({"action": "swipe", "coordinate": [540, 1800], "coordinate2": [540, 600]})
    typ = step({"action": "type", "text": "牛奶"}, 720, 1280)
    wait = step({"action": "wait", "time": 2})
    term = step({"action": "terminate", "status": "success"})
    ans = step({"action": "answer", "text": "42"})
    big = step({"action": "click", "coordinate": [1500, 2000]}, 3000, 4000, box=[1400, 1900, 1600, 2100])

    A = lambda call: R(J(call))
    cases = [
        ("all_match", [open_fm, click, back], [A({"action": "open", "text": "file manager"}), A({"action": "click", "coordinate": [935, 406]}), A({"action": "system_button", "button": "back"})]),
        ("second_step_wrong", [open_fm, click, back], [A({"action": "open", "text": "File Manager"}), A({"action": "click", "coordinate": [10, 10]}), A({"action": "system_button", "button": "Back"})]),
        ("click_in_box_beyond_distance", [click, back], [A({"action": "click", "coordinate": [869, 374]}), A({"action": "system_button", "button": "Back"})]),
        ("click_in_candidate_only", [click], [A({"action": "click", "coordinate": [100, 406]})]),
        ("swipe_any_direction", [swipe_up, back], [A({"action": "swipe", "coordinate": [100, 100], "coordinate2": [900, 100]}), A({"action": "system_button", "button": "Back"})]),
        ("unparsable_third_step", [open_fm, back, back], [A({"action": "open", "text": "File Manager"}), A({"action": "system_button", "button": "Back"}), "<think>t</think><action>click</action>"]),
        ("terminate_reached", [back, term], [A({"action": "system_button", "button": "Back"}), A({"action": "terminate", "status": "success"})]),
        ("terminate_not_reached", [back, term], [A({"action": "system_button", "button": "Home"}), A({"action": "terminate", "status": "success"})]),
        ("answer_reached", [ans], [A({"action": "type", "text": "42"})]),
        ("wait_and_type", [wait, typ], [A({"action": "wait", "time": 5}), A({"action": "type", "text": "牛奶"})]),
        ("harmful_step_must_match", [back, step({"action": "click", "coordinate": [540, 1200]}, verdict="HARMFUL"), back], [A({"action": "system_button", "button": "Back"}), A({"action": "system_button", "button": "Back"}), A({"action": "system_button", "button": "Back"})]),
        ("open_by_click_without_top_level_bbox", [step({"action": "open", "text": "Files"}, box=[100, 100, 300, 300])], [A({"action": "click", "coordinate": [202, 201]})]),
        ("eval_frame_not_export_frame", [big], [A({"action": "click", "coordinate": [1498, 2002]})]),
        ("eval_frame_hit", [big], [A({"action": "click", "coordinate": [1358, 1820]})]),
        ("mobile_r1_layout", [back], ["<think>t</think><action>go back</action><tool_call>%s</tool_call>" % J({"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}})]),
        ("string_coordinates", [open_fm, click], [A({"action": "open", "text": "File Manager"}), A({"action": "click", "coordinate": ["935", "406"]})]),
    ]
    return [{"name": n, "steps": s, "responses": r} for n, s, r in cases]


# ---------------------------------------------------------------------------------------------
# Running upstream
# ---------------------------------------------------------------------------------------------


def run_reward(compute, TrajDataset, case):
    gt = case["gt"]
    step = traj_step(gt["gt_action"], gt["gt_bbox"], gt["candidate_bbox"], gt["annotation"])
    line = {"steps": [{"action_content": step["action_content"], "annotation": step["annotation"]}]}
    ds = TrajDataset.__new__(TrajDataset)
    ds.dataframe = [line]
    ds.index_remap = None
    fixed = ds[0]["line"].item()
    check_options = fixed["steps"][0]["check_options"]
    extra_info = {"width": gt["orig_wh"][0], "height": gt["orig_wh"][1], "resized_width": gt["resized_wh"][0], "resized_height": gt["resized_wh"][1]}
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        result = compute(case["response"], {"check_options": check_options, "num_steps": 1}, extra_info)
    raised = "Traceback" in err.getvalue()
    error = err.getvalue().strip().splitlines()[-1] if raised else None
    return check_options, {
        "score": result["score"],
        "format_score": result["format_score"],
        "type_match": bool(result["type_match"]),
        "extract_match": bool(result["extract_match"]),
    }, error


def png(path, width, height):
    from PIL import Image
    Image.new("RGB", (width, height)).save(path)


def run_sop(eval_qwenvl, case, tmp):
    from x.data.agent.json import JsonFormat
    from x.data.agent.space.std_space import RAW_SPACE
    eval_qwenvl.fm = JsonFormat(RAW_SPACE, add_thought=True, force_add_thought=True)
    steps = []
    for i, s in enumerate(case["steps"]):
        shot = os.path.join(tmp, "%s_%d.png" % (case["name"], i))
        png(shot, s["width"], s["height"])
        st = traj_step(s["call"], s["box"], s["candidates"], s["annotation"])
        st.update({"screenshot": shot, "thought": "t", "action_description": "a"})
        steps.append(st)
    line = {"goal": case["name"], "is_successful": True, "episode_id": case["name"], "app": "x", "steps": steps}
    responses = list(case["responses"])
    asked = []

    def model(messages, model_name=None, **_):
        asked.append(len(asked))
        return responses[len(asked) - 1]

    eval_qwenvl.call_mobile_agent_vllm = model
    args = types.SimpleNamespace(output_dir=tmp, model_name="vectors", n_history_image_limit=2)
    with contextlib.redirect_stdout(io.StringIO()):
        result = eval_qwenvl.process_line(copy.deepcopy(line), args)
    return {"num_steps": result["num_steps"], "final_step_id": result["final_step_id"], "task_success": result["task_success"], "responses_used": len(asked)}


def main():
    root, studio_table, out_dir = sys.argv[1:4]
    compute, TrajDataset, eval_qwenvl = load_upstream(os.path.abspath(root))

    cases = reward_cases()
    with open(studio_table, encoding="utf-8") as fh:
        for v in json.load(fh)["vectors"]:
            cases.append({"name": "studio_table_" + v["name"], "note": v["note"], "response": v["response"], "gt": v["gt"]})
    vectors = []
    for case in cases:
        check_options, expect, error = run_reward(compute, TrajDataset, case)
        vectors.append(dict(case, check_options=check_options, upstream_error=error, expect=expect))

    sop = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in sop_cases():
            sop.append(dict(case, expect=run_sop(eval_qwenvl, case, tmp)))
    n = len(sop)
    success = sum(1 for c in sop if c["expect"]["task_success"])
    progress = sum(c["expect"]["final_step_id"] / c["expect"]["num_steps"] for c in sop) / n

    provenance = (
        "Derived by running UI-S1's own Python (github.com/X-PLUG/MobileAgent, UI-S1, commit %s, MIT licence) "
        "with lib/bridge/vectors/derive_ui_s1_vectors.py; see lib/bridge/vectors/README.md." % UI_S1_COMMIT
    )
    with open(os.path.join(out_dir, "ui-s1-reward-vectors.json"), "w", encoding="utf-8") as fh:
        json.dump({
            "description": "UI-S1 training reward: gui_action_match_compute_score (verl/utils/reward_score/gui_traj.py) on the "
            "check_options TrajDataset.fix_line (verl/utils/dataset/rl_dataset.py) builds from the step `bridge traj` writes for gt. "
            "extra_info = orig_wh / resized_wh. check_options and upstream_error (the last line of the traceback upstream printed, "
            "if any) are for reading; expect is what upstream returned. " + provenance,
            "upstream": {"repository": "github.com/X-PLUG/MobileAgent", "path": "UI-S1", "commit": UI_S1_COMMIT, "licence": "MIT"},
            "vectors": vectors,
        }, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    with open(os.path.join(out_dir, "ui-s1-sop-vectors.json"), "w", encoding="utf-8") as fh:
        json.dump({
            "description": "UI-S1 SOP: evaluation/eval_qwenvl.py process_line on each trajectory (steps shaped as `bridge traj` writes them, "
            "screenshots of the given size), the model call answering with the recorded responses in order. expect per trajectory; "
            "totals as main() prints them (success rate in %, average progress). " + provenance,
            "upstream": {"repository": "github.com/X-PLUG/MobileAgent", "path": "UI-S1", "commit": UI_S1_COMMIT, "licence": "MIT"},
            "trajectories": sop,
            "totals": {"trajectories": n, "success_rate": success / n * 100, "progress": progress},
        }, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print("%d reward vectors, %d SOP trajectories" % (len(vectors), n))


if __name__ == "__main__":
    main()
