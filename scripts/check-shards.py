#!/usr/bin/env python3
"""Read a bridge output's shards with pyarrow and Hugging Face `datasets` (not run in CI: needs both).

    python3 scripts/check-shards.py <output-dir>

<output-dir> is what `npm run bridge -- <command> <export> --out <output-dir> --shards parquet|webdataset`
wrote: data/train-*.parquet (or .tar), README.md and croissant.json. For Parquet it checks, with pyarrow,
that every shard carries the `huggingface` schema metadata and the Image columns are struct<bytes, path>,
then loads the folder with `datasets.load_dataset("parquet", ...)` and decodes the first row's images with
PIL; for tars it loads them with `datasets.load_dataset("webdataset", ...)`. Prints the row counts and
exits 1 on the first mismatch.
"""
import glob
import json
import os
import re
import sys


def fail(msg: str) -> None:
    print(f"check-shards: {msg}", file=sys.stderr)
    sys.exit(1)


def image_paths(feature, prefix=""):
    """Dotted paths of the Image features inside a datasets features dict."""
    if isinstance(feature, dict) and feature.get("_type") == "Image":
        yield prefix
    elif isinstance(feature, dict) and feature.get("_type") == "List":
        yield from image_paths(feature["feature"], prefix + "[]")
    elif isinstance(feature, dict) and "_type" not in feature:
        for k, v in feature.items():
            yield from image_paths(v, f"{prefix}.{k}" if prefix else k)


def check_parquet(files):
    import pyarrow.parquet as pq

    total = 0
    features = None
    for f in files:
        meta = pq.read_metadata(f)
        schema = pq.read_schema(f)
        raw = (schema.metadata or {}).get(b"huggingface")
        if raw is None:
            fail(f"{f}: no huggingface schema metadata")
        feats = json.loads(raw)["info"]["features"]
        if features is None:
            features = feats
        elif feats != features:
            fail(f"{f}: features differ from the first shard's")
        for p in image_paths(feats):
            t = schema.field(p.split(".")[0].split("[")[0]).type
            print(f"{os.path.basename(f)}: image column {p}: {t}")
        for rg in range(meta.num_row_groups):
            size = meta.row_group(rg).total_byte_size
            print(f"{os.path.basename(f)}: row group {rg}: {meta.row_group(rg).num_rows} rows, {size} bytes")
        total += meta.num_rows
        table = pq.read_table(f)
        if table.num_rows != meta.num_rows:
            fail(f"{f}: read {table.num_rows} rows, metadata says {meta.num_rows}")
        row = table.slice(0, 1).to_pylist()[0] if table.num_rows else None
        for p in image_paths(feats):
            # The first embedded image of the shard must be a PNG: datasets' Image keeps the file's bytes.
            value = row
            for token in re.findall(r"\[\]|[^.\[\]]+", p):
                if value is None:
                    break
                value = (value[0] if value else None) if token == "[]" else value.get(token)
            if isinstance(value, dict) and value.get("bytes") is not None:
                if value["bytes"][1:4] != b"PNG":
                    fail(f"{f}: {p}: the first image is not a PNG")
                print(f"{os.path.basename(f)}: {p}: first image {value.get('path')}, {len(value['bytes'])} bytes of PNG")
    if not list(image_paths(features or {})):
        fail("no Image feature in the shards")

    try:
        from datasets import load_dataset
    except ImportError:
        # The device machine has pyarrow but not always datasets: the pyarrow checks above still ran.
        print("datasets is not installed: checked with pyarrow only (pip install datasets for the rest)")
        return total

    ds = load_dataset("parquet", data_files={"train": files}, split="train")
    if len(ds) != total:
        fail(f"datasets read {len(ds)} rows, pyarrow {total}")
    print("datasets features:", ds.features)
    first = ds[0]
    print("first row keys:", sorted(first.keys()))
    return total


def check_webdataset(files):
    from datasets import load_dataset

    ds = load_dataset("webdataset", data_files={"train": files}, split="train")
    first = ds[0]
    print("first sample keys:", sorted(first.keys()))
    if "json" not in first:
        fail("a sample without its .json member")
    return len(ds)


def main() -> None:
    if len(sys.argv) != 2:
        fail("usage: check-shards.py <output-dir>")
    out = sys.argv[1]
    parquet = sorted(glob.glob(os.path.join(out, "data", "train-*.parquet")))
    tars = sorted(glob.glob(os.path.join(out, "data", "train-*.tar")))
    if not parquet and not tars:
        fail(f"{out}/data holds no train-*.parquet or train-*.tar shards")
    rows = check_parquet(parquet) if parquet else check_webdataset(tars)
    with open(os.path.join(out, "croissant.json"), encoding="utf-8") as fh:
        croissant = json.load(fh)
    for key in ["@context", "@type", "conformsTo", "name", "description", "license", "url", "creator", "datePublished", "distribution"]:
        if key not in croissant:
            fail(f"croissant.json: no {key}")
    print(f"ok: {rows} rows in {len(parquet or tars)} shards")


if __name__ == "__main__":
    main()
