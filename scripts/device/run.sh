set -u
# On the GPU machine, after `npx tsx scripts/device/make-rows.ts` and copying the Qwen2-VL chat template to
# .tmp/device/qwen2-vl-chat-template.jinja here: bash scripts/device/run.sh (writes $OUT/report.json).
R=.tmp/device/rows
python3 scripts/device/check_rows.py $R .tmp/device/qwen2-vl-chat-template.jinja $OUT/report.json 2>&1 | grep -v "^\[transformers\]" | tail -25
for d in sft-ms-swift-parquet dpo-ms-swift-parquet grpo-verl-parquet; do echo "== check-shards $d"; python3 scripts/check-shards.py $R/$d 2>&1 | tail -6; done
echo "== webdataset tar"
python3 - <<'PY'
import glob, json, tarfile, io
from PIL import Image
for f in sorted(glob.glob(".tmp/device/rows/sft-ms-swift-webdataset/data/train-*.tar")):
    with tarfile.open(f) as t:
        names = t.getnames()
        keys = sorted({n.split(".")[0] for n in names})
        jsons = [n for n in names if n.endswith(".json")]
        pngs = [n for n in names if n.endswith(".png")]
        row = json.load(t.extractfile(jsons[0]))
        im = Image.open(io.BytesIO(t.extractfile(pngs[0]).read()))
        print(f, len(keys), "samples", len(jsons), "json", len(pngs), "png; first json keys", sorted(row)[:6], "first image", im.size)
PY
