"""The CIFAR-10 network and data loading shared by train.py and evaluate.py (plain torch)."""
import os
import pickle

import numpy as np
import torch
from torch import nn

BATCHES = "cifar-10-batches-py"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(64 * 16, 128), nn.ReLU(), nn.Linear(128, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


def load(data_dir, train):
    names = [f"data_batch_{i}" for i in range(1, 6)] if train else ["test_batch"]
    images, labels = [], []
    for name in names:
        with open(os.path.join(data_dir, BATCHES, name), "rb") as f:
            batch = pickle.load(f, encoding="bytes")
        images.append(np.asarray(batch[b"data"], dtype=np.uint8))
        labels.extend(batch[b"labels"])
    x = torch.from_numpy(np.concatenate(images).reshape(-1, 3, 32, 32)).float().div(255.0)
    x = (x - 0.5) / 0.25
    return torch.utils.data.TensorDataset(x, torch.tensor(labels, dtype=torch.long))
