"""Feed the bridge's trainer rows to the real Hugging Face Qwen2.5-VL processor and a tiny Qwen2.5-VL model.

Not part of the test suite (CI has no GPU and no transformers): run on a machine with torch, transformers and
pillow, over the folder scripts/device/make-rows.ts writes, with the Qwen2-VL chat template beside it:

    python3 scripts/device/check_rows.py <rows-dir> <chat-template.jinja> [report.json]

For every row of every output (sft for ms-swift and LLaMA-Factory, sft in rel1000, dpo for both, critic, prm):
  1. the images open, and transformers' own Qwen2VLImageProcessor (the one ms-swift, LLaMA-Factory and verl call)
     resizes each to the size the row's system prompt announces ("The screen's resolution is WxH."), and every
     coordinate of the target lies inside that frame (0..1000 for rel1000 rows);
  2. the chat template renders the conversation, and Qwen2_5_VLProcessor expands each image to as many
     <|image_pad|> tokens as its grid has merged patches;
  3. a tiny randomly initialised Qwen2_5_VLForConditionalGeneration runs the row on the GPU: the loss on the
     answer (and for preference rows the log-probabilities of chosen and rejected) is finite. The model's own
     check that image features and image tokens match is what fails on a misaligned row.
The tokenizer is a small byte-level BPE trained on the rows (no network, no Qwen vocabulary here): token ids
differ from Qwen's, the image-token arithmetic and the template do not.
"""

import io
import json
import math
import os
import re
import sys
import traceback

import torch
from PIL import Image

ROWS = sys.argv[1]
TEMPLATE = open(sys.argv[2], encoding="utf-8").read()
REPORT = sys.argv[3] if len(sys.argv) > 3 else None
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]
RESOLUTION = re.compile(r"The screen's resolution is (\d+)x(\d+)\.")
TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*\})\s*</tool_call>", re.S)

report = {"versions": {}, "outputs": {}, "errors": []}


def log(*a):
    print(*a, flush=True)


def parts(content):
    """ms-swift / LLaMA-Factory text with <image> placeholders -> the content list the template reads."""
    if "<image>" not in content:
        return content
    out = []
    pieces = content.split("<image>")
    for i, p in enumerate(pieces):
        if p:
            out.append({"type": "text", "text": p})
        if i < len(pieces) - 1:
            out.append({"type": "image"})
    return out


def raw_rows(base, file):
    """The rows of a JSONL output, or of its Parquet shards (images embedded as {bytes, path})."""
    if file.endswith(".parquet"):
        import glob

        import pyarrow.parquet as pq

        for shard in sorted(glob.glob(os.path.join(base, "data", "train-*.parquet"))):
            yield from pq.read_table(shard).to_pylist()
        return
    for line in open(os.path.join(base, file), encoding="utf-8"):
        yield json.loads(line)


def load_rows(name, file):
    """(messages without the answer, answers [chosen] or [chosen, rejected], images: paths or file objects) per row."""
    rows = []
    base = os.path.join(ROWS, name)
    for r in raw_rows(base, file):
        for key in ("messages", "conversations", "chosen", "rejected"):
            if isinstance(r.get(key), str) and r[key][:1] in "[{":  # a column kept as JSON text in the shards
                r[key] = json.loads(r[key])
        if "conversations" in r:  # LLaMA-Factory sharegpt preference rows
            msgs = [{"role": {"human": "user", "gpt": "assistant"}.get(m["from"], m["from"]), "content": m["value"]} for m in r["conversations"]]
            answers = [r["chosen"]["value"], r["rejected"]["value"]]
        elif "problem" in r:  # critic rows
            msgs = [{"role": "user", "content": r["problem"]}]
            answers = [r["solution"]]
        else:
            msgs = r["messages"][:-1]
            answers = [r["messages"][-1]["content"]] + ([r["rejected_response"]] if "rejected_response" in r else [])
        images = [io.BytesIO(p["bytes"]) if isinstance(p, dict) else os.path.join(base, p) for p in r.get("images") or []]
        rows.append((msgs, answers, images, r))
    return rows


def main():
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2VLImageProcessor

    report["versions"] = {"transformers": transformers.__version__, "torch": torch.__version__, "cuda": torch.cuda.is_available()}
    log("versions", report["versions"])
    outputs = {
        "sft-ms-swift": "mobile_use_sft.jsonl",
        "sft-llamafactory": "mobile_use_sft.jsonl",
        "sft-ms-swift-rel1000": "mobile_use_sft.jsonl",
        "dpo-ms-swift": "mobile_use_dpo.jsonl",
        "dpo-llamafactory": "mobile_use_dpo.jsonl",
        "critic": "gui_critic.jsonl",
        "prm": "mobile_use_prm.jsonl",
        "sft-ms-swift-parquet": "shards.parquet",
        "dpo-ms-swift-parquet": "shards.parquet",
    }
    data = {n: load_rows(n, f) for n, f in outputs.items()}

    texts = [m["content"] if isinstance(m["content"], str) else "" for rows in data.values() for msgs, ans, _, _ in rows for m in msgs] + [
        a for rows in data.values() for _, ans, _, _ in rows for a in ans
    ]
    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=3000, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>", additional_special_tokens=SPECIAL[1:])
    tok.chat_template = TEMPLATE
    image_processor = Qwen2VLImageProcessor(min_pixels=3136, max_pixels=12845056)
    from transformers import Qwen2_5_VLProcessor

    try:  # transformers >= 4.52 wants a video processor as well
        from transformers import Qwen2VLVideoProcessor

        processor = Qwen2_5_VLProcessor(image_processor=image_processor, tokenizer=tok, video_processor=Qwen2VLVideoProcessor(), chat_template=TEMPLATE)
    except ImportError:
        processor = Qwen2_5_VLProcessor(image_processor=image_processor, tokenizer=tok, chat_template=TEMPLATE)
    model = tiny_model(tok)

    for name, rows in data.items():
        res = {"rows": len(rows), "frame_ok": 0, "coords_ok": 0, "image_tokens_ok": 0, "loss_finite": 0, "pairs_scored": 0, "problems": []}
        report["outputs"][name] = res
        for i, (msgs, answers, images, raw) in enumerate(rows):
            try:
                check_row(name, i, msgs, answers, images, raw, processor, image_processor, tok, model, res)
            except Exception as e:
                res["problems"].append(f"row {i}: {e!r}")
                traceback.print_exc()
        log(name, json.dumps({k: v for k, v in res.items() if k != "problems"}), res["problems"][:3])


def tiny_model(tok):
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration

    ids = {t: tok.convert_tokens_to_ids(t) for t in SPECIAL}
    text = dict(
        vocab_size=len(tok),
        hidden_size=128,
        intermediate_size=256,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=32768,
        rope_scaling={"type": "mrope", "mrope_section": [4, 6, 6]},
        tie_word_embeddings=True,
    )
    vision = dict(depth=2, hidden_size=64, intermediate_size=128, num_heads=2, out_hidden_size=128, fullatt_block_indexes=[1], window_size=112, patch_size=14, spatial_merge_size=2, temporal_patch_size=2, in_chans=3)
    special = dict(image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"], vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"])
    try:
        cfg = Qwen2_5_VLConfig(text_config=text, vision_config=vision, **special)
    except Exception:
        cfg = Qwen2_5_VLConfig(vision_config=vision, **text, **special)
    for k, v in {**text, **special}.items():  # some versions read these from the top level, others from text_config
        if not hasattr(cfg, k):
            setattr(cfg, k, v)
    torch.manual_seed(0)
    model = Qwen2_5_VLForConditionalGeneration(cfg).to("cuda", dtype=torch.bfloat16).eval()
    log("tiny model", sum(p.numel() for p in model.parameters()), "parameters")
    return model


def check_row(name, i, msgs, answers, images, raw, processor, image_processor, tok, model, res):
    pil = [Image.open(p).convert("RGB") for p in images]
    grids = image_processor(images=pil, return_tensors="pt")["image_grid_thw"]
    sizes = [(int(g[2]) * 14, int(g[1]) * 14) for g in grids]  # (w, h) the model sees
    system = next((m["content"] for m in msgs if m["role"] == "system"), "")
    announced = RESOLUTION.search(system if isinstance(system, str) else "")
    rel1000 = "rel1000" in name
    if announced:
        frame = (int(announced.group(1)), int(announced.group(2)))
        want = (1000, 1000) if rel1000 else sizes[-1]
        if frame != want:
            raise AssertionError(f"prompt announces {frame}, the processor resizes the image to {sizes[-1]}")
        res["frame_ok"] += 1
    else:
        frame = (1000, 1000) if rel1000 else sizes[-1]
    for ans in answers:
        m = TOOL_CALL.search(ans)
        if not m:
            continue
        args = json.loads(m.group(1)).get("arguments", {})
        for key in ("coordinate", "coordinate2"):
            if key in args:
                x, y = args[key]
                if not (0 <= x <= frame[0] and 0 <= y <= frame[1]):
                    raise AssertionError(f"{key} {args[key]} outside the frame {frame}")
    res["coords_ok"] += 1

    conv = [{"role": m["role"], "content": parts(m["content"])} for m in msgs]
    prompt = processor.apply_chat_template(conv, tokenize=False, add_generation_prompt=True)
    if prompt.count("<|image_pad|>") != len(pil):
        raise AssertionError(f"{prompt.count('<|image_pad|>')} image slots in the rendered prompt for {len(pil)} images")
    scores = []
    for ans in answers:
        full = prompt + ans + "<|im_end|>\n"
        enc = processor(text=[full], images=pil or None, return_tensors="pt")
        n_pad = int((enc["input_ids"] == tok.convert_tokens_to_ids("<|image_pad|>")).sum())
        expected = int(sum(int(g.prod()) for g in enc["image_grid_thw"]) // 4) if pil else 0
        if n_pad != expected:
            raise AssertionError(f"{n_pad} image tokens, {expected} merged patches")
        n_prompt = processor(text=[prompt], images=pil or None, return_tensors="pt")["input_ids"].shape[1]
        labels = enc["input_ids"].clone()
        labels[:, :n_prompt] = -100
        batch = {k: v.to("cuda") for k, v in enc.items()}
        if "pixel_values" in batch:
            batch["pixel_values"] = batch["pixel_values"].to(torch.bfloat16)
        with torch.no_grad():
            out = model(**batch, labels=labels.to("cuda"))
        loss = float(out.loss)
        if not math.isfinite(loss):
            raise AssertionError(f"loss {loss}")
        scores.append(-loss * int((labels != -100).sum()))
    res["image_tokens_ok"] += 1
    res["loss_finite"] += 1
    if len(scores) == 2:
        res["pairs_scored"] += 1


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        report["errors"].append(repr(e))
        traceback.print_exc()
    if REPORT:
        with open(REPORT, "w") as f:
            json.dump(report, f, indent=1)
    bad = report["errors"] or any(o["problems"] for o in report["outputs"].values())
    log("RESULT", "problems" if bad else "all rows passed")
    sys.exit(1 if bad else 0)
