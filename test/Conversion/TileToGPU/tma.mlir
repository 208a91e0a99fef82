// RUN: tile-opt %s -canonicalize -tile-pipeline-loops=num-stages=3 -tile-assign-layouts="chip=sm_90a num-warps=4" -tile-async-dot-operands | FileCheck %s --check-prefix=RING
// RUN: tile-translate --tile-to-ptx --chip=sm_90a --num-warps=4 --num-stages=3 %s | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ rm -rf %t && mkdir -p %t %}
// RUN: %if ptxas %{ tile-translate --tile-to-cubin --chip=sm_90a --num-warps=4 --num-stages=3 %s -o %t/tma.cubin %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=FACTS < %t/tma.json %}
// RUN: tile-translate --tile-to-ptx --chip=sm_90 --num-warps=4 --num-stages=3 %s | FileCheck %s --check-prefix=SM90

// Loads that name their box of a tensor map (a host tensor descriptor's:
// python/tile/language/descriptors.py) reach wgmma through rings filled by
// TMA: thread 0 arms the slot's barrier with the slot's bytes and issues
// `cp.async.bulk.tensor` for each 128-byte column block of the slot; every
// thread waits for the slot's phase (flipping each time the ring wraps)
// before the dot, and after the loop for the copies still in flight.
// B = W^T is a transposed load (`x @ w.T`, attention's `k.T`): its box runs
// along the map the other way (map_dims), and its ring stores W's rows.
// RING-LABEL: func.func @tma_loop
// RING-DAG: %[[RA:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x64xf16>>
// RING-DAG: %[[RB:.*]] = tile.ring_alloc : !tile.ring<3, !tile.block<64x128xf16>>
// RING: tile.async_copy %{{.*}}, %[[RA]][%{{.*}}] mask %{{.*}} tensor_map %arg0[%{{.*}}, %{{.*}}] :
// RING: tile.async_copy %{{.*}}, %[[RB]][%{{.*}}] mask %{{.*}} tensor_map %arg1[%{{.*}}, %{{.*}}] {map_dims = array<i64: 1, 0>} :
// RING: scf.for {{.*}} -> ({{.*}}i32, i32, i32, i32, i32, i32) : i32 {
// RING: tile.ring_wait %[[RA]][%[[SA:.*]]], %[[PHASE:[^ ]*]] :
// RING-NEXT: tile.ring_wait %[[RB]][%[[SB:.*]]], %[[PHASE]] :
// RING-NEXT: tile.ring_dot %[[RA]][%[[SA]]], %[[RB]][%[[SB]]]
// RING: tile.async_copy %{{.*}}, %[[RA]][%{{.*}}] mask %{{.*}} tensor_map
// RING: tile.async_copy %{{.*}}, %[[RB]][%{{.*}}] mask %{{.*}} tensor_map
// RING: arith.xori
// RING: scf.yield
// RING: tile.async_wait {pending = 0 : i32}
// RING-COUNT-4: tile.ring_wait

// PTX-LABEL: .entry tma_loop(
// PTX-NEXT: .param .align 64 .b8 tma_loop_param_0[128],
// PTX-NEXT: .param .align 64 .b8 tma_loop_param_1[128],
// PTX-NOT: cp.async.cg
// PTX: cvta.param.u64
// PTX: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}], 1;
// PTX: fence.mbarrier_init.release.cluster;
// PTX: bar.sync 0;
// PTX: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}], 8192;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
// B's slot: W's 128 rows of 64 elements, one 128-byte column block.
// PTX: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}], 16384;
// The slots' barriers order the copies: no cp.async groups to commit or
// wait for.
// PTX-NOT: cp.async.{{commit_group|wait_group}}
// Every thread waits on both slots' barriers; TMA wrote the slots through
// the async proxy the tensor cores read through, so neither a proxy fence
// nor a CTA barrier stands between the waits and the wgmma.
// PTX: mbarrier.try_wait.parity.shared::cta.b64
// PTX: mbarrier.try_wait.parity.shared::cta.b64
// PTX-NOT: {{fence.proxy.async|bar.sync}}
// PTX: wgmma.fence.sync.aligned;
// PTX-NEXT: // end inline asm
// PTX: wgmma.mma_async
// PTX-NOT: cp.async.{{cg|commit_group|wait_group}}

// The launch facts give the launcher each map's box (outermost first),
// swizzle and element size: cuTensorMapEncodeTiled's arguments.
// FACTS: "name": "a_map",
// FACTS-NEXT: "swizzle": 128,
// FACTS-NEXT: "type": "tensormap"
// FACTS: "box": [
// FACTS-NEXT: 128,
// FACTS-NEXT: 64
// FACTS-NEXT: ],
// FACTS-NEXT: "element_bytes": 2,
// FACTS-NEXT: "name": "b_map",
func.func @tma_loop(%amap: !tile.tensor_map loc("a_map"), %bmap: !tile.tensor_map loc("b_map"),
                    %a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %ra = tile.arange 0, 64 : !tile.block<64xi32>
  %rb = tile.arange 0, 128 : !tile.block<128xi32>
  %zero = tile.constant dense<0.0> : !tile.block<64x128xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %zero) -> (!tile.block<64x128xf32>) : i32 {
    %col = arith.muli %k, %c64 : i32
    // A: rows 0..63, columns col..col+63 of a 64 x (64 n) row-major tensor.
    %r0 = tile.expand_dims %ra {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
    %rows = tile.broadcast %r0 : !tile.block<64x1xi32> -> !tile.block<64x64xi32>
    %c0b = tile.expand_dims %ra {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %colsb = tile.broadcast %c0b : !tile.block<1x64xi32> -> !tile.block<64x64xi32>
    %colv = tile.splat %col : i32 -> !tile.block<64x64xi32>
    %cols = tile.addi %colsb, %colv : !tile.block<64x64xi32>
    %width = arith.muli %n, %c64 : i32
    %widthv = tile.splat %width : i32 -> !tile.block<64x64xi32>
    %aoff = tile.muli %rows, %widthv : !tile.block<64x64xi32>
    %aidx = tile.addi %aoff, %cols : !tile.block<64x64xi32>
    %abase = tile.splat %a : !tile.ptr<f16> -> !tile.block<64x64x!tile.ptr<f16>>
    %ap = tile.addptr %abase, %aidx : !tile.block<64x64x!tile.ptr<f16>>, !tile.block<64x64xi32>
    %ain = tile.cmpi slt, %cols, %widthv : !tile.block<64x64xi32>
    %azero = tile.constant dense<0.0> : !tile.block<64x64xf16>
    %va = tile.load %ap mask %ain other %azero tensor_map %amap[%c0, %col] : !tile.block<64x64x!tile.ptr<f16>>
    // B = W^T (`x @ w.T`): W's rows 0..127, columns col..col+63 of a
    // 128 x (64 n) row-major tensor, transposed.
    %w0 = tile.expand_dims %rb {axis = 1 : i32} : !tile.block<128xi32> -> !tile.block<128x1xi32>
    %wrows = tile.broadcast %w0 : !tile.block<128x1xi32> -> !tile.block<128x64xi32>
    %wc0 = tile.expand_dims %ra {axis = 0 : i32} : !tile.block<64xi32> -> !tile.block<1x64xi32>
    %wcolsb = tile.broadcast %wc0 : !tile.block<1x64xi32> -> !tile.block<128x64xi32>
    %wcolv = tile.splat %col : i32 -> !tile.block<128x64xi32>
    %wcols = tile.addi %wcolsb, %wcolv : !tile.block<128x64xi32>
    %wwidth = tile.splat %width : i32 -> !tile.block<128x64xi32>
    %woff = tile.muli %wrows, %wwidth : !tile.block<128x64xi32>
    %widx = tile.addi %woff, %wcols : !tile.block<128x64xi32>
    %wbase = tile.splat %b : !tile.ptr<f16> -> !tile.block<128x64x!tile.ptr<f16>>
    %wp = tile.addptr %wbase, %widx : !tile.block<128x64x!tile.ptr<f16>>, !tile.block<128x64xi32>
    %win = tile.cmpi slt, %wcols, %wwidth : !tile.block<128x64xi32>
    %wzero = tile.constant dense<0.0> : !tile.block<128x64xf16>
    %vw = tile.load %wp mask %win other %wzero tensor_map %bmap[%c0, %col] : !tile.block<128x64x!tile.ptr<f16>>
    %vbb = tile.trans %vw : !tile.block<128x64xf16> -> !tile.block<64x128xf16>
    %d = tile.dot %va, %vbb, %sum : !tile.block<64x64xf16>, !tile.block<64x128xf16> -> !tile.block<64x128xf32>
    scf.yield %d : !tile.block<64x128xf32>
  }
  %rc = tile.arange 0, 8192 : !tile.block<8192xi32>
  %ic = tile.reshape %rc : !tile.block<8192xi32> -> !tile.block<64x128xi32>
  %cb = tile.splat %c : !tile.ptr<f32> -> !tile.block<64x128x!tile.ptr<f32>>
  %cp = tile.addptr %cb, %ic : !tile.block<64x128x!tile.ptr<f32>>, !tile.block<64x128xi32>
  tile.store %cp, %acc : !tile.block<64x128x!tile.ptr<f32>>
  return
}

// A store that names its box: on sm_90a the block (here the accumulator
// layout of a dot, which the layout pass leaves as it is) is staged in
// scratch space as its box's 128-byte column blocks, handed to the async
// proxy, and thread 0 writes them with TMA, waiting until they are read
// before the scratch space is used again. TMA clips what lies outside the
// tensor, as the mask does.
// PTX-LABEL: .entry tma_store(
// PTX-NOT: st.global
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: st.shared.b32
// PTX: fence.proxy.async.shared::cta;
// PTX: bar.sync 0;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// PTX: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;
// PTX-NOT: st.global
// FACTS: "name": "tma_store",
// FACTS: "box": [
// FACTS-NEXT: 64,
// FACTS-NEXT: 64
// FACTS-NEXT: ],
// FACTS-NEXT: "element_bytes": 2,
// FACTS-NEXT: "name": "o_map",
// FACTS-NEXT: "swizzle": 128,
// Without TMA (sm_90's PTX ISA lacks it) the same store is st.global.
// SM90-LABEL: .entry tma_store(
// SM90-NOT: cp.async.bulk
// SM90: st.global
func.func @tma_store(%omap: !tile.tensor_map loc("o_map"),
                     %o: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %row: i32) {
  %ra = tile.arange 0, 64 : !tile.block<64xi32>
  %rb = tile.arange 0, 128 : !tile.block<128xi32>
  %r0 = tile.expand_dims %ra {axis = 1 : i32} : !tile.block<64xi32> -> !tile.block<64x1xi32>
  %rowsb = tile.broadcast %r0 : !tile.block<64x1xi32> -> !tile.block<64x128xi32>
  %rowv = tile.splat %row : i32 -> !tile.block<64x128xi32>
  %rows = tile.addi %rowsb, %rowv : !tile.block<64x128xi32>
  %c0 = tile.expand_dims %rb {axis = 0 : i32} : !tile.block<128xi32> -> !tile.block<1x128xi32>
  %cols = tile.broadcast %c0 : !tile.block<1x128xi32> -> !tile.block<64x128xi32>
  %c128 = tile.constant dense<128> : !tile.block<64x128xi32>
  %off = tile.muli %rows, %c128 : !tile.block<64x128xi32>
  %idx = tile.addi %off, %cols : !tile.block<64x128xi32>
  %base = tile.splat %o : !tile.ptr<f16> -> !tile.block<64x128x!tile.ptr<f16>>
  %ptrs = tile.addptr %base, %idx : !tile.block<64x128x!tile.ptr<f16>>, !tile.block<64x128xi32>
  %mv = tile.splat %m : i32 -> !tile.block<64x128xi32>
  %inside = tile.cmpi slt, %rows, %mv : !tile.block<64x128xi32>
  %a = tile.constant dense<1.0> : !tile.block<64x32xf16>
  %b = tile.constant dense<1.0> : !tile.block<32x128xf16>
  %zero = tile.constant dense<0.0> : !tile.block<64x128xf32>
  %acc = tile.dot %a, %b, %zero : !tile.block<64x32xf16>, !tile.block<32x128xf16> -> !tile.block<64x128xf32>
  %v = tile.cast %acc : !tile.block<64x128xf32> to !tile.block<64x128xf16>
  %c0i = arith.constant 0 : i32
  tile.store %ptrs, %v mask %inside tensor_map %omap[%row, %c0i] : !tile.block<64x128x!tile.ptr<f16>>
  return
}
