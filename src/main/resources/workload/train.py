"""Distributed data-parallel training of the CIFAR-10 network, launched by torchrun.

Checkpoints every epoch on the shared volume and resumes from the newest one after a restart.
Rank 0 writes model.pt and train-metrics.json. Exit code 0 on success.
"""
import argparse
import glob
import json
import os
import re
import sys
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Net, load  # noqa: E402


def newest_checkpoint(output_dir):
    found = glob.glob(os.path.join(output_dir, "checkpoint-epoch-*.pt"))
    return max(found, key=lambda p: int(re.search(r"epoch-(\d+)", p).group(1)), default=None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--output-dir", required=True)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.01)
    a = p.parse_args()

    if a.epochs < 1 or a.batch_size < 1:
        p.error("--epochs and --batch-size must be at least 1")
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device(f"cuda:{local_rank}" if backend == "nccl" else "cpu")
    if backend == "nccl":
        torch.cuda.set_device(device)
    torch.manual_seed(0)

    os.makedirs(a.output_dir, exist_ok=True)
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    start_epoch = 0
    loss_value = None
    checkpoint = newest_checkpoint(a.output_dir)
    if checkpoint:
        state = torch.load(checkpoint, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"]
        loss_value = state.get("loss")
        if rank == 0:
            print(f"resuming from {os.path.basename(checkpoint)} at epoch {start_epoch + 1}", flush=True)
    ddp = DistributedDataParallel(model, device_ids=[local_rank] if backend == "nccl" else None)

    data = load(a.data_dir, train=True)
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True)
    loader = DataLoader(data, batch_size=a.batch_size, sampler=sampler)
    loss_fn = nn.CrossEntropyLoss()
    started = time.time()
    for epoch in range(start_epoch, a.epochs):
        sampler.set_epoch(epoch)
        ddp.train()
        total, count = 0.0, 0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = loss_fn(ddp(x), y)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(y)
            count += len(y)
        stats = torch.tensor([total, count], dtype=torch.float64, device=device)
        dist.all_reduce(stats)
        loss_value = (stats[0] / stats[1]).item()
        if rank == 0:
            print(f"epoch {epoch + 1}/{a.epochs} loss {loss_value:.4f}", flush=True)
            path = os.path.join(a.output_dir, f"checkpoint-epoch-{epoch + 1}.pt")
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "epoch": epoch + 1, "loss": loss_value}, path + ".tmp")
            os.replace(path + ".tmp", path)
        dist.barrier()

    if rank == 0:
        if start_epoch >= a.epochs:
            print(f"all {a.epochs} epochs already trained", flush=True)
        model_path = os.path.join(a.output_dir, "model.pt")
        torch.save(model.state_dict(), model_path + ".tmp")
        os.replace(model_path + ".tmp", model_path)
        with open(os.path.join(a.output_dir, "train-metrics.json"), "w") as f:
            json.dump({"loss": loss_value, "epochs": a.epochs, "worldSize": world,
                       "seconds": round(time.time() - started, 1)}, f)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
    # Skip interpreter finalization: torch's C++ threads are sometimes still joinable when static
    # destructors run, and the process then aborts ("terminate called without an active
    # exception", SIGABRT) after a good run, which torchrun reports as a failed worker.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
