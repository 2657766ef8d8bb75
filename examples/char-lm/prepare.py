"""Prepare the char-lm corpus under $TRAINPLANE_DATA_DIR (workload contract: docs/workload-contract.md).

The default source is a corpus generated here, deterministically (a fixed seed): sentences of a
small English-like grammar, so every run and every machine trains on the same bytes and nothing is
downloaded. `--source url --url U --sha256 H` takes a plain UTF-8 text instead (e.g. a public-domain
book). Writes corpus/train.txt, corpus/val.txt (the last tenth) and a marker; a rerun that finds the
marker does nothing. Exit codes: 0 ready, 3 checksum mismatch, 1 anything else.
"""
import argparse
import hashlib
import json
import os
import random
import sys
import urllib.request

MARKER = ".trainplane-ready"
CORPUS = "corpus"

SUBJECTS = ["the cat", "a dog", "the old man", "my sister", "the farmer", "a small bird", "the teacher",
            "our neighbour", "the baker", "a tired child", "the captain", "my friend"]
VERBS = ["sees", "likes", "finds", "carries", "paints", "follows", "visits", "remembers", "watches", "keeps"]
OBJECTS = ["the red ball", "a wooden box", "the green hill", "an apple", "the river", "a long letter",
           "the garden", "a blue boat", "the quiet road", "a warm loaf", "the tall tree"]
PLACES = ["in the morning", "near the house", "after dinner", "by the sea", "every day", "at night",
          "in the rain", "before school"]


def sentence(rng):
    s = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    if rng.random() < 0.6:
        s += " " + rng.choice(PLACES)
    if rng.random() < 0.25:
        s += f" and {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    return s[0].upper() + s[1:] + "."


def generated(chars, seed=17):
    rng = random.Random(seed)
    lines, size = [], 0
    while size < chars:
        line = " ".join(sentence(rng) for _ in range(rng.randint(2, 5)))
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines) + "\n"


def download(url, sha256):
    with urllib.request.urlopen(url) as response:
        data = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if sha256 and digest != sha256.lower():
        print(f"CHECKSUM MISMATCH expected {sha256} got {digest} for {url}", file=sys.stderr)
        sys.exit(3)
    return data.decode("utf-8")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=os.environ.get("TRAINPLANE_DATA_DIR"),
                   help="default: $TRAINPLANE_DATA_DIR")
    p.add_argument("--source", choices=["generated", "url"], default="generated")
    p.add_argument("--url")
    p.add_argument("--sha256")
    p.add_argument("--chars", type=int, default=200_000, help="size of the generated corpus")
    a = p.parse_args()
    if not a.data_dir:
        p.error("--data-dir or $TRAINPLANE_DATA_DIR is required")
    if a.source == "url" and not (a.url and a.sha256):
        p.error("--source url needs --url and --sha256")
    marker = os.path.join(a.data_dir, MARKER)
    if os.path.exists(marker):
        with open(marker) as f:
            print(f"data already prepared ({f.read().strip()}), skipping")
        return
    try:
        text = download(a.url, a.sha256) if a.source == "url" else generated(a.chars)
        split = len(text) * 9 // 10
        out = os.path.join(a.data_dir, CORPUS)
        os.makedirs(out, exist_ok=True)
        for name, part in (("train.txt", text[:split]), ("val.txt", text[split:])):
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(part)
    except Exception as e:  # noqa: BLE001 - exit code 1 with the reason on stderr
        print(f"data preparation failed: {e}", file=sys.stderr)
        sys.exit(1)
    with open(marker, "w") as f:
        json.dump({"source": a.source, "url": a.url, "chars": len(text),
                   "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}, f)
    print(f"data ready in {a.data_dir}: {len(text)} characters, {len(set(text))} distinct", flush=True)


if __name__ == "__main__":
    main()
