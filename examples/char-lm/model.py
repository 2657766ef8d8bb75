"""A small decoder-only transformer over characters, and the corpus it reads (plain torch)."""
import json
import math
import os

import torch
from torch import nn
from torch.nn import functional as F

CORPUS = "corpus"


class Vocabulary:
    """The corpus's characters, sorted; index 0 stands for any character the training never saw."""

    def __init__(self, chars):
        self.chars = chars
        self.index = {c: i + 1 for i, c in enumerate(chars)}

    def __len__(self):
        return len(self.chars) + 1

    def encode(self, text):
        return torch.tensor([self.index.get(c, 0) for c in text], dtype=torch.long)

    def to_json(self):
        return json.dumps(self.chars)

    @staticmethod
    def from_json(text):
        return Vocabulary(json.loads(text))


def read_corpus(data_dir, name):
    with open(os.path.join(data_dir, CORPUS, name), encoding="utf-8") as f:
        return f.read()


class Block(nn.Module):
    def __init__(self, dim, heads, dropout):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.dropout = dropout

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                                  dropout_p=self.dropout if self.training else 0.0)
        x = x + self.proj(attended.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.norm2(x))


class CharTransformer(nn.Module):
    def __init__(self, vocab, context, dim, layers, heads, dropout=0.0):
        super().__init__()
        self.config = {"vocab": vocab, "context": context, "dim": dim, "layers": layers, "heads": heads,
                       "dropout": dropout}
        self.context = context
        self.embed = nn.Embedding(vocab, dim)
        self.position = nn.Embedding(context, dim)
        self.blocks = nn.ModuleList(Block(dim, heads, dropout) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.embed.weight  # tied: fewer parameters, learns faster on little data
        # Small embeddings: the tied head then starts near uniform (loss ln(vocab)), not far above it.
        nn.init.normal_(self.embed.weight, std=0.02)
        nn.init.normal_(self.position.weight, std=0.02)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], device=ids.device)
        x = self.embed(ids) + self.position(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def windows(ids, context, starts):
    """Inputs and next-character targets for the windows starting at `starts`."""
    x = torch.stack([ids[s:s + context] for s in starts])
    y = torch.stack([ids[s + 1:s + 1 + context] for s in starts])
    return x, y


@torch.no_grad()
def evaluate(model, ids, context, batch_size=64):
    """Mean negative log-likelihood per character (nats), perplexity and next-character accuracy over
    `ids` cut into consecutive windows: every character after the first is predicted once."""
    model.eval()
    device = next(model.parameters()).device
    starts = list(range(0, len(ids) - 1 - context + 1, context))
    total, correct, count = 0.0, 0, 0
    for i in range(0, len(starts), batch_size):
        x, y = windows(ids, context, starts[i:i + batch_size])
        x, y = x.to(device), y.to(device)
        logits = model(x)
        total += F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), reduction="sum").item()
        correct += (logits.argmax(dim=-1) == y).sum().item()
        count += y.numel()
    nll = total / count
    return {"perplexity": round(math.exp(nll), 4), "accuracy": round(correct / count, 4),
            "bitsPerChar": round(nll / math.log(2), 4), "samples": count}


def saved_model(model, vocab):
    """What model.pt holds: the configuration, the weights and the vocabulary, enough to load it alone."""
    return {"config": model.config, "state": model.state_dict(), "vocab": vocab.chars}


def load_model(path, device="cpu"):
    saved = torch.load(path, map_location=device, weights_only=True)
    model = CharTransformer(**saved["config"]).to(device)
    model.load_state_dict(saved["state"])
    return model, Vocabulary(saved["vocab"])
