"""Derive the UI-S1 prompt vector table by running UI-S1's own Python.

    python3 derive_ui_s1_prompt_vectors.py <UI-S1 checkout> <out dir>

<UI-S1 checkout> is the UI-S1 folder of github.com/X-PLUG/MobileAgent (MIT licence) at commit
11cea575561fb7800b5fb6b6cafa56f7a91de11f: it must hold x/, verl/utils/reward_score/ and
verl/utils/dataset/rl_dataset.py. Needs numpy, Pillow, requests, json5 and tqdm; torch, datasets,
omegaconf, transformers, qwen_vl_utils and verl's torch helpers are only imported, never used on these
paths, so they are empty stand-in modules (as in derive_ui_s1_vectors.py). Nothing upstream is modified
or copied. What runs, per trajectory:
- the formatter UI-S1's semi-online trainer builds (verl/utils/dataset/universal_multiround.py,
  StdTrajectory): JsonFormat(RAW_SPACE, add_thought=True, force_add_thought=True), actions_only None,
  hint False;
- gen_next_round(line, state) step after step with no previous model response, so each earlier step's
  assistant turn is format_response of that step (what apply_response patches in after a miss, and what a
  model that answered right wrote), then slim_messages(state['messages'], num_image_limit=2) as
  QwenMessages2Inputs does before the processor sees them;
- the answer format_response writes for the step itself (messages_with_response), scored by
  gui_action_match_compute_score on the check_options TrajDataset.fix_line builds from the step as
  `bridge traj` writes it, extra_info from the step's image element; and the Mobile-R1 layout of the same
  call, scored the same way.
Screenshots are real PNGs of the stated sizes in a temporary folder; its path is replaced by "<images>".
Writes ui-s1-prompt-vectors.json into <out dir>. The tests never run this file.
"""

import contextlib
import copy
import io
import json
import os
import sys
import tempfile

from derive_ui_s1_vectors import UI_S1_COMMIT, install_stand_ins, png, traj_step


def load_upstream(root):
    install_stand_ins()
    sys.path.insert(0, root)
    from x.data.agent.json import JsonFormat, generate_prompt
    from x.data.agent.space.std_space import RAW_SPACE
    from x.qwen.data_format import slim_messages
    from x.qwen.image import update_image_size_
    from verl.utils.reward_score.gui_traj import gui_action_match_compute_score
    from verl.utils.dataset.rl_dataset import TrajDataset
    return JsonFormat, generate_prompt, RAW_SPACE, slim_messages, update_image_size_, gui_action_match_compute_score, TrajDataset


def S(call, width=1080, height=2400, thought=None, box=None, annotation="GOOD"):
    return {"call": call, "width": width, "height": height, "thought": thought, "box": box, "annotation": annotation}


def cases():
    en_goal = "Open the file manager app and view the au_uu_SzH3yR2.mp3 file in MUSIC Folder"
    return [
        ("every_action_phone", en_goal, [
            S({"action": "open", "text": "File Manager"}, thought="The home screen is shown. Open File Manager."),
            S({"action": "click", "coordinate": [925, 405]}, box=[850, 350, 1000, 460], thought="Tap the Music folder."),
            # 750 * (2408 / 2400) rounds to 753 in Python; 750 * 2408 / 2400 is exactly 752.5 (752 half-even).
            S({"action": "long_press", "coordinate": [540, 750], "time": 2}, box=[400, 700, 700, 800], thought="Hold the file."),
            S({"action": "swipe", "coordinate": [540, 1800], "coordinate2": [540, 600]}, thought="Scroll the list."),
            S({"action": "type", "text": "say \"hi\"\\ now\n\tnext line"}, thought="Type the name."),
            S({"action": "system_button", "button": "Back"}, thought="Go back.", annotation="NEUTRAL"),
            S({"action": "key", "text": "volume_up"}, thought="Raise the volume."),
            S({"action": "wait", "time": 1.5}, thought="Wait for the list."),
            S({"action": "answer", "text": "The file is 3:12 long"}, thought="Answer the question."),
            S({"action": "terminate", "status": "success"}, thought="Done."),
        ]),
        ("chinese_and_frames", "在盒马中,打开购物车，结算（到付款页面即可）", [
            S({"action": "click", "coordinate": [632, 400]}, width=720, height=1280, box=[600, 380, 680, 420], thought="当前在首页。点击购物车。"),
            S({"action": "type", "text": "牛奶 🥛 </action>"}, width=720, height=1280, thought="输入 <think> 标签 </think>"),
            S({"action": "swipe", "coordinate": [600, 640], "coordinate2": [100, 650]}, width=1440, height=3200, thought="向左滑动。"),
            S({"action": "click", "coordinate": [1000, 2000]}, width=2160, height=4800, box=[900, 1900, 1100, 2100], thought="点击结算。", annotation="HARMFUL"),
            S({"action": "long_press", "coordinate": [10, 20], "time": 0.5}, width=1080, height=1920, thought=""),
            S({"action": "terminate", "status": "failure"}, width=1080, height=1920, thought="无法完成。"),
        ]),
        ("tags_in_texts", "Find the <action> tag", [
            S({"action": "click", "coordinate": [300, 500]}, thought="Tap the <action> button."),
            S({"action": "type", "text": "a </think> b"}, thought="Type it."),
            S({"action": "answer", "text": "x </action> y"}, thought="Answer."),
        ]),
        ("one_step", "Tap OK", [
            S({"action": "click", "coordinate": [400, 400]}, width=720, height=1280, thought="Tap OK."),
        ]),
        ("two_steps", "Go home then wait", [
            S({"action": "system_button", "button": "Home"}, thought="Press Home."),
            S({"action": "wait", "time": 3}, thought="Wait."),
        ]),
    ]


FRAME_SIZES = [(1080, 2400), (720, 1280), (1440, 3200), (2160, 4800), (1080, 1920), (1170, 2532), (3000, 5000), (4000, 4000), (20, 40), (13, 2000), (100, 100), (28, 28)]


def mobile_r1_layout(call_resized):
    return '<think>\nt\n</think>\n<action>\nx\n</action>\n<tool_call>\n%s\n</tool_call>' % json.dumps({"name": "mobile_use", "arguments": call_resized}, ensure_ascii=False)


def main():
    root, out_dir = sys.argv[1:3]
    JsonFormat, generate_prompt, RAW_SPACE, slim_messages, update_image_size_, compute, TrajDataset = load_upstream(os.path.abspath(root))
    fm = JsonFormat(RAW_SPACE, add_thought=True, force_add_thought=True, actions_only=None, hint=False)

    frames = []
    for w, h in FRAME_SIZES:
        try:
            e = update_image_size_({"width": w, "height": h})
            frames.append({"width": w, "height": h, "resized_width": e["resized_width"], "resized_height": e["resized_height"], "seq_len": e["seq_len"], "error": None})
        except Exception as ex:  # smart_resize raises on extreme aspect ratios
            frames.append({"width": w, "height": h, "resized_width": None, "resized_height": None, "seq_len": None, "error": "%s: %s" % (type(ex).__name__, ex)})

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)

        def scrub(value):
            return json.loads(json.dumps(value, ensure_ascii=False).replace(tmp, "<images>"))

        for name, goal, steps in cases():
            line_steps = []
            for i, s in enumerate(steps):
                shot = os.path.join(tmp, "%s_%d.png" % (name, i))
                png(shot, s["width"], s["height"])
                st = traj_step(s["call"], s["box"], (), s["annotation"])
                line_steps.append({
                    "screenshot": shot,
                    # The history holds the call as a model answers it (no bbox), i.e. what apply_response patches in.
                    "action_content": copy.deepcopy(s["call"]),
                    "thought": s["thought"],
                    "annotation": st["annotation"],
                    "traj_action_content": st["action_content"],
                })
            line = {"goal": goal, "steps": line_steps}
            rounds = []
            state = None
            si = 0
            while True:
                state = fm.gen_next_round(line, state)
                if state is None:
                    break
                messages = slim_messages(state["messages"], num_image_limit=2)
                response = state["messages_with_response"][-1]["content"][-1]["text"]
                ele = state["screenshot_ele"]
                extra_info = {"width": ele["width"], "height": ele["height"], "resized_width": ele["resized_width"], "resized_height": ele["resized_height"]}
                # TrajDataset.fix_line on the step as `bridge traj` writes it (bbox inside action_content).
                ds = TrajDataset.__new__(TrajDataset)
                ds.dataframe = [{"steps": [{"action_content": line_steps[si]["traj_action_content"], "annotation": line_steps[si]["annotation"]}]}]
                ds.index_remap = None
                check_options = ds[0]["line"].item()["steps"][0]["check_options"]
                resized_call = json.loads(fm.format_action(line_steps[si]["action_content"], ele))
                scored = {}
                for key, text in (("format_response", response), ("mobile_r1_layout", mobile_r1_layout(resized_call))):
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                        r = compute(text, {"check_options": copy.deepcopy(check_options), "num_steps": len(steps)}, extra_info)
                    scored[key] = {"response": text, "score": r["score"], "format_score": r["format_score"], "type_match": bool(r["type_match"]), "extract_match": bool(r["extract_match"])}
                rounds.append({"step": si, "messages": scrub(messages), "check_options": check_options, "extra_info": extra_info, "answers": scored})
                si += 1
            out.append({"name": name, "goal": goal, "steps": [dict(s, image="<images>/%s_%d.png" % (name, i)) for i, s in enumerate(steps)], "rounds": rounds})

    system_prompt = out[0]["rounds"][0]["messages"][0]["content"][0]["text"]
    table = {
        "description": "UI-S1 model input per step: JsonFormat(RAW_SPACE, add_thought=True, force_add_thought=True).gen_next_round "
        "(x/data/agent/json.py, the formatter of verl/utils/dataset/universal_multiround.py StdTrajectory) with each earlier step "
        "answered by format_response, then slim_messages(num_image_limit=2) (x/qwen/data_format.py). rounds[i].messages is what the "
        "trainer hands to the processor for step i (image elements from make_qwen_image_item / update_image_size_, x/qwen/image.py); "
        "answers.format_response is format_response for step i and its gui_action_match_compute_score reward, answers.mobile_r1_layout "
        "the same call in the Mobile-R1 layout and its reward. frames: update_image_size_ per original size. "
        "Derived by running UI-S1's own Python (github.com/X-PLUG/MobileAgent, UI-S1, commit %s, MIT licence) with "
        "lib/bridge/vectors/derive_ui_s1_prompt_vectors.py; see lib/bridge/vectors/README.md." % UI_S1_COMMIT,
        "upstream": {"repository": "github.com/X-PLUG/MobileAgent", "path": "UI-S1", "commit": UI_S1_COMMIT, "licence": "MIT"},
        "system_prompt": system_prompt,
        "generate_prompt": {
            # gen_next_round passes actions_only (None) as generate_prompt's add_thought: its examples carry no <think>.
            "as_gen_next_round_calls_it": generate_prompt(RAW_SPACE, None),
            "add_thought_true": generate_prompt(RAW_SPACE, add_thought=True),
        },
        "raw_space_actions": [a["action"] for a in RAW_SPACE["action_space"]],
        "frames": frames,
        "trajectories": out,
    }
    with open(os.path.join(out_dir, "ui-s1-prompt-vectors.json"), "w", encoding="utf-8") as fh:
        json.dump(table, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print("%d trajectories, %d rounds, %d frames" % (len(out), sum(len(t["rounds"]) for t in out), len(frames)))


if __name__ == "__main__":
    main()
