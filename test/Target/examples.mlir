// Every example kernel compiles to PTX that ptxas accepts for sm_90, and to
// a cubin with its JSON launch facts.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in %tile_src_root/examples/*.mlir; do tile-translate --tile-to-ptx $f -o %t/$(basename $f .mlir).ptx || exit 1; done
// RUN: %if ptxas %{ for f in %t/*.ptx; do %ptxas -arch=sm_90 $f -o $f.cubin || exit 1; done %}
// RUN: %if ptxas %{ tile-translate --tile-to-cubin %tile_src_root/examples/softmax.mlir -o %t/softmax.cubin %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=JSON < %t/softmax.json %}
// RUN: ls %t | FileCheck %s --check-prefix=FILES

// JSON: "chip": "sm_90"
// JSON: "name": "softmax"
// JSON: "num_warps": 4
// JSON: "params": [
// JSON: "pointee": "f32"
// JSON: "type": "ptr"
// JSON: "type": "i32"
// JSON: "shared_bytes": {{[0-9]+}}
// JSON: "threads": 128

// FILES-DAG: cumsum.ptx
// FILES-DAG: dot.ptx
// FILES-DAG: matmul_naive.ptx
// FILES-DAG: matrix_add_16x32.ptx
// FILES-DAG: matrix_add_24x40.ptx
// FILES-DAG: rank3.ptx
// FILES-DAG: reduce_2d.ptx
// FILES-DAG: softmax.ptx
// FILES-DAG: vector_add.ptx
