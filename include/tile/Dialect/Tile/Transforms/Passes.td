//===- Passes.td - tile dialect passes ---------------------*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Give every block value a distributed layout";
  let description = [{
    Attaches a distributed layout (`#tile.blocked`, `#tile.slice` or
    `#tile.linear`) to the type of every block value of every kernel, and
    inserts `tile.convert_layout` where a value must move between layouts:

    1. Anchors: each load and store through a block of pointers has a
       coalesced layout, the dimension with contiguous addresses fastest and
       as many consecutive elements per thread as a 16-byte access can move
       (from an analysis of the addresses' contiguity and alignment and the
       mask's constancy).
    2. Wanted layouts flow backwards from the uses: a store wants its value
       in its coalesced layout; elementwise ops pass it to their operands,
       shape ops pass its preimage (a slice for `expand_dims`), loops and
       ifs through their carried values.
    3. Layouts flow forwards: a load takes the wanted layout when that costs
       it no vector width; elementwise ops take their operands' layout;
       reductions give the slice of their operand's layout; `expand_dims`,
       `broadcast` and `trans` carry their operand's layout over, moving no
       element; a loop-carried value takes the layout its body produces; a
       store keeps its value's layout unless its own allows wider accesses.
    4. A conversion goes right after the definition of the value it moves,
       so a value defined outside a loop is converted once. Index functions
       (aranges, splats, constants and arithmetic on them) are cloned into
       each layout their uses need: they cost nothing in any layout.

    A `tile.dot` whose operands and shapes suit the target's tensor cores
    gets the accumulator layout of their instructions (`#tile.mma`; wgmma
    on `chip=sm_90a` for f16/bf16 operands), which its loop-carried
    accumulator and its users then follow; other dots run on FMA in a
    blocked layout.

    Kernels are marked with `tile.num_warps`. Running the pass again gives
    the same result. Example: with `num-warps=4`, a 1024-element f32 vector
    add through 16-byte aligned pointers gets
    `#tile.blocked<size_per_thread = [4], threads_per_warp = [32],
    warps = [4], order = [0]>`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "Warps (of 32 threads) per program instance">,
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "Target GPU: tensor-core layouts for the instructions it has "
           "(wgmma on sm_90a)">
  ];
  let dependentDialects = [];
}

def TileLaunchTensorMaps : Pass<"tile-launch-tensor-maps", "ModuleOp"> {
  let summary = "Make the tensor maps a kernel describes kernel parameters";
  let description = [{
    A `tile.make_tensor_map` in a kernel (from `tl.make_tensor_descriptor`
    or `tl.make_block_ptr`) whose base is a pointer argument and whose
    extents and strides are products of integer arguments and constants
    becomes a new `!tile.tensor_map` argument at the end of the kernel's,
    with a `tile.tensor_map_recipe` saying how the launcher encodes it from
    the launch's arguments (as it encodes a host descriptor's map): no
    device code makes the map, so the TMA copies that read it cost nothing
    more than a host descriptor's. TMA's alignment needs must follow from
    the arguments' divisibility (the specialization): the base a multiple of
    16 bytes, every stride but the last a multiple of 16 bytes, the last
    stride 1. Where any of that does not hold, or the chip has no TMA, the
    loads and stores that name boxes of the map drop them and keep their
    pointers (masked loads and stores, the same values).

    ```mlir
    func.func @k(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32) {
      %map = tile.make_tensor_map %a[%m, %c64], [%c64_i64, %c1_i64] : !tile.ptr<f16>
      ...
    // becomes
    func.func @k(%a: ..., %m: i32, %map: !tile.tensor_map {tile.tensor_map_recipe =
        {base = 0, name = "a.tensor_map", shape = [[1, array<i64: 1>],
         [64, array<i64>]], strides = [[64, array<i64>], [1, array<i64>]]}})
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"",
           "Target GPU: only sm_90a has TMA">,
  ];
}

def TileHoistLoopReductions : Pass<"tile-hoist-loop-reductions", "ModuleOp"> {
  let summary = "Accumulate in threads inside loops, reduce once after them";
  let description = [{
    Rewrites a loop-carried accumulator fed by a reduction,
    `acc = acc + tl.sum(x, axis)` (also max and min), into an accumulator of
    `x` itself and one reduction after the loop. The loop body then has no
    shuffles, no shared memory and no barriers: each thread combines its own
    elements, as Triton's thread-locality optimization does. The result is
    the same combination, reassociated (as any parallel reduction is).

    ```mlir
    %r = scf.for %i = %lb to %ub step %s iter_args(%a = %init) -> (T) {
      %x = ...
      %s = tile.reduce sum %x {axis = 0 : i32} : !tile.block<64x64xf32> -> T
      %n = tile.addf %a, %s : T
      scf.yield %n : T
    }
    ```
    becomes a loop carrying `!tile.block<64x64xf32>` (starting at -0.0),
    then `tile.addf %init, (tile.reduce sum ...)`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TileOffsetLoopPointers : Pass<"tile-offset-loop-pointers", "ModuleOp"> {
  let summary = "Carry one offset through loops instead of a block of pointers";
  let description = [{
    A block of pointers carried through an `scf.for` that starts as an index
    function (computed from aranges, splats and constants defined before the
    loop) and moves by the same scalar at every element each iteration, as
    Triton tutorial 03's `a_ptrs += BLOCK_SIZE_K * stride_ak` (a runtime
    scalar or a compile-time constant; several steps in a row, as an
    unrolled loop's copies make, move it by their sum), becomes one
    64-bit scalar offset carried through the loop; the pointers are the
    initial block moved by the offset, recomputed where they are used. A
    carried 128x64 block of pointers costs 64 registers per thread; the
    offset costs two, and the initial block is an index function, which
    takes no registers of its own.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def TileUnrollLoops : Pass<"tile-unroll-loops", "ModuleOp"> {
  let summary = "Unroll the loops that ask for it by their factor";
  let description = [{
    Triton's `tl.range(..., loop_unroll_factor=n)`: an `scf.for` with a
    `tile.loop_unroll_factor = n` attribute runs `n` copies of its body per
    iteration (the induction variable advancing one step per copy), and a
    remainder loop runs the trips left over when `n` does not divide the
    trip count. The remainder loop is not software-pipelined (it gets
    `tile.num_stages = 1`, as in Triton), and neither loop keeps the factor.

    ```mlir
    scf.for %i = %lb to %ub step %c1 iter_args(%s = %zero) -> (f32) : i32 {
      ...
    } {tile.loop_unroll_factor = 2 : i32}
    // becomes a loop of step 2 whose body holds two copies, and a remainder
    // loop from the main loop's end to %ub {tile.num_stages = 1 : i32}
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "ModuleOp"> {
  let summary = "Issue the loads of later iterations while a loop computes";
  let description = [{
    Software pipelining of the loads that feed `tile.dot` in an innermost
    `scf.for`, with Triton's meaning of `num_stages`: while iteration `i`
    computes, the loads of iterations up to `i + num-stages - 1` are in
    flight, their results carried through the loop in registers. The loads
    that reach a dot, and what they depend on in the body (the pointer
    arithmetic, the offsets carried through the loop), form the first stage;
    the rest of the body the last. Iterations past the end are predicated:
    their loads are masked off. A loop whose loads depend on its results (an
    accumulator read by address arithmetic) is left as it is. A loop's own
    `tile.num_stages` attribute (Triton's `tl.range(..., num_stages=)`)
    overrides the option for that loop; 1 leaves it as it is. With
    `row-statistics`, a loop whose dots multiply f16 or bf16 also takes to
    the first stage the rank-1 loads of 32-bit elements that meet a product
    (attention backward's `m` and `Di` in `exp2(qk - m[None, :])`), which
    `tile-async-dot-operands` then carries in shared-memory rings; other
    loads that meet a product stay in their iteration, where their latency
    overlaps the product they wait for.

    ```mlir
    scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init, %off = %c0_i64) {
      %a = tile.load %pa ...      // stage 0: iteration k + 2 with 3 stages
      %d = tile.dot %a, %b, %acc  // stage 2: iteration k
      ...
    }
    ```
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Iterations in flight; below 2 the loops stay as they are">,
    Option<"rowStatistics", "row-statistics", "bool", /*default=*/"true",
           "Pipeline the row statistics that meet a product in loops of "
           "16-bit float dots (for shared-memory rings)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def TileAsyncDotOperands : Pass<"tile-async-dot-operands", "ModuleOp"> {
  let summary = "Copy a pipelined loop's tensor-core operands into shared-memory rings";
  let description = [{
    After `tile-pipeline-loops` and layout assignment: in a loop whose
    `tile.dot` has a `#tile.mma` layout (version 3, wgmma, or version 2,
    mma.sync, which reads both operands from rings and takes no 8-bit
    floats or tensor-map copies this way) and whose operands
    are loads of earlier iterations carried through `iter_args`, the loads
    become `tile.async_copy` ops into a ring of `num_stages` slots per
    operand (the prologue's into slots 0 .. num_stages - 2, the body's into
    the slot a carried counter names), and the dot a `tile.ring_dot`
    of the slots its iteration's copies filled. The operands then go from
    global to shared memory without registers: the body carries slot
    indices, not blocks. An A loaded before the loop (attention's q), whose
    every use is the A of such dots, is copied once into a ring of one slot
    that every iteration's wgmma reads (rather than held in registers
    through the loop). A dot whose A is already in wgmma's register form
    (`isWarpGroupRegisterOperand`: attention's p, the previous dot's result)
    keeps A in registers and gets a ring for B alone (wgmma only). Row
    statistics carried the same way (rank-1 loads of 32-bit elements that
    `tile-pipeline-loops` took to the first stage: attention backward's `m`
    and `Di`), first read after the loop's first dot, get rank-1 rings too,
    and the body reads its slot with `tile.ring_load` where it first reads
    the row, in the layout its reader wanted (a slice of the product's).
    Each copy is a commit group; before the dot,
    `tile.async_wait` leaves the groups of the num_stages - 2 later
    iterations in flight; after the loop, it waits for all. Where an
    operand's copies would go through registers (runs of fewer than 4
    bytes) into a wgmma ring of three or more slots, its block is read an
    iteration ahead instead: the prologue's last load and the body's stay
    `tile.load`s carried in an `iter_arg`, and the next iteration stores the
    carried block with `tile.ring_store` into the slot before its copies'
    (an empty commit group in the copy's place), so that the reads' latency
    hides behind a dot.

    ```mlir
    %ra = tile.ring_alloc : !tile.ring<3, !tile.block<128x64xf16>>
    tile.async_copy %pa0, %ra[%c0] mask %m0 : ...   // iteration 0
    tile.async_commit_group
    ...
    scf.for ... iter_args(%acc = %init, %sa = %c0, %sa1 = %c1, %next = %c2) {
      tile.async_wait {pending = 2 : i32}
      %d = tile.ring_dot %ra[%sa], %rb[%sb], %acc : ...
      tile.async_copy %pa, %ra[%next] mask %m : ...  // iteration k + 2
      tile.async_commit_group
      ...
    }
    tile.async_wait {pending = 0 : i32}
    ```
    Loops that do not have this form are left as they are.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

#endif // TILE_TRANSFORMS_PASSES_TD
