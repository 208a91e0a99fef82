//===- Passes.td - tile dialect passes ---------------------*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Give every block value a distributed layout";
  let description = [{
    Attaches a `#tile.blocked<vector = V, warps = W>` encoding to the type of
    every block value of every kernel. Values that must share a layout
    (operands and results of elementwise ops, loads, stores, `expand_dims`,
    `reshape`, and values carried through `scf` ops) form one group; each
    group takes the widest vector width `V` that the loads and stores in it
    can use, as an analysis of their addresses (contiguity, divisibility,
    constancy of masks) allows, so that contiguous aligned f32 accesses
    become 128-bit. Kernels are marked with `tile.num_warps`.

    Example: with `num-warps=4`, a 1024-element f32 vector add through
    16-byte aligned pointers gets `#tile.blocked<vector = 4, warps = 4>`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "Warps (of 32 threads) per program instance">
  ];
  let dependentDialects = [];
}

#endif // TILE_TRANSFORMS_PASSES_TD
