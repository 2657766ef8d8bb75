"""Evaluate the trained CIFAR-10 network on the test batch.

Writes the metrics JSON to --metrics-file (the container's termination message) and beside the
model as eval-metrics.json (the outputs Job copies it to S3 with the model), and prints a
`METRICS {...}` line, the fallback a controller reads from the logs. Carries the training's
`restarts` and `resumedFromEpoch` from train-metrics.json when it has them. Exit code 0 on success.
"""
import argparse
import json
import os
import sys

import torch
from torch.utils.data import DataLoader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Net, load  # noqa: E402

CLASSES = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--model-dir", required=True)
    p.add_argument("--metrics-file", default="/dev/termination-log")
    a = p.parse_args()

    model = Net()
    model.load_state_dict(torch.load(os.path.join(a.model_dir, "model.pt"), map_location="cpu", weights_only=True))
    model.eval()
    correct = torch.zeros(10)
    seen = torch.zeros(10)
    with torch.no_grad():
        for x, y in DataLoader(load(a.data_dir, train=False), batch_size=256):
            predicted = model(x).argmax(dim=1)
            for label, hit in zip(y.tolist(), (predicted == y).tolist()):
                seen[label] += 1
                correct[label] += hit
    metrics = {"accuracy": round((correct.sum() / seen.sum()).item(), 4), "samples": int(seen.sum().item())}
    for i, name in enumerate(CLASSES):
        if seen[i] > 0:
            metrics[f"accuracy.{name}"] = round((correct[i] / seen[i]).item(), 4)
    try:
        with open(os.path.join(a.model_dir, "train-metrics.json")) as f:
            training = json.load(f)
        for key in ("restarts", "resumedFromEpoch"):
            if isinstance(training.get(key), int):
                metrics[key] = training[key]
    except (OSError, ValueError) as e:
        print(f"no training metrics to carry: {e}", file=sys.stderr)
    line = json.dumps(metrics)
    try:
        with open(a.metrics_file, "w") as f:
            f.write(line)
    except OSError as e:
        print(f"could not write {a.metrics_file}: {e}", file=sys.stderr)
    try:
        with open(os.path.join(a.model_dir, "eval-metrics.json"), "w") as f:
            f.write(line)
    except OSError as e:
        print(f"could not write eval-metrics.json: {e}", file=sys.stderr)
    print("METRICS " + line, flush=True)


if __name__ == "__main__":
    main()
