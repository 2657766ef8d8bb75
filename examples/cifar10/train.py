"""Distributed data-parallel training of the CIFAR-10 network, launched by torchrun.

Checkpoints every epoch on the shared volume and resumes from the newest one after a restart.
A checkpoint is trusted only when complete: written to a temporary name, fsync'd, renamed, and its
SHA-256 recorded beside it (`<checkpoint>.sha256`, in `sha256sum` format) once the rename is done.
Resume takes the newest checkpoint whose digest matches and says which, and why newer ones were
skipped. On SIGTERM (a spot interruption, a node drain) every rank finishes its current step, rank 0
writes a checkpoint of that step, and the processes exit 143 so the interruption is visible.
Rank 0 writes model.pt and train-metrics.json. Exit code 0 on success.
"""
import argparse
import hashlib
import itertools
import json
import os
import re
import signal
import sys
import time

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, Sampler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Net, load  # noqa: E402

# checkpoint-epoch-<completed epochs>.pt, or checkpoint-epoch-<completed>-step-<batches of the next>.pt
CHECKPOINT = re.compile(r"^checkpoint-epoch-(\d+)(?:-step-(\d+))?\.pt$")
# 128 + SIGTERM, what a shell reports for a process ended by the signal: torchrun and the
# kubelet see an interrupted training, not a finished one.
INTERRUPTED_EXIT = 143
STARTS = "training-starts.jsonl"

stop_requested = False


def on_sigterm(signum, frame):
    # Only a flag: the step in flight finishes and all ranks agree on where to stop.
    global stop_requested
    stop_requested = True


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fsync_dir(directory):
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path, write):
    """Writes through a temporary name, fsync'd, then renamed: readers see all of it or nothing."""
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)
    fsync_dir(os.path.dirname(path) or ".")


def save_checkpoint(state, path):
    write_atomically(path, lambda f: torch.save(state, f))
    # The digest comes after the rename: a crash in between leaves a checkpoint without one, which
    # resume skips rather than trusts.
    line = f"{sha256_of(path)}  {os.path.basename(path)}\n".encode()
    write_atomically(path + ".sha256", lambda f: f.write(line))


def checkpoint_name(epochs_done, step):
    return f"checkpoint-epoch-{epochs_done}.pt" if step == 0 else f"checkpoint-epoch-{epochs_done}-step-{step}.pt"


def verified_checkpoint(output_dir):
    """The newest checkpoint whose recorded SHA-256 matches, and (name, reason) for each newer one skipped."""
    found = []
    for name in os.listdir(output_dir):
        m = CHECKPOINT.match(name)
        if m:
            found.append(((int(m.group(1)), int(m.group(2) or 0)), name))
    skipped = []
    for _, name in sorted(found, reverse=True):
        path = os.path.join(output_dir, name)
        try:
            with open(path + ".sha256") as f:
                recorded = f.read().split()
        except FileNotFoundError:
            skipped.append((name, f"no {name}.sha256: torn write or a crash before its digest was recorded"))
            continue
        if not recorded or not re.fullmatch(r"[0-9a-f]{64}", recorded[0]):
            skipped.append((name, f"{name}.sha256 holds no SHA-256"))
            continue
        actual = sha256_of(path)
        if actual != recorded[0]:
            skipped.append((name, f"its SHA-256 {actual[:12]}… differs from the recorded {recorded[0][:12]}…"))
            continue
        return path, skipped
    return None, skipped


class SkipFirst(Sampler):
    """The wrapped sampler's order without its first `skip` indices: resumes an epoch mid-way."""

    def __init__(self, sampler):
        self.sampler = sampler
        self.skip = 0

    def __iter__(self):
        return itertools.islice(iter(self.sampler), self.skip, None)

    def __len__(self):
        return max(0, len(self.sampler) - self.skip)


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
    signal.signal(signal.SIGTERM, on_sigterm)
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
    start_epoch, start_step = 0, 0
    loss_value = None
    partial = (0.0, 0.0)
    # Rank 0 verifies (one read of the file, not one per rank) and tells the others which to load.
    choice = [None]
    if rank == 0:
        checkpoint, skipped = verified_checkpoint(a.output_dir)
        for name, reason in skipped:
            print(f"skipping {name}: {reason}", flush=True)
        choice = [checkpoint]
    dist.broadcast_object_list(choice, src=0)
    checkpoint = choice[0]
    if checkpoint:
        # weights_only: a checkpoint is tensors and numbers, never code a tampered file could run here.
        state = torch.load(checkpoint, map_location=device, weights_only=True)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"]
        start_step = state.get("step", 0)
        loss_value = state.get("loss")
        if rank == 0:
            partial = (state.get("total", 0.0), state.get("count", 0.0))
            where = f"epoch {start_epoch + 1}" + (f" step {start_step + 1}" if start_step else "")
            print(f"resuming from {os.path.basename(checkpoint)} at {where} (resumedFromEpoch={start_epoch}, "
                  f"SHA-256 verified)", flush=True)
    elif rank == 0:
        print("starting fresh: no verified checkpoint (resumedFromEpoch=0)", flush=True)
    restart_count = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))
    if rank == 0:
        with open(os.path.join(a.output_dir, STARTS), "a") as f:
            f.write(json.dumps({"resumedFromEpoch": start_epoch, "step": start_step,
                                "checkpoint": os.path.basename(checkpoint) if checkpoint else None,
                                "torchrunRestart": restart_count, "time": round(time.time(), 1)}) + "\n")
            f.flush()
            os.fsync(f.fileno())
    ddp = DistributedDataParallel(model, device_ids=[local_rank] if backend == "nccl" else None)

    data = load(a.data_dir, train=True)
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True)
    resumable = SkipFirst(sampler)
    loader = DataLoader(data, batch_size=a.batch_size, sampler=resumable)
    steps_per_epoch = (len(sampler) + a.batch_size - 1) // a.batch_size
    loss_fn = nn.CrossEntropyLoss()
    started = time.time()

    def checkpoint_state(epochs_done, step, total, count):
        return {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epochs_done,
                "step": step, "loss": loss_value, "total": total, "count": count}

    def exit_interrupted(epochs_done, step, written):
        if rank == 0:
            print(f"interrupted by SIGTERM at epoch {epochs_done + 1} step {step}: {written} is durable, "
                  f"exiting {INTERRUPTED_EXIT}", flush=True)
        dist.barrier()
        dist.destroy_process_group()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(INTERRUPTED_EXIT)

    for epoch in range(start_epoch, a.epochs):
        sampler.set_epoch(epoch)
        first_step = start_step if epoch == start_epoch else 0
        resumable.skip = first_step * a.batch_size
        ddp.train()
        total, count = partial if epoch == start_epoch else (0.0, 0.0)
        stopping = False
        for step, (x, y) in enumerate(loader, start=first_step + 1):
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = loss_fn(ddp(x), y)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(y)
            count += len(y)
            # All ranks stop after the same step, or one would wait forever in the next all-reduce.
            flag = torch.tensor([1 if stop_requested else 0], device=device)
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            if flag.item():
                stopping = True
                if step < steps_per_epoch:
                    sums = torch.tensor([total, count], dtype=torch.float64, device=device)
                    dist.all_reduce(sums)
                    name = checkpoint_name(epoch, step)
                    if rank == 0:
                        save_checkpoint(checkpoint_state(epoch, step, sums[0].item(), sums[1].item()),
                                        os.path.join(a.output_dir, name))
                    exit_interrupted(epoch, step, name)
                break  # the epoch's last step: its checkpoint below is the one to keep
        # The stop flag rides along: a SIGTERM after the last step's agreement still stops every rank here.
        stats = torch.tensor([total, count, 1 if stop_requested else 0], dtype=torch.float64, device=device)
        dist.all_reduce(stats)
        loss_value = (stats[0] / stats[1]).item()
        name = checkpoint_name(epoch + 1, 0)
        if rank == 0:
            print(f"epoch {epoch + 1}/{a.epochs} loss {loss_value:.4f}", flush=True)
            save_checkpoint(checkpoint_state(epoch + 1, 0, 0.0, 0.0), os.path.join(a.output_dir, name))
        dist.barrier()
        if stopping or stats[2].item() > 0:
            exit_interrupted(epoch + 1, 0, name)

    if rank == 0:
        if start_epoch >= a.epochs:
            print(f"all {a.epochs} epochs already trained", flush=True)
        write_atomically(os.path.join(a.output_dir, "model.pt"), lambda f: torch.save(model.state_dict(), f))
        with open(os.path.join(a.output_dir, STARTS)) as f:
            starts = sum(1 for line in f if line.strip())
        # restarts: every start of this training after its first one, whoever restarted it (torchrun
        # in place, or a new pod after a node was lost); the log of starts lives on the shared volume.
        metrics = {"loss": loss_value, "epochs": a.epochs, "worldSize": world,
                   "seconds": round(time.time() - started, 1), "resumedFromEpoch": start_epoch,
                   "restarts": max(starts - 1, restart_count)}
        write_atomically(os.path.join(a.output_dir, "train-metrics.json"),
                         lambda f: f.write(json.dumps(metrics).encode()))
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
