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

    Kernels are marked with `tile.num_warps`. Running the pass again gives
    the same result. Example: with `num-warps=4`, a 1024-element f32 vector
    add through 16-byte aligned pointers gets
    `#tile.blocked<size_per_thread = [4], threads_per_warp = [32],
    warps = [4], order = [0]>`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "Warps (of 32 threads) per program instance">
  ];
  let dependentDialects = [];
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

#endif // TILE_TRANSFORMS_PASSES_TD
