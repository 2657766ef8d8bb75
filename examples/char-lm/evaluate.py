"""Evaluate the trained character model on the held-out text: perplexity and next-character accuracy.

Writes the metrics JSON to --metrics-file (default /dev/termination-log: the container's termination
message, which the quality gate reads), beside the model as eval-metrics.json, and prints it as a last
`METRICS {...}` line (the fallback). Carries the training's restarts and resumedFromEpoch. Exit 0 on success.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import evaluate, load_model, read_corpus  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=os.environ.get("TRAINPLANE_DATA_DIR"), help="default: $TRAINPLANE_DATA_DIR")
    p.add_argument("--model-dir", default=os.environ.get("TRAINPLANE_OUTPUT_DIR"),
                   help="default: $TRAINPLANE_OUTPUT_DIR")
    p.add_argument("--metrics-file", default="/dev/termination-log")
    a = p.parse_args()
    if not a.data_dir or not a.model_dir:
        p.error("--data-dir and --model-dir (or $TRAINPLANE_DATA_DIR and $TRAINPLANE_OUTPUT_DIR) are required")

    model, vocab = load_model(os.path.join(a.model_dir, "model.pt"))
    metrics = evaluate(model, vocab.encode(read_corpus(a.data_dir, "val.txt")), model.context)
    metrics["uniformPerplexity"] = len(vocab)
    try:
        with open(os.path.join(a.model_dir, "train-metrics.json")) as f:
            training = json.load(f)
        for key in ("restarts", "resumedFromEpoch"):
            if isinstance(training.get(key), int):
                metrics[key] = training[key]
    except (OSError, ValueError) as e:
        print(f"no training metrics to carry: {e}", file=sys.stderr)
    line = json.dumps(metrics)
    for path in (a.metrics_file, os.path.join(a.model_dir, "eval-metrics.json")):
        try:
            with open(path, "w") as f:
                f.write(line)
        except OSError as e:
            print(f"could not write {path}: {e}", file=sys.stderr)
    print("METRICS " + line, flush=True)


if __name__ == "__main__":
    main()
