#!/usr/bin/env python3
"""gemm_bench.py - time torch.matmul at the shapes parlearn's engine prices,
and print the table `parlearn calibrate` reads.

    python3 gemm_bench.py > gemm.txt          # on the GPU you will train on
    parlearn calibrate --gpu h100-80gb gemm.txt nccl/*.txt -o mine.json

A product M x K by K x N stands for a layer's linear: M the tokens of a
micro-batch (b x s), K and N the hidden size h or the MLP's width. Each shape
runs back to back for --seconds (0.5 by default) before it is timed, so the
GPU reaches the clock it holds under load: the figure the engine's
gemm_efficiency means (sustained, not the first burst). Times are CUDA events
on a GPU, wall-clock on a CPU (--device cpu, for trying the script only).
"""
import argparse
import time

import torch

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16,
          "fp32": torch.float32}


def shapes(quick):
    if quick:
        return [(64, 64, 64), (128, 64, 256), (256, 128, 128)]
    out = []
    for m in (2048, 8192, 32768):
        for k in (1024, 2048, 4096, 8192, 12288):
            out += [(m, k, k), (m, k, 4 * k)]
    return out


def timed(a, b, seconds, cuda):
    """Mean seconds of a @ b after running it back to back for seconds."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        a @ b
    n = 10
    if cuda:
        torch.cuda.synchronize()
        start, stop = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        start.record()
        for _ in range(n):
            a @ b
        stop.record()
        torch.cuda.synchronize()
        return start.elapsed_time(stop) / 1e3 / n
    t0 = time.perf_counter()
    for _ in range(n):
        a @ b
    return (time.perf_counter() - t0) / n


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    p.add_argument("--seconds", type=float, default=0.5,
                   help="back-to-back run before timing each shape")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available()
                   else "cpu")
    p.add_argument("--quick", action="store_true",
                   help="three tiny shapes (to try the script)")
    args = p.parse_args()
    dev, dt = torch.device(args.device), DTYPES[args.dtype]
    if dev.type == "cpu" and dt != torch.float32:
        dt = torch.float32     # CPU matmul in bf16 is not what we time
    name = (torch.cuda.get_device_name(dev) if dev.type == "cuda"
            else "cpu")
    print("# parlearn gemm_bench table: torch %s, %s, %s, %.2f s per shape"
          % (torch.__version__, name, str(dt).replace("torch.", ""),
             args.seconds))
    print("#      M      K      N    time_ms     tflops")
    for m, k, n in shapes(args.quick):
        a = torch.randn(m, k, device=dev, dtype=dt)
        b = torch.randn(k, n, device=dev, dtype=dt)
        s = timed(a, b, args.seconds, dev.type == "cuda")
        print("%8d %6d %6d %10.4f %10.2f"
              % (m, k, n, s * 1e3, 2 * m * k * n / s / 1e12), flush=True)


if __name__ == "__main__":
    main()
