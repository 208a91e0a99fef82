#!/usr/bin/env bash
# Build gpu/tests/ref_kernels.cu into one cubin per example in DIR (default
# gpu/tests/ref_artifacts), with the JSON sidecars tile-translate would write.
set -euo pipefail
cd "$(dirname "$0")"
DIR="${1:-ref_artifacts}"
mkdir -p "$DIR"
nvcc -cubin -arch=sm_90 -O2 -o "$DIR/ref_kernels.cubin" ref_kernels.cu
python3 - "$DIR" <<'PY'
import json, shutil, sys
from pathlib import Path
d = Path(sys.argv[1])
P = lambda n, t="f32": {"name": n, "type": "ptr", "pointee": t}
I = lambda n: {"name": n, "type": "i32"}
sigs = {
    "vector_add": ("add_kernel", [P("x"), P("y"), P("out"), I("n")]),
    "matrix_add_16x32": ("matrix_add_16x32", [P("x"), P("y"), P("out")] + [I(n) for n in "M N sx sy so".split()]),
    "matrix_add_24x40": ("matrix_add_24x40", [P("x"), P("y"), P("out")] + [I(n) for n in "M N sx sy so".split()]),
    "matmul_naive": ("matmul_naive", [P("a"), P("b"), P("c")] + [I(n) for n in "M N sam sbk scm".split()]),
    "softmax": ("softmax", [P("out"), P("x"), I("so"), I("sx"), I("n")]),
    "cumsum": ("cumsum", [P("out"), P("x"), I("so"), I("sx"), I("n")]),
    "reduce_2d": ("reduce_2d", [P(n) for n in "x s0 mx0 mn0 s1 mx1 mn1".split()] + [I("M"), I("N"), I("sx")]),
    "rank3": ("rank3", [P("x"), P("y"), P("r"), I("A"), I("B"), I("C")]),
    "dot": ("dot", [P("a", "f16"), P("b", "f16"), P("c")] + [I(n) for n in "M N K sam sbk scm".split()]),
}
for stem, (name, params) in sigs.items():
    shutil.copy(d / "ref_kernels.cubin", d / f"{stem}.cubin")
    meta = {"chip": "sm_90", "kernels": [{"name": name, "num_warps": 4, "threads": 128,
                                          "shared_bytes": 0, "params": params}]}
    (d / f"{stem}.json").write_text(json.dumps(meta))
(d / "ref_kernels.cubin").unlink()
PY
echo "wrote $(ls "$DIR"/*.cubin | wc -l) cubins to $DIR"
