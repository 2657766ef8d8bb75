"""Prepare the CIFAR-10 data set on the shared volume (workload contract: docs/workload-contract.md).

Sources: a URL of the python-format archive (verified against its sha256), an s3:// address of
it (boto3, credentials from Pod Identity; verified when a sha256 is given), or a synthetic,
learnable CIFAR-format data set for offline runs. A marker file makes a rerun skip the work.
Exit codes: 0 ready, 3 checksum mismatch, 1 anything else.
"""
import argparse
import hashlib
import json
import os
import pickle
import sys
import tarfile
import urllib.request

import numpy as np

MARKER = ".trainplane-ready"
BATCHES = "cifar-10-batches-py"


def synthetic(data_dir, samples, seed=7):
    """Ten classes, each a fixed coarse colour pattern (4x4 blocks of 8x8 pixels), a fainter
    pattern of a random class and pixel noise: learnable by a small CNN in a few epochs, not perfectly."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, size=(10, 3, 4, 4)).astype(np.float32)
    patterns = np.kron(coarse, np.ones((8, 8), dtype=np.float32))
    out = os.path.join(data_dir, BATCHES)
    os.makedirs(out, exist_ok=True)

    def batch(n, name):
        labels = rng.integers(0, 10, size=n)
        distractors = rng.integers(0, 10, size=n)  # another class's pattern, fainter: not trivially separable
        noise = rng.normal(0, 60, size=(n, 3, 32, 32))
        images = patterns[labels] * 0.5 + patterns[distractors] * 0.4 + noise + 15
        images = np.clip(images, 0, 255).astype(np.uint8)
        with open(os.path.join(out, name), "wb") as f:
            pickle.dump({b"data": images.reshape(n, 3072), b"labels": labels.tolist()}, f)

    per_batch = max(1, samples // 5)
    for i in range(1, 6):
        batch(per_batch, f"data_batch_{i}")
    batch(max(100, samples // 5), "test_batch")


def fetch_s3(url, archive):
    try:
        import boto3
    except ImportError:
        print(f"cannot copy {url}: boto3 is not installed in the training image", file=sys.stderr)
        sys.exit(1)
    bucket, _, key = url[len("s3://"):].partition("/")
    boto3.client("s3").download_file(bucket, key, archive)


def download(url, sha256, data_dir):
    archive = os.path.join(data_dir, "download.tar.gz")
    if url.startswith("s3://"):
        fetch_s3(url, archive)
    else:
        urllib.request.urlretrieve(url, archive)
    digest = hashlib.sha256()
    with open(archive, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    if sha256 and digest.hexdigest() != sha256.lower():
        print(f"CHECKSUM MISMATCH expected {sha256} got {digest.hexdigest()} for {url}", file=sys.stderr)
        os.remove(archive)
        sys.exit(3)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(data_dir, filter="data")
        else:  # Python before 3.11.4: refuse members that would land outside data_dir
            root = os.path.realpath(data_dir)
            for member in tar.getmembers():
                if not os.path.realpath(os.path.join(root, member.name)).startswith(root + os.sep):
                    raise ValueError(f"unsafe path in archive: {member.name}")
            tar.extractall(data_dir)
    if not os.path.isdir(os.path.join(data_dir, BATCHES)):
        raise ValueError(f"the archive has no {BATCHES}/ directory")
    os.remove(archive)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data-dir", required=True)
    p.add_argument("--source", choices=["synthetic", "url", "s3"], default="synthetic")
    p.add_argument("--url")
    p.add_argument("--sha256")
    p.add_argument("--samples", type=int, default=2000)
    a = p.parse_args()
    if a.source == "url" and not (a.url and a.sha256):
        p.error("--source url needs --url and --sha256")
    os.makedirs(a.data_dir, exist_ok=True)
    marker = os.path.join(a.data_dir, MARKER)
    if os.path.exists(marker):
        print(f"data already prepared ({open(marker).read().strip()}), skipping")
        return
    try:
        if a.source in ("url", "s3"):
            if not a.url:
                print(f"--source {a.source} needs --url", file=sys.stderr)
                sys.exit(1)
            download(a.url, a.sha256, a.data_dir)
        else:
            synthetic(a.data_dir, a.samples)
    except Exception as e:  # noqa: BLE001 - exit code 1 with the reason on stderr
        print(f"data preparation failed: {e}", file=sys.stderr)
        sys.exit(1)
    with open(marker, "w") as f:
        json.dump({"source": a.source, "url": a.url, "sha256": a.sha256}, f)
    print("data ready in", a.data_dir)


if __name__ == "__main__":
    main()
