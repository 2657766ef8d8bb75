"""Train the character-level transformer with DistributedDataParallel, launched by torchrun.

Follows the workload contract (docs/workload-contract.md): data from $TRAINPLANE_DATA_DIR, everything
it writes in $TRAINPLANE_OUTPUT_DIR (both overridable with --data-dir/--output-dir), hyperparameters
as `--key value` (booleans as true/false), gloo on CPU and nccl on GPU, one `epoch N/M loss X` line per
epoch from rank 0. After every epoch rank 0 writes checkpoint-epoch-<n>.pt (through a temporary name,
fsync'd, renamed) and then its SHA-256 in <name>.sha256; a restart resumes from the newest checkpoint
whose digest matches. On SIGTERM the ranks stop after the same step and exit 143; the last epoch's
checkpoint is the one to resume from. At the end rank 0 writes model.pt, train-metrics.json and
metrics.json (validation perplexity and next-character accuracy: the metrics the quality gate reads
when the run has no evaluate command).
"""
import argparse
import hashlib
import json
import os
import re
import signal
import sys
import time

import torch
import torch.distributed as dist
from torch.nn import functional as F
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import CharTransformer, Vocabulary, evaluate, read_corpus, saved_model, windows  # noqa: E402

CHECKPOINT = re.compile(r"^checkpoint-epoch-(\d+)\.pt$")
INTERRUPTED_EXIT = 143  # 128 + SIGTERM: the kubelet and torchrun see an interrupted training
STARTS = "training-starts.jsonl"

stop_requested = False


def on_sigterm(signum, frame):
    global stop_requested
    stop_requested = True


def boolean(text):
    if text.lower() in ("true", "1", "yes"):
        return True
    if text.lower() in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, not {text!r}")


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_atomically(path, data):
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        if isinstance(data, bytes):
            f.write(data)
        else:
            torch.save(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def save_checkpoint(state, path):
    write_atomically(path, state)
    # The digest last: a crash before it leaves a checkpoint that resume skips rather than trusts.
    write_atomically(path + ".sha256", f"{sha256_of(path)}  {os.path.basename(path)}\n".encode())


def verified_checkpoint(output_dir):
    """The newest checkpoint whose recorded SHA-256 matches; prints why each newer one is skipped."""
    found = sorted(((int(m.group(1)), name) for name in os.listdir(output_dir)
                    if (m := CHECKPOINT.match(name))), reverse=True)
    for _, name in found:
        path = os.path.join(output_dir, name)
        try:
            with open(path + ".sha256") as f:
                recorded = f.read().split()
        except FileNotFoundError:
            print(f"skipping {name}: no {name}.sha256", flush=True)
            continue
        if not recorded or recorded[0] != sha256_of(path):
            print(f"skipping {name}: its SHA-256 differs from the recorded one", flush=True)
            continue
        return path
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", default=os.environ.get("TRAINPLANE_DATA_DIR"), help="default: $TRAINPLANE_DATA_DIR")
    p.add_argument("--output-dir", default=os.environ.get("TRAINPLANE_OUTPUT_DIR"),
                   help="default: $TRAINPLANE_OUTPUT_DIR")
    p.add_argument("--epochs", type=int, default=6)
    # Both spellings: a spec's hyperparameter names have no '-' (they also become TRAINPLANE_HP_<NAME>).
    p.add_argument("--steps-per-epoch", "--steps_per_epoch", type=int, default=40)
    p.add_argument("--batch-size", "--batch_size", type=int, default=32, help="windows per process and step")
    p.add_argument("--lr", type=float, default=0.003)
    p.add_argument("--context", type=int, default=64)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--amp", type=boolean, default=False, help="bfloat16 autocast on GPU (true/false)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if not a.data_dir or not a.output_dir:
        p.error("--data-dir and --output-dir (or $TRAINPLANE_DATA_DIR and $TRAINPLANE_OUTPUT_DIR) are required")
    if min(a.epochs, a.steps_per_epoch, a.batch_size, a.context) < 1 or a.dim % a.heads:
        p.error("--epochs, --steps-per-epoch, --batch-size and --context must be at least 1;"
                " --dim a multiple of --heads")

    signal.signal(signal.SIGTERM, on_sigterm)
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device(f"cuda:{local_rank}" if backend == "nccl" else "cpu")
    if backend == "nccl":
        torch.cuda.set_device(device)
    else:
        torch.set_num_threads(1)  # one core per process: the processes share the machine's cores
    torch.manual_seed(a.seed)

    text = read_corpus(a.data_dir, "train.txt")
    vocab = Vocabulary(sorted(set(text)))
    ids = vocab.encode(text)
    if len(ids) <= a.context + 1:
        p.error(f"the corpus has {len(ids)} characters, fewer than --context {a.context} + 2")
    os.makedirs(a.output_dir, exist_ok=True)
    model = CharTransformer(len(vocab), a.context, a.dim, a.layers, a.heads, a.dropout).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)

    start_epoch = 0
    choice = [verified_checkpoint(a.output_dir) if rank == 0 else None]
    dist.broadcast_object_list(choice, src=0)
    if choice[0]:
        state = torch.load(choice[0], map_location=device, weights_only=True)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start_epoch = state["epoch"]
        if rank == 0:
            print(f"resuming from {os.path.basename(choice[0])} at epoch {start_epoch + 1} "
                  f"(resumedFromEpoch={start_epoch}, SHA-256 verified)", flush=True)
    elif rank == 0:
        print("starting fresh: no verified checkpoint (resumedFromEpoch=0)", flush=True)
    if rank == 0:
        with open(os.path.join(a.output_dir, STARTS), "a") as f:
            f.write(json.dumps({"resumedFromEpoch": start_epoch, "time": round(time.time(), 1)}) + "\n")
    ddp = DistributedDataParallel(model, device_ids=[local_rank] if backend == "nccl" else None)
    autocast = torch.autocast("cuda", dtype=torch.bfloat16, enabled=a.amp and backend == "nccl")
    started = time.time()
    loss_value = None

    for epoch in range(start_epoch, a.epochs):
        ddp.train()
        # The windows of every (epoch, rank, step) are fixed by the seed: a resumed epoch sees the same.
        generator = torch.Generator().manual_seed(a.seed * 1_000_003 + epoch * 1009 + rank)
        total = torch.zeros(2, dtype=torch.float64, device=device)
        stopping = False
        for _ in range(a.steps_per_epoch):
            starts = torch.randint(0, len(ids) - a.context - 1, (a.batch_size,), generator=generator).tolist()
            x, y = windows(ids, a.context, starts)
            x, y = x.to(device), y.to(device)
            with autocast:
                logits = ddp(x)
                loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), y.reshape(-1))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            total += torch.tensor([loss.item(), 1.0], dtype=torch.float64, device=device)
            # All ranks stop after the same step, or one would wait forever in the next all-reduce.
            flag = torch.tensor([1 if stop_requested else 0], device=device)
            dist.all_reduce(flag, op=dist.ReduceOp.MAX)
            if flag.item():
                stopping = True
                break
        if stopping:
            if rank == 0:
                print(f"interrupted by SIGTERM in epoch {epoch + 1}: checkpoint-epoch-{epoch}.pt is the last "
                      f"durable one, exiting {INTERRUPTED_EXIT}", flush=True)
            dist.barrier()
            dist.destroy_process_group()
            sys.stdout.flush()
            os._exit(INTERRUPTED_EXIT)
        dist.all_reduce(total)
        loss_value = (total[0] / total[1]).item()
        if rank == 0:
            print(f"epoch {epoch + 1}/{a.epochs} loss {loss_value:.4f}", flush=True)
            save_checkpoint({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch + 1,
                             "loss": loss_value},
                            os.path.join(a.output_dir, f"checkpoint-epoch-{epoch + 1}.pt"))
        dist.barrier()

    if rank == 0:
        if start_epoch >= a.epochs:
            print(f"all {a.epochs} epochs already trained", flush=True)
        write_atomically(os.path.join(a.output_dir, "model.pt"), saved_model(model, vocab))
        with open(os.path.join(a.output_dir, STARTS)) as f:
            restarts = max(0, sum(1 for line in f if line.strip()) - 1)
        training = {"loss": loss_value, "epochs": a.epochs, "worldSize": world,
                    "seconds": round(time.time() - started, 1), "resumedFromEpoch": start_epoch,
                    "restarts": restarts}
        write_atomically(os.path.join(a.output_dir, "train-metrics.json"), json.dumps(training).encode())
        # The gate's metrics, for a run without an evaluate command (the evaluation Job reports this file).
        metrics = evaluate(model, vocab.encode(read_corpus(a.data_dir, "val.txt")), a.context)
        metrics.update(uniformPerplexity=len(vocab), restarts=restarts, resumedFromEpoch=start_epoch)
        write_atomically(os.path.join(a.output_dir, "metrics.json"), json.dumps(metrics).encode())
        print("validation " + json.dumps(metrics), flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
    # Skip interpreter finalization: torch's threads sometimes abort it after a good run (see cifar10/train.py).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
