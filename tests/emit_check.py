#!/usr/bin/env python3
"""emit_check.py - read a config `parlearn plan --emit` wrote back.

  emit_check.py layout KIND FILE      print the layout read back, as JSON
  emit_check.py names KIND FILE DIR   check every name against the pinned
                                      framework sources in DIR

Reading back uses the formats' own readers (tomllib, json, shlex); the
names are checked against the frameworks' parsers and dataclasses kept in
tests/data/frameworks (PROVENANCE.md) by reading their Python syntax trees.
Exit 0, or 1 with one line per problem.
"""
import ast
import json
import os
import re
import shlex
import sys
import tomllib


def megatron_flags(text):
    """The flags of a flags file: {name: [values]} in order."""
    words = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        words += shlex.split(line)
    flags, name = {}, None
    for w in words:
        if w.startswith("--"):
            name = w[2:]
            flags[name] = []
        elif name is None:
            raise SystemExit("value before any flag: " + w)
        else:
            flags[name].append(w)
    return flags


def heredoc(script, name):
    m = re.search(r"cat > %s <<'(\w+)'\n(.*?)\n\1\n" % re.escape(name),
                  script, re.S)
    return m.group(2) + "\n" if m else None


def layout_megatron(text):
    f = megatron_flags(text)
    one = lambda k, d=1: int(f[k][0]) if k in f else d
    zero = 0
    if "use-distributed-optimizer" in f:
        zero = 1
    if "use-megatron-fsdp" in f:
        zero = {"optim_grads": 2, "optim_grads_params": 3}[
            f["data-parallel-sharding-strategy"][0]]
    v = 1
    if "num-layers-per-virtual-pipeline-stage" in f:
        v = one("num-layers") // (one("pipeline-model-parallel-size") *
                                  one("num-layers-per-virtual-pipeline-stage"))
    return {"tp": one("tensor-model-parallel-size"),
            "pp": one("pipeline-model-parallel-size"),
            "cp": one("context-parallel-size"),
            "ep": one("expert-model-parallel-size"),
            "zero": zero, "v": v,
            "micro_batch": one("micro-batch-size"),
            "global_batch": one("global-batch-size"),
            "seq_parallel": "sequence-parallel" in f,
            "recompute": f.get("recompute-granularity", ["none"])[0]}


def layout_torchtitan(text):
    t = tomllib.loads(text)
    p, tr = t["parallelism"], t["training"]
    rep = p.get("data_parallel_replicate_degree", 1)
    shard = p.get("data_parallel_shard_degree", -1)
    raf = p.get("fsdp_reshard_after_forward", "default")
    zero = 0 if shard == 1 else (2 if raf == "never" and
                                  p.get("pipeline_parallel_degree", 1) == 1
                                  else 3)
    pp = p.get("pipeline_parallel_degree", 1)
    return {"dp": rep * max(shard, 1), "tp": p.get("tensor_parallel_degree", 1),
            "pp": pp, "cp": p.get("context_parallel_degree", 1),
            "ep": p.get("expert_parallel_degree", 1), "zero": zero,
            "micro_batch": p["pipeline_parallel_microbatch_size"] if pp > 1
            else tr["local_batch_size"],
            "global_batch": tr["global_batch_size"],
            "seq": tr["seq_len"],
            "recompute": t["activation_checkpoint"]["mode"]}


def layout_deepspeed(text):
    d = json.loads(text)
    tp = d.get("tensor_parallel", {}).get("autotp_size", 1) or 1
    b, m = d["train_micro_batch_size_per_gpu"], d["gradient_accumulation_steps"]
    return {"dp": d["train_batch_size"] // (b * m), "tp": tp,
            "zero": d["zero_optimization"]["stage"], "micro_batch": b,
            "global_batch": d["train_batch_size"]}


PAYLOADS = {"megatron-flags.txt": ("megatron", layout_megatron),
            "job.toml": ("torchtitan", layout_torchtitan),
            "ds_config.json": ("deepspeed", layout_deepspeed)}


def layout_sbatch(text):
    opts = dict(re.findall(r"^#SBATCH --([\w-]+)=?(\S*)$", text, re.M))
    out = {"nodes": int(opts["nodes"]),
           "gpus_per_node": int(opts["gpus-per-node"])}
    m = re.search(r"--nnodes=(\d+) --nproc_per_node=(\d+)", text)
    out["torchrun"] = [int(m.group(1)), int(m.group(2))]
    for name, (kind, reader) in PAYLOADS.items():
        body = heredoc(text, name)
        if body is not None:
            out["framework"] = kind
            out["config"] = reader(body)
    return out


READERS = {"megatron": layout_megatron, "torchtitan": layout_torchtitan,
           "deepspeed": layout_deepspeed, "sbatch": layout_sbatch}


# ---- names against the sources -------------------------------------------

def megatron_parser(src):
    """{'--flag': choices or None, and store_true as 'bool'}."""
    tree = ast.parse(src)
    known = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and
                getattr(node.func, "attr", "") == "add_argument"):
            continue
        names = [a.value for a in node.args
                 if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        kw = {k.arg: k.value for k in node.keywords}
        kind = None
        if "action" in kw and isinstance(kw["action"], ast.Constant) and \
                kw["action"].value in ("store_true", "store_false"):
            kind = "bool"
        elif "choices" in kw and isinstance(kw["choices"], (ast.List, ast.Tuple)):
            kind = [e.value for e in kw["choices"].elts
                    if isinstance(e, ast.Constant)]
        for n in names:
            known[n] = kind
    return known


def check_megatron(text, d, problems):
    known = megatron_parser(open(os.path.join(
        d, "megatron-core_v0.15.3-arguments.py")).read())
    # AttnBackend's choices are enum members: read them from the enum
    attn = {"flash", "fused", "unfused", "local", "auto"}
    for name, values in megatron_flags(text).items():
        kind = known.get("--" + name, "missing")
        if kind == "missing":
            problems.append("megatron: no flag --%s in arguments.py" % name)
        elif kind == "bool" and values:
            problems.append("megatron: --%s takes no value" % name)
        elif isinstance(kind, list) and kind and not all(v in kind for v in values):
            problems.append("megatron: --%s %s not in %s" % (name, values, kind))
        elif name == "attention-backend" and values[0] not in attn:
            problems.append("megatron: --attention-backend %s" % values[0])


def dataclasses_of(src):
    """{class: {field: annotation node}} of a module's classes."""
    out = {}
    for node in ast.parse(src).body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {s.target.id: s.annotation for s in node.body
                              if isinstance(s, ast.AnnAssign) and
                              isinstance(s.target, ast.Name)}
    return out


def literal_choices(ann):
    """The strings of a Literal[...] annotation (or X | None), else None."""
    if isinstance(ann, ast.BinOp):
        return literal_choices(ann.left)
    if isinstance(ann, ast.Subscript) and getattr(ann.value, "id", "") == "Literal":
        elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return [e.value for e in elts if isinstance(e, ast.Constant)]
    return None


def check_torchtitan(text, d, problems):
    classes = dataclasses_of(open(os.path.join(
        d, "torchtitan-v0.2.2-job_config.py")).read())

    def walk(table, cls, path):
        fields = classes.get(cls, {})
        for key, value in table.items():
            if key not in fields:
                problems.append("torchtitan: no %s%s in %s" % (path, key, cls))
                continue
            ann = fields[key]
            if isinstance(value, dict):
                walk(value, getattr(ann, "id", ""), path + key + ".")
                continue
            ch = literal_choices(ann)
            if ch is not None and value not in ch:
                problems.append("torchtitan: %s%s = %r not in %s" %
                                (path, key, value, ch))
    walk(tomllib.loads(text), "JobConfig", "")


def deepspeed_names(d):
    names = {"top": set()}
    for f in sorted(os.listdir(d)):
        if f.startswith("deepspeed-v0.18.9-"):
            src = open(os.path.join(d, f)).read()
            # top-level keys: the constants (BFLOAT16 = "bf16", and
            # ZERO_OPTIMIZATION in zero/config.py) and ds_config['...']
            names["top"] |= set(re.findall(r'^[A-Z0-9_]+ = "([a-z0-9_]+)"$',
                                           src, re.M))
            names["top"] |= set(re.findall(r"ds_config\['(\w+)'\]", src))
    for part, f, cls in (("zero_optimization", "zero-config.py", "DeepSpeedZeroConfig"),
                         ("tensor_parallel", "tensor_parallel-config.py", "TPTrainingConfig"),
                         ("bf16", "precision_config.py", "DeepSpeedBF16Config")):
        src = open(os.path.join(d, "deepspeed-v0.18.9-" + f)).read()
        fields = set(dataclasses_of(src).get(cls, {}))
        fields |= set(re.findall(r'alias="(\w+)"', src))
        names[part] = fields
    return names


def check_deepspeed(text, d, problems):
    names = deepspeed_names(d)
    for key, value in json.loads(text).items():
        if key not in names["top"]:
            problems.append("deepspeed: no top-level key %s" % key)
        if isinstance(value, dict):
            for sub in value:
                if sub not in names.get(key, ()):
                    problems.append("deepspeed: no %s.%s" % (key, sub))


def check_sbatch(text, d, problems):
    for name, (kind, _) in PAYLOADS.items():
        body = heredoc(text, name)
        if body is not None:
            CHECKS[kind](body, d, problems)


CHECKS = {"megatron": check_megatron, "torchtitan": check_torchtitan,
          "deepspeed": check_deepspeed, "sbatch": check_sbatch}


def main(argv):
    if len(argv) < 4 or argv[1] not in ("layout", "names"):
        raise SystemExit(__doc__)
    what, kind, path = argv[1:4]
    text = open(path).read()
    if what == "layout":
        print(json.dumps(READERS[kind](text), sort_keys=True))
        return 0
    problems = []
    CHECKS[kind](text, argv[4], problems)
    for p in problems:
        print(path + ": " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
