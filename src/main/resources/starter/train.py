"""A starter training script that keeps Trainplane's workload contract (docs/workload-contract.md).

Runs under torchrun, one process per rank (DDP over gloo on CPU, nccl on GPU), or alone with
`python train.py`. It reads the data prepare.py wrote to $TRAINPLANE_DATA_DIR, prints
`epoch N/M loss X` after every epoch (Trainplane's progress and ETA), and writes model.pt and
metrics.json, whose `accuracy` the quality gate (evaluation.minAccuracy) reads, to
$TRAINPLANE_OUTPUT_DIR. The spec's hyperparameters arrive as --name value. Replace the model and
the data with yours; keep those four things.
"""
import argparse
import json
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--batch-size", type=int, default=64)
    # Hyperparameters this script does not know are ignored rather than refused.
    args, _ = parser.parse_known_args()
    data_dir = os.environ.get("TRAINPLANE_DATA_DIR", "data")
    output_dir = os.environ.get("TRAINPLANE_OUTPUT_DIR", "output")

    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    if distributed:
        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    rank = dist.get_rank() if distributed else 0
    world = dist.get_world_size() if distributed else 1
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device = torch.device(f"cuda:{local_rank}" if torch.cuda.is_available() else "cpu")

    torch.manual_seed(0)
    train = torch.load(os.path.join(data_dir, "train.pt"), weights_only=True)
    # Each rank trains on its own equal share: every rank runs the same number of steps.
    share = len(train["y"]) // world
    x = train["x"][rank * share : (rank + 1) * share]
    y = train["y"][rank * share : (rank + 1) * share]

    model = torch.nn.Sequential(torch.nn.Linear(x.shape[1], 32), torch.nn.ReLU(), torch.nn.Linear(32, 2)).to(device)
    if distributed:
        model = DistributedDataParallel(model, device_ids=[local_rank] if device.type == "cuda" else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.CrossEntropyLoss()

    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(len(y))
        total, steps = 0.0, 0
        for start in range(0, len(y), args.batch_size):
            batch = order[start : start + args.batch_size]
            optimizer.zero_grad()
            loss = loss_fn(model(x[batch].to(device)), y[batch].to(device))
            loss.backward()
            optimizer.step()
            total, steps = total + loss.item(), steps + 1
        if rank == 0:
            print(f"epoch {epoch}/{args.epochs} loss {total / max(steps, 1):.4f}", flush=True)

    if rank == 0:
        test = torch.load(os.path.join(data_dir, "test.pt"), weights_only=True)
        plain = model.module if distributed else model
        with torch.no_grad():
            predicted = plain(test["x"].to(device)).argmax(dim=1).cpu()
        accuracy = (predicted == test["y"]).float().mean().item()
        os.makedirs(output_dir, exist_ok=True)
        torch.save(plain.state_dict(), os.path.join(output_dir, "model.pt"))
        metrics = {"accuracy": accuracy, "samples": len(test["y"]), "worldSize": world}
        with open(os.path.join(output_dir, "metrics.json"), "w") as out:
            json.dump(metrics, out)
        print(f"accuracy {accuracy:.4f}", flush=True)
    if distributed:
        dist.barrier()
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
