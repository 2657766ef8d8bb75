"""Writes the starter's data set: two classes of points, a training and a test split.

Trainplane runs it once per run in the data Job (commands.prepare), with the working directory
/workload (this directory) and the data directory in $TRAINPLANE_DATA_DIR. Replace it with the
download or copy of your own data; keep writing it under $TRAINPLANE_DATA_DIR.
"""
import os

import torch

data_dir = os.environ.get("TRAINPLANE_DATA_DIR", "data")
os.makedirs(data_dir, exist_ok=True)
marker = os.path.join(data_dir, ".trainplane-ready")
if os.path.exists(marker):
    print(f"data already in {data_dir}", flush=True)
    raise SystemExit(0)

generator = torch.Generator().manual_seed(17)


def split(samples):
    # Two Gaussian clouds, 16 features, one class each: easy enough to learn in a few epochs.
    y = torch.randint(0, 2, (samples,), generator=generator)
    x = torch.randn(samples, 16, generator=generator) + (y.float() * 2 - 1).unsqueeze(1) * 0.8
    return {"x": x, "y": y}


torch.save(split(2048), os.path.join(data_dir, "train.pt"))
torch.save(split(512), os.path.join(data_dir, "test.pt"))
open(marker, "w").close()
print(f"wrote train.pt and test.pt to {data_dir}", flush=True)
