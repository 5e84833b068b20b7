#!/usr/bin/env python3
"""The toy transformer (toy.py) on 2-4 CPU processes with gloo, under
PyTorch's DistributedDataParallel, against `parlearn trace --mode dp
--gpus N --dump-weights FILE`; with --zero FILE, the same processes then
run the step again with Adam's state sharded by ZeroRedundancyOptimizer,
against `--mode fsdp`'s FILE.

    python3 ddp.py --procs 2 dp.json [--zero fsdp.json] [--trace-dir DIR]

PyTorch 1.13's FullyShardedDataParallel does not run here: it needs CUDA
(its compute device is always a CUDA device and its root asserts
torch.cuda.is_available(), torch/distributed/fsdp/
fully_sharded_data_parallel.py, _get_compute_device and _init_streams),
and on Python 3.11 it does not even import (pytorch/pytorch#91795, fixed
after 1.13). ZeRO-1 is the sharding 1.13 runs on CPU and gloo.

Rank r trains on sequences r*B/N .. (r+1)*B/N - 1 of the batch, the shard
the simulator gives replica r. After one step every rank compares the
loss (averaged over ranks), the full gradients and the weights after
Adam with the simulator's.
--trace-dir writes each rank's torch.profiler Chrome trace of the DDP step
there, as ddp-Np-rankR.json; --trim drops the views, copies and
allocations.
Exit 0 when every figure of every rank is within --tol, 1 when not.
"""
import argparse
import json
import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

import toy


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def zero_adam(model, m):
    """Adam with its state sharded over the ranks (ZeRO stage 1): each
    rank updates its share of the parameters and broadcasts them."""
    from torch.distributed.optim import ZeroRedundancyOptimizer
    a = m["adam"]
    return ZeroRedundancyOptimizer(
        model.parameters(), optimizer_class=torch.optim.Adam, lr=a["lr"],
        betas=(a["beta1"], a["beta2"]), eps=a["eps"])


# What --trim keeps of aten's operators: the products and nonlinearities
# (the rest are views, copies and allocations, most of a trace's bytes).
ATEN_KEPT = {"aten::mm", "aten::bmm", "aten::matmul", "aten::gelu",
             "aten::gelu_backward", "aten::softmax",
             "aten::_softmax_backward_data"}


def trim(path):
    """Keep regions, autograd's nodes (by their evaluate_function event),
    DDP's reducer, the c10d and gloo collectives and ATEN_KEPT."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc

    def keep(e):
        n = e.get("name", "")
        if n.startswith("aten::"):
            return n in ATEN_KEPT
        if n in ("detach", "detach_"):
            return False
        return "Backward" not in n or n.startswith("autograd::")

    kept = [e for e in events if keep(e)]
    if isinstance(doc, dict):
        doc["traceEvents"] = kept
    else:
        doc = kept
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def step(zero, rank, world, d):
    m = d["model"]
    torch.manual_seed(0)
    model = toy.Toy(m)
    model.set_flat(d["params"])
    # One bucket per block, as the simulator's dp mode buckets (sim.h).
    # DDP 1.13 puts the whole model in one bucket on the first step unless
    # find_unused_parameters is set, and its comment invites setting the
    # first bucket's cap through dist._DEFAULT_FIRST_BUCKET_BYTES
    # (torch/nn/parallel/distributed.py, DistributedDataParallel.__init__).
    layer = sum(p.numel() * p.element_size()
                for p in model.blocks[0].parameters())
    dist._DEFAULT_FIRST_BUCKET_BYTES = layer
    wrapped = DDP(model, bucket_cap_mb=layer / 2**20,
                  find_unused_parameters=True)
    opt = zero_adam(wrapped, m) if zero else toy.adam(wrapped, m)
    per = m["batch"] // world
    x = d["x"][rank * per:(rank + 1) * per]
    t = d["target"][rank * per:(rank + 1) * per]
    rf = torch.profiler.record_function
    with rf("forward"):
        loss = toy.loss_fn(wrapped(x), t, per * m["seq"])
    with rf("backward"):
        loss.backward()
    grads = toy.flat(p.grad for p in model.ordered())
    with rf("optimizer"):
        opt.step()
    after = toy.flat(p.detach() for p in model.ordered())
    return loss.detach().clone(), grads, after


def check(o, rank, world, path, zero):
    """One step on this rank against the dump at path; True when within
    tolerance. Only the DDP step is profiled."""
    d = toy.load(path)
    if o.trace_dir and not zero:
        acts = [torch.profiler.ProfilerActivity.CPU]
        with torch.profiler.profile(activities=acts) as prof:
            res = step(zero, rank, world, d)
        os.makedirs(o.trace_dir, exist_ok=True)
        name = os.path.join(o.trace_dir, f"ddp-{world}p-rank{rank}.json")
        prof.export_chrome_trace(name)
        if o.trim:
            trim(name)
    else:
        res = step(zero, rank, world, d)
    loss, grads, after = res
    # The mean loss over ranks, outside the profile: not DDP's traffic.
    dist.all_reduce(loss)
    loss = loss.item() / world
    label = (f"DDP{' + ZeRO-1 Adam' if zero else ''} {world} processes"
             f" rank {rank} vs parlearn {d['mode']} --gpus {d['gpus']}")
    diffs = [("loss", abs(loss - d["loss"])),
             ("grad", toy.diff(grads, d["grads"])),
             ("param after Adam", toy.diff(after, d["params_after"]))]
    # One rank at a time, so the lines do not interleave.
    for r in range(world):
        if r == rank:
            ok = toy.report(label, diffs, o.tol)
            sys.stdout.flush()
        dist.barrier()
    return ok


def worker(rank, o, world, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    ok = check(o, rank, world, o.dump, False)
    if o.zero:
        ok &= check(o, rank, world, o.zero, True)
    dist.destroy_process_group()
    if not ok:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", help="parlearn trace --mode dp --gpus N "
                    "--dump-weights FILE")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--zero", metavar="FILE",
                    help="then the step with Adam's state sharded "
                    "(ZeroRedundancyOptimizer) against FILE, from "
                    "parlearn trace --mode fsdp --gpus N --dump-weights")
    ap.add_argument("--trace-dir")
    ap.add_argument("--trim", action="store_true",
                    help="keep only the trace's regions, autograd nodes, "
                    "collectives and products")
    ap.add_argument("--tol", type=float, default=1e-9)
    o = ap.parse_args()
    for path, want in ((o.dump, "dp"), (o.zero, "fsdp")):
        d = toy.load(path) if path else None
        if d and (d["mode"] != want or d["dp"] != o.procs):
            toy.die(f"{path}: a {d['mode']} run on {d['dp']} replicas; "
                    f"want {want} on {o.procs}")
    try:
        mp.spawn(worker, args=(o, o.procs, free_port()), nprocs=o.procs)
    except mp.ProcessExitedException as e:
        print(f"ddp.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
