#!/usr/bin/env python3
"""parlearn's toy transformer in PyTorch, float64: the second judge.

The model, batch and initial weights come from a file written by
`parlearn trace --mode single --dump-weights FILE` (schema
parlearn.weights/1), so both sides start from the same doubles. The model
is the one of src/core/sim/sim_model.h: 4 pre-norm blocks of width 16,
    h = x + Attn(RMSNorm(x; g1))      causal, 4 heads
    y = h + MLP(RMSNorm(h; g2))       GELU_tanh(n W1 + b1) W2 + b2
with loss sum |y - target|^2 / (2 * tokens) and one Adam step.

    python3 toy.py single.json     loss, every gradient and the updated
                                   weights against the simulator's run
Exit 0 when every difference is within --tol (1e-9), 1 when not, 2 on a
bad file.
"""
import argparse
import json
import math
import sys

import torch
import torch.nn.functional as F

SCHEMA = "parlearn.weights/1"


def die(msg):
    print(f"{sys.argv[0]}: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    """The dump as a dict, with its number arrays as float64 tensors."""
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")
    if not isinstance(d, dict) or d.get("schema") != SCHEMA:
        die(f"{path}: not a {SCHEMA} file")
    try:
        for k in ("x", "target", "params", "grads", "params_after"):
            d[k] = torch.tensor(d[k], dtype=torch.float64)
        m = d["model"]
        shape = (m["batch"], m["seq"], m["hidden"])
        d["x"] = d["x"].reshape(shape)
        d["target"] = d["target"].reshape(shape)
    except (KeyError, TypeError, ValueError, RuntimeError) as e:
        die(f"{path}: {type(e).__name__}: {e}")
    return d


class Block(torch.nn.Module):
    def __init__(self, layout):
        super().__init__()
        self.names = [p["name"] for p in layout]
        for p in layout:
            self.register_parameter(p["name"], torch.nn.Parameter(
                torch.zeros(p["shape"], dtype=torch.float64)))

    def forward(self, x, heads, eps):
        b, s, h = x.shape
        d = h // heads

        def rms(v, g):
            return v * torch.rsqrt(v.pow(2).mean(-1, keepdim=True) + eps) * g

        n = rms(x, self.g1)

        def split(z):
            return z.reshape(b, s, heads, d).transpose(1, 2)

        q = split(n @ self.wq + self.bq)
        k = split(n @ self.wk + self.bk)
        v = split(n @ self.wv + self.bv)
        sc = q @ k.transpose(-1, -2) / math.sqrt(d)
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        w = sc.masked_fill(mask, float("-inf")).softmax(-1)
        ctx = (w @ v).transpose(1, 2).reshape(b, s, h)
        x = x + ctx @ self.wo + self.bo
        n = rms(x, self.g2)
        u = F.gelu(n @ self.w1 + self.b1, approximate="tanh")
        return x + u @ self.w2 + self.b2


class Toy(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.heads = model["heads"]
        self.eps = model["rmsnorm_eps"]
        self.blocks = torch.nn.ModuleList(
            Block(model["layer_params"]) for _ in range(model["layers"]))

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x, self.heads, self.eps)
        return x

    def ordered(self):
        """The parameters in the simulator's full layout order."""
        return [getattr(b, n) for b in self.blocks for n in b.names]

    def set_flat(self, flat):
        i = 0
        with torch.no_grad():
            for p in self.ordered():
                p.copy_(flat[i:i + p.numel()].reshape(p.shape))
                i += p.numel()
        assert i == flat.numel(), "layout does not cover the parameters"


def flat(tensors):
    return torch.cat([t.reshape(-1) for t in tensors])


def loss_fn(y, target, tokens):
    """sim_loss(): sum |y - t|^2 / (2 * tokens), tokens those of the
    whole batch (a DDP rank passes its own, DDP averages the gradients)."""
    return (y - target).pow(2).sum() / (2 * tokens)


def adam(model, m):
    a = m["adam"]
    return torch.optim.Adam(model.parameters(), lr=a["lr"],
                            betas=(a["beta1"], a["beta2"]), eps=a["eps"])


def diff(a, b):
    return (a - b).abs().max().item()


def report(label, diffs, tol):
    """Print one line per figure; True when all are within tol."""
    ok = True
    for name, v in diffs:
        good = v <= tol
        ok &= good
        print(f"{label}: max |diff| {name} {v:.3e}"
              f"{'' if good else f' > {tol:g} FAIL'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", help="parlearn trace --mode single --dump-weights")
    ap.add_argument("--tol", type=float, default=1e-9)
    o = ap.parse_args()
    d = load(o.dump)
    m = d["model"]
    torch.manual_seed(0)
    model = Toy(m)
    model.set_flat(d["params"])
    opt = adam(model, m)
    loss = loss_fn(model(d["x"]), d["target"], m["batch"] * m["seq"])
    loss.backward()
    grads = flat(p.grad for p in model.ordered())
    opt.step()
    after = flat(p.detach() for p in model.ordered())
    ok = report(f"single vs parlearn {d['mode']}", [
        ("loss", abs(loss.item() - d["loss"])),
        ("grad", diff(grads, d["grads"])),
        ("param after Adam", diff(after, d["params_after"]))], o.tol)
    print(f"  loss {loss.item():.17g}, largest |grad| "
          f"{grads.abs().max().item():.3g}, {grads.numel()} gradients")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
