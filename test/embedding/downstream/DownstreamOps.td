//===- DownstreamOps.td - a downstream op on tile types ----*- tablegen -*-===//
//
// Uses tile's installed ODS: the !tile.block type definition is a type
// constraint here exactly as in tile's own ops.
//
//===----------------------------------------------------------------------===//

#ifndef DOWNSTREAM_OPS_TD
#define DOWNSTREAM_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tile/Dialect/Tile/IR/TileTypes.td"

def Downstream_Dialect : Dialect {
  let name = "downstream";
  let cppNamespace = "::downstream";
}

def Downstream_NumElementsOp
    : Op<Downstream_Dialect, "num_elements", [Pure]> {
  let summary = "The number of elements of a tile block";
  let arguments = (ins Tile_BlockType:$block);
  let results = (outs Index:$result);
  let assemblyFormat = "$block attr-dict `:` qualified(type($block))";
}

#endif // DOWNSTREAM_OPS_TD
