"""Random deps.json cases + the reference deps_viewer's outputs, for the ignored
differential test in ../golden_deps_viewer.rs.

Usage: python3 deps_viewer_diff_gen.py OUT_DIR COUNT PATH/TO/deps_viewer.py
(deps_viewer.py from hw-native-sys/simpler simpler_setup/tools; no perf sidecar is written,
so it runs standalone). Then:
DEPS_VIEWER_DIFF_DIR=OUT_DIR cargo test -p pypto-analysis --test golden_deps_viewer -- --ignored
"""
import json, random, os, subprocess, sys
root = sys.argv[1]; count = int(sys.argv[2]); reference = os.path.abspath(sys.argv[3])
MODES = ["full","reduced","omitted","reduced_dataflow","omitted_dataflow"]
def region(rng, numel):
    k = rng.random()
    if k < 0.5:
        ln = rng.choice([numel, numel//2, numel//4, 8])
        off = rng.choice([0, 0, numel - ln, rng.randrange(0, numel - ln + 1)])
        return off, [ln], [1]
    elif k < 0.8:
        rows = rng.choice([2, 4]); cols = rng.choice([2, 4, 8]); rs = rng.choice([cols, cols*2, 16])
        off = rng.choice([0, 1, 4])
        return off, [rows, cols], [rs, 1]
    else:
        n = rng.choice([4, 8, 16]); st = rng.choice([1, 2, 3])
        return rng.choice([0, 1]), [n], [st]
for case in range(count):
    rng = random.Random(case)
    d = os.path.join(root, f"case{case:03d}"); os.makedirs(d, exist_ok=True)
    n = rng.randint(200, 400) if case % 5 == 0 else (rng.randint(3, 14) if case % 2 else rng.randint(10, 60))
    ring1 = rng.random() < 0.3
    tid = lambda i: (1 << 32) + i if ring1 else i
    allocs = [(1 << 32) + 1000 + a for a in range(rng.randint(0, 3))]
    bufs = []
    for b in range(rng.randint(1, 4)):
        owner = rng.choice(allocs) if allocs and rng.random() < 0.7 else None
        dt = "FLOAT32" if rng.random() < 0.9 else rng.choice(["FLOAT16", "FP8E4M3FN", "int32"])
        bufs.append({"addr": 4096 * (b + 1) * 64, "numel": 64, "dtype": dt, "owner": owner, "writers": [], "tid": str(1000 + b)})
    tasks, edges = [], []
    for i in range(n):
        t = tid(i)
        kid = [-1, rng.choice([-1, 0, 1, 2]), -1] if rng.random() < 0.9 else [-1, -1, -1]
        task = {"task_id": str(t), "scope": "auto", "early_dispatch": rng.random() < 0.2, "kernel_ids": kid, "block_num": rng.choice([1, 1, 1, 4]), "args": []}
        rows = []
        for a in range(rng.randint(1, 3)):
            b = rng.choice(bufs)
            typ = rng.choice(["INPUT", "INOUT", "INOUT", "OUTPUT_EXISTING"])
            off, shape, strides = region(rng, b["numel"])
            adt = b["dtype"] if rng.random() < 0.95 else "FLOAT16"
            task["args"].append({"idx": a, "type": typ, "tensor_id": b["tid"], "dtype": adt, "shape": shape, "start_offset": str(off), "strides": strides})
            cons = {"tensor_id": b["tid"], "consumer_dtype": adt, "consumer_shape": shape, "consumer_start_offset": str(off), "consumer_strides": strides}
            if rng.random() < 0.1:
                del cons["consumer_shape"]; del cons["consumer_strides"]
            if b["owner"] is None and b["writers"] is not None and rng.random() < 0.3 and i > 0:
                b["owner"] = tid(rng.randrange(0, i))
            if b["owner"] is not None and b["owner"] != t:
                rows.append(dict(pred=str(b["owner"]), succ=str(t), arg=a, source="creator", flags=["wait","retain"], **cons))
            for (w, woff, wshape, wstrides) in b["writers"][-rng.randint(1, 3):]:
                if w == t: continue
                r = dict(pred=str(w), succ=str(t), arg=a, source="tensormap", flags=["wait"], overlap="covered", **cons)
                r.update(producer_shape=wshape, producer_start_offset=str(woff), producer_strides=wstrides)
                rows.append(r)
            if typ in ("INOUT", "OUTPUT_EXISTING"):
                b["writers"].append((t, off, shape, strides))
        if i > 0 and rng.random() < 0.3:
            rows.append({"pred": str(tid(rng.randrange(0, i))), "succ": str(t), "arg": -1, "source": "explicit", "flags": ["wait","retain"]})
        if i > 1 and rng.random() < 0.15:
            rows.append({"pred": str(tid(i - 2)), "succ": str(t), "arg": -1, "source": "explicit"})
        tasks.append(task); edges.extend(rows)
    if case % 5 == 0:
        for h in range(3):
            hub = rng.randrange(0, n // 2)
            for _ in range(rng.randint(5, 30)):
                edges.append({"pred": str(tid(hub)), "succ": str(tid(rng.randrange(hub + 1, n))), "arg": -1, "source": rng.choice(["explicit", "tensormap", "creator"])})
        for _ in range(n):
            a = rng.randrange(0, n - 1); b = rng.randrange(a + 1, min(n, a + rng.choice([3, 10, 100])))
            edges.append({"pred": str(tid(a)), "succ": str(tid(b)), "arg": -1, "source": "explicit"})
    if case % 25 == 24 and n > 2:
        edges.append({"pred": str(tid(n - 1)), "succ": str(tid(0)), "arg": -1, "source": "explicit"})
    tensors = [{"tensor_id": b["tid"], "buffer_addr": str(b["addr"]), "version": 0, "dtype": b["dtype"], "buffer_numel": str(b["numel"])} for b in bufs]
    with open(os.path.join(d, "deps.json"), "w") as f:
        json.dump({"tasks": tasks, "tensors": tensors, "edges": edges}, f)
    for m in MODES:
        r = subprocess.run([sys.executable, reference, "deps.json", "--edge-mode", m, "-o", f"out_{m}.txt"], cwd=d, capture_output=True, text=True)
        open(os.path.join(d, f"stdout_{m}.txt"), "w").write(r.stdout)
        open(os.path.join(d, f"stderr_{m}.txt"), "w").write(r.stderr)
        assert r.returncode == 0, r.stderr
